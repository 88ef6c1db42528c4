"""Runs a student's ``search(problem)`` over a puzzle's space (docs/STUDENT.md, PROTOCOL.md "Student mode").

The worker (static/js/code/worker.js) runs this file once in Pyodide, then calls ``run_json`` for each
run; the tests run it in plain CPython and call ``run_student``. Standard library only.

The space is the JSON of ``POST /api/puzzles/<id>/code/space``: states in their student form (every
JSON list becomes a tuple, so states are hashable), the successors of state ``i < walked`` in CSR form
(``targets[offsets[i]:offsets[i + 1]]`` with ``costs``), the start and goal ids and each heuristic's
value per state. ``problem.successors`` records each call as one expansion; the ids of the expanded
states and of the returned path are what the page sends to the server to be judged.
"""

from __future__ import annotations

import builtins
import io
import json
import linecache
import math
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from typing import Any

FILENAME = "yours.py"  # the student's code, as tracebacks name it
STEP_LIMIT = 150_000  # calls of successors, unless the caller says otherwise
OUTPUT_LIMIT = 64 * 1024  # characters of printed output passed on, in all
# Deep enough for a recursive search, shallow enough to fail cleanly: in a browser's worker the stack
# is small, and a RecursionError past about 3,000 frames overflows it as the frames are freed (a crash
# of Python, not an error with the student's line). Measured in headless Chromium.
RECURSION_LIMIT = 2000
TRACEBACK_LINES = 60  # formatted frame lines kept (a runaway recursion has thousands)
FLUSH_AT = 4096  # buffered characters sent on even without a newline

State = Any  # a tuple (or a number or a string) in the family's student form
Write = Callable[[str], object]


class StepLimit(BaseException):
    """The run used up its calls of ``successors``.

    A BaseException, so that a student's ``except Exception`` does not swallow the stop.
    """


class SpaceLimit(BaseException):
    """A state the server reached but did not walk: its successors are unknown here."""


class PathError(Exception):
    """``search`` returned something that is not a path of this puzzle's states, nor None."""


def freeze(value: Any) -> Any:
    """A JSON value with every list turned into a tuple, recursively (so it can be hashed)."""
    if type(value) is not list:
        return value
    for item in value:
        if type(item) is list:
            return tuple(map(freeze, value))
    return tuple(value)


