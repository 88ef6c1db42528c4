"""The student-code harness (static/js/code/harness.py) in plain CPython: the `problem` of
docs/STUDENT.md over a hand-made space (PROTOCOL.md "Student mode"), the solved programs of
tests/code_programs/ expanding exactly as the server's algorithms do, the limits, the errors with the
student's own line numbers, and the templates handed out."""

from __future__ import annotations

import importlib.util
import itertools
import json
import re
import sys
from collections import deque
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from server.search.algorithms.best_first import best_first
from server.search.algorithms.breadth_first import breadth_first
from server.search.algorithms.depth_first import depth_first
from server.search.algorithms.iterative import idastar
from server.search.algorithms.replay import Numbering, unpack_ids
from server.search.problem import Problem

ROOT = Path(__file__).resolve().parents[1]
CODE = ROOT / "static" / "js" / "code"
PROGRAMS = Path(__file__).parent / "code_programs"
TEMPLATES = ("bfs", "dfs", "ucs", "astar", "idastar")


def _load_harness() -> Any:
    spec = importlib.util.spec_from_file_location("code_harness", CODE / "harness.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclass-free, but keep it importable like any module
    spec.loader.exec_module(module)
    return module


harness = _load_harness()

Cell = tuple[int, int]


class Board(Problem):
    """A small board of cells (row, col), four moves in the order up, down, left, right; entering a
    cell costs its weight (1 unless given); walls are never entered. Manhattan distance is the
    heuristic (admissible: every weight is at least 1)."""

    def __init__(self, rows: int, cols: int, starts: list[Cell], goal: Cell,
                 walls: Iterable[Cell] = (), weights: dict[Cell, float] | None = None) -> None:
        self.rows, self.cols = rows, cols
        self.starts, self.goal = starts, goal
        self.walls = set(walls)
        self.weights = weights or {}
        self.unit_costs = not self.weights
        self.heuristics = ("manhattan",)

    def initial_states(self) -> list[Cell]:
        return list(self.starts)

    def goal_states(self) -> list[Cell]:
        return [self.goal]

    def is_goal(self, state: Cell) -> bool:
        return state == self.goal

    def successors(self, state: Cell) -> list[tuple[Cell, float]]:
        r, c = state
        out = []
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= nr < self.rows and 0 <= nc < self.cols and (nr, nc) not in self.walls:
                out.append(((nr, nc), float(self.weights.get((nr, nc), 1))))
        return out

    def predecessors(self, state: Cell) -> list[tuple[Cell, float]]:
        cost = float(self.weights.get(state, 1))
        return [(prev, cost) for prev, _ in self.successors(state)]

    def heuristic(self, state: Cell, name: str = "") -> float:
        return float(abs(state[0] - self.goal[0]) + abs(state[1] - self.goal[1]))


class Recorded(Problem):
    """A problem whose calls of ``successors`` are recorded: the server's expansions as a student's
    program counts them (one call, one expansion)."""

    def __init__(self, inner: Problem) -> None:
        self.inner = inner
        self.calls: list[Any] = []
        self.unit_costs, self.heuristics = inner.unit_costs, inner.heuristics

    def initial_states(self) -> list[Any]:
        return self.inner.initial_states()

    def goal_states(self) -> list[Any]:
        return self.inner.goal_states()

    def is_goal(self, state: Any) -> bool:
        return self.inner.is_goal(state)

    def successors(self, state: Any) -> list[tuple[Any, float]]:
        self.calls.append(state)
        return list(self.inner.successors(state))

    def predecessors(self, state: Any) -> list[tuple[Any, float]]:
        return list(self.inner.predecessors(state))

    def heuristic(self, state: Any, name: str) -> float:
        return self.inner.heuristic(state, name)


def space_of(problem: Board, max_walked: int | None = None) -> dict[str, Any]:
    """The space JSON of PROTOCOL.md, walked breadth-first (the first ``max_walked`` states only)."""
    states: list[Cell] = []
    index: dict[Cell, int] = {}
    for s in problem.initial_states():
        if s not in index:
            index[s] = len(states)
            states.append(s)
    offsets, targets, costs = [0], [], []
    queue = deque(range(len(states)))
    walked = 0
    while queue and (max_walked is None or walked < max_walked):
        i = queue.popleft()
        assert i == walked  # breadth-first: states are walked in id order
        for nxt, cost in problem.successors(states[i]):
            if nxt not in index:
                index[nxt] = len(states)
                states.append(nxt)
                queue.append(index[nxt])
            targets.append(index[nxt])
            costs.append(cost)
        offsets.append(len(targets))
        walked += 1
    complete = walked == len(states)
    return {
        "count": len(states),
        "walked": walked,
        "states": [list(s) for s in states],
        "start": [index[s] for s in problem.initial_states()],
        "goal": [i for i, s in enumerate(states) if problem.is_goal(s)],
        "offsets": offsets,
        "targets": targets,
        "costs": costs,
        "unit_costs": problem.unit_costs,
        "heuristics": {"manhattan": [problem.heuristic(s) for s in states]},
        "heuristic": "manhattan",
        "state_form": "(row, col)",
        "complete": complete,
        "stopped": None if complete else "code_max_states",
    }


def run(code: str, space: dict[str, Any], steps: int = 150_000) -> tuple[dict[str, Any], list[str]]:
    """Run ``code`` through the harness; the result and the pieces of text it wrote."""
    written: list[str] = []
    result = harness.run_student(code, json.dumps(space), steps, written.append)
    return result, written


def program(name: str) -> str:
    return (PROGRAMS / f"{name}.py").read_text()


def finish(search: Any) -> tuple[list[Any] | None, float]:
    """Run a server search generator to its end; its (path, cost)."""
    try:
        while True:
            next(search)
    except StopIteration as stop:
        return stop.value


# The 3x3 board of PROTOCOL's example, open; a walled and weighted 4x4 one where the orders differ;
# and one with two starts.
OPEN3 = Board(3, 3, [(0, 0)], (2, 2))
WALLED = Board(
    4, 4, [(0, 0)], (3, 3), walls=[(1, 1), (1, 2), (2, 1)], weights={(0, 2): 5, (2, 0): 3, (3, 1): 2}
)
TWO_STARTS = Board(3, 4, [(2, 3), (0, 0)], (1, 2), walls=[(1, 1)])
BOARDS = {"open3": OPEN3, "walled": WALLED, "two_starts": TWO_STARTS}
SERVER = {
    "bfs": lambda p: breadth_first(p),
    "dfs": lambda p: depth_first(p),
    "ucs": lambda p: best_first(p, "dijkstra"),
    "astar": lambda p: best_first(p, "astar", "manhattan"),
    "idastar": lambda p: idastar(p, "manhattan"),
}
OPTIMAL = {"bfs": "unit", "dfs": None, "ucs": "any", "astar": "any", "idastar": "any"}


def replayed(problem: Problem, result: dict[str, Any]) -> tuple[list[Any], list[Any], float | None]:
    """The server's reading of a run (server/search/algorithms/replay.py): the expanded states, the
    path's states and its cost (None without a path)."""
    numbering = Numbering(problem)
    numbering.expand_all(result["expanded"])
    ids, costs = numbering.path(result["path"])
    states = numbering.states
    return [states[i] for i in result["expanded"]], [states[i] for i in ids], costs[-1] if costs else None


def check_path(problem: Problem, result: dict[str, Any]) -> float:
    """The path is a start, moves of the puzzle, a goal; its cost."""
    _expanded, path, cost = replayed(problem, result)
    assert path[0] in problem.initial_states() and problem.is_goal(path[-1])
    total = 0.0
    for a, b in itertools.pairwise(path):
        total += min(c for nxt, c in problem.successors(a) if nxt == b)
    assert total == cost
    return total


@pytest.mark.parametrize("board", list(BOARDS))
@pytest.mark.parametrize("name", list(SERVER))
def test_the_solved_programs_expand_as_the_server_does(name: str, board: str) -> None:
    problem = BOARDS[board]
    space = space_of(problem)
    recorded = Recorded(problem)
    _path, server_cost = finish(SERVER[name](recorded))
    result, _ = run(program(name), space)
    assert result["error"] is None and result["stopped"] is None
    assert replayed(problem, result)[0] == recorded.calls
    cost = check_path(problem, result)
    _opt_path, optimum = finish(best_first(problem, "dijkstra"))
    if OPTIMAL[name] == "any" or (OPTIMAL[name] == "unit" and problem.unit_costs):
        assert cost == optimum == server_cost
    assert isinstance(result["seconds"], float)


def test_a_stack_in_place_of_the_queue_expands_in_another_order() -> None:
    space = space_of(OPEN3)
    queue, _ = run(program("bfs"), space)
    stack, _ = run(program("bfs_stack"), space)
    # Both expand the start first; then the queue takes its first successor, the stack its last.
    assert queue["expanded"][:2] == [0, 1] and stack["expanded"][:2] == [0, 2]
    assert stack["error"] is None and stack["path"] is not None


def test_the_state_forms_become_tuples_and_the_api_works() -> None:
    space = space_of(WALLED)
    code = """
def search(problem):
    print(problem.start, type(problem.start).__name__, problem.starts)
    print(problem.is_goal((3, 3)), problem.is_goal(problem.start))
    print(problem.heuristic((0, 0)), problem.heuristics["manhattan"]((3, 0)))
    print(problem.successors((0, 0)))
    print(problem.cost([(0, 0), (0, 1), (0, 2)]), problem.cost([(0, 0)]), problem.cost([]))
    return None
"""
    result, written = run(code, space)
    assert result["error"] is None, result["error"]
    assert result["path"] is None and result["expanded"] == [0]
    lines = "".join(written).splitlines()
    assert lines == [
        "(0, 0) tuple ((0, 0),)",
        "True False",
        "6.0 3.0",
        "[((1, 0), 1.0), ((0, 1), 1.0)]",
        "6.0 0 0",
    ]


def test_nested_lists_become_nested_tuples() -> None:
    space = space_of(OPEN3)
    space["states"] = [[[r, c], "board", [r, [c]]] for r, c in space["states"]]
    code = "def search(problem):\n    print(problem.start)\n    return [problem.start]\n"
    result, written = run(code, space)
    assert "".join(written) == "((0, 0), 'board', (0, (0,)))\n"
    assert result["path"] == [0]


def test_cost_refuses_a_path_that_is_not_made_of_moves() -> None:
    code = "def search(problem):\n    return problem.cost([(0, 0), (1, 1)])\n"
    result, _ = run(code, space_of(OPEN3))
    assert result["error"]["kind"] == "ValueError"
    assert result["error"]["message"] == "cost: move 1: (0, 0) → (1, 1) is not a move of this puzzle"
    assert result["error"]["line"] == 2


def test_the_step_limit_stops_the_run_with_the_expansions_so_far() -> None:
    result, _ = run(program("bfs"), space_of(WALLED), steps=3)
    assert result["stopped"] == "step limit: 3 expansions (calls of successors)"
    assert result["error"] is None and result["path"] is None
    assert len(result["expanded"]) == 3


def test_the_default_step_limit_reads_150000_and_is_not_swallowed_by_except_exception() -> None:
    code = """
def search(problem):
    while True:
        try:
            problem.successors(problem.start)
        except Exception:
            return [problem.start]
"""
    result, _ = run(code, space_of(OPEN3))
    assert result["stopped"] == "step limit: 150,000 expansions (calls of successors)"
    assert result["error"] is None and result["path"] is None
    assert len(result["expanded"]) == 150_000


def test_a_step_limit_caught_by_a_bare_except_still_stops_the_run() -> None:
    code = """
def search(problem):
    for _ in range(10):
        try:
            problem.successors(problem.start)
        except:  # noqa: E722
            pass
    return [problem.start]
"""
    result, _ = run(code, space_of(OPEN3), steps=4)
    assert result["stopped"] == "step limit: 4 expansions (calls of successors)"
    assert result["path"] is None and len(result["expanded"]) == 4


def test_a_syntax_error_gives_the_students_line() -> None:
    code = "def search(problem):\n    x = 1\n    return [problem.start\n\nprint('never')\n"
    result, _ = run(code, space_of(OPEN3))
    error = result["error"]
    assert error["kind"] == "SyntaxError"
    assert error["line"] == 3
    assert 'File "yours.py", line 3' in error["traceback"]
    assert "harness" not in error["traceback"]
    assert result["expanded"] == [] and result["path"] is None


def test_an_indentation_error_is_its_own_kind() -> None:
    result, _ = run("def search(problem):\nreturn None\n", space_of(OPEN3))
    assert result["error"]["kind"] == "IndentationError" and result["error"]["line"] == 2


def test_a_runtime_error_carries_only_the_students_frames() -> None:
    result, _ = run(program("crash"), space_of(OPEN3))
    error = result["error"]
    assert error["kind"] == "KeyError"
    assert error["message"] == "(1, 0)"
    assert error["line"] == 7
    tb = error["traceback"]
    assert tb.startswith("Traceback (most recent call last):\n")
    assert re.findall(r'File "([^"]+)", line (\d+), in (\w+)', tb) == [("yours.py", "7", "search")]
    assert "depth[nxt] = depth[nxt] + 1" in tb  # the source line is shown
    assert tb.rstrip().endswith("KeyError: (1, 0)")
    assert "harness" not in tb and "code_programs" not in tb
    assert result["expanded"] == [0]


def test_an_error_in_a_helper_shows_each_of_the_students_frames() -> None:
    code = """def helper(problem, n):
    return problem.successors(n)


def search(problem):
    return helper(problem, (7, 7))
"""
    result, _ = run(code, space_of(OPEN3))
    error = result["error"]
    assert error["kind"] == "ValueError"
    assert error["message"] == "successors: (7, 7) is not a state of this puzzle (a state is (row, col))"
    assert error["line"] == 2
    assert re.findall(r'File "([^"]+)", line (\d+), in (\w+)', error["traceback"]) == [
        ("yours.py", "6", "search"),
        ("yours.py", "2", "helper"),
    ]


def test_a_list_given_for_a_state_says_states_are_tuples() -> None:
    result, _ = run("def search(problem):\n    return problem.is_goal([0, 0])\n", space_of(OPEN3))
    assert result["error"]["message"] == (
        "is_goal: [0, 0] is a list, not a state of this puzzle: states are tuples, (row, col)"
    )


def test_an_error_at_the_top_level_of_the_code_gives_its_line() -> None:
    result, _ = run("import math\n\nx = 1 / 0\n", space_of(OPEN3))
    assert result["error"]["kind"] == "ZeroDivisionError" and result["error"]["line"] == 3


def test_a_missing_search_says_what_to_define() -> None:
    result, _ = run("def serach(problem):\n    return None\n", space_of(OPEN3))
    error = result["error"]
    assert error["kind"] == "NameError"
    assert "def search(problem)" in error["message"] and "defines no search function" in error["message"]
    result, _ = run("search = 3\n", space_of(OPEN3))
    assert "defines search as 3" in result["error"]["message"]


def test_a_deep_recursion_is_a_recursion_error_on_the_students_line() -> None:
    code = """def down(n):
    return down(n + 1)


def search(problem):
    return down(0)
"""
    limit = sys.getrecursionlimit()
    result, _ = run(code, space_of(OPEN3))
    error = result["error"]
    assert error["kind"] == "RecursionError" and error["line"] == 2
    assert error["traceback"].count("\n") < 80  # the repeated frames are collapsed
    assert "Previous line repeated" in error["traceback"]
    assert sys.getrecursionlimit() == limit  # put back after the run


def test_what_search_returns_must_be_a_list_of_states() -> None:
    space = space_of(OPEN3)
    result, _ = run(program("not_a_list"), space)
    error = result["error"]
    assert error["kind"] == "PathError" and error["line"] is None
    assert error["message"].startswith("search returned {(0, 0): None, ")
    expected = "(dict); expected the path: a list of states from problem.start to a goal, or None"
    assert expected in error["message"]
    assert result["path"] is None and result["expanded"]

    # A path of states that is no path of this puzzle is judged (illegal), not an error of the program.
    result, _ = run("def search(problem):\n    return [(0, 0), (0, 1), (0, 2), (9, 9)]\n", space)
    assert result["error"] is None and result["path"] is None
    assert result["illegal"] == "move 3: (0, 2) → (9, 9) is not a move of this puzzle"
    result, _ = run("def search(problem):\n    return [(0, 1), (0, 2)]\n", space)
    assert result["illegal"] == "it starts at (0, 1), not at the start (0, 0)"

    # [row, col] lists name the same states; the path is sent as its start and the index of each move.
    result, _ = run("def search(problem):\n    return [[0, 0], [0, 1]]\n", space)
    assert result["error"] is None and result["path"] == [0, 1]  # up is no move from (0, 0): right is the 2nd
    assert replayed(OPEN3, result)[1] == [(0, 0), (0, 1)]
    result, _ = run("def search(problem):\n    return [[0, 0], {1}]\n", space)
    assert result["error"]["message"] == "path[1] = {1} is not a state of this puzzle (a state is (row, col))"

    result, _ = run("def search(problem):\n    return problem.start\n", space)
    assert result["error"]["message"].startswith("search returned a single state, (0, 0); expected the path")

    result, _ = run("def search(problem):\n    return ((0, 0), (0, 1))\n", space)
    assert result["error"] is None and result["path"] == [0, 1]  # a tuple of states is a path too


def test_a_state_beyond_the_walked_part_says_so() -> None:
    space = space_of(OPEN3, max_walked=4)
    assert space["walked"] == 4 and space["count"] > 4
    result, _ = run(program("bfs"), space)
    error = result["error"]
    assert error["kind"] == "SpaceLimit"
    assert error["message"] == (
        "successors((1, 1)): the server walked only 4 states of this puzzle (code_max_states)"
        " and this one lies beyond: its moves are unknown here"
    )
    assert error["line"] == 27  # state = frontier.popleft() ... for nxt in problem.successors(state)
    assert result["expanded"] == [0, 1, 2, 3]


def test_a_space_limit_caught_by_the_program_is_still_reported() -> None:
    code = """
def search(problem):
    try:
        problem.successors((1, 1))
    except BaseException:
        pass
    return [problem.start]
"""
    result, _ = run(code, space_of(OPEN3, max_walked=2))
    assert result["error"]["kind"] == "SpaceLimit" and result["path"] is None


def test_print_output_streams_through_write_line_by_line() -> None:
    code = """import sys
def search(problem):
    print("expanding", problem.start)
    print("partial", end="")
    print(" done")
    sys.stderr.write("to stderr\\n")
    return None
"""
    result, written = run(code, space_of(OPEN3))
    assert result["error"] is None
    assert written == ["expanding (0, 0)\n", "partial done\n", "to stderr\n"]
    assert not isinstance(sys.stdout, harness.Output)  # put back after the run


def test_print_output_is_cut_at_64_kb_with_one_line_saying_so() -> None:
    code = "def search(problem):\n    for i in range(20000):\n        print('x' * 9)\n    return None\n"
    result, written = run(code, space_of(OPEN3))
    text = "".join(written)
    kept, _, note = text.rpartition("\n… ")
    assert len(kept) == 64 * 1024
    assert note == "the rest of the output was cut: only the first 64 KB are shown\n"
    assert result["error"] is None


def test_input_reads_end_of_file() -> None:
    result, _ = run("def search(problem):\n    return input()\n", space_of(OPEN3))
    assert result["error"]["kind"] == "EOFError" and result["error"]["line"] == 2


def test_two_runs_are_independent() -> None:
    code = """seen = []
calls = 0


def search(problem):
    global calls
    calls += 1
    seen.append(problem.start)
    print(len(seen), calls)
    problem.start = None
    return None
"""
    space = space_of(OPEN3)
    limit = sys.getrecursionlimit()
    first, out1 = run(code, space)
    second, out2 = run(code, space)
    assert out1 == out2 == ["1 1\n"]
    assert first == {**second, "seconds": first["seconds"]}
    assert sys.getrecursionlimit() == limit
    again, _ = run(program("bfs"), space)
    assert again["error"] is None and again["path"] is not None


def test_run_json_gives_nulls() -> None:
    text = harness.run_json("def search(problem):\n    return None\n", json.dumps(space_of(OPEN3)), 10, print)
    answer = json.loads(text)
    assert answer["path"] is None and answer["error"] is None and answer["stopped"] is None
    assert set(answer) == {"expanded", "count", "path", "illegal", "error", "stopped", "reached", "seconds"}


def test_the_packed_ids_are_read_back_by_the_server() -> None:
    """The harness packs the expanded ids (a character or so each); the server's replay reads them."""
    cases = [[], [0], [0, 1, 2, 3], [5, 3, 1_000_000, 0, 31, 32, 33, 2**40], list(range(0, 100_000, 7))]
    for ids in cases:
        text = harness.pack_ids(ids)
        assert unpack_ids(text, len(ids)) == ids
    assert len(harness.pack_ids(range(100_000))) == 100_000  # breadth-first: a character an expansion
    with pytest.raises(ValueError, match="not the 3 announced"):
        unpack_ids(harness.pack_ids([1, 2]), 3)
    with pytest.raises(ValueError, match="middle of a number"):
        unpack_ids("g")
    with pytest.raises(ValueError, match="negative id"):
        unpack_ids("B")
    with pytest.raises(ValueError, match="not one of their 64 characters"):
        unpack_ids("A,A")


@pytest.mark.parametrize("name", [*TEMPLATES, *(f"{name}.de" for name in TEMPLATES)])
def test_each_template_compiles_marks_its_todos_and_runs_up_to_the_first(name: str) -> None:
    """The English skeletons and the German ones (templates/<name>.de.py, for a page in German)."""
    source = (CODE / "templates" / f"{name}.py").read_text()
    compile(source, f"{name}.py", "exec")
    lines = source.splitlines()
    todos = [i for i, line in enumerate(lines) if line.strip().startswith("# TODO:")]
    assert len(todos) >= 2, f"{name}.py marks fewer than two TODOs"
    raises = [i for i, line in enumerate(lines) if 'raise NotImplementedError("TODO: ' in line]
    for i in todos:  # each TODO comment (perhaps on two lines) is followed by its raise
        after = next(j for j in range(i + 1, len(lines)) if not lines[j].strip().startswith("#"))
        assert after in raises, f"{name}.py line {i + 1}: the TODO has no raise NotImplementedError after it"
    assert lines[0].startswith('"""') and "TODO" in source.split('"""')[1]
    result, _ = run(source, space_of(OPEN3))
    error = result["error"]
    assert error["kind"] == "NotImplementedError" and error["message"].startswith("TODO: ")
    assert error["line"] - 1 in raises


def test_the_harness_and_the_programs_compile() -> None:
    compile((CODE / "harness.py").read_text(), "harness.py", "exec")
    for path in PROGRAMS.glob("*.py"):
        compile(path.read_text(), path.name, "exec")
