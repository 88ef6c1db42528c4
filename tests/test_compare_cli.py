"""``run.py compare``: several algorithms on one puzzle, as a user runs it, and the table's rules."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from server.comparing import COLUMNS, mark_optimal, parse_run_spec, summary_row
from server.puzzles.errors import PuzzleError
from tests.helpers import run_cli as cli

NUMBERS = ("cost", "moves", "expanded", "generated", "max_frontier")


def _csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def _same_figures(json_rows: list[dict], csv_rows: list[dict[str, str]]) -> None:
    assert len(json_rows) == len(csv_rows)
    for j, c in zip(json_rows, csv_rows, strict=True):
        assert c["algorithm"] == j["algorithm"]
        for key in NUMBERS:
            assert c[key] == ("" if j[key] is None else str(j[key])), key
        for key in ("found", "optimal_guaranteed", "optimal_achieved"):
            assert c[key] == str(j[key]), key


def test_maze3_bfs_astar_dfs(shared_cases: Path) -> None:
    maze = str(shared_cases / "images/lee/maze3.png")
    done = cli("compare", maze, "--algorithms", "bfs,astar,dfs", "--json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert [list(row) for row in rows] == [list(COLUMNS)] * 3
    bfs, astar, dfs = rows
    assert (bfs["cost"], astar["cost"]) == (52, 52) and dfs["cost"] >= 52
    assert bfs["optimal_guaranteed"] and bfs["optimal_achieved"] and astar["optimal_achieved"]
    assert dfs["optimal_guaranteed"] is False and dfs["optimal_achieved"] is (dfs["cost"] == 52)
    assert bfs["moves"] == 52
    as_csv = cli("compare", maze, "--algorithms", "bfs,astar,dfs", "--csv")
    _same_figures(rows, _csv_rows(as_csv.stdout))
    table = cli("compare", maze, "--algorithms", "bfs,astar,dfs")
    lines = table.stdout.splitlines()
    assert lines[0].startswith("maze3.png") and "NO" in lines[-1] and len(lines) == 5


def test_puzzle6_bfs_astar_seed_greedy(shared_cases: Path) -> None:
    board = str(shared_cases / "labyrinth/Puzzle_6.csv")
    flags = ("--start-col", "1", "--goal-col", "2", "--moves", "combined")
    done = cli("compare", board, "--algorithms", "bfs,astar,seed-greedy", *flags, "--json")
    assert done.returncode == 0, done.stderr
    bfs, astar, greedy = json.loads(done.stdout)
    assert (bfs["cost"], astar["cost"]) == (3, 3)
    assert greedy["optimal_guaranteed"] is False and greedy["optimal_achieved"] is (greedy["cost"] == 3)
    _same_figures(json.loads(done.stdout), _csv_rows(cli("compare", board, "--algorithms",
                                                          "bfs,astar,seed-greedy", *flags, "--csv").stdout))


def test_per_run_options_and_refusals() -> None:
    done = cli("compare", "mazes/zenji-seed-001.txt", "--algorithms",
               "dijkstra,astar:heuristic=distance,astar:heuristic=seed", "--json")
    rows = json.loads(done.stdout)
    assert [r["options"] for r in rows] == ["", "heuristic=distance", "heuristic=seed"]
    assert {r["cost"] for r in rows} == {7}
    assert rows[2]["optimal_guaranteed"] is False
    wrong = cli("compare", "mazes/zenji-seed-001.txt", "--algorithms", "astar:heuristic=octile")
    assert wrong.returncode == 1 and "option 'heuristic'" in wrong.stderr
    unknown = cli("compare", "mazes/zenji-seed-001.txt", "--algorithms", "astar,nope")
    assert unknown.returncode == 1 and "'nope'" in unknown.stderr
    foreign = cli("compare", "mazes/zenji-seed-001.txt", "--algorithms", "astar", "--cycle", "1,2")
    assert foreign.returncode == 1 and "--cycle is an option of the step family" in foreign.stderr


def test_run_specs() -> None:
    spec = parse_run_spec("astar:weight=2:heuristic=octile")
    assert spec == ("astar", {"weight": "2", "heuristic": "octile"})
    assert parse_run_spec(" bfs ") == ("bfs", {})
    for bad in ("astar:weight", "astar:=2", ":weight=2"):
        with pytest.raises(PuzzleError):
            parse_run_spec(bad)


def _result(algorithm: str, cost, guaranteed: bool, optimum=None) -> dict:
    out = {"algorithm": algorithm, "found": cost is not None, "cost": cost, "path": [0] * ((cost or 0) + 1),
           "expanded": 1, "generated": 1, "max_frontier": 1, "seconds": 0.0, "optimal_guaranteed": guaranteed}
    if optimum is not None:
        out["optimum"] = optimum
    return out


def test_optimal_achieved_is_marked_against_the_best_cost_known() -> None:
    # A guaranteed run proves the optimum.
    rows = mark_optimal([summary_row(_result("bfs", 52, True)), summary_row(_result("dfs", 108, False))])
    assert [r["optimal_achieved"] for r in rows] == [True, False]
    # No guaranteed run, but the server found the optimum for a non-optimal one.
    rows = mark_optimal([summary_row(_result("dfs", 108, False, optimum=52)),
                         summary_row(_result("greedy", 60, False, optimum=52))])
    assert [r["optimal_achieved"] for r in rows] == [False, False]
    # Nothing known beyond the runs themselves: the cheapest found is the reference.
    rows = mark_optimal([summary_row(_result("dfs", 108, False)), summary_row(_result("greedy", 60, False)),
                         summary_row(_result("x", None, False))])
    assert [r["optimal_achieved"] for r in rows] == [False, True, None]
