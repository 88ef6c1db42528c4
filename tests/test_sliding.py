"""The sliding-tile family (issue 20; docs/SLIDING.md): files and their errors, the parity refusal, the
textbook's figures (AIMA 3.28 = 26 moves, the hardest 8-puzzles = 31), every heuristic admissible against
exact distances over the whole 8-puzzle, the API, the socket, the CLI, generators, editing and the lab.

The exact distances come from this file's own breadth-first search from the goal (``exact_distances``),
not from the family's code.
"""

from __future__ import annotations

import json
import random
from collections import deque
from pathlib import Path

import numpy as np
import pytest

from server import socketio
from server.puzzles import registry
from server.puzzles.errors import PuzzleError
from server.puzzles.sliding.model import SlidingBoard, default_goal, inversions
from server.puzzles.sliding.problem import SlidingProblem, permutation_rank
from server.solving import solve
from tests.helpers import ROOT, make_app, post_file, pump, records, upload
from tests.helpers import run_cli as cli

FAMILY = registry.get_family("sliding")
MAZES = ROOT / "mazes"
AIMA = "7 2 4\n5 0 6\n8 3 1\ngoal: 0 1 2 3 4 5 6 7 8\n"
BLANK_FIRST = bytes(range(9))
HARDEST = ("8 6 7\n2 5 4\n3 0 1\n", "6 4 7\n8 5 0\n3 2 1\n")
KORF_GOAL = "goal: " + " ".join(str(i) for i in range(16))
KORF_79 = "0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15"  # 42 moves (korf100.txt)
KORF_12 = "14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15"  # 45 moves


def load(text: str | bytes, name: str = "board.txt") -> SlidingBoard:
    data = text.encode() if isinstance(text, str) else text
    board = registry.load_puzzle(data, name)
    assert isinstance(board, SlidingBoard)
    return board


def exact_distances(goal: bytes) -> dict[bytes, int]:
    """Every 8-puzzle board's fewest moves to ``goal``: a plain BFS from the goal (moves are reversible)."""
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        state = queue.popleft()
        blank = state.index(0)
        r, c = divmod(blank, 3)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if 0 <= r + dr < 3 and 0 <= c + dc < 3:
                other = (r + dr) * 3 + c + dc
                board = bytearray(state)
                board[blank], board[other] = board[other], 0
                nxt = bytes(board)
                if nxt not in dist:
                    dist[nxt] = dist[state] + 1
                    queue.append(nxt)
    return dist


@pytest.fixture(scope="module")
def distances() -> dict[bytes, int]:
    return exact_distances(default_goal(3))


def replay(board: SlidingBoard, result: dict) -> bytes:
    """Follow the result's blank moves from the board, checking each is legal and matches ``path``."""
    n = board.n
    state = bytearray(board.tiles)
    assert result["path"][0] == list(board.tiles)
    for i, move in enumerate(result["moves"], start=1):
        blank = state.index(0)
        r, c = divmod(blank, n)
        dr, dc = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}[move["blank"]]
        assert 0 <= r + dr < n and 0 <= c + dc < n
        other = (r + dr) * n + c + dc
        assert move["tile"] == state[other]
        state[blank], state[other] = state[other], 0
        assert result["path"][i] == list(state)
    assert len(result["moves"]) == result["cost"] == len(result["path"]) - 1
    return bytes(state)


# ---- files -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "7 2 4\n5 0 6\n8 3 1\n",
    "7 2 4 5 0 6 8 3 1\n",
    "7,2,4\n5,0,6\n8,3,1",
    "# AIMA's board\n  7, 2, 4   # top row\n5 0 6\n\n8 3 1\n",
    "\ufeff7\t2\t4\r\n5\t0\t6\r\n8\t3\t1\r\n",
])
def test_both_layouts_separators_and_comments(text: str) -> None:
    board = load(text)
    assert (board.n, list(board.tiles), board.goal) == (3, [7, 2, 4, 5, 0, 6, 8, 3, 1], default_goal(3))


