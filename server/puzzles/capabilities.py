"""A family's optional parts, each an object the family has or has not (``Family.tiles``,
``Family.lab``…: None by default), so that "not supported" is said one way everywhere.

A caller asks in one of two ways: ``family.tiles is None`` (a question: offer it or not) and
``family.need("tiles")`` (a use: the object, or a PuzzleError in words such as "the <name> family
draws no tiles"). A family author subclasses the part, sets its class data where it has some
(``Checker.notation``, ``Lab.features``, ``Maker.generators``, ``Saver.formats``), implements its
abstract methods and hands an instance to ``Family.__init__`` (``tiles=GridTiles(self)``). Every part
is made with the family it serves (``self.family``), so a checker or maker never imports its own
package's ``FAMILY``.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol

from ..heuristic_lab import LabSpace, explore
from ..i18n import t
from ..search.control import CancelFlag
from ..search.problem import Problem
from .checking import CheckResult
from .errors import PuzzleError
from .making import Generated, GeneratorKind
from .options import Values
from .running import RunControl, Solved


class FamilyCore(Protocol):
    """What a part may ask of the family it serves: the core, which ``Family`` implements. A part
    never needs more (so this module stays below family.py, which imports it)."""

    name: str
    title: str

    @property
    def noun(self) -> str: ...

    def problem(self, puzzle: Any, options: Values) -> Problem: ...

    def run_problem(self, puzzle: Any, options: Values) -> Problem: ...

    def setup_bytes(self, puzzle: Any, options: Values) -> int: ...

    def search_bytes(self, puzzle: Any, algorithm: str, options: Values, max_stored: int | None) -> int: ...

    def state_text(self, problem: Problem, state: Any) -> str: ...

    def json_text(self, value: Any) -> str: ...


class Part(ABC):  # noqa: B024 - each part says what is abstract (``Lab`` has defaults only)
    """An optional part of a family, made with the family it serves."""

    def __init__(self, family: FamilyCore) -> None:
        self.family = family


class Tiles(Part):
    """Huge boards drawn as tiles (``server/tile_runs.py``, ``server/web/tiles.py``): a run writes
    per-cell arrays into a folder, and any process draws tiles of any step from them."""

    @abstractmethod
    def geometry(self, puzzle: Any, min_cells: int) -> dict[str, int] | None:
        """The tile pyramid ({width, height, tile, levels}) when ``puzzle`` has more than ``min_cells``
        cells, so the page draws it as tiles and runs keep per-cell arrays; else None."""

    @abstractmethod
    def run(self, puzzle: Any, algorithm: str, options: Values, control: RunControl,
            folder: Path) -> dict[str, Any]:
        """Search and write the per-cell arrays tiles are drawn from into ``folder``; returns the run's
        meta (JSON: at least ``steps``, ``expanded`` and ``result``, the result without a path)."""

    @abstractmethod
    def file_bytes(self, puzzle: Any) -> int:
        """About the bytes a finished ``run`` keeps on disk (room is made for them first)."""

    @abstractmethod
    def run_bytes(self, puzzle: Any, algorithm: str) -> int:
        """About the memory a ``run`` holds while it searches (files aside)."""

    @abstractmethod
    def open(self, folder: Path, meta: dict[str, Any]) -> Any:
        """A finished ``run``'s arrays, read (or mapped) from its folder, for ``draw``."""

    @abstractmethod
    def draw(self, puzzle: Any, z: int, x: int, y: int, run: Any = None, t: int = 0) -> bytes:
        """Tile (z, x, y) as PNG, after ``t`` steps of ``run`` (what ``open`` gave; None: the board
        alone). A tile outside the pyramid raises PuzzleError."""

    @abstractmethod
    def frontier(self, puzzle: Any, run: Any) -> bytes:
        """An opened run's frontier at every ``sample_every``-th step and after its last (int32 LE)."""

    @abstractmethod
    def cell(self, puzzle: Any, row: int, col: int, run: Any = None) -> dict[str, Any]:
        """What the page's hover read-out says of a cell (and of ``run``, when given)."""


