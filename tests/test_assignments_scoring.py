"""Each task kind scored as the contract says, on maze3 (BFS, optimum 52) and on an 8-puzzle: right,
wrong and partial answers (server/assignments/judge.py). The truth comes from student mode's own
reference search (``code_verdict.reference_expansions``), not from the judge under test."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from server.code_verdict import reference_expansions
from server.puzzles.registry import family_of
from server.services import services
from server.solving import solve
from tests.assignment_helpers import (
    assignment_app,
    create,
    eight_id,
    grade_all,
    maze3_id,
    needs_sandbox,
    score_of,
    submit,
    view,
)
from tests.helpers import browser

PROGRAMS = Path(__file__).resolve().parent / "code_programs"
MOVES = {(0, 1): "R", (0, -1): "L", (1, 0): "D", (-1, 0): "U"}


@pytest.fixture(scope="module")
def maze(tmp_path_factory):
    app = assignment_app(tmp_path_factory.mktemp("maze3"), submissions_per_minute=10_000)
    client = browser(app)
    pid = maze3_id(app)
    return app, client, pid


@pytest.fixture(scope="module")
def eight(tmp_path_factory):
    app = assignment_app(tmp_path_factory.mktemp("eight"), submissions_per_minute=10_000)
    client = browser(app)
    return app, client, eight_id(app)


def truth(app, pid: str, algorithm: str, upto: int) -> list[str]:
    """The states ``algorithm`` expands first, in the family's notation (student mode's reference)."""
    puzzle = services(app).store.get(pid)
    family = family_of(puzzle)
    options = family.run_options({})
    states, _ = reference_expansions(family, puzzle, algorithm, options, upto, None, None)
    problem = family.run_problem(puzzle, options)
    return [family.state_text(problem, s) for s in states[:upto]]


def best_moves(app, pid: str) -> str:
    """maze3's optimal path (BFS) as moves U D L R."""
    path = solve(services(app).store.get(pid), "bfs", {}).json["path"]
    return " ".join(MOVES[(b[0] - a[0], b[1] - a[1])] for a, b in itertools.pairwise(path))


# ---- predict --------------------------------------------------------------------------------------
def test_predict_on_maze3(maze) -> None:
    app, client, pid = maze
    aid = create(client, pid, [{"kind": "predict", "points": 2, "count": 5, "from": 3}], attempts=None)["id"]
    right = truth(app, pid, "bfs", 8)[3:8]
    assert len(right) == 5 and right[0].startswith("(")
    assert score_of(app, client, aid, "predict", {"states": right}) == 2.0
    # The numbers are what count: "3 4" and "(3, 4)" are the same cell.
    bare = [s.strip("()").replace(",", "") for s in right]
    assert score_of(app, client, aid, "predict", {"states": bare}) == 2.0
    partial = [*right[:3], right[4], right[3]] if right[3] != right[4] else [*right[:3], "(0, 0)", "(0, 0)"]
    assert score_of(app, client, aid, "predict", {"states": partial}) == 1.2  # 3 of 5
    assert score_of(app, client, aid, "predict", {"states": right[:2]}) == 0.8  # 2 answered, 2 right
    assert score_of(app, client, aid, "predict", {"states": ["(999, 999)"] * 5}) == 0.0
    sub = submit(client, aid, "predict", {"states": right})
    grade_all(app)
    rows = view(client, aid, sub)["result"]["details"]["rows"]
    assert [r["i"] for r in rows] == [4, 5, 6, 7, 8] and all(r["right"] for r in rows)


def test_predict_on_the_8_puzzle(eight) -> None:
    app, client, pid = eight
    aid = create(client, pid, [{"kind": "predict", "points": 4, "count": 4}], attempts=None)["id"]
    right = truth(app, pid, "bfs", 4)
    assert right[0] == "1 2 5 / 3 4 _ / 6 7 8"
    assert score_of(app, client, aid, "predict", {"states": right}) == 4.0
    assert score_of(app, client, aid, "predict", {"states": [s.replace("/", "") for s in right]}) == 4.0
    assert score_of(app, client, aid, "predict", {"states": [right[0], right[2], right[1], right[3]]}) == (
        4.0 if right[1] == right[2] else 2.0)
    assert score_of(app, client, aid, "predict", {"states": ["1 2 3 / 4 5 6 / 7 8 _"] * 4}) == 0.0


# ---- heuristic ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("formula", "bar", "score"), [
    ("dr + dc", True, 3.0),  # admissible, consistent, beats h = 0
    ("max(dr, dc)", False, 3.0),
    ("0", True, 1.5),  # admissible and consistent, but no fewer expansions than h = 0
    ("(dr + dc) * (dr > 2)", False, 1.5),  # admissible, not consistent
    ("dr + dc + 1", False, 0.0),  # not admissible
    ("dr +", False, 0.0),  # not a formula: a graded 0 in words
])
def test_heuristic_on_maze3(maze, formula: str, bar: bool, score: float) -> None:
    app, client, pid = maze
    aid = create(client, pid, [{"kind": "heuristic", "points": 3, "bar": bar}], attempts=None)["id"]
    sub = submit(client, aid, "heuristic", {"formula": formula})
    grade_all(app)
    result = view(client, aid, sub)["result"]
    assert result["score"] == score, result
    assert "heat" not in result["details"]
    if bar and score == 3.0:
        assert result["details"]["bar"]["yours"] < result["details"]["bar"]["zero"]


def test_heuristic_on_the_8_puzzle(eight) -> None:
    app, client, pid = eight
    aid = create(client, pid, [{"kind": "heuristic", "points": 2, "bar": True}], attempts=None)["id"]
    assert score_of(app, client, aid, "heuristic", {"formula": "manhattan"}) == 2.0
    assert score_of(app, client, aid, "heuristic", {"formula": "manhattan * 5"}) == 0.0


