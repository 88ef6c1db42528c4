"""The page's reading of a heuristic formula (static/js/formula.js: h and f at the playhead of a run
with the heuristic "yours") gives the server's values (server/formula.py, the one that runs the
search): many formulas over the grid's features, evaluated by both, compared number by number."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from pathlib import Path

import numpy as np

from server.formula import compile_formula
from server.puzzles.grid.problem import FEATURES
from tests.conftest import missing

ROOT = Path(__file__).resolve().parents[1]
NAMES = tuple(name for name, _ in FEATURES)
FORMULAS = [
    "dr + dc", "max(dr, dc) + 0.5*min(dr, dc)", "sqrt(dr**2 + dc**2)", "dr if dr > dc else dc",
    "dr and dc", "dr or 2*dc", "not dr", "-dr ** 2", "2 ** -1 * dr", "(dr + 1) // 2 + dc % 3", "-dc % 4",
    "dc % -3", "abs(row - goal_row) + abs(col - goal_col)", "floor(dr / 3) + ceil(dc / 3)", "0 < dr <= 3",
    "dr / dc", "1e3 * dr", ".5 * dc", "dr != dc == 1", "min(dr, dc, 2)", "dr // 0", "dc % 0",
    "1_000 + dr", "dr - dc - 1", "dr * (dc - 2) ** 3", "max(dr, dc) if not dr == dc else 1.5 * dr",
    "dr > 2 and dc or row", "(dr or dc) and 7", "-(-dr)", "+dc", "dr ** 0.5",
]


def node_run(script: str, given: object = None) -> object:
    """Run an ES module `script` in Node at the repository's root (`given` as JSON on its stdin); its JSON."""
    node = shutil.which("node")
    if node is None:
        missing("Node.js is not installed (Debian package nodejs)")
    done = subprocess.run([node, "--input-type=module", "-e", script], cwd=ROOT, capture_output=True,
                          text=True, input=json.dumps(given), timeout=60, check=True)
    return json.loads(done.stdout)


def word(value: float) -> float | str:
    """A float as JSON carries it: NaN and the infinities as words."""
    if math.isnan(value):
        return "nan"
    return ("inf" if value > 0 else "-inf") if math.isinf(value) else value


def test_the_page_evaluates_every_formula_as_the_server_does() -> None:
    rows, cols = np.divmod(np.arange(10 * 12), 12)
    goal_row, goal_col = np.clip(rows, 4, 4), np.clip(cols, 7, 9)
    features = {"row": rows, "col": cols, "goal_row": goal_row, "goal_col": goal_col,
                "dr": np.abs(rows - goal_row), "dc": np.abs(cols - goal_col)}
    envs = [{name: float(features[name][i]) for name in NAMES} for i in range(rows.size)]
    page = node_run(
        "import { evaluateFormula } from './static/js/formula.js';"
        "const word = (v) => v === null ? 'null' : Number.isNaN(v) ? 'nan'"
        " : v === Infinity ? 'inf' : v === -Infinity ? '-inf' : v;"
        "let text = ''; process.stdin.on('data', (d) => { text += d; });"
        "process.stdin.on('end', () => { const { formulas, envs } = JSON.parse(text);"
        " const out = formulas.map((f) => envs.map((env) => word(evaluateFormula(f, env))));"
        " process.stdout.write(JSON.stringify(out)); });",
        {"formulas": FORMULAS, "envs": envs},
    )
    assert isinstance(page, list)
    for formula, values in zip(FORMULAS, page, strict=True):
        server = compile_formula(formula, NAMES).evaluate(features)
        assert "null" not in values, f"the page does not read {formula!r}"
        for env, mine, theirs in zip(envs, values, server, strict=True):
            assert mine == word(float(theirs)), (formula, env, mine, theirs)


def test_a_text_the_page_does_not_read_gives_no_number() -> None:
    texts = ["dr +", "dr dc", "foo(dr)", "x + 1", "min(dr)", "0x10", "dr[0]"]
    values = node_run(
        "import { evaluateFormula } from './static/js/formula.js';"
        "let text = ''; process.stdin.on('data', (d) => { text += d; });"
        "process.stdin.on('end', () => process.stdout.write(JSON.stringify("
        "JSON.parse(text).map((f) => evaluateFormula(f, { dr: 1, dc: 2 })))));",
        texts,
    )
    assert values == [None] * len(texts)
