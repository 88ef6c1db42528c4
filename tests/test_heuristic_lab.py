"""Issue 19's heuristic lab: a formula judged against h* (``server/heuristic_lab.py``, the grid's
compiled space in ``server/puzzles/grid/lab.py``), the heuristic "yours", ``run.py heuristic`` and
``POST /api/puzzles/<id>/heuristic``."""

from __future__ import annotations

import base64
import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server import socketio
from server.formula import FormulaError, compile_formula
from server.heuristic_lab import explore, judge
from server.judging import judge_formula, rule_options
from server.puzzles.errors import PuzzleError
from server.puzzles.family import LoadLimits
from server.puzzles.grid.family import FAMILY as GRID
from server.puzzles.grid.lab_kernels import GridSpace
from server.puzzles.grid.model import GridMaze
from server.puzzles.grid.problem import GridProblem
from server.puzzles.grid.text import parse_grid_text
from server.puzzles.registry import detect_family
from server.solving import solve
from tests.graph_problem import GraphProblem
from tests.helpers import live_app, make_app, pump, run_cli, upload

NAMES = GRID.lab.feature_names


@pytest.fixture(scope="module")
def maze3_file(shared_cases: Path) -> Path:
    return shared_cases / "images/lee/maze3.png"


@pytest.fixture(scope="module")
def maze3(maze3_file: Path) -> GridMaze:
    data = maze3_file.read_bytes()
    return detect_family(maze3_file.name, data).load(data, maze3_file.name, {}, LoadLimits())


def verdict(maze: GridMaze, text: str, diagonal: bool = False):
    return judge_formula(maze, text, rule_options(GRID, {"diagonal": diagonal}), max_states=10**6)


def bfs_distances(maze: GridMaze) -> dict[tuple[int, int], int]:
    """Every cell's distance to the goal by a plain BFS (unit costs), written here independently."""
    goal = maze.rc(maze.goals[0])
    dist = {goal: 0}
    queue = [goal]
    for r, c in queue:
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= nr < maze.height and 0 <= nc < maze.width and maze.cells[nr, nc] and (nr, nc) not in dist:
                dist[nr, nc] = dist[r, c] + 1
                queue.append((nr, nc))
    return dist


# ---- the acceptance on maze3 -----------------------------------------------------------------------
def test_manhattan_is_admissible_and_consistent_over_all_433_reachable_cells(maze3: GridMaze) -> None:
    result = verdict(maze3, "dr + dc")
    assert result.admissible and result.consistent and result.complete
    assert result.states == 433
    assert result.overestimates == 0 and result.inconsistent_moves == 0 and result.worst is None
    assert result.h_at_goal == 0


def test_twice_manhattan_overestimates_and_the_counts_match_an_independent_bfs(maze3: GridMaze) -> None:
    result = verdict(maze3, "2*(dr + dc)")
    dist = bfs_distances(maze3)
    gr, gc = maze3.rc(maze3.goals[0])
    twice = {cell: 2 * (abs(cell[0] - gr) + abs(cell[1] - gc)) for cell in dist}
    over = [cell for cell in dist if twice[cell] > dist[cell]]
    assert not result.admissible and not result.consistent
    assert result.overestimates == len(over) > 0
    worst = max(twice[c] - dist[c] for c in over)
    assert result.worst["h"] - result.worst["h_star"] == worst
    cell = tuple(result.worst["state"])
    assert (result.worst["h"], result.worst["h_star"]) == (twice[cell], dist[cell])
    # Every move between free cells: 2 * manhattan falls by 2 along any move towards the goal.
    moves = sum(
        1 for (r, c) in dist for (nr, nc) in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        if (nr, nc) in dist and twice[r, c] > 1 + twice[nr, nc]
    )
    assert result.inconsistent_moves == moves


def test_admissible_but_not_consistent_is_told_apart(maze3: GridMaze) -> None:
    # Manhattan on every other cell, 0 elsewhere: never above h*, but it drops by more than 1.
    result = verdict(maze3, "(dr + dc) if (row + col) % 2 else 0")
    assert result.admissible and not result.consistent
    assert result.inconsistent_moves > 0 and result.worst_move["h_from"] > result.worst_move["h_to"] + 1


