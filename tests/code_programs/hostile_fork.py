"""A hostile program: a fork bomb whose every process forks again and spins. In the sandbox the job's
pids cgroup (or RLIMIT_NPROC) caps the processes and the wall clock kills the whole pid namespace."""

import contextlib
import os


def search(problem):
    while True:
        with contextlib.suppress(OSError):  # at the cap: try again
            os.fork()
