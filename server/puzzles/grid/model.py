"""The grid maze model: a flat array of cells plus start and goal cells.

Cells are one byte each (0 = wall, 1..9 = free with that cost of entering), so a
15,000 x 15,000 image costs 225 MB here and never a Python object per cell.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...i18n import t

if TYPE_CHECKING:  # numpy is imported where it is used: ``WALL`` is read without it (student mode)
    import numpy as np

WALL = 0


def sorted_unique(values: Any) -> np.ndarray:
    """``np.unique`` of flat indices as a new int64 array, by sorting: numpy 2's ``np.unique`` hashes
    first and took 1.7 s for a million indices (95 s for the 49 M goal cells of an all-red image),
    sorting takes 50 ms; already sorted indices (an image's markers and openings) skip the sort."""
    import numpy as np

    flat = np.array(values, dtype=np.int64).ravel()  # a copy: the maze never shares the caller's array
    if len(flat) > 1 and not bool((flat[1:] > flat[:-1]).all()):
        flat.sort()
        fresh = np.empty(len(flat), dtype=bool)
        fresh[0] = True
        np.not_equal(flat[1:], flat[:-1], out=fresh[1:])
        flat = flat[fresh]
    return flat


@dataclass
class GridMaze:
    """A rectangular maze. ``cells`` is C-contiguous uint8 of shape (height, width).

    ``starts``/``goals`` are sorted int64 arrays of flat indices (row * width + col). A search
    starts from every start cell at cost 0 and ends at the nearest goal cell. They may be empty
    when the file does not decide them; ``endpoint_problem`` then says why, and the user picks.
    """

    cells: np.ndarray
    starts: np.ndarray
    goals: np.ndarray
    name: str = "maze"
    source: str = "text"
    notes: list[str] = field(default_factory=list)
    endpoint_problem: str | None = None
    lattice: dict[str, Any] | None = None  # the image's lattice when read as cells (grid/lattice.py)

    def __post_init__(self) -> None:
        import numpy as np

        self.cells = np.ascontiguousarray(self.cells, dtype=np.uint8)
        self.starts = sorted_unique(self.starts)
        self.goals = sorted_unique(self.goals)

    @property
    def height(self) -> int:
        return int(self.cells.shape[0])

    @property
    def width(self) -> int:
        return int(self.cells.shape[1])

    @property
    def weighted(self) -> bool:
        """True when some free cell costs more than 1 to enter."""
        return bool(self.cells.max(initial=0) > 1)

    def rc(self, index: int) -> tuple[int, int]:
        """Flat index -> (row, col)."""
        return divmod(int(index), self.width)

    def index(self, row: int, col: int) -> int:
        """(row, col) -> flat index."""
        return row * self.width + col

    def is_free(self, row: int, col: int) -> bool:
        return 0 <= row < self.height and 0 <= col < self.width and self.cells[row, col] != WALL

    def with_endpoints(
        self, start: tuple[int, int] | None = None, goal: tuple[int, int] | None = None
    ) -> GridMaze:
        """A copy whose start and/or goal are the given cells (checked to be free)."""
        from ..errors import PuzzleError

        starts, goals = self.starts, self.goals
        for label, point in (("start", start), ("goal", goal)):
            if point is None:
                continue
            r, c = int(point[0]), int(point[1])
            if not (0 <= r < self.height and 0 <= c < self.width):
                raise PuzzleError(
                    t(
                        "grid.outside_x_grid",
                        label=t(f"grid.end.{label}"),
                        r=r,
                        c=c,
                        height=self.height,
                        width=self.width,
                    ),
                    t("grid.option", label=label),
                )
            if self.cells[r, c] == WALL:
                raise PuzzleError(
                    t("grid.wall", label=t(f"grid.end.{label}"), r=r, c=c), t("grid.option", label=label)
                )
            arr = sorted_unique([self.index(r, c)])
            if label == "start":
                starts = arr
            else:
                goals = arr
        problem = None if (len(starts) and len(goals)) else self.endpoint_problem
        return GridMaze(self.cells, starts, goals, self.name, self.source, list(self.notes), problem,
                        self.lattice)

    def require_endpoints(self) -> None:
        """Raise a PuzzleError unless the maze has at least one start and one goal."""
        from ..errors import PuzzleError

        if len(self.starts) and len(self.goals):
            return
        missing = t("grid.and").join(
            t(f"grid.word.{x}") for x, arr in (("start", self.starts), ("goal", self.goals)) if not len(arr)
        )
        raise PuzzleError(
            (self.endpoint_problem or t("grid.no_found", missing=missing))
            + t("grid.pick_click_it_in_page", missing=missing)
        )