def test_the_summary_and_the_json_keys(maze3: GridMaze) -> None:
    result = verdict(maze3, "2*(dr+dc)").to_json()
    for key in ("admissible", "consistent", "states", "overestimates", "worst", "inconsistent_moves"):
        assert key in result
    assert set(result["worst"]) >= {"state", "h", "h_star"}
    text = verdict(maze3, "dr+dc").summary()
    assert text.startswith("h = dr+dc: admissible and consistent over 433 reachable states")


def test_a_formula_that_is_not_a_number_is_neither(maze3: GridMaze) -> None:
    result = verdict(maze3, "sqrt(dr - 5)")  # NaN wherever dr < 5
    assert result.not_a_number > 0 and not result.admissible and not result.consistent
    assert result.example_not_a_number is not None


# ---- the compiled grid space against the generic walk ----------------------------------------------
BOARDS = {
    "walls": ("S..#....\n.#.#.##.\n.#...#..\n.####.#.\n......#G\n", False),
    "weights": ("S1195...\n.#.#.##3\n.#..9#..\n.####.#.\n..7...#G\n", False),
    "diagonal": ("S..#....\n.#.#.##.\n.#...#..\n.####.#.\n......#G\n", True),
    "weighted diagonal": ("S1195...\n.#.#.##3\n.#..9#..\n.####.#.\n..7...#G\n", True),
    "dead ends": ("S.#.G\n..#..\n###..\n..#..\n", False),
}


@pytest.mark.parametrize("name", sorted(BOARDS))
@pytest.mark.parametrize("text", ["dr + dc", "max(dr, dc)", "3 * dc", "row % 3 + col // 2", "0"])
def test_the_grid_kernels_agree_with_the_generic_walk(name: str, text: str) -> None:
    board, diagonal = BOARDS[name]
    maze = parse_grid_text(board)
    formula = compile_formula(text, NAMES)
    fast = judge(GridSpace(maze, diagonal), formula)
    problem = GridProblem(maze, diagonal)
    slow = judge(explore(problem, problem.features, 10**6), formula)
    for key in ("admissible", "consistent", "states", "overestimates", "inconsistent_moves", "h_at_goal",
                "dead_ends"):
        assert getattr(fast, key) == getattr(slow, key), key
    if fast.worst:
        assert fast.worst["h"] - fast.worst["h_star"] == pytest.approx(slow.worst["h"] - slow.worst["h_star"])


def test_a_dead_end_is_never_an_overestimate() -> None:
    maze = parse_grid_text("S.#.G\n..#..\n###..\n..#..\n")
    result = judge_formula(maze, "1000", rule_options(GRID, {}), max_states=100)
    assert result.states == 4 and result.dead_ends == 4 and result.admissible


# ---- the generic walk ---------------------------------------------------------------------------
def chain(n: int) -> GraphProblem:
    edges = [(str(i), str(i + 1), 1.0) for i in range(n)] + [(str(i + 1), str(i), 2.0) for i in range(n)]
    problem = GraphProblem(edges, ["0"], [str(n)])
    problem.features = lambda states: {"i": np.array([float(s) for s in states])}  # type: ignore[method-assign]
    return problem


def test_the_walk_finds_the_true_cost_to_go_over_directed_costs() -> None:
    space = explore(chain(10), chain(10).features, 100)
    assert space.complete and space.count == 11
    assert space.h_star.tolist() == [10.0 - i for i in range(11)]
    result = judge(space, compile_formula("10 - i", ("i",)))
    assert result.admissible and result.consistent
    result = judge(space, compile_formula("(10 - i) * 1.5", ("i",)))
    assert not result.admissible and result.overestimates == 10 and result.worst["state"] == "0"


def test_a_walk_stopped_by_its_limit_says_so_and_judges_only_what_it_expanded() -> None:
    problem = chain(50)
    space = explore(problem, problem.features, 20)
    assert not space.complete and space.stopped == "state limit: 20 states reached"
    result = judge(space, compile_formula("0", ("i",)))
    assert result.states < 20 and not result.complete
    assert "upper bound" in result.summary()