# ---- solution -------------------------------------------------------------------------------------
def test_solution_on_maze3(maze) -> None:
    app, client, pid = maze
    exact = create(client, pid, [{"kind": "solution", "points": 2, "margin": 0}], attempts=None)["id"]
    loose = create(client, pid, [{"kind": "solution", "points": 2, "margin": 10}], attempts=None)["id"]
    moves = best_moves(app, pid)
    assert len(moves.split()) == 52
    assert score_of(app, client, exact, "solution", {"solution": moves}) == 2.0
    # Two more moves (a step back and forth on the path): 54 <= 52 * 1.1, but not optimal.
    first = moves.split()
    back = {"R": "L", "L": "R", "U": "D", "D": "U"}[first[1]]
    longer = " ".join([first[0], first[1], back, first[1], *first[2:]])
    assert score_of(app, client, exact, "solution", {"solution": longer}) == 0.0
    assert score_of(app, client, loose, "solution", {"solution": longer}) == 2.0
    assert score_of(app, client, exact, "solution", {"solution": " ".join(first[:-1])}) == 0.0  # short


def test_solution_on_the_8_puzzle(eight) -> None:
    app, client, pid = eight
    aid = create(client, pid, [{"kind": "solution", "points": 1}], attempts=None)["id"]
    assert score_of(app, client, aid, "solution", {"solution": "U L L"}) == 1.0
    assert score_of(app, client, aid, "solution", {"solution": "L"}) == 0.0
    assert score_of(app, client, aid, "solution", {"solution": "not moves at all"}) == 0.0


# ---- code (the sandbox: helper A's server/sandbox.py) -----------------------------------------------
@needs_sandbox
@pytest.mark.parametrize(("program", "expect"), [("bfs.py", 5.0), ("crash.py", 0.0), ("not_a_list.py", None)])
def test_code_on_maze3(maze, program: str, expect: float | None) -> None:
    app, client, pid = maze
    aid = create(client, pid, [{"kind": "code", "points": 5}], attempts=None)["id"]
    sub = submit(client, aid, "code", {"code": (PROGRAMS / program).read_text()})
    grade_all(app)
    seen = view(client, aid, sub)
    assert seen["status"] == "graded", seen
    result = seen["result"]
    if expect is not None:
        assert result["score"] == expect, result
    assert 0 <= result["score"] <= 5 and result["sentence"]


@needs_sandbox
def test_code_that_breaks_the_order_gets_credit_up_to_the_break(maze) -> None:
    """DFS handed in for BFS: (k − 1)/n of the points at the first expansion k that breaks BFS's order
    (n: BFS's expansions), halved as DFS's path is not optimal."""
    app, client, pid = maze
    aid = create(client, pid, [{"kind": "code", "points": 5}], attempts=None)["id"]
    sub = submit(client, aid, "code", {"code": (PROGRAMS / "dfs.py").read_text()})
    grade_all(app)
    result = view(client, aid, sub)["result"]
    order, path = result["details"]["order"], result["details"]["path"]
    assert not order["matches"] and not order["tie"] and order["at"] >= 1
    n = len(truth(app, pid, "bfs", 10**6))
    half = 1.0 if path["legal"] and path["optimal"] else 0.5
    assert result["score"] == round(5 * (order["at"] - 1) / n * half, 2)
    assert result["details"]["run"]["count"] > 0  # kept for the replay


@needs_sandbox
def test_code_replay_puts_the_run_into_code_runs(maze) -> None:
    from tests.assignment_helpers import teacher

    app, client, pid = maze
    made = create(client, pid, [{"kind": "code", "points": 5}], attempts=None)
    sub = submit(client, made["id"], "code", {"code": (PROGRAMS / "bfs.py").read_text()})
    grade_all(app)
    url = f"/api/assignments/{made['id']}/submissions/{sub['submission']}/replay"
    assert client.post(url).status_code == 403
    got = client.post(url, headers=teacher(made["token"]))
    assert got.status_code == 200 and got.get_json()["run"].startswith("run:")
    replayed = client.post(f"/api/puzzles/{pid}/solve",
                           json={"algorithm": "code", "code": got.get_json()["run"]})
    assert replayed.status_code == 200 and replayed.get_json()["cost"] == 52


@needs_sandbox
def test_code_on_the_8_puzzle(eight) -> None:
    app, client, pid = eight
    aid = create(client, pid, [{"kind": "code", "points": 5}], attempts=None)["id"]
    assert score_of(app, client, aid, "code", {"code": (PROGRAMS / "bfs.py").read_text()}) == 5.0
    assert score_of(app, client, aid, "code", {"code": (PROGRAMS / "crash.py").read_text()}) == 0.0


@needs_sandbox
def test_hostile_code_gets_0_in_words_and_the_grader_goes_on(tmp_path: Path) -> None:
    app = assignment_app(tmp_path, submissions_per_minute=1000, sandbox_seconds=2)
    client = browser(app)
    aid = create(client, maze3_id(app), [{"kind": "code", "points": 5}], attempts=None)["id"]
    endless = submit(client, aid, "code", {"code": (PROGRAMS / "endless.py").read_text()})
    right = submit(client, aid, "code", {"code": (PROGRAMS / "bfs.py").read_text()})
    assert grade_all(app) == 2
    stopped = view(client, aid, endless)["result"]
    assert stopped["score"] == 0 and "time limit" in stopped["sentence"]
    assert view(client, aid, right)["result"]["score"] == 5.0
