"""A hostile program: it writes to the process's own standard error without end, past the harness's
printing limit. In the sandbox the output limit kills it."""

import os


def search(problem):
    chunk = b"flood " * 10_000
    while True:
        os.write(2, chunk)