def test_the_goal_line_in_either_layout() -> None:
    one_line = load(AIMA)
    rows = load("7 2 4\n5 0 6\n8 3 1\ngoal:\n0 1 2\n3 4 5\n6 7 8\n")
    same_line = load("7 2 4 5 0 6 8 3 1 GOAL: 0,1,2,3,4,5,6,7,8")
    assert one_line.goal == rows.goal == same_line.goal == BLANK_FIRST
    assert any("blank first" in note for note in one_line.notes)


def test_sizes_three_to_five_and_korfs_format() -> None:
    korf = load(f"{KORF_79}\n{KORF_GOAL}\n")
    assert korf.n == 4 and korf.goal == bytes(range(16))
    five = load(" ".join(str(i) for i in [*range(1, 25), 0]))
    assert five.n == 5 and five.tiles == five.goal


def test_the_projects_json() -> None:
    text = json.dumps({"family": "sliding", "n": 3, "tiles": [7, 2, 4, 5, 0, 6, 8, 3, 1],
                       "goal": list(range(9)), "name": "aima"})
    board = load(text, "b.json")
    assert board.name == "aima" and board.goal == BLANK_FIRST and board.tiles == load(AIMA).tiles
    rows = load(json.dumps({"family": "sliding", "tiles": [[1, 2, 3], [4, 5, 6], [7, 0, 8]]}), "b.json")
    assert rows.tiles == bytes([1, 2, 3, 4, 5, 6, 7, 0, 8]) and rows.goal == default_goal(3)


@pytest.mark.parametrize("text, where, message", [
    ("1 2 3\n4 5 6\n7 8 8\n", "line 3, column 5", "8 appears twice in the board (also at line 3, column 3)"),
    ("1 2 3 4 5 6 7 8 9\n", "line 1, column 17", "9 is out of range in the board: a 3 x 3 board holds 0"),
    ("1 2 3 4 5 6 7 8\n", "line 1", "the board has 8 numbers: expected 9, 16 or 25 numbers"),
    ("1 2 3\n4 5 6 7\n8 0\n", "line 2", "a row of 4 numbers in the board: a 3 x 3 board's rows have 3"),
    ("1 2 3\n4 x 6\n7 8 0\n", "line 2, column 3", "'x' is not a tile number"),
    ("1 2 3 4 5 6 7 8 0\ngoal: 1 2 3 4 5 6 7 8\n", "line 2", "the goal has 8 numbers, and the board's 3 x 3"),
    ("1 2 3 4 5 6 7 8 0\ngoal: 0 1 2 3 4 5 6 7 7\n", "line 2, column 23", "7 appears twice in the goal"),
    ("1 2 3 4 5 6 7 8 0\ngoal: 0 1 2\ngoal: 1\n", "line 3, column 1", "a second 'goal:'"),
    ("# only a comment\n", "file", "no numbers"),
    ("1 2 3 4 5 6 7 8 12345\n", "line 1, column 17", "12345 is out of range"),
])
def test_bad_text_names_what_and_where(text: str, where: str, message: str) -> None:
    with pytest.raises(PuzzleError) as err:
        registry.load_puzzle(text.encode(), "b.txt", "sliding")
    assert err.value.where == where and message in err.value.message, str(err.value)


@pytest.mark.parametrize("data, where, message", [
    ({"family": "sliding", "tiles": [1, 2, 3]}, "field 'tiles'", "3 numbers: expected 9, 16 or 25"),
    ({"family": "sliding", "tiles": [1, 2, 3, 4, 5, 6, 7, 8, "0"]}, "field 'tiles', item 8", "whole number"),
    ({"family": "sliding", "tiles": [1, 2, 3, 4, 5, 6, 7, 8, 8]}, "field 'tiles', item 8", "appears twice"),
    ({"family": "sliding", "n": 4, "tiles": list(range(9))}, "field 'tiles'", "'n' says 4"),
    ({"family": "sliding", "tiles": list(range(9)), "goal": list(range(16))}, "field 'goal'", "16 numbers"),
    ({"family": "sliding", "goal": list(range(9))}, "field 'tiles'", "expected the board's numbers"),
    ({"family": "grid", "tiles": list(range(9))}, "field 'family'", "expected \"sliding\""),
])
def test_bad_json_names_the_field(data: dict, where: str, message: str) -> None:
    with pytest.raises(PuzzleError) as err:
        registry.load_puzzle(json.dumps(data).encode(), "b.json", "sliding")
    assert err.value.where == where and message in err.value.message, str(err.value)


