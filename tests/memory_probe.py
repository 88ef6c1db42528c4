"""Measure one piece of work's peak memory against its family's estimate, in a process of its own.

``python -m tests.memory_probe FAMILY FILE SMALL_FILE WHAT [ALGORITHM] [MAX_STORED]`` reads the puzzle
file ``FILE`` of ``FAMILY`` and measures ``WHAT`` — ``load`` (parsing it), ``search`` (a recorded search,
as the server runs it) or ``lab`` (judging a heuristic formula) — and prints one JSON line:
``{"estimate": bytes, "peak": bytes, ...}``. The peak is the growth of the process's resident memory
high-water mark (``VmHWM``, reset through ``/proc/self/clear_refs`` after a warm-up on ``SMALL_FILE``, so
compiled kernels and lazy imports are not counted, and after ``malloc_trim``, so memory freed before is
not silently reused): numba's and numpy's allocations included, which ``tracemalloc`` misses. The
test makes the files with each family's own generator (``make_file``)."""

from __future__ import annotations

import contextlib
import ctypes
import gc
import json
import sys
from pathlib import Path
from typing import Any


def status(field: str) -> int:
    """A field of this process's /proc status, in bytes (VmRSS, VmHWM)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise KeyError(field)


def reset_peak() -> int:
    """Reset the high-water mark to the current resident size; returns that size."""
    gc.collect()
    with contextlib.suppress(OSError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)  # give freed heap back, so the work's growth shows in RSS
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")
    return status("VmRSS")


def make_file(family_name: str, kind: str, rows: int, cols: int, folder: Path, seed: int = 1) -> Path:
    """A puzzle of the family's generator ``kind``, saved in its default format into ``folder``."""
    from server.puzzles.registry import get_family

    family = get_family(family_name)
    generator = family.maker.generator(kind)
    values = generator.check({"rows": rows, "cols": cols, "seed": seed})
    puzzle = family.maker.generate(generator.name, values).puzzle
    fmt = family.saver.default_format(puzzle)
    path = folder / f"{family_name}-{kind}-{rows}x{cols}.{fmt}"
    path.write_bytes(family.saver.save(puzzle, fmt))
    return path


def measure(family_name: str, file: Path, small_file: Path, what: str,
            algorithm: str | None = None, max_stored: int | None = None) -> dict[str, Any]:
    from server.judging import rule_options
    from server.puzzles.family import LoadLimits
    from server.puzzles.registry import get_family

    family = get_family(family_name)
    algorithm = algorithm or family.default_algorithm
    options = family.load_options({})
    told: list[int] = []
    limits = LoadLimits(max_pixels=10**9, max_cells=10**9, memory=told.append)
    data = file.read_bytes()
    warm = family.load(small_file.read_bytes(), small_file.name, options, LoadLimits(max_pixels=10**9))
    run_options = family.run_options({})
    extra: dict[str, Any] = {}
    if what == "load":
        family.load(data, file.name, options, LoadLimits(max_pixels=10**9, max_cells=10**9))  # warm up
        base = reset_peak()
        loaded = family.load(data, file.name, options, limits)
        peak = status("VmHWM") - base
        estimate = family.load_bytes(data, file.name, options) + sum(told)
        del loaded
    else:
        puzzle = family.load(data, file.name, options, LoadLimits(max_pixels=10**9, max_cells=10**9))
    if what == "search":
        from server.solving import solve

        def run(board: Any, engine: str = "auto") -> Any:
            return solve(board, algorithm, run_options, record_trace=True, max_expanded=50_000_000,
                         max_seconds=300, max_stored=max_stored, engine=engine)

        run(warm, "compiled")  # loads the kernels even though "auto" runs a board this small generic
        base = reset_peak()
        solved = run(puzzle)
        peak = status("VmHWM") - base
        estimate = family.search_bytes(puzzle, algorithm, run_options, max_stored)
        estimate += family.trace_estimate(puzzle)
        extra = {"expanded": solved.json.get("expanded"), "stopped": solved.json.get("stopped")}
        del solved
    elif what == "lab":
        from server.judging import judge_formula

        formula = " + ".join(name for name, _ in family.lab.features[:2])
        rules = rule_options(family, {})
        states = max_stored or 1_000_000

        def judge(board: Any) -> Any:
            return judge_formula(board, formula, rules, max_states=states, max_seconds=300)

        judge(warm)
        base = reset_peak()
        verdict = judge(puzzle)
        peak = status("VmHWM") - base
        estimate = family.lab.space_bytes(puzzle, states)
        extra = {"states": verdict.to_json().get("states")}
        del verdict
    elif what != "load":
        raise SystemExit(f"unknown measure {what!r}")
    return {"family": family_name, "what": what, "file": file.name, "algorithm": algorithm,
            "estimate": int(estimate), "peak": int(peak), "file_bytes": len(data), **extra}


if __name__ == "__main__":
    args = sys.argv[1:]
    algorithm = args[4] if len(args) > 4 and args[4] != "-" else None
    stored = int(args[5]) if len(args) > 5 and args[5] != "-" else None
    print(json.dumps(measure(args[0], Path(args[1]), Path(args[2]), args[3], algorithm, stored)))
