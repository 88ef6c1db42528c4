"""What a family declares to make and change puzzles: its generator kinds (each with an options
schema, so the CLI, the API and the page's form check sizes and seeds the same way), what a
generator returns, and the checks every editor shares (a list of edit operations, a cell on the board).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..i18n import t
from .errors import PuzzleError, show_value
from .options import Option, Values, as_whole, parse_text, validate_json
from .options import whole as whole  # every editor's numbers: one check, named (re-exported)

MAX_EDITS = 200_000  # operations in one edit request (a stroke across a 1000 x 1000 board is ~1,500)
MAX_SEED = 2**31 - 1


def size_options(
    rows: tuple[int, int, int], cols: tuple[int, int, int], unit: str = "core.unit.cells"
) -> tuple[Option, ...]:
    """``rows``, ``cols`` (each ``(min, default, max)``) and ``seed``: what every generator takes."""
    return (
        Option("rows", "int", "core.option.rows.label", "core.option.rows.help", default=rows[1], min=rows[0],
               max=rows[2], help_params=(("unit", unit),)),
        Option("cols", "int", "core.option.cols.label", "core.option.cols.help", default=cols[1], min=cols[0],
               max=cols[2], help_params=(("unit", unit),)),
        Option("seed", "int", "core.option.seed.label", "core.option.seed.help", default=1, min=0,
               max=MAX_SEED),
    )


@dataclass(frozen=True)
class GeneratorKind:
    """One kind of generated puzzle: its name (``run.py generate NAME``), a label and a line of help
    for the page, and its options (``size_options`` plus any of its own, e.g. a wall density)."""

    name: str
    label: str
    help: str
    options: tuple[Option, ...]
    board: str = ""  # how ROWS x COLS become the board, when not one cell each (e.g. "2R+1 x 2C+1")

    def check(self, raw: Any) -> Values:
        """Options from JSON (the API), checked; raises PuzzleError naming the option."""
        return validate_json(self.options, raw, "run")

    def parse(self, fields: Mapping[str, str]) -> Values:
        """Options from text (CLI flags), checked."""
        return parse_text(self.options, fields, "run")

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "label": t(self.label), "help": t(self.help) if self.help else "",
                "board": self.board,
                "options": [option.to_json() for option in self.options]}


@dataclass
class Generated:
    """A generated puzzle, a line saying what it is, and (boards of cells) how it was made:
    ``steps`` rows of (flat cell index, new value) that, replayed on a board filled with
    ``initial_fill``, give the puzzle's cells — the page animates the making from them."""

    puzzle: Any
    description: str
    initial_fill: int | None = None
    steps: np.ndarray | None = field(default=None, repr=False)


def edit_list(raw: Any) -> list[dict[str, Any]]:
    """The operations of an edit request: a list of objects, each with one operation name."""
    if not isinstance(raw, list):
        raise PuzzleError(t("core.making.expected_list_edit_operations_got", raw=show_value(raw)), "edits")
    if len(raw) > MAX_EDITS:
        raise PuzzleError(t("core.making.operations_over_limit_one_edit", n_raw=len(raw),
                            MAX_EDITS=MAX_EDITS), "edits")
    for index, op in enumerate(raw):
        if not isinstance(op, dict) or not op:
            raise PuzzleError(t("core.making.expected_object_like_op_got", op=show_value(op)),
                              f"edit {index + 1}")
        if not isinstance(op.get("op"), str):
            raise PuzzleError(t("core.making.names_no_operation_field_op"), f"edit {index + 1}")
    return raw


def cell_of(value: Any, rows: int, cols: int, where: str) -> tuple[int, int]:
    """``[row, col]`` checked to be on a ``rows`` x ``cols`` board: two whole numbers by ``options.whole``'s
    rules (never a bool, NaN, 0.5, a string or a list; an int of any size is only compared)."""
    pair = [as_whole(v) for v in value] if isinstance(value, list | tuple) and len(value) == 2 else [None]
    if None in pair:
        raise PuzzleError(t("core.making.expected_row_col_got", value=show_value(value)), where)
    row, col = pair
    if not (0 <= row < rows and 0 <= col < cols):
        raise PuzzleError(t("core.making.outside_x_board", pair=show_value(pair), rows=rows,
                            cols=cols), where)
    return row, col