@pytest.mark.parametrize("text, phrase", [
    ("1 2 3\n4 5 6\n8 7 0\n", "the board has 1 inversion relative to the goal"),  # two tiles swapped
    ("1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0", "0 rows from its goal row; their sum 1 is odd"),
    ("1 2 3 4 5 6 7 8 9 10 11 0 12 13 14 15", "0 inversions relative to the goal (pairs of tiles in the "
     "other order than in the goal) and its blank is 1 row from its goal row"),  # in order, blank a row up
    ("7 2 4\n5 0 6\n3 8 1\n", "15 inversions relative to the goal (pairs of tiles in the other order than in "
     "the goal), an odd number"),  # AIMA's board with 8 and 3 swapped
])
def test_an_unsolvable_board_is_refused_at_once_by_parity(text: str, phrase: str) -> None:
    with pytest.raises(PuzzleError) as err:
        load(text)
    line = str(err.value)
    assert "\n" not in line and "unsolvable by parity" in line and phrase in line, line


def test_the_parity_rule_matches_reachability(distances: dict[bytes, int]) -> None:
    """Exactly the boards the BFS reaches have even inversions; on the 15-puzzle random walks keep the
    parity and a swap of two tiles breaks it."""
    from itertools import permutations

    from server.puzzles.sliding.model import is_solvable

    goal = default_goal(3)
    sample = list(permutations(range(9)))[::97]
    assert all(is_solvable(bytes(p), goal, 3) == (bytes(p) in distances) for p in sample)
    rng = random.Random(5)
    from server.puzzles.sliding.generate import random_walk

    for goal4 in (default_goal(4), bytes(range(16))):
        for _ in range(20):
            board = bytearray(random_walk(4, goal4, rng.randrange(1, 60), rng))
            assert is_solvable(bytes(board), goal4, 4)
            a, b = [i for i, t in enumerate(board) if t][:2]
            board[a], board[b] = board[b], board[a]
            assert not is_solvable(bytes(board), goal4, 4)


def test_detection_by_content_keeps_other_families_theirs(shared_cases: Path) -> None:
    assert registry.detect_family("b.txt", AIMA.encode()).name == "sliding"
    assert registry.detect_family("b", b"7,2,4,5,0,6,8,3,1").name == "sliding"  # not a labyrinth CSV row
    assert registry.detect_family("b.json", json.dumps({"family": "sliding", "tiles": list(range(9))})
                                  .encode()).name == "sliding"
    assert registry.detect_family("b.txt", b"1 2 3\n4 5 6\n7 8 8\n").name == "sliding"  # then named
    for path in sorted((shared_cases / "labyrinth").iterdir()):
        assert registry.detect_family(path.name, path.read_bytes()).name == "labyrinth", path.name
    assert registry.detect_family("m.txt", b"#####\n#S.G#\n#####\n").name == "grid"
    for path in MAZES.iterdir():
        if path.suffix in (".txt", ".json") and path.name != "gallery.json":
            expected = "sliding" if path.name.startswith("sliding-") else None
            found = registry.detect_family(path.name, path.read_bytes()).name
            assert (found == "sliding") == (expected == "sliding"), path.name


