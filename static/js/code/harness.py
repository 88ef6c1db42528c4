"""Runs a student's ``search(problem)`` over a puzzle's space (docs/STUDENT.md, PROTOCOL.md "Student mode").

The worker (static/js/code/worker.js) runs this file once in Pyodide, then calls ``run_json`` for each
run; the tests run it in plain CPython and call ``run_student``, and so does a notebook's
``mazeviz.show(puzzle, search=...)`` (server/notebook/student.py), with the student's function itself
and ``here=True``: the rules' modules are that Python's own, imported, not written. Standard library only.

The puzzle comes as the JSON of ``POST /api/puzzles/<id>/code/rules``: for most families the server's
own modules that define its ``Problem`` and the puzzle's plain data (``Rules``: the modules are written
into this Python's file system and imported, so the rules are the server's, with no bound on the
states); for a family without them, an explicit graph (``Space``: states in their student form, the
successors of state ``i < walked`` in CSR form, the start and goal ids and each heuristic's value per
state). Every JSON list becomes a tuple, so states are hashable. ``problem.successors`` records each
call as one expansion; the ids of the expanded states (numbered as the search reached them) and the
returned path as moves are what the page sends to the server to be judged.
"""

from __future__ import annotations

import builtins
import importlib
import io
import json
import linecache
import math
import os
import re
import sys
import tempfile
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

# The page's words for the student's messages (run_json's ``words``: the catalog's templates
# ``code.harness.<key>`` in the page's language, and ``lang``); a missing one is said in English.
WORDS: dict[str, str] = {}
ENGLISH = {  # the messages for the student in English (run_json's ``words`` may give others)
    "a_tuple": "a tuple",
    "walked_only": "the server walked only {walked:n} states of this puzzle{why}",
    "heuristic_note": (
        "the heuristic {default} is not computed in this page, so problem.heuristic is {here} here;"
        " the server's search uses {default}"
    ),
    "not_a_state_list": "{where}: {state} is a list, not a state of this puzzle: states are tuples, {form}",
    "not_reached": (
        "{where}: {state} is not a state your search has reached (a state is {form}; states come "
        "from problem.start and problem.successors)"
    ),
    "not_a_state": "{where}: {state} is not a state of this puzzle (a state is {form})",
    "beyond": "{where}({state}): {walked} and this one lies beyond: its moves are unknown here",
    "successors_unreached": (
        "successors: {state} has not been reached yet: a search expands the states it reached from "
        "problem.start through problem.successors"
    ),
    "step_limit": "step limit: {steps:n} expansions (calls of successors)",
    "cost_not_a_move": "cost: move {k}: {a} → {b} is not a move of this puzzle",
    "expected_path": "expected the path: a list of states from problem.start to a goal, or None",
    "returned_single": "search returned a single state, {result}; {expected}",
    "returned_other": "search returned {result} ({kind}); {expected}",
    "path_not_a_state": "path[{k}] = {state} is not a state of this puzzle (a state is {form})",
    "path_empty": "it is empty: a path holds at least the start",
    "path_wrong_start": "it starts at {state}, not at the start {start}",
    "path_beyond": "move {k}: {state} lies beyond the states walked for your code",
    "path_not_a_move": "move {k}: {a} → {b} is not a move of this puzzle",
    "output_cut": "… the rest of the output was cut: only the first {kb} KB are shown",
    "more_frames": "… {count:n} more frames …",
    "note": "Note: {note}.",
    "no_search": "defines no search function",
    "search_is": "defines search as {value}",
    "define_search": (
        "your code {what}: define def search(problem): that returns the path (a list of states from"
        " problem.start to a goal) or None"
    ),
}
_PLACEHOLDER = re.compile(r"\{(\w+)(?::(\w))?\}")


def _grouped(value: Any) -> str:
    """A count grouped the language's way: 6,617,994 / 6.617.994."""
    text = f"{value:,}"
    return text.replace(",", ".") if WORDS.get("lang") == "de" else text