# ---- the heuristic "yours" in the searches -------------------------------------------------------
def test_yours_runs_in_astar_and_greedy_with_the_formulas_values(maze3: GridMaze) -> None:
    mine = solve(maze3, "astar", {"heuristic": "yours", "formula": "dr + dc"})
    theirs = solve(maze3, "astar", {"heuristic": "manhattan"}, engine="generic")
    assert mine.json["cost"] == 52 and mine.json["expanded"] == theirs.json["expanded"]
    assert mine.json["optimal_guaranteed"] is False  # a formula is never assumed admissible
    assert mine.json["options"]["formula"] == "dr + dc"
    blind = solve(maze3, "astar", {"heuristic": "yours", "formula": "0"})
    assert blind.json["cost"] == 52 and blind.json["expanded"] > mine.json["expanded"]
    greedy = solve(maze3, "greedy", {"heuristic": "yours", "formula": "dr + dc"})
    assert greedy.json["found"]


@pytest.mark.parametrize("options, where", [
    ({"heuristic": "yours"}, "option 'formula'"),
    ({"heuristic": "yours", "formula": "dr + banana"}, "option 'formula': unknown name 'banana' at column 6"),
    ({"heuristic": "yours", "formula": "x" * 501}, "option 'formula'"),
    ({"heuristic": "yours", "formula": 7}, "option 'formula'"),
])
def test_a_bad_formula_is_refused_before_the_run(maze3: GridMaze, options: dict, where: str) -> None:
    with pytest.raises(PuzzleError) as caught:
        solve(maze3, "astar", options)
    assert where in str(caught.value)


def test_a_socket_run_takes_yours(maze3: GridMaze) -> None:
    app = live_app({"m": maze3})
    client = socketio.test_client(app)
    start = {"run": "r", "puzzle": "m", "algorithm": "astar",
             "options": {"heuristic": "yours", "formula": "max(dr, dc)"}}
    assert client.emit("run_start", start, callback=True) == {"ok": True}
    done = pump(client, "run_done", "r")[-1]
    assert done["result"]["cost"] == 52
    bad = {**start, "run": "s", "options": {"heuristic": "yours", "formula": "__import__('os')"}}
    answer = client.emit("run_start", bad, callback=True)
    assert answer["ok"] is False and "option 'formula'" in answer["error"]
    client.disconnect()