# ---- the textbook's figures --------------------------------------------------------------------------
@pytest.mark.parametrize("algorithm, heuristic", [
    ("astar", "manhattan"), ("idastar", "manhattan"), ("astar", "linear_conflict"), ("idastar", "misplaced"),
    ("bidirectional", None), ("bfs", None),
])
def test_aima_figure_3_28_takes_26_moves(algorithm: str, heuristic: str | None) -> None:
    board = load(AIMA)
    options = {"heuristic": heuristic} if heuristic else {}
    for engine in ("generic", "compiled"):  # "auto" runs an 8-puzzle generic
        result = solve(board, algorithm, options, engine=engine).json
        assert result["found"] and result["cost"] == 26 and result["optimal_guaranteed"], (engine, result)
        assert replay(board, result) == BLANK_FIRST


@pytest.mark.parametrize("text", HARDEST)
def test_the_two_hardest_8_puzzles_take_31_moves(text: str, distances: dict[bytes, int]) -> None:
    board = load(text)
    assert distances[board.tiles] == 31 == max(distances.values())
    assert sorted(s for s, d in distances.items() if d == 31) == sorted(load(t).tiles for t in HARDEST)
    for algorithm, heuristic in (("idastar", "manhattan"), ("astar", "linear_conflict")):
        result = solve(board, algorithm, {"heuristic": heuristic}, engine="generic").json
        assert result["cost"] == 31 and replay(board, result) == default_goal(3)


@pytest.mark.parametrize("line, moves", [(KORF_79, 42), (KORF_12, 45)])
def test_the_easiest_korf_instances_in_the_generic_engine(line: str, moves: int) -> None:
    board = load(f"{line}\n{KORF_GOAL}\n")
    result = solve(board, "idastar", {"heuristic": "linear_conflict"}, engine="generic", max_seconds=60).json
    assert result["cost"] == moves and result["engine"] == "generic"
    assert replay(board, result) == bytes(range(16))


# ---- heuristics ---------------------------------------------------------------------------------------
def test_heuristics_are_admissible_against_exact_distances(distances: dict[bytes, int]) -> None:
    board = SlidingBoard(3, load(AIMA).tiles, default_goal(3))
    problem = SlidingProblem(board)
    states = list(distances)
    exact = np.array([distances[s] for s in states], dtype=np.float64)
    features = problem.features(states)
    misplaced, manhattan, conflict = features["misplaced"], features["manhattan"], features["linear_conflict"]
    assert (misplaced <= exact).all() and (manhattan <= exact).all() and (conflict <= exact).all()
    assert (misplaced <= manhattan).all() and (manhattan <= conflict).all() and (conflict > manhattan).any()
    for state in states[::301]:  # the search's own heuristic() agrees with the lab's features
        assert problem.heuristic(state, "manhattan") == problem.manhattan(state)
        assert problem.heuristic(state, "linear_conflict") <= distances[state]
        assert problem.heuristic(state, "misplaced") <= distances[state]
    if "pdb" in problem.heuristics:
        for state in states[::53]:
            assert problem.heuristic(state, "pdb") <= distances[state]


def test_heuristics_with_another_goal_and_consistency(distances: dict[bytes, int]) -> None:
    """With the blank-first goal too; and consistent: h drops by at most 1 a move (unit costs)."""
    exact = exact_distances(BLANK_FIRST)
    problem = SlidingProblem(SlidingBoard(3, load(AIMA).tiles, BLANK_FIRST))
    for state in list(exact)[::37]:
        for name in ("misplaced", "manhattan", "linear_conflict"):
            h = problem.heuristic(state, name)
            assert h <= exact[state]
            for nxt, _ in problem.successors(state):
                assert h <= 1 + problem.heuristic(nxt, name)