def say(key: str, **params: Any) -> str:
    """A message for the student in the page's language: ``{name}`` the value, ``{name:n}`` grouped."""
    template = WORDS.get(key) or ENGLISH[key]

    def fill(match: re.Match[str]) -> str:
        name, spec = match.group(1), match.group(2)
        if name not in params:
            return match.group(0)
        return _grouped(params[name]) if spec == "n" else str(params[name])

    return _PLACEHOLDER.sub(fill, template)


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
    """An explicit graph (a family without rules in the page): read-only after construction, so it can
    serve several runs. Its keys are the graph's ids."""

    kind = "graph"

    def __init__(self, data: dict[str, Any]) -> None:
        self.states: tuple[State, ...] = tuple(map(freeze, data["states"]))
        self.index: dict[State, int] = {state: i for i, state in enumerate(self.states)}
        self.offsets: list[int] = data["offsets"]
        self.targets: list[int] = data["targets"]
        costs = data.get("costs")
        self.costs: list[float] = costs if costs is not None else [1] * len(self.targets)
        walked = data.get("walked")
        self.walked: int = len(self.offsets) - 1 if walked is None else walked
        self.starts: list[int] = list(dict.fromkeys(data.get("start") or ()))
        self.goals: frozenset[int] = frozenset(data.get("goal") or ())
        # A null value is a state from which the heuristic sees no way to a goal.
        self.values: dict[str, list[float]] = {
            name: [math.inf if v is None else v for v in values]
            for name, values in (data.get("heuristics") or {}).items()
        }
        self.heuristic_names: tuple[str, ...] = tuple(self.values)
        default = data.get("heuristic") or ""
        self.heuristic: str = default if default in self.values else ""
        self.state_form: str = data.get("state_form") or say("a_tuple")
        self.stopped: str = data.get("stopped") or ""
        self.moves: list[tuple[tuple[int, float], ...] | None] = [None] * self.walked
        self.note = ""

    def __len__(self) -> int:
        return len(self.states)

    def form(self, key: int) -> State:
        return self.states[key]

    def lookup(self, form: State) -> int | None:
        """The key of a state given in its student form, reached or not (None: no state of the puzzle)."""
        return self.index.get(form)

    def beyond(self, key: int) -> bool:
        return key >= self.walked

    def expand(self, key: int) -> tuple[tuple[int, float], ...]:
        moves = self.moves[key]
        if moves is None:  # built once per state and space, then shared by every run on it
            lo, hi = self.offsets[key], self.offsets[key + 1]
            moves = self.moves[key] = tuple(zip(self.targets[lo:hi], self.costs[lo:hi], strict=True))
        return moves

    def is_goal(self, key: int) -> bool:
        return key in self.goals

    def value(self, name: str, key: int) -> float:
        return self.values[name][key]

    def limit_words(self) -> str:
        why = f" ({self.stopped})" if self.stopped else ""
        return say("walked_only", walked=self.walked, why=why)


def number(value: float) -> float:
    """A cost or an estimate as the student sees it: 1, not 1.0, when it is whole."""
    return int(value) if type(value) is float and value.is_integer() else value


class Rules:
    """The family's own rules (``POST …/code/rules``): the server's modules, loaded into this Python,
    build the server's ``Problem`` from the puzzle's plain data. Its keys are the server's states."""

    kind = "rules"

    def __init__(self, data: dict[str, Any], here: bool = False) -> None:
        # here: the server's modules are this Python's own (a notebook's kernel runs the server), so
        # they are imported as they are; writing them would take the running server's name over.
        module = importlib.import_module(data["module"]) if here else load_modules(
            data["modules"], data["version"], data["module"])
        self.problem = getattr(module, data.get("build") or "from_student_rules")(data["data"])
        problem = self.problem
        self.starts: list[Any] = list(dict.fromkeys(problem.initial_states()))
        self.heuristic_names: tuple[str, ...] = tuple(problem.heuristics)
        default = data.get("heuristic") or ""
        names = self.heuristic_names
        self.heuristic = default if default in names else (names[0] if names else "")
        # A heuristic the run chose that is not computed here (one whose tables stay on the
        # server): said before the program runs, so that a differing order is not a mystery.
        self.note = (say("heuristic_note", default=repr(default), here=repr(self.heuristic))
                     if default and default not in names else "")
        self.state_form: str = data.get("state_form") or say("a_tuple")
        self._successors = problem.successors
        self._student = problem.student_state
        self._is_goal = problem.is_goal
        self._heuristic = problem.heuristic

    def __len__(self) -> int:
        return 0  # no explicit graph: states are known as the search reaches them

    def form(self, key: Any) -> State:
        return freeze(self._student(key))

    def lookup(self, form: State) -> None:
        return None  # a state is known here once the search has reached it

    def beyond(self, key: Any) -> bool:
        return False

    def expand(self, key: Any) -> list[tuple[Any, float]]:
        return [(state, number(cost)) for state, cost in self._successors(key)]

    def is_goal(self, key: Any) -> bool:
        return bool(self._is_goal(key))

    def value(self, name: str, key: Any) -> float:
        return number(float(self._heuristic(key, name)))

    def limit_words(self) -> str:
        return ""


