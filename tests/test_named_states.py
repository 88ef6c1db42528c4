"""Issue 30: every family's trace names its states (frames' ``named``, docs/PROTOCOL.md) so the page can
rebuild the frontier, and each family writes a state in one notation (``Family.state_text`` /
``json_text``: the lab, the checker, student mode and the page's ``FamilyView.stateLabel``)."""

from __future__ import annotations

import heapq
import json
import struct
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from server.live.frames import frames
from server.puzzles.family import LoadLimits, RunControl
from server.puzzles.registry import get_family
from server.search.events import CLOSE, OPEN, PATH, UPDATE

MAZES = Path(__file__).resolve().parent.parent / "mazes"


def load(name: str) -> tuple[Any, Any]:
    """A gallery puzzle and its family."""
    entry = next(e for e in json.loads((MAZES / "gallery.json").read_text()) if e["name"] == name)
    family = get_family(entry["family"])
    data = (MAZES / entry["file"]).read_bytes()
    return family, family.load(data, entry["file"], family.load_options({}), LoadLimits())


def recorded(name: str, algorithm: str, **options: Any) -> tuple[Any, Any, Any]:
    family, puzzle = load(name)
    values = family.run_options(options)
    solved = family.solve(puzzle, algorithm, values, RunControl(record_trace=True, engine="generic"))
    return family, puzzle, solved


def wire(solved: Any, per_frame: int = 97) -> tuple[np.ndarray, list[float], list[Any]]:
    """What the page receives: the records' state numbers, each state's h and board, over frames."""
    numbers: list[int] = []
    h: list[float] = []
    boards: list[Any] = []
    for frame in frames("r", solved.trace, per_frame, solved.snapshots, solved.named):
        named = frame["named"]
        assert named["first"] == (max(numbers) + 1 if numbers else 0), "each state introduced once, in order"
        numbers += [n for (n,) in struct.iter_unpack("<i", named["states"])]
        if "h" in named:
            h += [v for (v,) in struct.iter_unpack("<f", named["h"])]
        boards += named.get("boards", [])
    return np.array(numbers), h, boards


@pytest.mark.parametrize(("name", "algorithm", "options"), [
    ("sliding-aima-3-28", "astar", {"heuristic": "manhattan"}),
    ("sliding-aima-3-28", "bfs", {}),
    ("labyrinth-course-5x5", "astar", {}),
    ("zenji-free-5x5", "astar", {}),
    ("zenji-downhill-6x6", "greedy", {}),
])
def test_the_frames_name_every_state_and_the_frontier_can_be_rebuilt(
    name: str, algorithm: str, options: dict,
) -> None:
    family, puzzle, solved = recorded(name, algorithm, **options)
    numbers, h, boards = wire(solved)
    trace = solved.trace
    assert len(numbers) == len(trace), "one number a record"
    assert numbers.min() >= 0
    # Numbered in the order of first appearance: each new number is the next one.
    seen = -1
    for n in numbers:
        assert n <= seen + 1
        seen = max(seen, int(n))
    count = seen + 1
    problem = family.run_problem(puzzle, family.run_options(options))
    if problem.has_snapshots:
        assert len(boards) == count
    uses_h = algorithm in ("astar", "greedy")
    assert (len(h) == count) if uses_h else not h
    # The page's rebuild, done here the way static/js/explain/frontier.js does it: a heap by
    # (f, h, insertion order) over the numbers, with lazy deletion; every pop must be the trace's next
    # expansion (which the cells alone, shared by several states, could not tell).
    kinds = trace.kinds
    heap: list[tuple[float, float, int, int]] = []
    latest: dict[int, int] = {}
    closed: set[int] = set()
    order = 0
    for r, kind in enumerate(kinds):
        state, g = int(numbers[r]), float(trace.values[r])
        if kind in (OPEN, UPDATE):
            if algorithm == "bfs":
                heap.append((0.0, 0.0, order, state))
            else:
                hs = h[state] if uses_h else 0.0
                f = hs if algorithm == "greedy" else g + hs
                heapq.heappush(heap, (f, hs, order, state))
            latest[state] = order
            order += 1
        elif kind == CLOSE:
            while True:
                entry = heap.pop(0) if algorithm == "bfs" else heapq.heappop(heap)
                if entry[3] in closed or latest[entry[3]] != entry[2]:
                    continue  # stale
                break
            assert entry[3] == state, f"record {r}: the rebuilt frontier pops another state"
            closed.add(state)
        elif kind == PATH and algorithm == "bfs":
            break