def test_successors_order_predecessors_goal_and_snapshots() -> None:
    board = load(AIMA)
    problem = SlidingProblem(board)
    state = board.tiles
    nexts = [s for s, cost in problem.successors(state)]
    assert [s.index(0) for s in nexts] == [1, 7, 3, 5]  # the blank goes U, D, L, R
    assert sorted(p for p, _ in problem.predecessors(state)) == sorted(nexts)
    assert problem.goal_states() == [BLANK_FIRST] and problem.is_goal(BLANK_FIRST)
    assert problem.cell_of(state) == 4 == problem.board_cell(state)
    assert problem.state_to_json(state) == [7, 2, 4, 5, 0, 6, 8, 3, 1]
    snap = problem.snapshot(state)
    assert snap["tiles"] == list(state) and snap["rank"] == permutation_rank(state)
    assert permutation_rank(bytes(range(9))) == 0 and permutation_rank(bytes(range(8, -1, -1))) == 362879
    assert "rank" not in SlidingProblem(load(f"{KORF_79}\n{KORF_GOAL}")).snapshot(bytes(range(16)))
    assert inversions(bytes([1, 2, 3, 4, 5, 6, 8, 7, 0]), default_goal(3)) == 1


# ---- the service: API, socket, CLI -------------------------------------------------------------------
@pytest.fixture
def app():
    return make_app(frame_records=50, frame_window=2, ack_timeout=5)


def test_the_api_describes_and_solves_a_board(app) -> None:
    info = upload(app, AIMA.encode(), "aima.txt")
    assert info["family"] == "sliding" and info["n"] == 3 and (info["width"], info["height"]) == (3, 3)
    assert info["tiles"] == [7, 2, 4, 5, 0, 6, 8, 3, 1] and info["goal"] == list(range(9))
    client = app.test_client()
    url = f"/api/puzzles/{info['id']}/solve"
    result = client.post(url, json={"algorithm": "astar", "heuristic": "manhattan"}).get_json()
    assert result["cost"] == 26 and len(result["moves"]) == 26
    assert result["moves"][0] == {"blank": "L", "tile": 5, "text": "slide 5 right"}
    bad = post_file(app.test_client(), b"1 2 3\n4 5 6\n8 7 0\n", "odd.txt")
    assert bad.status_code == 400 and "parity" in bad.get_json()["error"]
    families = {f["name"]: f for f in client.get("/api/families").get_json()}
    sliding = families["sliding"]
    assert sliding["default_algorithm"] == "idastar" and sliding["checks_solutions"] and sliding["editable"]
    assert {f["name"] for f in sliding["features"]} == {"misplaced", "manhattan", "linear_conflict",
                                                         "blank_row", "blank_col"}


def test_the_gallery_boards_open_and_say_their_optimum(app) -> None:
    client = app.test_client()
    for name, moves in (("sliding-aima-3-28", 26), ("sliding-hardest-8", 31)):
        info = client.post("/api/puzzles", json={"gallery": name}).get_json()
        assert info["family"] == "sliding", info
        asked = {"algorithm": "idastar", "heuristic": "linear_conflict"}
        result = client.post(f"/api/puzzles/{info['id']}/solve", json=asked).get_json()
        assert result["cost"] == moves


def test_a_socket_run_records_blank_cells_and_board_snapshots(app) -> None:
    info = upload(app, AIMA.encode(), "aima.txt")
    client = socketio.test_client(app)
    ack = client.emit("run_start", {"run": "s1", "puzzle": info["id"], "algorithm": "astar",
                                    "options": {"heuristic": "manhattan"}}, callback=True)
    assert ack == {"ok": True}
    seen = pump(client, "run_done", "s1")
    frames = [s for s in seen if s["name"] == "run_frame"]
    kinds, cells, _values = records(frames)
    assert len(kinds) == seen[-1]["records"] and ((cells >= 0) & (cells < 9)).all()
    snapshots = [snap for f in frames for snap in f.get("snapshots") or []]
    assert [s["i"] for s in snapshots] == np.flatnonzero(kinds == 1).tolist()  # one per expansion
    assert snapshots[0]["tiles"] == info["tiles"]
    assert snapshots[0]["rank"] == permutation_rank(bytes(info["tiles"]))
    assert all(cells[s["i"]] == s["tiles"].index(0) for s in snapshots)
    result = seen[-1]["result"]
    assert result["cost"] == 26 and result["engine"] == "generic"  # a recorded run: the generic engine
    client.disconnect()


