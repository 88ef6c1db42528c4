"""The safe formula language of the heuristic lab (issue 19): ``dr + dc``, ``max(dr, dc) + 0.5*min(dr, dc)``.

Grammar (a subset of Python expressions, parsed with ``ast.parse(text, mode="eval")`` and then checked
node by node against a whitelist; nothing is ever passed to ``eval``, ``exec`` or ``compile``)::

    expr := number | name | (expr) | +expr | -expr | not expr
          | expr (+ - * / // % **) expr | expr (< <= > >= == !=) expr ...   (chained)
          | expr and expr | expr or expr | expr if expr else expr
          | abs(expr) | sqrt(expr) | floor(expr) | ceil(expr) | min(expr, expr, ...) | max(expr, expr, ...)

Numbers are int or float literals; names are the ones declared by the caller (``row, col, dr, ...``).
Everything else (attributes, subscripts, strings, comprehensions, lambdas, keywords, ``*args``,
walrus, undeclared names such as ``__import__``) is refused with a ``FormulaError`` naming the problem
and its column (1-based offset in the text).

Bounds: at most 500 characters of printable ASCII (plus tab and newline), at most 200 expression
nodes, nesting at most 30 deep, numeric literals of absolute value at most 1e12, and the exponent of
``**`` must be a literal number from -8 to 8 (so ``2**2**100`` and ``x**y`` are refused).

Evaluation is vectorised: the tree becomes a closure over numpy ufuncs (``np.where`` for ``if``,
``and``, ``or`` and ``not``; comparisons give 0/1; ``and``/``or`` return an operand like Python's).
All arithmetic is float64 under ``np.errstate(all="ignore")``: division by zero, ``sqrt(-1)`` and
overflow give inf or NaN instead of raising; ``nonfinite_count`` counts such states for the caller.
Known differences from Python: those NaN/inf results (where Python raises) and ``min``/``max``
propagating NaN.

Memory is bounded whatever the number of states (issue 28): the closure runs over one chunk of
states at a time (``Formula.chunk``: at most ``CHUNK_STATES``, fewer for a formula that keeps many
arrays alive at once, so that a chunk's temporaries and features stay under ``WORK_BYTES``) and
writes into one preallocated float64 output. ``evaluate`` takes the features as whole arrays (sliced
per chunk, converted to float64 per chunk); ``evaluate_chunks`` asks the caller for each chunk's
features, so that they are never all made at once (the grid's lab computes them from the cell index).

Why not a library: simpleeval has had sandbox escapes fixed as late as 2026 (CVE-2026-32640) and
evaluates one scalar at a time; numexpr's ``evaluate`` calls ``eval`` behind a blacklist its
maintainers call bypassable. A whitelist over Python's own ``ast`` is both safe and vectorised
(see ``/work/shared/DESIGN.md``, "User formulas").
"""

from __future__ import annotations

import ast
import keyword
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import reduce

import numpy as np

from .i18n import t
from .puzzles.errors import PuzzleError

MAX_CHARS = 500
MAX_NODES = 200
MAX_DEPTH = 30
MAX_CONSTANT = 1e12
MAX_EXPONENT = 8
CHUNK_STATES = 1 << 20  # states evaluated at once, at most
WORK_BYTES = 32 << 20  # what one chunk's evaluation may hold besides the output (see ``Formula.chunk``)
# Per state of a chunk, besides the formula's own arrays: each feature used as float64 and what its
# maker may hold while making it (``FeatureChunks``), plus a few arrays shared by all the features.
FEATURE_ARRAYS = 2
SHARED_ARRAYS = 4
# At most the arrays of a state any formula holds (``_live_arrays`` stays under 3 a node, and a formula
# uses at most a name a node): only a space smaller than one chunk holds less than ``WORK_BYTES``.
MAX_ARRAYS = 3 * MAX_NODES + FEATURE_ARRAYS * MAX_NODES + SHARED_ARRAYS