def test_h_is_the_servers_and_the_boards_are_the_states() -> None:
    family, puzzle, solved = recorded("sliding-aima-3-28", "astar", heuristic="manhattan")
    numbers, h, boards = wire(solved, per_frame=1000)
    problem = family.problem(puzzle, {})
    for n, board in enumerate(boards[:200]):
        assert h[n] == problem.heuristic(bytes(board["tiles"]), "manhattan")
    assert boards[0]["tiles"] == list(puzzle.tiles)  # the start first
    # A record's cell is the blank of its numbered board.
    for r in range(0, len(numbers), 37):
        assert solved.trace.cells[r] == boards[numbers[r]]["tiles"].index(0)


def test_grid_and_step_traces_send_no_names() -> None:
    for name, algorithm in (("rooms", "astar"), ("step-seed-003", "astar")):
        _, _, solved = recorded(name, algorithm)
        assert solved.named is None
        assert all("named" not in f for f in frames("r", solved.trace, 500, solved.snapshots, solved.named))


@pytest.mark.parametrize(("name", "json_form", "text"), [
    ("rooms", [3, 4], "(3, 4)"),
    ("step-seed-003", [3, 4, 1], "(3, 4) phase 1"),
    ("zenji-downhill-6x6", [2, 3, 1], "(2, 3) turned 1"),
    ("sliding-aima-3-28", [7, 2, 4, 5, 0, 6, 8, 3, 1], "7 2 4 / 5 _ 6 / 8 3 1"),
    ("labyrinth-course-5x5",
     {"player": [2, 3], "on": "board", "free": 10, "board": "0123/4567/8901/2345/6789"},
     "(2, 3) · hand ┼ · ┌┐└┘ / ┬┤┴├ / │─┌┐ / └┘┬┤ / ┴├│─"),
])
def test_each_family_writes_a_state_one_way(name: str, json_form: Any, text: str) -> None:
    family, _ = load(name)
    assert family.json_text(json_form) == text


def test_state_text_of_the_search_states_is_the_json_forms_words() -> None:
    for name in ("sliding-aima-3-28", "labyrinth-course-5x5", "step-seed-003", "zenji-downhill-6x6", "rooms"):
        family, puzzle = load(name)
        problem = family.problem(puzzle, family.run_options({}))
        for state in problem.initial_states():
            assert family.state_text(problem, state) == family.json_text(problem.state_to_json(state))
    family, puzzle = load("sliding-aima-3-28")
    assert family.state_text(family.problem(puzzle, {}), puzzle.tiles) == "7 2 4 / 5 _ 6 / 8 3 1"
    family, puzzle = load("zenji-free-5x5")
    problem = family.problem(puzzle, family.run_options({}))
    start = problem.initial_states()[0]
    assert family.state_text(problem, start).endswith("· 1 tile passed")


def test_the_labs_worst_states_are_written_in_the_notation() -> None:
    from server.judging import judge_formula

    family, puzzle = load("sliding-aima-3-28")
    verdict = judge_formula(puzzle, "manhattan * 2", family.run_options({}), max_states=200_000)
    assert verdict.worst is not None and verdict.worst_move is not None
    assert verdict.worst["text"] == family.json_text(verdict.worst["state"])
    assert " / " in verdict.worst["text"] and "_" in verdict.worst["text"]
    assert verdict.worst_move["from_text"].count("/") == 2
    assert verdict.worst["text"] in verdict.summary()