def test_cli_solve_defaults_to_idastar(tmp_path: Path) -> None:
    path = tmp_path / "aima.txt"
    path.write_text(AIMA)
    done = cli("solve", str(path), "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["algorithm"] == "idastar" and result["cost"] == 26 and result["optimal_guaranteed"]
    text = cli("solve", str(path))
    assert "idastar solved the 8-puzzle in 26 moves (optimal)" in text.stdout
    assert "the blank moves: L U R" in text.stdout
    bounded = cli("solve", str(path), "--algorithm", "idastar", "--max-depth", "20")
    assert "no solution of at most 20 moves" in bounded.stdout
    odd = tmp_path / "odd.txt"
    odd.write_text("1 2 3\n4 5 6\n8 7 0\n")
    refused = cli("solve", str(odd))
    assert refused.returncode != 0 and "parity" in refused.stderr + refused.stdout


@pytest.mark.parametrize("algorithm, options", [
    ("dfs", {}), ("greedy", {"heuristic": "manhattan"}), ("dfs", {"max_depth": 40}),
    ("iddfs", {"max_depth": 12}), ("astar", {"heuristic": "manhattan", "weight": 2.0}),
])
def test_other_algorithms_give_legal_moves(algorithm: str, options: dict) -> None:
    board = load("1 2 3\n4 0 6\n7 5 8\n")  # 2 moves
    result = solve(board, algorithm, options).json
    assert result["found"], result
    assert replay(board, result) == default_goal(3)
    if "max_depth" in options:
        assert result["cost"] <= options["max_depth"]


# ---- generators, files, editing ---------------------------------------------------------------------
@pytest.mark.parametrize("n", [3, 4, 5])
def test_random_boards_are_seeded_solvable_and_round_trip(n: int) -> None:
    from server.puzzles.sliding.model import is_solvable

    values = FAMILY.maker.generator("sliding-random").check({"rows": n, "cols": n, "seed": 3})
    made = FAMILY.maker.generate("sliding-random", values).puzzle
    again = FAMILY.maker.generate("sliding-random", values).puzzle
    assert made.tiles == again.tiles and is_solvable(made.tiles, made.goal, n)
    others = {FAMILY.maker.generate("sliding-random", {**values, "seed": s}).puzzle.tiles for s in range(20)}
    assert len(others) == 20
    for fmt in FAMILY.saver.formats:
        back = registry.load_puzzle(FAMILY.saver.save(made, fmt), f"b.{fmt}")
        assert (back.n, back.tiles, back.goal) == (made.n, made.tiles, made.goal)
    korf = FAMILY.maker.generate("sliding-random", {**values, "goal": "blank-first"}).puzzle
    back = registry.load_puzzle(FAMILY.saver.save(korf, "txt"), "b.txt")
    assert back.goal == bytes(range(n * n)) and is_solvable(korf.tiles, korf.goal, n)


def test_random_boards_are_uniform_over_the_solvable_half() -> None:
    from server.puzzles.sliding.generate import random_board

    counts: dict[int, int] = {}
    for seed in range(3000):  # the blank's cell: uniform over 9 cells
        cell = random_board(3, seed, default_goal(3)).tiles.index(0)
        counts[cell] = counts.get(cell, 0) + 1
    assert len(counts) == 9 and max(counts.values()) < 1.35 * min(counts.values())


@pytest.mark.parametrize("depth", [0, 1, 12, 31])
def test_8_puzzle_boards_at_a_depth_are_exactly_that_far(depth: int, distances: dict[bytes, int]) -> None:
    values = FAMILY.maker.generator("sliding-depth").check({"rows": 3, "cols": 3, "seed": 2, "depth": depth})
    made = FAMILY.maker.generate("sliding-depth", values)
    assert distances[made.puzzle.tiles] == depth and "exactly" in made.description
    assert FAMILY.maker.generate("sliding-depth", values).puzzle.tiles == made.puzzle.tiles
    with pytest.raises(PuzzleError, match="farthest are 31"):
        FAMILY.maker.generate("sliding-depth", {**values, "depth": 32})


def test_boards_at_a_depth_on_the_15_puzzle_say_how_far() -> None:
    values = FAMILY.maker.generator("sliding-depth").check({"rows": 4, "cols": 4, "seed": 1, "depth": 20})
    made = FAMILY.maker.generate("sliding-depth", values)
    result = solve(made.puzzle, "idastar", {"heuristic": "linear_conflict"}).json
    assert result["cost"] <= 20 and f"{result['cost']} moves" in made.description
    with pytest.raises(PuzzleError, match="square"):
        FAMILY.maker.generate("sliding-random", {**values, "cols": 3})


def test_edit_operations_and_their_refusals() -> None:
    board = load(AIMA)
    slid = FAMILY.editor.edit(board, [{"op": "slide", "cell": 1}, {"op": "slide", "cell": [0, 0]}])
    assert list(slid.tiles) == [0, 7, 4, 5, 2, 6, 8, 3, 1] and slid.goal == board.goal
    reset = FAMILY.editor.edit(board, [{"op": "set", "tiles": [*range(1, 16), 0]}])
    assert reset.n == 4 and reset.goal == reset.tiles == default_goal(4)
    with pytest.raises(PuzzleError, match="3 rows from its goal row"):  # another size, its default goal
        FAMILY.editor.edit(board, [{"op": "set", "tiles": list(range(16))}])
    goal = FAMILY.editor.edit(board, [{"op": "set_goal", "tiles": [1, 2, 3, 4, 5, 6, 7, 8, 0]}])
    assert goal.goal == default_goal(3)  # AIMA's board can reach both goals (same parity)
    for ops, message in (
        ([{"op": "slide", "cell": 0}], "edit 1 (slide): tile 7 at (row 0, col 0) is not next to the blank"),
        ([{"op": "slide", "cell": 4}], "edit 1 (slide): cell 4 is the blank"),
        ([{"op": "slide", "cell": 1}, {"op": "set", "tiles": [1, 2, 3, 4, 5, 6, 8, 7, 0]}],
         "edit 2 (set): unsolvable by parity"),
        ([{"op": "set_goal", "tiles": [1, 2, 3, 4, 5, 6, 7, 8, 9]}], "edit 1 (set_goal): 9 is out of range"),
        ([{"op": "set_goal", "tiles": list(range(16))}], "16 numbers: the 3 x 3 board needs 9"),
        ([{"op": "turn"}], "unknown operation 'turn'"),
    ):
        with pytest.raises(PuzzleError) as err:
            FAMILY.editor.edit(board, ops)
        assert message in str(err.value), str(err.value)


# ---- the heuristic lab ------------------------------------------------------------------------------
def test_the_lab_judges_formulas_over_the_whole_8_puzzle(tmp_path: Path) -> None:
    path = tmp_path / "aima.txt"
    path.write_text(AIMA)
    done = cli("heuristic", str(path), "--formula", "manhattan", "--json")
    assert done.returncode == 0, done.stderr
    verdict = json.loads(done.stdout)
    assert verdict["admissible"] and verdict["consistent"] and verdict["states"] == 181_440, verdict
    over = json.loads(cli("heuristic", str(path), "--formula", "manhattan + misplaced", "--json").stdout)
    assert not over["admissible"]


def test_a_breadth_first_search_of_the_hardest_8_puzzle_sends_every_board_it_expands() -> None:
    """The page lights the 8-puzzle's whole state space from the snapshots: none may be capped."""
    path = ROOT / "mazes" / "sliding-hardest-8.txt"
    solved = solve(registry.load_puzzle(path.read_bytes(), path.name), "bfs", {}, record_trace=True)
    assert solved.json["cost"] == 31 and "snapshots_capped" not in solved.json
    assert len(solved.snapshots) == solved.json["expanded"] > 180_000
    assert len({s["rank"] for s in solved.snapshots}) == len(solved.snapshots)