RULES_ROOT = "rules"  # under the temporary folder: one folder per version of the server's modules
_loaded: tuple[str, str] | None = None  # (version, folder) of the modules imported now


def load_modules(sources: dict[str, str], version: str, module: str) -> Any:
    """Write the server's modules (path -> source) into a folder of this Python's file system and import
    ``module`` from it; a new version replaces every ``server`` module imported before. Run in a Python
    of its own (the page's worker, ``run.py grade``'s child): it takes the name ``server`` over."""
    global _loaded
    if _loaded is None or _loaded[0] != version:
        folder = os.path.join(tempfile.gettempdir(), RULES_ROOT, "".join(c for c in version if c.isalnum()))
        for path, text in sources.items():
            target = os.path.join(folder, *path.split("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w", encoding="utf-8") as out:
                out.write(text)
        for name in [n for n in sys.modules if n == "server" or n.startswith("server.")]:
            del sys.modules[name]
        if _loaded is not None and _loaded[1] in sys.path:
            sys.path.remove(_loaded[1])
        sys.path.insert(0, folder)
        importlib.invalidate_caches()
        _loaded = (version, folder)
    return importlib.import_module(module)


_cached: tuple[str, bool, Any] | None = None


def parse_space(space_json: str, here: bool = False) -> Any:
    """The world of this JSON text (an explicit graph, or the family's rules); the last one is kept, as
    runs on one puzzle send the same text. ``here``: see ``Rules``."""
    global _cached
    if _cached is not None and _cached[0] == space_json and _cached[1] == here:
        return _cached[2]
    data = json.loads(space_json)
    world = Rules(data, here) if data.get("kind") == "rules" else Space(data)
    _cached = (space_json, here, world)
    return world


class Problem:
    """What the student's ``search`` receives: the API of docs/STUDENT.md over one world.

    States are numbered as the search reaches them: the starts first, then each call of
    ``successors`` numbers the states it meets for the first time, in the order of the moves. The
    server numbers them the same way by replaying the expansions over its own ``Problem``, so the ids
    of the expanded states are the whole record of a run (``server/search/algorithms/replay.py``).
    """

    __slots__ = ("_by_form", "_by_key", "_expanded", "_fault", "_forms", "_keys", "_steps", "_stop",
                 "_world", "heuristics", "start", "starts")

    def __init__(self, world: Any, steps: int) -> None:
        self._world = world
        self._steps = steps
        self._stop: str | None = None  # the step-limit message, once successors went past the limit
        self._expanded: list[int] = []  # ids, one per call of successors
        self._fault: SpaceLimit | None = None  # kept: the program may catch the stop and go on
        self._keys: list[Any] = []  # id -> the world's key
        self._forms: list[State] = []  # id -> the student form
        self._by_key: dict[Any, int] = {}
        self._by_form: dict[State, int] = {}
        for key in world.starts:
            self._reach(key)
        self.starts: tuple[State, ...] = tuple(self._forms)
        self.start: State = self.starts[0] if self.starts else None
        self.heuristics: dict[str, Callable[[State], float]] = {
            name: self._heuristic_of(name) for name in world.heuristic_names
        }

    def __repr__(self) -> str:
        world = self._world
        size = f"{len(world):,} states, " if len(world) else ""
        return f"<problem: {size}start {self.start!r}, a state is {world.state_form}>"

    def _reach(self, key: Any) -> int:
        """The id of a state met for the first time: the next one."""
        i = len(self._keys)
        form = self._world.form(key)
        self._keys.append(key)
        self._forms.append(form)
        self._by_key[key] = i
        self._by_form[form] = i
        return i

    def _key(self, state: State, where: str) -> Any:
        """The world's key of a state the search has reached, or of any state of an explicit graph."""
        try:
            found = self._by_form.get(state)
        except TypeError:  # unhashable: a list, a set, a dict
            found = None
        if found is not None:
            return self._keys[found]
        key = None if isinstance(state, list) else self._world.lookup(state)
        if key is not None:
            return key
        raise self._unknown(state, where)

    def _unknown(self, state: State, where: str) -> ValueError:
        form = self._world.state_form
        if isinstance(state, list):
            return ValueError(say("not_a_state_list", where=where, state=_short(state), form=form))
        if self._world.kind == "rules":
            return ValueError(say("not_reached", where=where, state=_short(state), form=form))
        return ValueError(say("not_a_state", where=where, state=_short(state), form=form))

    def _beyond(self, state: State, where: str) -> SpaceLimit:
        stop = SpaceLimit(say("beyond", where=where, state=_short(state), walked=self._world.limit_words()))
        if self._fault is None:
            self._fault = stop
        return stop

    def successors(self, state: State) -> list[tuple[State, float]]:
        """The ``(state, cost)`` pairs one move from ``state``, in the server's order: one expansion."""
        try:
            i = self._by_form[state]
        except (KeyError, TypeError):  # not reached yet, or not a state of this puzzle
            key = self._key(state, "successors")
            if self._world.beyond(key):
                raise self._beyond(state, "successors") from None
            raise ValueError(say("successors_unreached", state=_short(state))) from None
        if len(self._expanded) >= self._steps:
            self._stop = say("step_limit", steps=self._steps)
            raise StepLimit(self._stop)
        world = self._world
        key = self._keys[i]
        if world.beyond(key):
            raise self._beyond(state, "successors")
        self._expanded.append(i)
        by_key, forms = self._by_key, self._forms
        out = []
        for nxt, cost in world.expand(key):
            j = by_key.get(nxt)
            if j is None:
                j = self._reach(nxt)
            out.append((forms[j], cost))
        return out  # the student's own list: sorting or reversing it changes nothing here

    def is_goal(self, state: State) -> bool:
        """True when ``state`` is a goal."""
        return self._world.is_goal(self._key(state, "is_goal"))

    def heuristic(self, state: State) -> float:
        """The run's heuristic at ``state`` (the family's default when none was chosen); 0 without one."""
        key = self._key(state, "heuristic")
        name = self._world.heuristic
        return self._world.value(name, key) if name else 0

    def _heuristic_of(self, name: str) -> Callable[[State], float]:
        world = self._world

        def heuristic(state: State) -> float:
            return world.value(name, self._key(state, f"heuristics[{name!r}]"))

        heuristic.__name__ = heuristic.__qualname__ = name
        return heuristic

    def _moves(self, key: Any) -> list[tuple[Any, float]]:
        """The moves out of a state, uncounted (``cost`` and the path's check read them)."""
        return list(self._world.expand(key))

    def cost(self, path: Sequence[State]) -> float:
        """The cost of a path (a list of states), checked move by move."""
        keys = [self._key(state, f"cost: path[{k}]") for k, state in enumerate(path)]
        total: float = 0
        for k in range(1, len(keys)):
            a, b = keys[k - 1], keys[k]
            if self._world.beyond(a):
                raise self._beyond(path[k - 1], "cost")
            moves = [c for nxt, c in self._moves(a) if nxt == b]
            if not moves:
                raise ValueError(say("cost_not_a_move", k=k, a=repr(path[k - 1]), b=repr(path[k])))
            total += min(moves)
        return total

    def path_moves(self, result: Any) -> tuple[list[int] | None, str | None, dict[str, Any] | None]:
        """What ``search`` returned, as the page sends it: ``[start index, move index, …]`` (each step the
        first move of the server's order that leads there), or why it is not a path of this puzzle in
        words (it starts elsewhere, a step is no move), or the PathError of something that is no path
        at all (not a list of states)."""
        if result is None:
            return None, None, None
        expected = say("expected_path")
        try:
            single = result in self._by_form or self._world.lookup(result) is not None
        except TypeError:
            single = False
        if single:
            return None, None, path_error(say("returned_single", result=repr(result), expected=expected))
        if not isinstance(result, list | tuple):
            kind = type(result).__name__
            said = say("returned_other", result=_short(result), kind=kind, expected=expected)
            return None, None, path_error(said)
        states: list[State] = []
        for k, state in enumerate(result):
            if isinstance(state, list):  # a state written as a list ([3, 4] for (3, 4)) names the same state
                state = freeze(state)
            try:
                hash(state)
            except TypeError:
                return None, None, path_error(say("path_not_a_state", k=k, state=_short(state),
                                                  form=self._world.state_form))
            states.append(state)
        if not states:
            return None, say("path_empty"), None
        first = self._by_form.get(states[0])
        if first is None or first >= len(self._world.starts):
            return None, say("path_wrong_start", state=_short(states[0]), start=_short(self.start)), None
        moves = [first]
        key = self._keys[first]
        for k in range(1, len(states)):
            if self._world.beyond(key):
                return None, say("path_beyond", k=k, state=_short(states[k - 1])), None
            form = self._world.form
            step = next((m for m, (nxt, _c) in enumerate(self._moves(key)) if form(nxt) == states[k]), None)
            if step is None:
                return None, say("path_not_a_move", k=k, a=_short(states[k - 1]), b=_short(states[k])), None
            moves.append(step)
            key = self._moves(key)[step][0]
        return moves, None, None


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
            cut = say("output_cut", kb=kb)
            self._buffer.append(f"\n{cut}\n")
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


def _in_yours(filename: str) -> bool:
    return filename == FILENAME


def _not_harness(filename: str) -> bool:
    """A frame of the student's own function (a notebook's cells, their modules): not of this file."""
    return os.path.abspath(filename) != _HERE


_HERE = os.path.abspath(__file__) if "__file__" in globals() else ""


def error_of(exc: BaseException, students: Callable[[str], bool] = _in_yours) -> dict[str, Any]:
    """``{kind, message, line, traceback}``: the traceback holds only the frames in the student's file
    (``students(filename)``: the code text's ``yours.py``, or for a function every file but this one)."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if students(f.filename)]
    line = frames[-1].lineno if frames else None
    if isinstance(exc, SyntaxError):
        message = exc.msg
        if students(exc.filename or ""):
            line = exc.lineno
    else:
        message = str(exc)
    lines: list[str] = []
    if frames:
        formatted = traceback.StackSummary.from_list(frames).format()  # repeated frames collapsed
        if len(formatted) > TRACEBACK_LINES:
            head, tail = TRACEBACK_LINES // 4, TRACEBACK_LINES - TRACEBACK_LINES // 4
            skipped = len(formatted) - head - tail
            more = say("more_frames", count=skipped)
            formatted = [*formatted[:head], f"  {more}\n", *formatted[-tail:]]
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


def _short(value: Any, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def run_student(
    code: str | Callable[[Any], Any], space_json: str, steps: int = STEP_LIMIT, write: Write | None = None,
    here: bool = False,
) -> dict[str, Any]:
    """Run the student's code on the puzzle; ``{expanded, path, illegal, error, stopped, reached, seconds}``
    (PROTOCOL.md "Student mode").

    ``code``: the program's text (it defines ``search``), or the student's ``search`` function itself
    (a notebook's); ``here``: the rules' modules are this Python's own (``Rules``).

    ``space_json``: the rules of ``…/code/rules`` (or an explicit graph). ``expanded``: the ids of the
    expanded states, numbered as the search reached them (``Problem``); ``path``: ``[start index, move
    index, …]`` or None; ``illegal``: why the returned path is not one of this puzzle (None when it is,
    or when none came back). ``write`` receives what the program prints (at most OUTPUT_LIMIT characters
    in all, then one line saying the rest was cut). ``stopped`` is the step-limit message, with
    ``error`` None and the expansions made so far; ``path`` is None then.
    """
    started = time.perf_counter()
    world = parse_space(space_json, here)
    problem = Problem(world, steps)
    output = Output(write if write is not None else (lambda _text: None))
    if world.note:
        output.write(say("note", note=world.note) + "\n")
    given = code if callable(code) else None
    students = _not_harness if given is not None else _in_yours
    if isinstance(code, str):
        linecache.cache[FILENAME] = (
            len(code),
            None,
            code.splitlines(True),
            FILENAME,
        )  # source lines in tracebacks
    error: dict[str, Any] | None = None
    path: list[int] | None = None
    illegal: str | None = None
    saved = sys.stdout, sys.stderr, sys.stdin, sys.getrecursionlimit()
    try:
        sys.stdout = sys.stderr = output
        sys.stdin = io.StringIO("")  # input() gets end of file, never a prompt
        sys.setrecursionlimit(RECURSION_LIMIT)
        try:
            if given is not None:
                search: Any = given
            else:
                compiled = compile(code, FILENAME, "exec", dont_inherit=True)
                namespace: dict[str, Any] = {"__name__": "yours", "__file__": FILENAME,
                                             "__builtins__": builtins}
                exec(compiled, namespace)
                search = namespace.get("search")
            if not callable(search):
                what = (
                    say("no_search") if search is None
                    else say("search_is", value=_short(search))
                )
                error = {
                    "kind": "NameError",
                    "message": say("define_search", what=what),
                    "line": None,
                    "traceback": "",
                }
            else:
                result = search(problem)
                if problem._stop is None and problem._fault is None:
                    path, illegal, error = problem.path_moves(result)
        except StepLimit:
            pass
        except BaseException as exc:  # the student's error, whatever it is (SystemExit too)
            error = error_of(exc, students)
        if error is None and problem._stop is None and problem._fault is not None:
            error = error_of(problem._fault, students)  # a stop the program caught and went on past
    finally:
        sys.stdout, sys.stderr, sys.stdin = saved[:3]
        sys.setrecursionlimit(saved[3])
        output.flush()
    stopped = problem._stop
    if stopped is not None:
        path, illegal = None, None
        if error is not None and error["kind"] in (StepLimit.__name__, SpaceLimit.__name__):
            error = None
    return {
        "expanded": problem._expanded,
        "path": path,
        "illegal": illegal,
        "error": error,
        "stopped": stopped,
        "reached": len(problem._keys),
        "seconds": round(time.perf_counter() - started, 4),
    }


# The expanded ids packed as text (docs/PROTOCOL.md "Student mode"): each id's difference from the
# previous one (the first from 0), zigzag-folded to a whole number >= 0, written 5 bits a character,
# low bits first, in the URL-safe base-64 alphabet, a character of 32 or more saying another follows.
# A breadth-first run takes about a character an expansion. server/search/algorithms/replay.py reads it.
PACK_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def pack_ids(ids: Sequence[int]) -> str:
    """``ids`` as the packed text above."""
    alphabet = PACK_ALPHABET
    out: list[str] = []
    previous = 0
    for i in ids:
        delta = i - previous
        previous = i
        folded = delta * 2 if delta >= 0 else -delta * 2 - 1
        while folded >= 32:
            out.append(alphabet[32 | (folded & 31)])
            folded >>= 5
        out.append(alphabet[folded])
    return "".join(out)


def use_words(words: Any) -> None:
    """The messages for the student from now on: ``{key: template, "lang": …}`` (English for a key
    missing or not a string)."""
    WORDS.clear()
    if isinstance(words, dict):
        WORDS.update({k: v for k, v in words.items() if isinstance(k, str) and isinstance(v, str) and v})


def run_json(code: str, space_json: str, steps: int, write: Write, words: str = "") -> str:
    """``run_student`` as JSON text, for the worker (None becomes null, lists arrays): the expanded ids
    packed (``pack_ids``) with their ``count``. ``words``: the page's messages for the student as JSON
    (``{key: template, "lang": …}``; English when absent)."""
    try:
        given = json.loads(words) if words else {}
    except ValueError:
        given = {}
    use_words(given)
    result = run_student(code, space_json, steps, write)
    expanded = result["expanded"]
    result["expanded"] = pack_ids(expanded)
    result["count"] = len(expanded)
    return json.dumps(result)
