"""Every family's memory estimates hold its measured peaks on growing inputs (issue 28).

The server reserves what work will take before it starts (``Family.load_bytes``, ``search_bytes`` +
``trace_estimate``, ``Lab.space_bytes``) and refuses in words what cannot fit; an estimate below the truth
lets one student's small file take the worker down. Each case is measured in a process of its own
(``tests/memory_probe.py``: the growth of the resident high-water mark, numba's allocations included)
and must stay within the estimate; where the work fills what the estimate counts (a compiled search
over every cell, a search stopped by its stored-state limit) the estimate must also be no more than
``LOOSE`` times the peak. A family without cases here fails ``test_every_family_is_measured``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

from server.puzzles.registry import FAMILIES
from tests.memory_probe import make_file

ROOT = Path(__file__).resolve().parent.parent
SLACK = 12 * 1024 * 1024  # the interpreter's own noise: arenas, caches, a thread's stack
LOOSE = 4  # an estimate may be this many times the peak (plus SLACK) where the work fills it


class Case(NamedTuple):
    kind: str  # the family's generator
    size: int  # rows and cols given to it
    what: str  # load, search or lab
    algorithm: str = "-"
    max_stored: int | None = None
    tight: bool = False  # the work fills what the estimate counts: check it is not far above


CASES: dict[str, list[Case]] = {
    "grid": [
        Case("perfect", 200, "search", "bfs", tight=True), Case("perfect", 500, "search", "bfs", tight=True),
        Case("perfect", 500, "search", "astar", tight=True),
        Case("perfect", 500, "search", "dfs", tight=True),
        Case("perfect", 200, "load", tight=True), Case("perfect", 500, "load", tight=True),
        Case("perfect", 300, "lab"),
    ],
    "step": [
        Case("step", 60, "search", "bfs"), Case("step", 120, "search", "bfs"), Case("step", 120, "load"),
        Case("step", 120, "lab"),
    ],
    "zenji": [
        Case("zenji-downhill", 8, "search", "dijkstra"), Case("zenji-downhill", 16, "search", "dijkstra"),
        Case("zenji-free", 6, "search", "dijkstra", 500), Case("zenji-free", 8, "search", "dijkstra", 500),
        Case("zenji-downhill", 16, "lab"), Case("zenji-downhill", 16, "load"),
    ],
    "sliding": [
        Case("sliding-random", 3, "search", "bfs", tight=True),
        Case("sliding-random", 4, "search", "astar", 20_000, tight=True),
        Case("sliding-random", 4, "search", "bfs", 80_000, tight=True),
        Case("sliding-random", 5, "search", "bfs", 80_000, tight=True),
        Case("sliding-random", 4, "load"), Case("sliding-random", 3, "lab"),
    ],
    "labyrinth": [
        Case("labyrinth-course", 7, "search", "bfs", 2_000),
        Case("labyrinth-course", 9, "search", "bfs", 8_000),
        Case("labyrinth-course", 9, "load"), Case("labyrinth-course", 7, "lab", max_stored=5_000),
    ],
}


def test_every_family_is_measured() -> None:
    assert set(CASES) == set(FAMILIES), "each registered family needs memory cases here"
    for name, cases in CASES.items():
        assert {"load", "search", "lab"} <= {c.what for c in cases} or FAMILIES[name].lab is None, name


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[tuple[str, str, int], Path]:
    folder = tmp_path_factory.mktemp("memory")
    made = {}
    for family, cases in CASES.items():
        for case in cases:
            for size in (case.size, min(case.size, 4 if family != "sliding" else 3)):
                key = (family, case.kind, size)
                if key not in made:
                    made[key] = make_file(family, case.kind, size, size, folder)
    return made


@pytest.mark.parametrize(
    ("family", "case"), [(f, c) for f, cases in CASES.items() for c in cases],
    ids=lambda v: v if isinstance(v, str) else f"{v.kind}-{v.size}-{v.what}-{v.algorithm}-{v.max_stored}",
)
def test_the_estimate_holds_the_peak(family: str, case: Case, files) -> None:
    small = files[(family, case.kind, min(case.size, 4 if family != "sliding" else 3))]
    command = [sys.executable, "-m", "tests.memory_probe", family, str(files[(family, case.kind, case.size)]),
               str(small), case.what, case.algorithm, str(case.max_stored or "-")]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    peak, estimate = found["peak"], found["estimate"]
    shown = f"{family} {case}: peak {peak / 1e6:.1f} MB, estimate {estimate / 1e6:.1f} MB ({found})"
    assert peak <= estimate + SLACK, "under-estimated: " + shown
    if case.tight:
        assert estimate <= LOOSE * peak + SLACK, "far above the peak: " + shown