class Space:
    """The parsed space: read-only after construction, so it can serve several runs."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.states: tuple[State, ...] = tuple(map(freeze, data["states"]))
        self.index: dict[State, int] = {state: i for i, state in enumerate(self.states)}
        self.offsets: list[int] = data["offsets"]
        self.targets: list[int] = data["targets"]
        costs = data.get("costs")
        self.costs: list[float] = costs if costs is not None else [1] * len(self.targets)
        walked = data.get("walked")
        self.walked: int = len(self.offsets) - 1 if walked is None else walked
        self.starts: tuple[int, ...] = tuple(data.get("start") or ())
        self.goals: frozenset[int] = frozenset(data.get("goal") or ())
        # A null value is a state from which the heuristic sees no way to a goal.
        self.heuristics: dict[str, list[float]] = {
            name: [math.inf if v is None else v for v in values]
            for name, values in (data.get("heuristics") or {}).items()
        }
        default = data.get("heuristic") or ""
        self.heuristic: str = default if default in self.heuristics else ""
        self.state_form: str = data.get("state_form") or "a tuple"
        self.stopped: str = data.get("stopped") or ""
        self.moves: list[tuple[tuple[State, float], ...] | None] = [None] * self.walked


_cached: tuple[str, Space] | None = None


def parse_space(space_json: str) -> Space:
    """The space of this JSON text; the last one is kept, as runs on one puzzle send the same text."""
    global _cached
    if _cached is not None and _cached[0] == space_json:
        return _cached[1]
    space = Space(json.loads(space_json))
    _cached = (space_json, space)
    return space


class Problem:
    """What the student's ``search`` receives: the API of docs/STUDENT.md over one space."""

    __slots__ = ("_expanded", "_fault", "_space", "_steps", "_stop", "heuristics", "start", "starts")

    def __init__(self, space: Space, steps: int) -> None:
        self._space = space
        self._steps = steps
        self._stop: str | None = None  # the step-limit message, once successors went past the limit
        self._expanded: list[int] = []  # ids, one per call of successors
        self._fault: SpaceLimit | None = None  # kept: the program may catch the stop and go on
        self.starts: tuple[State, ...] = tuple(space.states[i] for i in space.starts)
        self.start: State = self.starts[0] if self.starts else None
        self.heuristics: dict[str, Callable[[State], float]] = {
            name: self._heuristic_of(name) for name in space.heuristics
        }

    def __repr__(self) -> str:
        space = self._space
        return f"<problem: {len(space.states):,} states, start {self.start!r}, a state is {space.state_form}>"

    def _id(self, state: State, where: str) -> int:
        """The id of a state of this puzzle; a ValueError naming it and the state form otherwise."""
        try:
            found = self._space.index.get(state)
        except TypeError:  # unhashable: a list, a set, a dict
            found = None
        if found is not None:
            return found
        form = self._space.state_form
        if isinstance(state, list):
            raise ValueError(
                f"{where}: {_short(state)} is a list, not a state of this puzzle: states are tuples, {form}"
            )
        raise ValueError(f"{where}: {_short(state)} is not a state of this puzzle (a state is {form})")

    def _beyond(self, state: State, where: str) -> SpaceLimit:
        space = self._space
        why = f" ({space.stopped})" if space.stopped else ""
        stop = SpaceLimit(
            f"{where}({_short(state)}): the server walked only {space.walked:,} states of this puzzle{why}"
            f" and this one lies beyond: its moves are unknown here"
        )
        if self._fault is None:
            self._fault = stop
        return stop

    def successors(self, state: State) -> list[tuple[State, float]]:
        """The ``(state, cost)`` pairs one move from ``state``, in the server's order: one expansion."""
        space = self._space
        try:
            i = space.index[state]
        except (KeyError, TypeError):  # not a state of this puzzle: _id says so
            i = self._id(state, "successors")
        if len(self._expanded) >= self._steps:
            self._stop = f"step limit: {self._steps:,} expansions (calls of successors)"
            raise StepLimit(self._stop)
        if i >= space.walked:
            raise self._beyond(state, "successors")
        self._expanded.append(i)
        moves = space.moves[i]
        if moves is None:  # built once per state and space, then shared by every run on it
            lo, hi = space.offsets[i], space.offsets[i + 1]
            moves = space.moves[i] = tuple(
                zip(map(space.states.__getitem__, space.targets[lo:hi]), space.costs[lo:hi], strict=True)
            )
        return list(moves)  # the student's own list: sorting or reversing it changes nothing here

    def is_goal(self, state: State) -> bool:
        """True when ``state`` is a goal."""
        try:
            return self._space.index[state] in self._space.goals
        except (KeyError, TypeError):
            return self._id(state, "is_goal") in self._space.goals

    def heuristic(self, state: State) -> float:
        """The family's default heuristic at ``state``; 0 where the family has none."""
        i = self._id(state, "heuristic")
        name = self._space.heuristic
        return self._space.heuristics[name][i] if name else 0

    def _heuristic_of(self, name: str) -> Callable[[State], float]:
        values = self._space.heuristics[name]

        def heuristic(state: State) -> float:
            return values[self._id(state, f"heuristics[{name!r}]")]

        heuristic.__name__ = heuristic.__qualname__ = name
        return heuristic

    def cost(self, path: Sequence[State]) -> float:
        """The cost of a path (a list of states), checked move by move."""
        space = self._space
        ids = [self._id(state, f"cost: path[{k}]") for k, state in enumerate(path)]
        total: float = 0
        for k in range(1, len(ids)):
            a, b = ids[k - 1], ids[k]
            if a >= space.walked:
                raise self._beyond(path[k - 1], "cost")
            lo, hi = space.offsets[a], space.offsets[a + 1]
            moves = [space.costs[j] for j in range(lo, hi) if space.targets[j] == b]
            if not moves:
                raise ValueError(
                    f"cost: move {k}: {path[k - 1]!r} → {path[k]!r} is not a move of this puzzle"
                )
            total += min(moves)
        return total


class Output(io.TextIOBase):
    """``sys.stdout`` during a run: passes text on to ``write`` line by line, up to OUTPUT_LIMIT."""

    def __init__(self, write: Write, limit: int = OUTPUT_LIMIT) -> None:
        super().__init__()
        self._write = write
        self._limit = limit
        self._count = 0
        self._buffer: list[str] = []
        self._pending = 0
        self.cut = False

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        n = len(text)
        if self.cut or not text:
            return n
        room = self._limit - self._count
        if n > room:
            text = text[:room]
            self.cut = True
        self._count += len(text)
        self._buffer.append(text)
        self._pending += len(text)
        if self.cut:
            kb = self._limit // 1024
            self._buffer.append(f"\n… the rest of the output was cut: only the first {kb} KB are shown\n")
            self.flush()
        elif "\n" in text or self._pending >= FLUSH_AT:
            self.flush()
        return n

    def flush(self) -> None:
        if self._buffer:
            text = "".join(self._buffer)
            self._buffer.clear()
            self._pending = 0
            self._write(text)