class Lab(Part):
    """The teacher's heuristic lab: named features of a state (``Problem.features`` computes them)
    that a formula is written in, the space a formula is judged over, and its memory. A family with
    a lab also offers the heuristic "yours" and the ``formula`` option."""

    #: (name, meaning) of each feature, in the order the page lists them.
    features: ClassVar[tuple[tuple[str, str], ...]]

    @property
    def feature_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.features)

    def space(self, puzzle: Any, options: Values, max_states: int, max_seconds: float | None = None,
              cancel: CancelFlag | None = None) -> LabSpace:
        """The states reachable under ``options``' rules with their features and true cost-to-go
        (default: ``heuristic_lab.explore`` over the family's ``problem``, at most ``max_states``)."""
        problem = self.family.problem(puzzle, options)
        return explore(problem, problem.features, max_states, max_seconds, cancel)

    def space_bytes(self, puzzle: Any, max_states: int) -> int:
        """Memory a judgement may hold (reserved from the work budget; default: ~400 bytes a state
        walked, its moves and features)."""
        return max_states * 400


class Checker(Part):
    """Checks a solution handed in: legal under the run's rules? what does it cost?"""

    #: The notations ``check`` reads, in one line (the page's hint, ``run.py check --help``), besides
    #: the family's own ``run.py solve --json``.
    notation: ClassVar[str]

    @abstractmethod
    def check(self, puzzle: Any, text: str, options: Values) -> CheckResult:
        """Replay the solution in ``text`` under ``options``' rules: a ``CheckResult`` without the
        optimum (judging adds it), with its ``replay``; PuzzleError when the text is in no notation,
        naming where."""


class Maker(Part):
    """Generates puzzles (``run.py generate``, the page's New…). A family with a maker has a saver:
    a made puzzle is kept under the hash of its saved file."""

    #: What it makes: each kind's name, help and options schema (rows, cols, seed and its own).
    generators: ClassVar[tuple[GeneratorKind, ...]]

    def generator(self, kind: str) -> GeneratorKind:
        """The generator named ``kind``; raises PuzzleError listing this family's kinds."""
        for generator in self.generators:
            if generator.name == kind:
                return generator
        kinds = ", ".join(g.name for g in self.generators)
        raise PuzzleError(t("core.capabilities.not_generator_choose_one", value=repr(str(kind)[:40]),
                            name=self.family.name, kinds=kinds),
                          "kind")

    @abstractmethod
    def generate(self, kind: str, values: Values, steps: bool = False) -> Generated:
        """A new puzzle of ``kind`` from its checked options; ``steps``: also how it was made, where
        the family records it (the page's animation)."""


class Saver(Part):
    """Writes a puzzle as a file that ``Family.load`` reads back unchanged (downloads, made puzzles)."""

    #: File types ``save`` writes (extensions without the dot).
    formats: ClassVar[tuple[str, ...]]

    @abstractmethod
    def save(self, puzzle: Any, fmt: str | None = None) -> bytes:
        """The puzzle as a file of type ``fmt`` (None: ``default_format``); PuzzleError when that type
        cannot hold this puzzle, naming what it would lose."""

    def default_format(self, puzzle: Any) -> str:
        """The file type that keeps everything about ``puzzle`` (default: the first of ``formats``)."""
        return self.formats[0]

    def check_format(self, fmt: str | None, puzzle: Any) -> str:
        """``fmt`` (None: the default) as one of ``formats``; PuzzleError listing them otherwise."""
        fmt = (fmt or self.default_format(puzzle)).lower().lstrip(".")
        if fmt not in self.formats:
            raise PuzzleError(t("core.capabilities.saved_as_not", lower=self.family.noun,
                                join=', '.join(self.formats), fmt=repr(fmt[:20])), "format")
        return fmt

    @staticmethod
    def json_file(value: Any, indent: int | None = None) -> bytes:
        """``value`` as a JSON file's bytes (a line break last, as a text editor leaves it)."""
        return (json.dumps(value, indent=indent) + "\n").encode()


