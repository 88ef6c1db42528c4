"""The ``Family`` interface: everything the server, the CLI and the page need to know about one kind
of puzzle, asked of one object instead of branching on family names.

A family subclasses ``Family``, sets its name, title, file types, algorithms, heuristics and
options, and implements ``sniff``, ``load``, ``info`` and ``problem``: the core. The default ``solve``
runs the generic algorithms of ``server.search`` over that ``Problem``, records the trace (with a
snapshot of each expanded state when the problem draws its own states) and shapes the result;
a family with a fast path (compiled kernels) or extra result fields overrides it.

Everything else a family may offer is an optional part (``server/puzzles/capabilities.py``): tiles,
the lab, a checker, a maker, a saver, an editor, an animation, a solution image, a student form —
None unless the family hands one to ``__init__``; ``need(part)`` gives it or refuses in words.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..formula import FormulaError, compile_formula
from ..i18n import DEFAULT, language, t
from ..search.costs import cost_text
from ..search.events import CLOSES, Event
from ..search.problem import Problem, State
from ..search.registry import ALGORITHMS, CODE, Algorithm, SearchOptions, get_algorithm
from ..search.runner import run_algorithm
from ..search.stats import SearchResult
from ..search.trace import RECORD_BYTES, TraceRecorder
from .capabilities import (
    CAPABILITIES,
    Animation,
    Checker,
    Editor,
    Lab,
    Maker,
    Saver,
    SolutionImage,
    StudentForm,
    Tiles,
    absent,
    state_form,
)
from .errors import PuzzleError
from .options import (
    YOURS,
    Option,
    Values,
    code_option,
    formula_option,
    heuristic_option,
    parse_text,
    validate_json,
    weight_option,
)
from .running import (
    MAX_SNAPSHOTS,
    LoadLimits,
    NamedStates,
    RunControl,
    Solved,
)
from .yours import with_formula

SNIFF_BYTES = 4096  # what ``Family.sample_text`` reads of a file by default


@dataclass
class Family(ABC):
    """Base class of a puzzle family (see the module docstring). Subclasses set the fields and hand
    their optional parts (``capabilities.py``) to ``__init__``."""

    name: str
    title: str
    puzzle_type: type
    extensions: tuple[str, ...]  # what the file picker offers
    expects: str  # one line: the files this family reads (said when no family claims a file)
    algorithms: tuple[str, ...]  # menu order; names of server.search.registry
    heuristics: tuple[str, ...] = ()
    own_options: tuple[Option, ...] = ()
    compiled: bool = False  # searches run compiled (bigger expansion limit)
    path_noun: str = "states"  # what a path is made of, in the CLI's summary
    # What `run.py solve` runs without --algorithm: the family's best optimal method ("": the first).
    default_algorithm: str = ""
    # The algorithms a family's fast path runs (None: every one it offers); the others go to the
    # generic engine (``needs_generic``), e.g. an algorithm a family registered in Python only.
    fast_algorithms: tuple[str, ...] | None = None
    # ---- the optional parts (``capabilities.py``): None is "not offered"; ``need`` refuses it in words
    tiles: Tiles | None = None  # huge boards drawn as tiles
    lab: Lab | None = None  # the heuristic lab's features and space; gives the heuristic "yours"
    checker: Checker | None = None  # checks a handed-in solution
    maker: Maker | None = None  # generates puzzles (needs a saver)
    saver: Saver | None = None  # writes puzzles as files
    editor: Editor | None = None  # changes puzzles by operations (needs a saver)
    animation: Animation | None = None  # GIF frames of a recorded search
    solution_image: SolutionImage | None = None  # a picture of a found solution
    student: StudentForm | None = None  # a state in a student's words (student mode runs without it)
    # True: a recorded trace numbers its states and sends each one's h (``Recorder``, docs/PROTOCOL.md
    # frames' ``named``), for a family whose trace cells do not name its states or whose h the page
    # cannot compute; explain mode and Predict rebuild the frontier from them.
    named_trace: bool = False
    options: tuple[Option, ...] = field(init=False)

    def __post_init__(self) -> None:
        for part, (kind, _) in CAPABILITIES.items():  # each part of its kind, made for this family
            given = getattr(self, part)
            assert given is None or (isinstance(given, kind) and given.family is self), (self.name, part)
        # A made or edited puzzle is kept under the hash of its saved file (web/making.py).
        assert self.saver is not None or (self.maker is None and self.editor is None), self.name
        using_h = tuple(a for a in self.algorithms if get_algorithm(a).uses_heuristic)
        using_w = tuple(a for a in self.algorithms if get_algorithm(a).uses_weight)
        shared = []
        if using_h and self.heuristics:
            shared.append(heuristic_option(self.heuristics, using_h, yours=self.lab is not None))
            if self.lab is not None:
                shared.append(formula_option(self.lab.feature_names, using_h))
        if using_w:
            shared.append(weight_option(using_w))
        shared.append(code_option(CODE))
        self.options = (*shared, *self.own_options)
        self.default_algorithm = self.default_algorithm or self.algorithms[0]
        assert self.default_algorithm in self.algorithms, self.default_algorithm

    def need(self, part: str) -> Any:
        """The optional part named ``part`` (``tiles``, ``lab``, ``checker``, ``maker``, ``saver``,
        ``editor``, ``animation``, ``solution_image``) for a use; PuzzleError in words when the family
        has none ("the <name> family draws no tiles"). To ask without refusing: ``family.tiles is None``."""
        found = getattr(self, part) if part in CAPABILITIES else None  # another name: KeyError below
        if found is None:
            raise absent(part, self)
        return found

    # ---- files ---------------------------------------------------------------------------------
    @abstractmethod
    def sniff(self, filename: str, data: bytes) -> float:
        """How sure (0 to 1) this family is that the file is its own, from content and name."""

    @abstractmethod
    def load(self, data: bytes, filename: str, options: Values, limits: LoadLimits) -> Any:
        """Parse a file (``options``: the load-stage options); raises PuzzleError naming the place."""

    def from_array(self, array: Any) -> tuple[float, bytes] | None:
        """A whole-number numpy array (at least 1-D, int64) as the text of one of this family's files, with
        how sure the family is that the array means one of its puzzles (as ``sniff``); None when it does not
        (the default). The notebook's ``mazeviz.show(array)`` takes the surest family's text."""
        return None

    @staticmethod
    def sample_text(data: bytes, size: int = SNIFF_BYTES) -> str | None:
        """For ``sniff``: the first ``size`` bytes as text, without a byte order mark or a character the
        sample cut in two; None when they are not UTF-8."""
        sample = data[:size]
        try:
            text = sample.decode("utf-8")
        except UnicodeDecodeError as err:
            # A UTF-8 character is at most 4 bytes: an error in the last 3 of a cut sample may be a cut
            # character (the parser judges the whole file).
            if len(data) <= size or err.start < len(sample) - 3:
                return None
            text = sample[: err.start].decode("utf-8")
        return text.removeprefix("\ufeff")

    def file_text(self, data: bytes, max_bytes: int, what: str, at_most: str = "") -> tuple[str, bool]:
        """For ``load``: a text or JSON file's text, and whether it is JSON (an object: '{' first);
        PuzzleError when it is over ``max_bytes`` ("too large for ``what`` (at most ``at_most``)",
        default: the bytes) or not UTF-8."""
        if len(data) > max_bytes:
            raise PuzzleError(t("core.family.bytes_too_large_for_at", n_data=len(data), what=t(what),
                                value=at_most or f'{max_bytes:,}'), "file")
        text = require_text(data)
        return text, text.lstrip("\ufeff \r\n\t").startswith("{")

    # ---- options -------------------------------------------------------------------------------
    def run_options(self, raw: Any) -> Values:
        """Validate run options from JSON (API, socket)."""
        return self._formula_checked(validate_json(self.options, raw, "run"))

    def load_options(self, raw: Any) -> Values:
        return validate_json(self.options, raw, "load")

    def text_options(self, fields: dict[str, str], stage: str) -> Values:
        """Options given as text (form fields, CLI flags)."""
        values = parse_text(self.options, fields, stage)
        return self._formula_checked(values) if stage == "run" else values

    def _formula_checked(self, values: Values) -> Values:
        """Run options with the formula compiled once (a bad one refused before any work starts) and
        cleared where no heuristic "yours" reads it, so results and tables do not show it."""
        self.formula(values)
        if values.get("heuristic") != YOURS and values.get("formula"):
            values["formula"] = ""
        return values

    def formula(self, options: Values) -> Any:
        """The run's compiled ``formula`` when its heuristic is "yours", else None; raises PuzzleError
        (a ``FormulaError`` naming the column) for a formula the lab's language refuses."""
        if options.get("heuristic") != YOURS:
            return None
        text = options.get("formula") or ""
        if not text.strip():
            raise PuzzleError(t("core.family.heuristic_yours_needs_formula_type"), "option 'formula'")
        try:
            return compile_formula(text, self.need("lab").feature_names)
        except FormulaError as err:
            raise PuzzleError(str(err), "option 'formula'") from None  # its text names the column

    # ---- the page --------------------------------------------------------------------------------
    @abstractmethod
    def info(self, puzzle: Any) -> dict[str, Any]:
        """What the page needs to draw the puzzle (docs/PROTOCOL.md); the registry adds ``family``,
        ``algorithms`` and ``id``."""

    def size(self, puzzle: Any) -> tuple[int, int]:
        """(width, height) for badges and the gallery (default: the ``info``'s, else 1 x 1)."""
        info = self.info(puzzle)
        return int(info.get("width", 1)), int(info.get("height", 1))

    def cost(self, puzzle: Any) -> int:
        """What the puzzle costs the in-memory store (cells)."""
        width, height = self.size(puzzle)
        return max(1, width * height)

    def trace_estimate(self, puzzle: Any) -> int:
        """Bytes a recorded search of ``puzzle`` will likely hold (reserved before it runs, corrected
        after): a few records per cell (opened, closed, maybe improved, on the path)."""
        return self.cost(puzzle) * 4 * RECORD_BYTES

    # ---- memory: every input's cost known before the work starts (server/budget.py reserves it, and
    # refuses in words what cannot fit). tests/test_memory_estimates.py measures each family's peak
    # against these on growing inputs, so a family that does not keep them fails there.

    def load_bytes(self, data: bytes, filename: str, options: Values) -> int:
        """Peak memory ``load`` takes for this file beyond its bytes, known before parsing (default:
        ``text_load_bytes``). A family whose parser reports its need through ``LoadLimits.memory``
        once a header is read (images) returns what it needs before that header (0)."""
        return text_load_bytes(data)

    def state_bytes(self, puzzle: Any) -> int:
        """Bytes a generic search holds per stored state: the state, its entries in the frontier and
        the search's maps, and the family's caches per state (default: a small tuple's worth)."""
        return GENERIC_STATE_BYTES

    def state_bound(self, puzzle: Any, options: Values) -> int | None:
        """At most how many states a search of ``puzzle`` can store (None: no bound short of the
        limits, e.g. a board that every push changes): cells times phases, permutations…"""
        return None

    def setup_bytes(self, puzzle: Any, options: Values) -> int:
        """Memory the search view (``problem``) builds before the first state (tables, caches)."""
        return 0

    def search_bytes(self, puzzle: Any, algorithm: str, options: Values, max_stored: int | None) -> int:
        """Peak memory of one search beyond its trace (``trace_estimate``): a fast path's arrays
        (default: ``KERNEL_CELL_BYTES`` per cell), or the generic engine's ``max_stored`` states of
        ``state_bytes`` each (at most ``state_bound`` of them) plus ``setup_bytes``."""
        if self.compiled and not self.needs_generic(algorithm, options):
            return self.cost(puzzle) * KERNEL_CELL_BYTES
        stored = max_stored if max_stored is not None else DEFAULT_STORED
        bound = self.state_bound(puzzle, options)
        if bound is not None:
            stored = min(stored, bound)
        return self.setup_bytes(puzzle, options) + stored * self.state_bytes(puzzle)

    def cells(self, puzzle: Any) -> bytes | None:
        """The board as one byte per cell, row-major, or None when the family has no cell grid."""
        return None

    @property
    def noun(self) -> str:
        """The family's title inside a sentence, in the reader's language: lower case in English ("a
        grid maze"), as written in German (nouns keep their capital)."""
        title = t(self.title)
        return title.lower() if language() == "en" else title

    def describe_json(self) -> dict[str, Any]:
        """The family for ``/api/families``: what it offers, from its optional parts; the fields shown to
        people (title, expects, notation, features' meanings) in the reader's language (``t``)."""
        maker, saver, checker, lab = self.maker, self.saver, self.checker, self.lab
        return {
            "name": self.name, "title": t(self.title), "accept": list(self.extensions),
            "expects": t(self.expects),
            "algorithms": list(self.algorithms), "heuristics": list(self.heuristics),
            "options": [option.to_json() for option in self.options], "animation": self.animation is not None,
            "generators": [kind.to_json() for kind in maker.generators] if maker else [],
            "formats": list(saver.formats) if saver else [],
            "editable": self.editor is not None, "default_algorithm": self.default_algorithm,
            "solution_notation": t(checker.notation) if checker and checker.notation else "",
            "features": [{"name": n, "meaning": t(m)} for n, m in lab.features] if lab else [],
            "checks_solutions": checker is not None, "state_form": state_form(self.student),
        }

    # ---- a state in words: the family's one notation (docs/STUDENT.md, "How states are written") --
    def state_text(self, problem: Problem, state: Any) -> str:
        """``state`` (the search's own, as ``problem`` makes it) in the family's notation, the one the
        lab, the checker's verdicts, student mode's verdicts and the page (``FamilyView.stateLabel``)
        write: a cell's "(3, 4)", a board's rows "7 2 4 / 5 _ 6 / 8 3 1". The default writes
        its results' JSON form (``json_text``)."""
        return self.json_text(problem.state_to_json(state))

    def json_text(self, value: Any) -> str:
        """A state in its results' JSON form (``Problem.state_to_json``) in the family's notation. The
        default: a [row, col] pair "(3, 4)", another list of numbers "(a, b, c)", else compact JSON."""
        numbers = isinstance(value, list | tuple) and all(type(v) is int for v in value)
        if numbers and value:
            return "(" + ", ".join(str(v) for v in value) + ")"
        text = json.dumps(value, separators=(", ", ": "), default=str)
        return text if len(text) <= 80 else text[:77] + "..."

    # ---- solving ---------------------------------------------------------------------------------
    def check_algorithm(self, algorithm: str) -> None:
        if algorithm in self.algorithms or algorithm == CODE:  # a student's run: every family replays it
            return
        known = "" if algorithm in ALGORITHMS else t("core.family.unknown_algorithm")
        raise PuzzleError(
            t("core.family.not_offered_for_family_choose", known=known, algorithm=repr(algorithm[:40]),
              name=self.name, join=', '.join(self.algorithms)),
            "option 'algorithm'",
        )

    def needs_generic(self, algorithm: str, options: Values) -> bool:
        """True when only the generic engine can run this: a formula as the heuristic, a student's
        recorded run (the algorithm ``code``), or an algorithm the fast path does not know
        (``fast_algorithms``); a family's fast path then steps aside."""
        unknown = self.fast_algorithms is not None and algorithm not in self.fast_algorithms
        return unknown or algorithm == CODE or options.get("heuristic") == YOURS

    def run_identity(self, algorithm: str, options: Values) -> dict[str, Any]:
        """The options that make a run of ``algorithm`` what it is: those the schema says it uses (a
        weight means nothing to BFS), so runs kept by their options (tiles) are not told apart by the rest."""
        used = {o.name for o in self.options if o.algorithms is None or algorithm in o.algorithms}
        return {name: value for name, value in options.items() if name in used}

    @abstractmethod
    def problem(self, puzzle: Any, options: Values) -> Problem:
        """The search view of ``puzzle`` under these run options."""

    def run_problem(self, puzzle: Any, options: Values) -> Problem:
        """``problem`` with the heuristic "yours" when the run has a formula: what every search runs on."""
        return with_formula(self.problem(puzzle, options), self.formula(options))

    def algorithm(self, name: str, options: Values) -> Algorithm:
        """The algorithm entry to run (a family may bound or adapt it, e.g. a depth limit)."""
        return get_algorithm(name)

    def solve(self, puzzle: Any, algorithm: str, options: Values, control: RunControl) -> Solved:
        """Run ``algorithm`` with the generic engine; raises PuzzleError for unusable options."""
        problem = self.run_problem(puzzle, options)
        search = search_options(problem, options)
        recorder = Recorder(problem, control.record_trace, named=self.named_trace,
                            heuristic=heuristic_named(problem, algorithm, options))
        result = run_algorithm(
            problem, self.algorithm(algorithm, options), search,
            control.limits(), recorder.on_event, control.cancel,
        )
        out = self.result_json(puzzle, problem, result, options)
        return recorder.solved(out, result)

    def result_json(
        self, puzzle: Any, problem: Problem, result: SearchResult, options: Values
    ) -> dict[str, Any]:
        """The result object of the CLI and the API (docs/PROTOCOL.md)."""
        path = [problem.state_to_json(state) for state in result.path]
        return {"family": self.name, **result.to_json(path), "options": dict(options)}

    def summary_lines(self, filename: str, result: dict[str, Any]) -> list[str]:
        """The CLI's plain-text answer."""
        verdict = describe_verdict(result)
        if not result["found"]:
            why = result.get("message") or result.get("stopped") or "none exists"
            expanded = f"expanded {result['expanded']:,}"
            return [f"{filename}: {result['algorithm']} found no path ({why}); {expanded}"]
        return [
            f"{filename}: {result['algorithm']} found a path of cost {result['cost']} ({verdict}), "
            f"{len(result['path'])} {self.path_noun}; expanded {result['expanded']:,}, "
            f"generated {result['generated']:,}, max frontier {result['max_frontier']:,}; "
            f"search {result['seconds']:.3f} s"
        ]

    def warm_up(self, algorithm: str) -> None:  # noqa: B027 - a default: most families warm nothing
        """Prepare a fast path (the CLI calls it in a thread while the file is read)."""


GENERIC_STATE_BYTES = 400  # a generic search's stored state: a small tuple, dict and heap entries
KERNEL_CELL_BYTES = 16  # a compiled search's arrays per cell (distances, parents, flags)
DEFAULT_STORED = 500_000  # states a generic search stores when no limit is given (Config's default)
# Python objects a JSON value may become: a list or dict with its header (up to ~100 bytes), a float or
# a big int (~32), a string's header (~50) plus its characters; bounded by separators and brackets.
JSON_VALUE_BYTES = 100


def text_load_bytes(data: bytes) -> int:
    """Peak memory of parsing a text or JSON puzzle file of ``data``: its text decoded (up to 4
    bytes a character, as Python stores it), its lines, and every JSON value it may hold (at most
    one per separator or bracket, ``JSON_VALUE_BYTES`` each). A count, not a parse: cheap on 64 MB."""
    values = data.count(b",") + data.count(b"[") + data.count(b"{") + data.count(b":") + 1
    return 6 * len(data) + values * JSON_VALUE_BYTES


def describe_verdict(result: dict[str, Any]) -> str:
    """"optimal", "not optimal: the optimum is 52", or "not guaranteed optimal" (optimum unknown)."""
    if result["optimal_guaranteed"]:
        return t("core.verdict.optimal")
    optimum = result.get("optimum")
    if optimum is None:
        return t("core.verdict.not_guaranteed")
    shown = str(optimum) if language() == DEFAULT else cost_text(optimum)
    if result["cost"] is not None and result["cost"] <= optimum:
        return t("core.verdict.optimal_not_guaranteed", optimum=shown)
    return t("core.verdict.not_optimal", optimum=shown)


def search_options(problem: Problem, options: Values) -> SearchOptions:
    """The core's options from the run options, with the heuristic checked against the problem."""
    search = SearchOptions(heuristic=options.get("heuristic") or "", weight=options.get("weight", 1.0),
                           code=options.get("code") or "")
    try:
        search.resolved_heuristic(problem)
    except ValueError as err:
        raise PuzzleError(str(err), "option 'heuristic'") from None
    return search


class Recorder:
    """Records a generic search's trace and, where the problem draws its own states, a snapshot of
    each expanded state (capped at ``MAX_SNAPSHOTS``). With ``named`` (a family whose trace cells do
    not name its states, or whose page cannot compute h) it also numbers the trace's states and keeps
    each one's h under ``heuristic`` (a name; "" when the algorithm uses none): ``NamedStates``, what
    lets the page rebuild the frontier (explain mode, Predict)."""

    def __init__(self, problem: Problem, record: bool, *, named: bool = False, heuristic: str = "") -> None:
        self.trace_recorder = TraceRecorder() if record else None
        self.snapshots: list[dict[str, Any]] = []
        self.named: NamedStates | None = None
        self.on_event: Callable[[Event], None] | None = None
        if self.trace_recorder is None:
            return
        record_event = self.trace_recorder.listener(problem.cell_of)
        if named:
            self.named = NamedStates(problem.snapshot if problem.has_snapshots else None,
                                     remembered_heuristic(problem, heuristic) if heuristic else None)
            see, plain = self.named.see, record_event

            def record_event(event: Event) -> None:
                see(event.state)
                plain(event)

        if not problem.has_snapshots:
            self.on_event = record_event
            return
        recorder, snapshots = self.trace_recorder, self.snapshots

        def on_event(event: Event) -> None:
            if event.kind in CLOSES and len(snapshots) < MAX_SNAPSHOTS:  # the state being expanded
                snapshots.append({"i": len(recorder), **problem.snapshot(event.state)})
            record_event(event)

        self.on_event = on_event

    def solved(self, out: dict[str, Any], result: SearchResult | None, drawn: Any = None) -> Solved:
        if self.trace_recorder is None:
            return Solved(out, None, result, None, drawn)
        if len(self.snapshots) == MAX_SNAPSHOTS:
            out["snapshots_capped"] = MAX_SNAPSHOTS
        if self.named is not None:
            self.named.finish()
        return Solved(out, self.trace_recorder.trace(), result, self.snapshots or None, drawn, self.named)


def heuristic_named(problem: Problem, algorithm: str, options: Values) -> str:
    """The heuristic a run of ``algorithm`` orders by (``Recorder``'s ``heuristic``): the options' one,
    resolved against the problem; "" when the algorithm uses none (or is not a registered one)."""
    try:
        uses = get_algorithm(algorithm).uses_heuristic
    except (KeyError, ValueError):
        return ""
    if not uses:
        return ""
    try:
        return SearchOptions(heuristic=options.get("heuristic") or "").resolved_heuristic(problem)
    except ValueError:
        return ""


def remembered_heuristic(problem: Problem, name: str) -> Callable[[State], float]:
    """h of a state under ``name`` for the trace's names, without computing it twice: the search asks
    the problem for h of a state just before it records the state, so the problem's ``heuristic`` (on
    this run's own instance) remembers its last answer, and a state first seen right after is read
    from there."""
    original = problem.heuristic
    last: list[Any] = [None, 0.0]

    def heuristic(state: State, asked: str) -> float:
        value = original(state, asked)
        if asked == name:
            last[0], last[1] = state, value
        return value

    problem.heuristic = heuristic  # type: ignore[method-assign]

    def h_of(state: State) -> float:
        if last[0] is not None and (last[0] is state or last[0] == state):
            return float(last[1])
        return float(original(state, name))

    return h_of


def stem(filename: str) -> str:
    return Path(filename).stem or "puzzle"


def text_of(data: bytes) -> str | None:
    """The file as UTF-8 text, or None."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def require_text(data: bytes, what: str = "core.what.text_file") -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise PuzzleError(t("core.family.not_byte_not_utf", what=t(what), start=err.start), "file") from None


__all__ = [
    "Family", "LoadLimits", "Option", "Recorder", "RunControl", "Solved", "require_text", "stem", "text_of",
]