def error_of(exc: BaseException) -> dict[str, Any]:
    """``{kind, message, line, traceback}``: the traceback holds only the frames in the student's file."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == FILENAME]
    line = frames[-1].lineno if frames else None
    if isinstance(exc, SyntaxError):
        message = exc.msg
        if exc.filename == FILENAME:
            line = exc.lineno
    else:
        message = str(exc)
    lines: list[str] = []
    if frames:
        formatted = traceback.StackSummary.from_list(frames).format()  # repeated frames collapsed
        if len(formatted) > TRACEBACK_LINES:
            head, tail = TRACEBACK_LINES // 4, TRACEBACK_LINES - TRACEBACK_LINES // 4
            skipped = len(formatted) - head - tail
            formatted = [*formatted[:head], f"  … {skipped:,} more frames …\n", *formatted[-tail:]]
        lines = ["Traceback (most recent call last):\n", *formatted]
    lines += traceback.format_exception_only(type(exc), exc)
    return {"kind": type(exc).__name__, "message": message, "line": line, "traceback": "".join(lines)}


def path_error(message: str) -> dict[str, Any]:
    """A PathError: the returned value is not a path (no line: it is what ``search`` returned)."""
    return {
        "kind": PathError.__name__,
        "message": message,
        "line": None,
        "traceback": f"PathError: {message}\n",
    }


def path_ids(result: Any, space: Space) -> tuple[list[int] | None, dict[str, Any] | None]:
    """The ids of the returned path, or the PathError that says what is wrong with it."""
    if result is None:
        return None, None
    expected = "expected the path: a list of states from problem.start to a goal, or None"
    try:
        single = result in space.index
    except TypeError:
        single = False
    if single:
        return None, path_error(f"search returned a single state, {result!r}; {expected}")
    if not isinstance(result, list | tuple):
        return None, path_error(f"search returned {_short(result)} ({type(result).__name__}); {expected}")
    ids: list[int] = []
    for k, state in enumerate(result):
        try:
            # A state written as a list ([3, 4] for (3, 4)) names the same state: taken as it.
            found = space.index.get(freeze(state) if isinstance(state, list) else state)
        except TypeError:
            found = None
        if found is None:
            form, item = space.state_form, f"path[{k}] = {_short(state)}"
            if isinstance(state, list):
                why = f"{item} is a list, not a state of this puzzle: states are tuples, {form}"
            else:
                why = f"{item} is not a state of this puzzle (a state is {form})"
            return None, path_error(why)
        ids.append(found)
    return ids, None


def _short(value: Any, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def run_student(
    code: str, space_json: str, steps: int = STEP_LIMIT, write: Write | None = None
) -> dict[str, Any]:
    """Run the student's code on the space; ``{expanded, path, error, stopped, seconds}`` (PROTOCOL.md).

    ``write`` receives what the program prints (at most OUTPUT_LIMIT characters in all, then one line
    saying the rest was cut). ``stopped`` is the step-limit message, with ``error`` None and the
    expansions made so far; ``path`` is None then.
    """
    space = parse_space(space_json)
    problem = Problem(space, steps)
    output = Output(write if write is not None else (lambda _text: None))
    linecache.cache[FILENAME] = (
        len(code),
        None,
        code.splitlines(True),
        FILENAME,
    )  # source lines in tracebacks
    error: dict[str, Any] | None = None
    path: list[int] | None = None
    saved = sys.stdout, sys.stderr, sys.stdin, sys.getrecursionlimit()
    started = time.perf_counter()
    try:
        sys.stdout = sys.stderr = output
        sys.stdin = io.StringIO("")  # input() gets end of file, never a prompt
        sys.setrecursionlimit(RECURSION_LIMIT)
        try:
            compiled = compile(code, FILENAME, "exec", dont_inherit=True)
            namespace: dict[str, Any] = {"__name__": "yours", "__file__": FILENAME, "__builtins__": builtins}
            exec(compiled, namespace)
            search = namespace.get("search")
            if not callable(search):
                what = (
                    "defines no search function" if search is None else f"defines search as {_short(search)}"
                )
                error = {
                    "kind": "NameError",
                    "message": f"your code {what}: define def search(problem): that returns the path "
                    "(a list of states from problem.start to a goal) or None",
                    "line": None,
                    "traceback": "",
                }
            else:
                result = search(problem)
                if problem._stop is None and problem._fault is None:
                    path, error = path_ids(result, space)
        except StepLimit:
            pass
        except BaseException as exc:  # the student's error, whatever it is (SystemExit too)
            error = error_of(exc)
        if error is None and problem._stop is None and problem._fault is not None:
            error = error_of(problem._fault)  # a stop the program caught and went on past
    finally:
        sys.stdout, sys.stderr, sys.stdin = saved[:3]
        sys.setrecursionlimit(saved[3])
        output.flush()
    stopped = problem._stop
    if stopped is not None:
        path = None
        if error is not None and error["kind"] in (StepLimit.__name__, SpaceLimit.__name__):
            error = None
    return {
        "expanded": problem._expanded,
        "path": path,
        "error": error,
        "stopped": stopped,
        "seconds": round(time.perf_counter() - started, 4),
    }


def run_json(code: str, space_json: str, steps: int, write: Write) -> str:
    """``run_student`` as JSON text, for the worker (None becomes null, lists arrays)."""
    return json.dumps(run_student(code, space_json, steps, write))
