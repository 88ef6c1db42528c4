"""The notebook's API: ``load``, ``solve``, ``show`` and ``compare`` (``import mazeviz``).

    import mazeviz
    mazeviz.show("maze3.png", algorithm="bfs")        # the board, the transport bar, the figures
    mazeviz.show(maze, search=my_search, algorithm="bfs")   # your search, animated and judged
    mazeviz.compare(maze, ["bfs", "astar", my_search])      # panels on one timeline, and the table
    result = mazeviz.solve(maze, "astar"); result.cost, result.path, result.optimal; result.show()

A puzzle is anything ``inputs.py`` reads (a path, a text, seed 003's list of lists, a numpy array, a
``load``ed puzzle). Options are the family's (``start=(row, col)``, ``heuristic="manhattan"``, …), checked
by its schema: a load option (read with the file) goes to the load, a run option to the search. Every
sentence is in the notebook's language: ``lang=``, else the kernel's locale (``LANG``), else English.
Mistakes in the call (an unknown option, a file no family reads) raise ``PuzzleError`` in words; a
student's own search never raises here (its traceback is printed, as the page shows it).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..config import ASSETS
from ..i18n import supported, t, using
from ..puzzles.errors import PuzzleError
from ..puzzles.registry import get_family
from ..search.registry import get_algorithm
from .inputs import Puzzle, as_puzzle
from .kernel import default_language

SINGLE, COMPARE = "single", "compare"
MIN_COMPARED, MAX_COMPARED = 2, 4


def _language(lang: Any) -> str:
    """``lang`` when given (a language the server speaks, else a ValueError in words), else the kernel's."""
    if lang is None:
        return default_language()
    found = supported(lang)
    if found is None:
        from ..i18n import LANGUAGES

        with using(default_language()):
            raise ValueError(t("notebook.unknown_language", value=repr(lang), languages=", ".join(LANGUAGES)))
    return found


