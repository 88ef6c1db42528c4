"""A hostile program: it reads the environment (secrets, MAZE_* settings) and raises what it found. In
the sandbox the environment holds only what Python needs."""

import os


def search(problem):
    raise LookupError("environment: " + ", ".join(f"{k}={v}" for k, v in sorted(os.environ.items())))
