#!/usr/bin/env python3
"""The command line in a checkout: ``python run.py [serve|solve|compare|generate|check|heuristic|grade|
grader] ...``. The code is ``server/cli.py`` (installed, the same ``main`` is the ``mazeviz`` command);
this file keeps ``python run.py`` and ``import run`` (``run.main``, ``run.build_parser``,
``run.parse_args``) working."""

from __future__ import annotations

import contextlib
import os
import sys

from server.cli import build_parser, main, parse_args

__all__ = ["build_parser", "main", "parse_args"]

if __name__ == "__main__":
    status = main()
    # Everything is written and flushed: skip the interpreter's teardown, which after a big solve
    # (numba's finalizers, freeing hundreds of MB of maze) took 0.3-0.4 s, a quarter of the run.
    with contextlib.suppress(BrokenPipeError):
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(status)
