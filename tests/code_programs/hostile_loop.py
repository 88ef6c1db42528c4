"""A hostile program: an endless loop that ignores the CPU limit's signal and every exception. In the
sandbox the wall clock kills it (and its whole sandbox) all the same."""

import signal


def search(problem):
    for name in ("SIGXCPU", "SIGTERM", "SIGINT", "SIGALRM"):
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    while True:
        try:
            while True:
                pass
        except BaseException:  # the point: it will not stop by itself
            pass