class TextOrJsonSaver(Saver):
    """A saver of the family's text form or its JSON: an author implements ``to_text`` and ``to_json``
    (and ``default_format`` where the text cannot hold every puzzle)."""

    formats: ClassVar[tuple[str, ...]] = ("txt", "json")
    json_indent: ClassVar[int | None] = None

    @abstractmethod
    def to_text(self, puzzle: Any) -> str:
        """The text file; PuzzleError naming what it would lose where the text cannot hold the puzzle."""

    @abstractmethod
    def to_json(self, puzzle: Any) -> dict[str, Any]:
        """The JSON object (it holds everything)."""

    def save(self, puzzle: Any, fmt: str | None = None) -> bytes:
        if self.check_format(fmt, puzzle) == "json":
            return self.json_file(self.to_json(puzzle), self.json_indent)
        return self.to_text(puzzle).encode()


class Editor(Part):
    """Changes a puzzle by operations (the page's editor). A family with an editor has a saver."""

    @abstractmethod
    def edit(self, puzzle: Any, edits: list[dict[str, Any]]) -> Any:
        """A new puzzle: ``puzzle`` with the operations (``making.edit_list``) applied in order;
        PuzzleError naming the operation (``edit N``) that would make the board invalid."""


class Animation(Part):
    """GIF frames of a recorded search (``server/exporting.py``)."""

    @abstractmethod
    def frames(self, puzzle: Any, solved: Solved, max_frames: int, max_side: int,
               progress: Callable[[int, int], None] | None = None) -> list[Any] | None:
        """At most ``max_frames`` PIL images of at most ``max_side`` pixels a side from ``solved``'s
        trace (None without one); calls ``progress(done, total)`` after each frame
        (``server.puzzles.animation.search_frames`` draws any board of cells)."""


class SolutionImage(Part):
    """A picture of a found solution (``…/solution.png``, ``run.py solve --out``)."""

    @abstractmethod
    def draw(self, solved: Solved) -> Any:
        """The solution ``solved`` found, as a PIL image."""


@dataclass(frozen=True)
class StudentForm:
    """How a state looks to a student's own search (student mode, docs/STUDENT.md), in words. Student
    mode runs on every family (its space needs only ``problem``, each state in ``Problem.student_state``
    form); without this the page says ``GENERIC_STATE_FORM``."""

    state_form: str  # a catalog key (rendered by ``state_form``)


GENERIC_STATE_FORM = "core.state_form.generic"

#: The optional parts ``Family.need`` hands out: the attribute, its class, and its absence in words
#: ({name}: the family's name, {kind}: its title in lower case).
CAPABILITIES: dict[str, tuple[type[Part], str]] = {
    "tiles": (Tiles, "core.absent.tiles"),
    "lab": (Lab, "core.absent.lab"),
    "checker": (Checker, "core.absent.checker"),
    "maker": (Maker, "core.absent.maker"),
    "saver": (Saver, "core.absent.saver"),
    "editor": (Editor, "core.absent.editor"),
    "animation": (Animation, "core.absent.animation"),
    "solution_image": (SolutionImage, "core.absent.solution_image"),
}


def absent(part: str, family: FamilyCore) -> PuzzleError:
    """The refusal of ``part`` for a family without it, in words (``Family.need`` raises it)."""
    return PuzzleError(t(CAPABILITIES[part][1], name=family.name, kind=family.noun))


def state_form(student: StudentForm | None) -> str:
    """A family's states in a student's words (``GENERIC_STATE_FORM`` without its own)."""
    return t(GENERIC_STATE_FORM if student is None else student.state_form)