# ---- hostile formulas: refused in one line, nothing run --------------------------------------------
HOSTILE = [
    "__import__('os').system('touch /tmp/pwned')",
    "().__class__.__bases__[0].__subclasses__()",
    "row.__class__",
    "9**9**9",
    "2**1000",
    "[x for x in range(10**9)]",
    "lambda: 1",
    "dr +",
    "open('/etc/passwd')",
    "(lambda: 0)()",
    "dr if dr else",
    "a" * 600,
    "abs(" * 40 + "dr" + ")" * 40,
    "-" * 100 + "dr",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_formulas_are_refused_naming_the_problem(text: str, maze3: GridMaze, tmp_path: Path) -> None:
    with pytest.raises(FormulaError):
        verdict(maze3, text)
    assert not Path("/tmp/pwned").exists()


def test_the_cli(maze3_file: Path) -> None:
    done = run_cli("heuristic", str(maze3_file), "--formula", "2*(dr + dc)", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["admissible"] is False and result["states"] == 433 and result["overestimates"] > 0
    assert result["worst"]["h"] > result["worst"]["h_star"]
    text = run_cli("heuristic", str(maze3_file), "--formula", "dr + dc")
    assert text.returncode == 0 and "admissible and consistent over 433 reachable states" in text.stdout
    bad = run_cli("heuristic", str(maze3_file), "--formula", "__import__('os')")
    assert bad.returncode == 1 and not bad.stdout
    assert len(bad.stderr.strip().splitlines()) == 1 and "column 1" in bad.stderr
    missing = run_cli("heuristic", str(maze3_file))
    assert missing.returncode == 1 and "--formula" in missing.stderr
    diagonal = run_cli("heuristic", str(maze3_file), "--formula", "dr + dc", "--diagonal", "--json")
    assert json.loads(diagonal.stdout)["admissible"] is False  # a diagonal step costs sqrt 2 < 2


# ---- the API ----------------------------------------------------------------------------------
def test_the_api_judges_a_formula_with_a_heat_map(maze3_file: Path) -> None:
    app = make_app()
    info = upload(app, maze3_file.read_bytes(), "maze3.png")
    client = app.test_client()
    answer = client.post(f"/api/puzzles/{info['id']}/heuristic", json={"formula": "2*(dr+dc)", "options": {}})
    assert answer.status_code == 200
    result = answer.get_json()
    assert result["states"] == 433 and not result["admissible"]
    heat = result["heat"]
    ratio = np.frombuffer(base64.b64decode(heat["ratio"]), np.uint8)
    over = np.frombuffer(base64.b64decode(heat["over"]), np.uint8)
    assert ratio.size == over.size == info["width"] * info["height"] == heat["cells"]
    assert np.count_nonzero(ratio != 255) == 433  # one byte per reachable cell
    assert np.count_nonzero(over) == result["overestimates"]
    goal = info["goals"][0][0] * info["width"] + info["goals"][0][1]
    assert ratio[goal] == 100  # h = h* = 0 at the goal: exactly right
    assert len(heat["moves"]) == min(500, result["inconsistent_moves"])
    fine = client.post(f"/api/puzzles/{info['id']}/heuristic", json={"formula": "dr+dc"}).get_json()
    ratio = np.frombuffer(base64.b64decode(fine["heat"]["ratio"]), np.uint8)
    assert ratio[ratio != 255].max() <= 100


@pytest.mark.parametrize("body, status, words", [
    ({"formula": "dr +"}, 400, "field 'formula': syntax error at column 5"),
    ({"formula": "__import__('os')"}, 400, "not a function"),
    ({"formula": 12}, 400, "field 'formula'"),
    ({"formula": "dr", "options": {"flow": "free"}}, 400, "unknown option"),
    ({"formula": "dr", "options": []}, 400, "options must be an object"),
    ([1, 2], 400, "expected a JSON object"),
])
def test_the_api_refuses_bad_requests_in_words(maze3_file: Path, body, status: int, words: str) -> None:
    app = make_app()
    info = upload(app, maze3_file.read_bytes(), "maze3.png")
    answer = app.test_client().post(f"/api/puzzles/{info['id']}/heuristic", json=body)
    assert answer.status_code == status and words in answer.get_json()["error"]


def test_the_api_rate_limits_and_knows_unknown_puzzles(maze3_file: Path) -> None:
    app = make_app(labs_per_minute=2, checks_per_minute=1)
    info = upload(app, maze3_file.read_bytes(), "maze3.png")
    client = app.test_client()
    client.get("/")  # the page gives the browser its client id: a request without one is its address's
    for _ in range(2):
        assert client.post(f"/api/puzzles/{info['id']}/heuristic", json={"formula": "dr"}).status_code == 200
    assert client.post(f"/api/puzzles/{info['id']}/heuristic", json={"formula": "dr"}).status_code == 429
    assert client.post("/api/puzzles/nope/heuristic", json={"formula": "dr"}).status_code == 404
    assert client.post(f"/api/puzzles/{info['id']}/check", json={"solution": "R"}).status_code == 200
    assert client.post(f"/api/puzzles/{info['id']}/check", json={"solution": "R"}).status_code == 429


def test_the_api_checks_a_solution_and_replays_it(maze3_file: Path) -> None:
    app = make_app()
    info = upload(app, maze3_file.read_bytes(), "maze3.png")
    client = app.test_client()
    best = client.post(f"/api/puzzles/{info['id']}/solve", json={"algorithm": "bfs"}).get_json()
    answer = client.post(f"/api/puzzles/{info['id']}/check", json={"solution": json.dumps(best)}).get_json()
    assert answer["valid"] and answer["optimal"] and answer["cost"] == answer["optimum"] == 52
    assert answer["summary"] == "legal, cost 52; the optimum is 52 (optimal)"
    assert answer["replay"]["path"] == best["path"] and answer["replay"]["found"]
    wrong = client.post(f"/api/puzzles/{info['id']}/check", json={"solution": "DDDDRRRR"}).get_json()
    assert wrong["valid"] is False and wrong["first_illegal_move"] >= 1 and "wall" in wrong["reason"]
    assert len(wrong["replay"]["path"]) == wrong["first_illegal_move"]  # the cells before the bad move
    assert wrong["illegal"]["from"] == wrong["replay"]["path"][-1]
    garbage = client.post(f"/api/puzzles/{info['id']}/check", json={"solution": "R?"})
    assert garbage.status_code == 400 and "line 1, column 2" in garbage.get_json()["error"]
    big = client.post(f"/api/puzzles/{info['id']}/check", json={"solution": "R" * (2 * 1024 * 1024)})
    assert big.status_code == 400 and "longer than" in big.get_json()["error"]


def test_the_families_list_their_features() -> None:
    families = {f["name"]: f for f in make_app().test_client().get("/api/families").get_json()}
    grid = families["grid"]
    assert [f["name"] for f in grid["features"]] == ["row", "col", "goal_row", "goal_col", "dr", "dc"]
    assert grid["checks_solutions"] is True
    for family in families.values():  # every checker says what it reads (the page's hint, the CLI's help)
        assert bool(family["solution_notation"]) == family["checks_solutions"], family["name"]
    options = {o["name"]: o for o in grid["options"]}
    assert "yours" in [c["value"] for c in options["heuristic"]["choices"]]
    assert options["formula"]["type"] == "text"


def test_a_huge_grid_is_judged_by_the_kernels() -> None:
    rng = np.random.default_rng(3)
    cells = (rng.random((600, 600)) > 0.3).astype(np.uint8)
    cells[0, 0] = cells[-1, -1] = 1
    maze = GridMaze(cells, [0], [cells.size - 1])
    result = judge_formula(maze, "dr + dc", rule_options(GRID, {}), max_states=1)
    assert result.admissible and result.consistent and result.complete
    assert result.states == int(GridSpace(maze, False).count) > 1000
    assert math.isfinite(result.seconds)


# ---- fuzzing the two endpoints: never a 500, always words ---------------------------------------
@pytest.fixture(scope="module")
def lab_app(maze3_file: Path):
    app = make_app(labs_per_minute=10**6, checks_per_minute=10**6)
    return app, upload(app, maze3_file.read_bytes(), "maze3.png")["id"]


FORMULA_SOUP = st.text(alphabet="drcolwgal_+-*/%()<>=!., 0123456789ifelsnotabsmaxqrt", max_size=60)
SOLUTION_SOUP = st.text(alphabet="UDLRudlr ,\n[]{}0123456789\"pathfmly:-x", max_size=80)


OPTION_SOUP = st.none() | st.dictionaries(st.sampled_from(["diagonal", "weight", "start", "flow"]),
                                          st.none() | st.booleans() | st.integers() | st.text())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(formula=FORMULA_SOUP | st.text(max_size=40), options=OPTION_SOUP)
def test_fuzz_the_heuristic_endpoint(lab_app, formula: str, options) -> None:
    app, pid = lab_app
    body = {"formula": formula, "options": options}
    answer = app.test_client().post(f"/api/puzzles/{pid}/heuristic", json=body)
    assert answer.status_code in (200, 400), answer.status_code
    body = answer.get_json()
    assert ("error" in body) == (answer.status_code == 400)
    if answer.status_code == 400:
        assert "\n" not in body["error"] and "Traceback" not in body["error"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(solution=SOLUTION_SOUP | st.text(max_size=60))
def test_fuzz_the_check_endpoint(lab_app, solution: str) -> None:
    app, pid = lab_app
    answer = app.test_client().post(f"/api/puzzles/{pid}/check", json={"solution": solution})
    assert answer.status_code in (200, 400), answer.status_code
    body = answer.get_json()
    if answer.status_code == 200:
        assert body["valid"] in (True, False) and body["summary"]
        assert body["valid"] == (body["first_illegal_move"] is None and body["cost"] is not None)
    else:
        assert body["error"] and "Traceback" not in body["error"]
