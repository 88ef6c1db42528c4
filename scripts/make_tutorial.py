"""Write docs/tutorial.ipynb, the notebook tutorial (README "In a notebook"), from the cells below.

The notebook is kept without outputs; tests/test_tutorial_notebook.py executes it with nbclient on the
installed wheel. Run this after changing a cell: `.venv/bin/python scripts/make_tutorial.py`.
"""

from __future__ import annotations

import json
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "docs" / "tutorial.ipynb"

CELLS: list[tuple[str, str]] = [
    ("markdown", """# Search in your notebook: `mazeviz`

`mazeviz` animates a search on the course's puzzles inside Jupyter (JupyterLab 4, Notebook 7, VS Code, Colab)
and judges **your own** search against the textbook's algorithms. Nothing runs but your kernel: no server,
no network.

```
pip install mazeviz            # or: pip install <a checkout of the repository>, or the built wheel
```

Each `show(...)` below draws the board with a transport bar under it (Play, step, End); the figures at the
playhead (expanded, frontier, g, path cost) and the verdict are beside it."""),
    ("code", """import mazeviz"""),
    ("markdown", """## The 1-2-3 maze of the course, typed as a list

`'S'` start, `'Z'` goal, `'X'` a cell you may stand on, `' '` a hole. Move 1, then 2, then 3 cells in one
direction, then 1 again…"""),
    ("code", """labyrinth = [
  ['S', ' ', ' ', ' ', ' ', ' '],
  ['X', 'X', 'X', 'X', 'X', 'X'],
  ['X', ' ', 'X', ' ', ' ', 'X'],
  ['X', ' ', 'X', 'X', 'X', 'X'],
  ['X', ' ', 'X', ' ', ' ', 'X'],
  ['X', ' ', ' ', ' ', ' ', 'Z'],
  ['X', ' ', ' ', ' ', ' ', 'X'],
  ['X', 'X', 'X', 'X', 'X', 'X'],
]
result = mazeviz.solve(labyrinth, "bfs")
result"""),
    ("code", """assert result.cost == 15 and result.optimal
print(result.cost, result.expanded, result.path[:3])"""),
    ("code", """result.show()  # the same run, animated"""),
    ("markdown", """## Your own search

Write `search(problem)` with the Problem API of the page's "Your code": `problem.start`,
`problem.is_goal(state)`, `problem.successors(state)` (pairs of a state and its step cost) and
`problem.heuristic(state)`. Return the path as a list of states. `show` runs it here, in your kernel, animates
it, and says whether it expands the states in BFS's order."""),
    ("code", """from collections import deque


def search(problem):
    parent = {problem.start: None}
    frontier = deque([problem.start])
    while frontier:
        state = frontier.popleft()
        if problem.is_goal(state):
            path = []
            while state is not None:
                path.append(state)
                state = parent[state]
            return path[::-1]
        for nxt, _cost in problem.successors(state):
            if nxt not in parent:
                parent[nxt] = state
                frontier.append(nxt)
    return None

mazeviz.show(labyrinth, search=search, algorithm="bfs")"""),
    ("markdown", """## A maze image, and any file the page reads

A path to a PNG maze, a text maze, a labyrinth's JSON or CSV, a Zenji board, an 8-puzzle… The family is
recognised from the content, or given with `family=`. `mazeviz.example(name)` is a file of the bundled
gallery."""),
    ("code", """maze = mazeviz.example("perfect-small.png")
mazeviz.show(maze, algorithm="astar")"""),
    ("markdown", """## The text of a puzzle, and numpy arrays

A string is read as the text of a file. A 0/1 numpy array is a grid maze (1 a wall; start top left,
goal bottom right unless you mark them), a square array of the numbers 0…n²−1 a sliding-tile puzzle
(0 the blank)."""),
    ("code", """import numpy as np

eight = np.array([[7, 2, 4], [5, 0, 6], [8, 3, 1]])
solved = mazeviz.solve(eight, "astar")
print(solved.cost, solved.expanded, solved.optimal)  # 20 moves to 1 2 3 / 4 5 6 / 7 8 _
assert solved.cost == 20 and solved.optimal"""),
    ("markdown", """## Comparing

Two to four algorithms, or your search beside them, on one timeline, and the table of their figures."""),
    ("code", """mazeviz.compare(labyrinth, ["bfs", "astar", search])"""),
    ("markdown", """## Auf Deutsch

`lang="de"` shows the widget in German (the default follows the kernel's locale)."""),
    ("code", """mazeviz.show(labyrinth, algorithm="dfs", lang="de")"""),
]


def notebook() -> dict:
    """The tutorial as nbformat 4 JSON, without outputs."""
    cells = []
    for i, (kind, source) in enumerate(CELLS):
        cell = {"cell_type": kind, "id": f"cell-{i}", "metadata": {}, "source": source}
        if kind == "code":
            cell.update(execution_count=None, outputs=[])
        cells.append(cell)
    return {
        "nbformat": 4, "nbformat_minor": 5, "cells": cells,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                     "language_info": {"name": "python"}},
    }


if __name__ == "__main__":
    OUT.write_text(json.dumps(notebook(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")