Value = np.ndarray | np.floating
Env = Mapping[str, np.ndarray]
Fn = Callable[[Env], Value]
# ``chunk(lo, hi, names)``: the features ``names`` of states lo..hi-1 (arrays of hi - lo, or scalars).
FeatureChunks = Callable[[int, int, tuple[str, ...]], Mapping[str, np.ndarray | float]]

_UNARY_FUNCTIONS: dict[str, Callable[[Value], Value]] = {
    "abs": np.abs,
    "sqrt": np.sqrt,
    "floor": np.floor,
    "ceil": np.ceil,
}
_FOLD_FUNCTIONS: dict[str, Callable[[Value, Value], Value]] = {"min": np.minimum, "max": np.maximum}
FUNCTIONS = ("abs", "min", "max", "sqrt", "floor", "ceil")

_BINARY: dict[type[ast.operator], Callable[[Value, Value], Value]] = {
    ast.Add: np.add,
    ast.Sub: np.subtract,
    ast.Mult: np.multiply,
    ast.Div: np.true_divide,
    ast.FloorDiv: np.floor_divide,
    ast.Mod: np.remainder,
    ast.Pow: np.power,
}
_COMPARE: dict[type[ast.cmpop], Callable[[Value, Value], Value]] = {
    ast.Lt: np.less,
    ast.LtE: np.less_equal,
    ast.Gt: np.greater,
    ast.GtE: np.greater_equal,
    ast.Eq: np.equal,
    ast.NotEq: np.not_equal,
}
_OPERATOR_TEXT = {
    ast.MatMult: "@", ast.LShift: "<<", ast.RShift: ">>", ast.BitOr: "|", ast.BitXor: "^",
    ast.BitAnd: "&", ast.Invert: "~", ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in",
}  # fmt: skip
_REFUSED = {  # catalog keys
    ast.Attribute: "lab.formula.refused.attribute_access",
    ast.Subscript: "lab.formula.refused.subscripts",
    ast.Slice: "lab.formula.refused.slices",
    ast.ListComp: "lab.formula.refused.comprehensions",
    ast.SetComp: "lab.formula.refused.comprehensions",
    ast.DictComp: "lab.formula.refused.comprehensions",
    ast.GeneratorExp: "lab.formula.refused.comprehensions",
    ast.Lambda: "lab.formula.refused.lambda",
    ast.NamedExpr: "lab.formula.refused.the_walrus_operator",
    ast.JoinedStr: "lab.formula.refused.f_strings",
    ast.FormattedValue: "lab.formula.refused.f_strings",
    ast.List: "lab.formula.refused.lists",
    ast.Tuple: "lab.formula.refused.tuples",
    ast.Set: "lab.formula.refused.sets",
    ast.Dict: "lab.formula.refused.dicts",
    ast.Starred: "lab.formula.refused.starred_arguments",
    ast.Await: "lab.formula.refused.await",
    ast.Yield: "lab.formula.refused.yield",
    ast.YieldFrom: "lab.formula.refused.yield",
}


class FormulaError(PuzzleError):
    """A formula that cannot be compiled or evaluated: ``problem`` at ``column`` (1-based), with a hint."""

    def __init__(self, problem: str, column: int | None = None, hint: str = "") -> None:
        text = problem + (t("lab.formula.at_column", column=column) if column is not None else "")
        super().__init__(text + (f" ({hint})" if hint else ""))
        self.problem = problem
        self.column = column
        self.where = f"column {column}" if column is not None else None


def work_bytes(states: int) -> int:
    """At most what evaluating any formula over ``states`` states holds besides its output."""
    return min(WORK_BYTES, 8 * MAX_ARRAYS * states)