def _split(family: str, options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(load options, run options) of the keyword options: each where the family's schema puts it (an
    option of both stages in both); one the schema does not know goes to the run, which names it."""
    stages = {option.name: option.stage for option in get_family(family).options}
    load = {k: v for k, v in options.items() if stages.get(k) in ("load", "both")}
    run = {k: v for k, v in options.items() if stages.get(k) != "load"}
    return load, run


def _plain(value: Any) -> Any:
    """Options as JSON values (tuples as lists, numpy numbers as Python's), as the page sends them."""
    def default(item: Any) -> Any:
        if hasattr(item, "tolist"):
            return item.tolist()
        raise PuzzleError(t("notebook.option_value", name=type(item).__name__), "options")

    return json.loads(json.dumps(value, default=default))


def _algorithm_label(name: str) -> str:
    try:
        return get_algorithm(name).label_text
    except (KeyError, ValueError):
        return name


def load(source: Any, family: str | None = None, lang: str | None = None, **options: Any) -> Puzzle:
    """``source`` read as a puzzle (the family sniffed as in the page, or ``family``); ``options``: its
    load options (the family's load-stage options, as the CLI's flags name them)."""
    with using(_language(lang)):
        return as_puzzle(source, family, _plain(options))


@dataclass
class Result:
    """A search's answer: ``cost``, ``path`` (the states), ``expanded``, ``generated``, ``optimal``
    (True, False, or None when unknown), and the whole result as the API gives it (``json``).
    ``show()`` gives the widget of this run."""

    puzzle: Puzzle
    algorithm: str
    options: dict[str, Any]
    json: dict[str, Any] = field(repr=False)
    lang: str = "en"

    @property
    def found(self) -> bool:
        return bool(self.json.get("found"))

    @property
    def cost(self) -> float | None:
        return self.json.get("cost") if self.found else None

    @property
    def path(self) -> list[Any] | None:
        path = self.json.get("path")
        return list(path) if self.found and path is not None else None

    @property
    def expanded(self) -> int:
        return int(self.json.get("expanded") or 0)

    @property
    def generated(self) -> int:
        return int(self.json.get("generated") or 0)

    @property
    def optimal(self) -> bool | None:
        """Whether the path is a cheapest one: guaranteed by the algorithm, or judged against the
        optimum (``judging``'s quick search); None when no path was found or the optimum is unknown."""
        if not self.found:
            return None
        if self.json.get("optimal_guaranteed"):
            return True
        optimum = self.json.get("optimum")
        return None if optimum is None else abs(float(self.cost or 0) - float(optimum)) < 1e-9

    def lines(self) -> list[str]:
        """The CLI's summary of this result (``mazeviz solve``), in the result's language."""
        with using(self.lang):
            return get_family(self.puzzle.family).summary_lines(self.puzzle.filename, self.json)

    def show(self, lang: str | None = None) -> Any:
        """The widget of this run: the board, the transport bar, the figures."""
        return show(self.puzzle, self.algorithm, lang=lang or self.lang, **self.options)

    def __repr__(self) -> str:
        lines = self.lines()
        more = len(lines) - 1
        with using(self.lang):
            tail = t("notebook.result_more_lines", count=more) if more > 0 else ""
        return f"<mazeviz.Result {lines[0] if lines else ''}{tail}>"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text("\n".join(self.lines()))


def solve(puzzle: Any, algorithm: str = "astar", family: str | None = None, lang: str | None = None,
          **options: Any) -> Result:
    """Search ``puzzle`` with ``algorithm`` in the kernel (``solving.solve``, as the CLI's ``solve``: no
    server limits on the student's own machine), the path judged against the optimum when the
    algorithm does not guarantee one."""
    from ..solving import solve as solve_puzzle

    lang = _language(lang)
    with using(lang):
        if callable(algorithm):
            raise TypeError(t("notebook.solve_callable"))
        loaded = _loaded(puzzle, family, options)
        _, run = _split(loaded.family, _plain(options))
        solved = solve_puzzle(loaded.model, algorithm, run)
        return Result(loaded, algorithm, run, solved.json, lang)


def _loaded(puzzle: Any, family: str | None, options: dict[str, Any]) -> Puzzle:
    """The puzzle read with the load options among ``options`` (the family's schema says which)."""
    first = as_puzzle(puzzle, family)
    load_options, _ = _split(first.family, _plain(options))
    return as_puzzle(first, None, load_options) if load_options else first


def _too_big(loaded: Puzzle) -> str:
    """Words for a board the page draws as tiles (a huge board): the widget shows them, not the board."""
    from .bridge import bridge

    tiles = get_family(loaded.family).tiles
    limit = bridge().config.tile_min_cells
    if tiles is not None and tiles.geometry(loaded.model, limit) is not None:
        width, height = loaded.size
        return t("notebook.too_big", cells=width * height, limit=limit)
    return ""


def show(puzzle: Any, algorithm: str = "astar", search: Callable[[Any], Any] | None = None,
         family: str | None = None, lang: str | None = None, **options: Any) -> Any:
    """The widget: the puzzle's board with ``algorithm``'s run, the transport bar, the figures at the
    playhead. With ``search``: your ``search(problem)`` runs here, is judged against ``algorithm`` as
    the page's "Your code" judges it (the verdict under the board) and its run is what plays."""
    from .bridge import bridge
    from .student import check_search, run_search
    from .widget import MazeWidget

    lang = _language(lang)
    with using(lang):
        if search is not None:
            check_search(search)
        loaded = _loaded(puzzle, family, options)
        run = _run_options(loaded, algorithm, options)
        too_big = _too_big(loaded)
        if too_big:
            return MazeWidget(view=SINGLE, lang=lang, error=too_big)
        shared = bridge()
        pid = shared.put(loaded, lang)
        if search is None:
            entry = {"algorithm": algorithm, "options": run, "label": _algorithm_label(algorithm)}
            return MazeWidget(view=SINGLE, puzzle=pid, runs=[entry], verdicts=[None], lang=lang)
        judged = run_search(shared, pid, search, algorithm, run, lang)
        if judged.entry is None:
            return MazeWidget(view=SINGLE, puzzle=pid, lang=lang, error=_failed(judged.error))
        return MazeWidget(view=SINGLE, puzzle=pid, runs=[judged.entry], verdicts=[judged.verdict], lang=lang)


def compare(puzzle: Any, algorithms: Sequence[str | Callable[[Any], Any]], family: str | None = None,
            lang: str | None = None, against: str | None = None, **options: Any) -> Any:
    """A comparison of 2–4 searches on one puzzle: panels on one timeline, and the table. An entry is an
    algorithm's name or your ``search(problem)`` (at most one), judged against ``against`` (default: the
    first algorithm named in the list, else the family's own)."""
    from .bridge import bridge
    from .student import label_of, run_search
    from .widget import MazeWidget

    lang = _language(lang)
    with using(lang):
        entries = list(algorithms) if isinstance(algorithms, list | tuple) else None
        if entries is None or not MIN_COMPARED <= len(entries) <= MAX_COMPARED:
            raise ValueError(t("notebook.compare_count", low=MIN_COMPARED, high=MAX_COMPARED))
        searches = [entry for entry in entries if callable(entry)]
        if len(searches) > 1:
            raise ValueError(t("notebook.compare_one_search"))
        if any(not callable(entry) and not isinstance(entry, str) for entry in entries):
            bad = next(entry for entry in entries if not callable(entry) and not isinstance(entry, str))
            raise TypeError(t("notebook.compare_entry", name=type(bad).__name__))
        loaded = _loaded(puzzle, family, options)
        named = [entry for entry in entries if isinstance(entry, str)]
        judge = against or (named[0] if named else get_family(loaded.family).default_algorithm)
        run = {}
        for name in [*named, *([judge] if searches else [])]:
            run = _run_options(loaded, name, options)
        too_big = _too_big(loaded)
        if too_big:
            return MazeWidget(view=COMPARE, lang=lang, error=too_big)
        shared = bridge()
        pid = shared.put(loaded, lang)
        runs: list[dict[str, Any]] = []
        verdicts: list[Any] = []
        for entry in entries:
            if isinstance(entry, str):
                runs.append({"algorithm": entry, "options": run, "label": _algorithm_label(entry)})
                verdicts.append(None)
                continue
            judged = run_search(shared, pid, entry, judge, run, lang)
            if judged.entry is None:
                return MazeWidget(view=COMPARE, puzzle=pid, lang=lang,
                                  error=t("notebook.compare_failed", name=label_of(entry),
                                          why=_failed(judged.error)))
            runs.append(judged.entry)
            verdicts.append(judged.verdict)
        return MazeWidget(view=COMPARE, puzzle=pid, runs=runs, verdicts=verdicts, lang=lang)


def _run_options(loaded: Puzzle, algorithm: Any, options: dict[str, Any]) -> dict[str, Any]:
    """The run options among ``options`` as JSON, checked for ``algorithm`` by the family's schema."""
    from ..solving import check_run

    _, run = _split(loaded.family, _plain(options))
    check_run(loaded.model, algorithm, run)
    return run


def _failed(error: dict[str, Any] | None) -> str:
    """Why a student's search gave nothing to judge, in words."""
    if not error:
        return t("notebook.search_gave_nothing")
    return t("notebook.search_failed", kind=error.get("kind") or "", message=error.get("message") or "")


def example(name: str) -> Path:
    """The path of a puzzle of the bundled gallery (the page's ``mazes/``), e.g. ``"perfect-small.png"``;
    an unknown name is refused with the list of those there are."""
    folder = ASSETS / "mazes"
    names = sorted(p.name for p in folder.iterdir() if p.is_file() and p.name != "gallery.json")
    if not isinstance(name, str) or name not in names:
        raise PuzzleError(t("notebook.unknown_example", name=repr(name), names=", ".join(names)))
    return folder / name