@dataclass(frozen=True)
class Formula:
    """A compiled formula: ``evaluate`` it over arrays of features (``evaluate_chunks``: over features
    made chunk by chunk)."""

    text: str
    names: tuple[str, ...]
    names_used: tuple[str, ...]
    _fn: Fn = field(repr=False, compare=False)
    live: int = 1  # chunk-sized arrays the closure may hold at once (``_live_arrays``)

    @property
    def chunk(self) -> int:
        """States evaluated at once: ``WORK_BYTES`` over a state's float64 temporaries (the formula's
        own arrays alive at once, its features and their making), at most ``CHUNK_STATES``."""
        arrays = self.live + FEATURE_ARRAYS * len(self.names_used) + SHARED_ARRAYS
        return max(1024, min(CHUNK_STATES, WORK_BYTES // (8 * arrays)))

    def evaluate(self, features: Mapping[str, np.ndarray | float]) -> np.ndarray:
        """The formula over ``features`` (arrays broadcast together, scalars too) as a new float64 array.

        Never raises for arithmetic trouble: NaN or inf marks those states (see ``nonfinite_count``).
        """
        given: dict[str, np.ndarray] = {}
        for name in self.names:
            if name in features:
                given[name] = np.asarray(features[name])
            elif name in self.names_used:
                raise FormulaError(t("lab.formula.feature_missing_2", name=name))
        try:
            shape = np.broadcast_shapes(*(a.shape for a in given.values()))
        except ValueError:
            raise FormulaError(t("lab.formula.features_have_shapes_that_do")) from None
        out = np.empty(shape, dtype=np.float64)
        if out.ndim == 0:
            out[...] = self._run(given)
            return out
        inner = math.prod(shape[1:])
        step = max(1, self.chunk // max(inner, 1))  # whole rows of the first axis at a time
        for lo in range(0, shape[0], step):
            hi = min(shape[0], lo + step)
            used = {name: a for name, a in given.items() if name in self.names_used}
            out[lo:hi] = self._run({name: _rows(a, len(shape), lo, hi) for name, a in used.items()})
        return out

    def evaluate_chunks(self, count: int, chunk: FeatureChunks) -> np.ndarray:
        """The formula over ``count`` states as a new float64 array, asking ``chunk(lo, hi, names)`` for
        the features of at most ``self.chunk`` states at a time (only the names the formula uses)."""
        out = np.empty(count, dtype=np.float64)
        step = self.chunk
        for lo in range(0, count, step):
            hi = min(count, lo + step)
            features = chunk(lo, hi, self.names_used)
            missing = [name for name in self.names_used if name not in features]
            if missing:
                raise FormulaError(t("lab.formula.feature_missing", missing=missing[0]))
            try:
                out[lo:hi] = self._run({name: features[name] for name in self.names_used})
            except ValueError:
                raise FormulaError(t("lab.formula.features_have_shapes_that_do_2")) from None
        return out

    def _run(self, env: Mapping[str, np.ndarray | float]) -> Value:
        """The closure over one chunk's features, each as float64."""
        floats = {name: np.asarray(value, dtype=np.float64) for name, value in env.items()}
        with np.errstate(all="ignore"):
            return self._fn(floats)


def _rows(a: np.ndarray, ndim: int, lo: int, hi: int) -> np.ndarray:
    """Rows lo..hi-1 of the first axis of the broadcast shape (of ``ndim`` axes) of ``a``."""
    if a.ndim == ndim and a.shape[0] != 1:
        return a[lo:hi]
    return a  # broadcast along the first axis: the same for every chunk


def compile_formula(text: str, names: Sequence[str]) -> Formula:
    """Parse and check ``text`` against the whitelist; raise ``FormulaError`` naming the problem."""
    declared = tuple(names)
    for name in declared:
        if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name):
            raise ValueError(f"{name!r} cannot be a formula name")
        if name in FUNCTIONS:
            raise ValueError(f"{name!r} is a function of the formula language; it cannot be a name")
    if len(set(declared)) != len(declared):
        raise ValueError("the formula names must be distinct")
    if not isinstance(text, str):
        raise FormulaError(t("lab.formula.formula_must_be_text"))
    if len(text) > MAX_CHARS:
        raise FormulaError(t("lab.formula.formula_characters_long_at_most", n_text=len(text),
                             MAX_CHARS=MAX_CHARS))
    for i, ch in enumerate(text):
        if not (" " <= ch <= "~" or ch in "\t\n"):
            raise FormulaError(t("lab.formula.character_not_allowed", ch=repr(ch)), i + 1)
    return _Compiler(text, declared).run()


class _Compiler:
    """One compilation: the text, its line starts, the declared names and the names met so far."""

    def __init__(self, text: str, names: tuple[str, ...]) -> None:
        self.text = text
        body = text.lstrip(" \t\n")
        self.lead = len(text) - len(body)
        self.body = body
        self.line_starts = [0]
        for i, ch in enumerate(body):
            if ch == "\n":
                self.line_starts.append(i + 1)
        self.names = names
        self.used: set[str] = set()

    def column(self, lineno: int | None, offset: int | None) -> int:
        """The 1-based offset in the whole text of a 1-based line and 0-based column of the parsed body."""
        if not lineno or offset is None:
            return len(self.text) + 1
        line = min(max(lineno, 1), len(self.line_starts)) - 1
        return min(self.lead + self.line_starts[line] + offset + 1, len(self.text) + 1)

    def at(self, node: ast.AST) -> int:
        """The column of ``node`` (of the dot, for an attribute)."""
        if isinstance(node, ast.Attribute) and node.end_lineno and node.end_col_offset is not None:
            start = self.line_starts[min(node.end_lineno, len(self.line_starts)) - 1]
            dot = start + node.end_col_offset - len(node.attr) - 1
            while dot > 0 and self.body[dot] in " \t\n":
                dot -= 1
            line = self.body.count("\n", 0, dot)
            return self.column(line + 1, dot - self.line_starts[line])
        return self.column(getattr(node, "lineno", None), getattr(node, "col_offset", None))

    def run(self) -> Formula:
        """Parse, check the bounds, translate."""
        if not self.body.strip():
            raise FormulaError(t("lab.formula.formula_empty"))
        try:
            tree = ast.parse(self.body, mode="eval")
        except SyntaxError as error:
            offset = error.offset - 1 if error.offset and error.offset > 0 else None
            where = self.column(error.lineno, offset)
            raise FormulaError(t("lab.formula.syntax_error_at_column", where=where, msg=error.msg)) from None
        except (RecursionError, MemoryError, ValueError):
            raise FormulaError(t("lab.formula.formula_nested_too_deeply_read")) from None
        count = sum(1 for node in ast.walk(tree) if isinstance(node, ast.expr))
        if count > MAX_NODES:
            raise FormulaError(t("lab.formula.formula_has_parts_at_most", count=count, MAX_NODES=MAX_NODES))
        fn = self.expr(tree.body, 1)
        used = tuple(name for name in self.names if name in self.used)
        live = _live_arrays(tree.body)
        return Formula(text=self.text, names=self.names, names_used=used, _fn=fn, live=live)

    # ---------------------------------------------------------------------------------- translation
    def expr(self, node: ast.expr, depth: int) -> Fn:
        """The closure computing ``node``; refuses anything off the whitelist."""
        if depth > MAX_DEPTH:
            raise FormulaError(t("lab.formula.formula_nested_more_than_deep",
                                 MAX_DEPTH=MAX_DEPTH), self.at(node))
        inner = depth + 1
        if isinstance(node, ast.Constant):
            return self.constant(node)
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.UnaryOp):
            return self.unary(node, inner)
        if isinstance(node, ast.BinOp):
            return self.binary(node, inner)
        if isinstance(node, ast.Compare):
            return self.compare(node, inner)
        if isinstance(node, ast.BoolOp):
            return self.boolean(node, inner)
        if isinstance(node, ast.IfExp):
            test, body, orelse = (self.expr(n, inner) for n in (node.test, node.body, node.orelse))
            return lambda env: np.where(np.not_equal(test(env), 0), body(env), orelse(env))
        if isinstance(node, ast.Call):
            return self.call(node, inner)
        message = t(_REFUSED.get(type(node), "lab.formula.node_not_allowed"), name=type(node).__name__)
        raise FormulaError(message, self.at(node))

    def constant(self, node: ast.Constant) -> Fn:
        """An int or float literal of at most ``MAX_CONSTANT``."""
        value = node.value
        if isinstance(value, bool) or value is None or value is Ellipsis:
            raise FormulaError(t("lab.formula.not_allowed_use_numbers", value=repr(value)), self.at(node))
        if isinstance(value, str | bytes):
            kind = t("lab.formula.kind.strings") if isinstance(value, str) else t("lab.formula.kind.bytes")
            raise FormulaError(t("lab.formula.are_not_allowed", kind=kind), self.at(node))
        if not isinstance(value, int | float):
            raise FormulaError(t("lab.formula.numbers_are_not_allowed",
                                 name=type(value).__name__), self.at(node))
        if not abs(value) <= MAX_CONSTANT:
            raise FormulaError(t("lab.formula.numbers_must_be_at_most",
                                 MAX_CONSTANT=format(MAX_CONSTANT, 'g')), self.at(node))
        number = np.float64(value)
        return lambda env: number

    def name(self, node: ast.Name) -> Fn:
        """A declared name."""
        if node.id in FUNCTIONS:
            raise FormulaError(t("lab.formula.function_call_it_like_x", id=node.id), self.at(node))
        if node.id not in self.names:
            raise FormulaError(
                t("lab.formula.unknown_name", id=node.id), self.at(node),
                t("lab.formula.hint.names", names=", ".join(self.names)),
            )
        self.used.add(node.id)
        key = node.id
        return lambda env: env[key]

    def unary(self, node: ast.UnaryOp, depth: int) -> Fn:
        """``+x``, ``-x``, ``not x``."""
        operand = self.expr(node.operand, depth)
        if isinstance(node.op, ast.UAdd):
            return operand
        if isinstance(node.op, ast.USub):
            return lambda env: np.negative(operand(env))
        if isinstance(node.op, ast.Not):
            return lambda env: np.equal(operand(env), 0).astype(np.float64)
        text = _OPERATOR_TEXT.get(type(node.op), "?")
        raise FormulaError(t("lab.formula.operator_not_allowed", text=text), self.at(node))

    def binary(self, node: ast.BinOp, depth: int) -> Fn:
        """Arithmetic; the exponent of ``**`` must be a literal from -8 to 8."""
        op = _BINARY.get(type(node.op))
        if op is None:
            text = _OPERATOR_TEXT.get(type(node.op), "?")
            raise FormulaError(t("lab.formula.operator_not_allowed", text=text), self.at(node))
        if isinstance(node.op, ast.Pow):
            exponent = node.right
            if isinstance(exponent, ast.UnaryOp) and isinstance(exponent.op, ast.USub | ast.UAdd):
                exponent = exponent.operand
            if not (
                isinstance(exponent, ast.Constant)
                and isinstance(exponent.value, int | float)
                and not isinstance(exponent.value, bool)
                and abs(exponent.value) <= MAX_EXPONENT
            ):
                raise FormulaError(
                    t("lab.formula.exponent_must_be_number_from", MAX_EXPONENT=MAX_EXPONENT),
                    self.at(node.right),
                )
        left = self.expr(node.left, depth)
        right = self.expr(node.right, depth)
        return lambda env: op(left(env), right(env))

    def compare(self, node: ast.Compare, depth: int) -> Fn:
        """``a < b <= c``: each operand once, the links and-ed, the result 0/1."""
        ops: list[Callable[[Value, Value], Value]] = []
        for op in node.ops:
            ufunc = _COMPARE.get(type(op))
            if ufunc is None:
                text = _OPERATOR_TEXT.get(type(op), "?")
                raise FormulaError(t("lab.formula.comparison_not_allowed", text=text), self.at(node))
            ops.append(ufunc)
        operands = [self.expr(n, depth) for n in (node.left, *node.comparators)]

        def run(env: Env) -> Value:
            values = [f(env) for f in operands]
            links = [op(a, b) for op, a, b in zip(ops, values, values[1:], strict=False)]
            return reduce(np.logical_and, links).astype(np.float64)

        return run

    def boolean(self, node: ast.BoolOp, depth: int) -> Fn:
        """``a and b`` / ``a or b`` with Python's meaning: the deciding operand's value."""
        parts = [self.expr(n, depth) for n in node.values]
        is_and = isinstance(node.op, ast.And)

        def run(env: Env) -> Value:
            result = parts[-1](env)
            for part in reversed(parts[:-1]):
                value = part(env)
                truth = np.not_equal(value, 0)
                result = np.where(truth, result, value) if is_and else np.where(truth, value, result)
            return result

        return run

    def call(self, node: ast.Call, depth: int) -> Fn:
        """``abs sqrt floor ceil`` of one argument, ``min max`` of two or more; positional only."""
        allowed = ", ".join(FUNCTIONS)
        if not isinstance(node.func, ast.Name):
            if type(node.func) in _REFUSED:
                self.expr(node.func, depth)  # raises, naming what the callee is
            raise FormulaError(t("lab.formula.only_functions_can_be_called"), self.at(node),
                               t("lab.formula.hint.they_are", allowed=allowed))
        name = node.func.id
        if name not in FUNCTIONS:
            raise FormulaError(t("lab.formula.not_function", name=name), self.at(node),
                               t("lab.formula.hint.functions", allowed=allowed))
        if node.keywords:
            raise FormulaError(t("lab.formula.keyword_arguments_are_not_allowed"), self.at(node.keywords[0]))
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                raise FormulaError(t("lab.formula.starred_arguments_are_not_allowed"), self.at(arg))
        args = [self.expr(a, depth) for a in node.args]
        if name in _FOLD_FUNCTIONS:
            if len(args) < 2:
                raise FormulaError(t("lab.formula.needs_two_or_more_arguments", name=name), self.at(node))
            fold = _FOLD_FUNCTIONS[name]
            return lambda env: reduce(fold, (a(env) for a in args))
        if len(args) != 1:
            raise FormulaError(t("lab.formula.takes_exactly_one_argument", name=name), self.at(node))
        unary, (arg,) = _UNARY_FUNCTIONS[name], args
        return lambda env: unary(arg(env))


def _live_arrays(node: ast.expr) -> int:
    """At most how many arrays the closure of ``node`` holds at once (its result included), counting
    each boolean mask as a float64 array: how ``Formula.chunk`` bounds a chunk's temporaries. Names
    and numbers add none (the features are counted by the caller)."""
    if isinstance(node, ast.Constant | ast.Name):
        return 0
    if isinstance(node, ast.UnaryOp):
        inner = _live_arrays(node.operand)
        if isinstance(node.op, ast.UAdd):
            return inner
        return max(inner, 3 if isinstance(node.op, ast.Not) else 2)  # operand, mask, result
    if isinstance(node, ast.BinOp):
        return max(_live_arrays(node.left), 1 + _live_arrays(node.right), 3)
    if isinstance(node, ast.Compare):  # every operand held, then the links, their and, the result
        operands = [node.left, *node.comparators]
        held = max(k + _live_arrays(n) for k, n in enumerate(operands))
        return max(held, 2 * len(operands) + 1)
    if isinstance(node, ast.BoolOp):  # the result so far, an operand, its truth, the new result
        last = _live_arrays(node.values[-1])
        return max(last, 1 + max(_live_arrays(n) for n in node.values[:-1]), 4)
    if isinstance(node, ast.IfExp):  # the test's truth, the body, the other, the result
        return max(_live_arrays(node.test), 2, 1 + _live_arrays(node.body), 2 + _live_arrays(node.orelse), 4)
    if isinstance(node, ast.Call):  # min/max fold: what it holds so far, an argument, the result
        args = [_live_arrays(n) for n in node.args]
        if len(args) == 1:
            return max(args[0], 2)
        return max(args[0], 1 + max(args[1:]), 3)
    return 1
