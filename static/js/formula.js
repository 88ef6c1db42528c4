// @ts-check
// The heuristic lab's formula (the heuristic "yours": `dr + dc`, `max(dr, dc) + 0.5*min(dr, dc)`)
// evaluated in the page, for what the page shows of a run that used it: h and f at the playhead
// (the server ran the search; this only tells the figures what h was). The language is the server's
// (server/formula.py, which checks every formula before a run): numbers, the features' names,
// + - * / // % **, comparisons (chained, 0/1), and/or/not with Python's meaning, `x if c else y`,
// abs sqrt floor ceil min max. Arithmetic is float64 like the server's numpy (division by zero gives
// inf or NaN); tests/test_formula_js.py pins the values to the server's on many formulas.
// A text this parser does not read gives null (the figure shows "—"), never a wrong number.

import { t } from "./i18n.js";

const FUNCTIONS = {
  abs: Math.abs, sqrt: Math.sqrt, floor: Math.floor, ceil: Math.ceil,
};
const FOLDS = { min: Math.min, max: Math.max };
const KEYWORDS = new Set(["and", "or", "not", "if", "else"]);

/** @typedef {(env: Record<string, number>) => number} Fn */

/**
 * The tokens of `text`: numbers, names, operators and brackets; null when a character is not read.
 * @param {string} text
 * @returns {string[] | null}
 */
function tokenize(text) {
  const pattern = /\s*(?:(\d[\d_]*\.?[\d_]*(?:[eE][+-]?\d+)?|\.\d[\d_]*(?:[eE][+-]?\d+)?)|([A-Za-z_]\w*)|(\*\*|\/\/|<=|>=|==|!=|[-+*/%<>(),]))/y;
  const tokens = [];
  let at = 0;
  while (at < text.length) {
    if (/^\s*$/.test(text.slice(at))) break;
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (!match) return null;
    tokens.push(match[1] ?? match[2] ?? match[3]);
    at = pattern.lastIndex;
  }
  return tokens;
}

/** Python's truth of a float: not zero (NaN is true). @param {number} x */
const truth = (x) => x !== 0;

/** A recursive-descent parser with Python's precedence, building closures. */
class Parser {
  /** @param {string[]} tokens */
  constructor(tokens) {
    this.tokens = tokens;
    this.at = 0;
  }

  peek() {
    return this.tokens[this.at];
  }

  /** @param {string} token */
  take(token) {
    if (this.peek() !== token) return false;
    this.at++;
    return true;
  }

  /** @param {string} token */
  expect(token) {
    if (!this.take(token)) throw new Error(`expected ${token}`);
  }

  /** `body if test else orelse` (the lowest). @returns {Fn} */
  conditional() {
    const body = this.or();
    if (!this.take("if")) return body;
    const test = this.or();
    this.expect("else");
    const orelse = this.conditional();
    return (env) => (truth(test(env)) ? body(env) : orelse(env));
  }

  /** @returns {Fn} */
  or() {
    return this.boolean("or", () => this.and(), (value) => truth(value));
  }

  /** @returns {Fn} */
  and() {
    return this.boolean("and", () => this.not(), (value) => !truth(value));
  }

  /**
   * `a and b and c` / `a or b`: the deciding operand's value (and: the first false one, else the
   * last; or: the first true one, else the last).
   * @param {string} word @param {() => Fn} next @param {(value: number) => boolean} decides
   * @returns {Fn}
   */
  boolean(word, next, decides) {
    const parts = [next()];
    while (this.take(word)) parts.push(next());
    if (parts.length === 1) return parts[0];
    return (env) => {
      let value = 0;
      for (const part of parts) {
        value = part(env);
        if (decides(value)) return value;
      }
      return value;
    };
  }

  /** @returns {Fn} */
  not() {
    if (!this.take("not")) return this.comparison();
    const operand = this.not();
    return (env) => (operand(env) === 0 ? 1 : 0);
  }

  /** `a < b <= c`: each link, and-ed, as 0/1. @returns {Fn} */
  comparison() {
    const operands = [this.sum()];
    const ops = [];
    for (;;) {
      const op = this.peek();
      if (!["<", "<=", ">", ">=", "==", "!="].includes(op)) break;
      this.at++;
      ops.push(op);
      operands.push(this.sum());
    }
    if (!ops.length) return operands[0];
    const compare = { "<": (a, b) => a < b, "<=": (a, b) => a <= b, ">": (a, b) => a > b, ">=": (a, b) => a >= b,
      "==": (a, b) => a === b, "!=": (a, b) => a !== b };
    return (env) => {
      const values = operands.map((f) => f(env));
      return ops.every((op, k) => compare[op](values[k], values[k + 1])) ? 1 : 0;
    };
  }

  /** @returns {Fn} */
  sum() {
    let left = this.product();
    for (;;) {
      const op = this.peek();
      if (op !== "+" && op !== "-") return left;
      this.at++;
      const a = left;
      const b = this.product();
      left = op === "+" ? (env) => a(env) + b(env) : (env) => a(env) - b(env);
    }
  }

  /** @returns {Fn} */
  product() {
    let left = this.unary();
    for (;;) {
      const op = this.peek();
      if (!["*", "/", "//", "%"].includes(op)) return left;
      this.at++;
      const a = left;
      const b = this.unary();
      if (op === "*") left = (env) => a(env) * b(env);
      else if (op === "/") left = (env) => a(env) / b(env);
      else if (op === "//") left = (env) => Math.floor(a(env) / b(env));
      else left = (env) => pyMod(a(env), b(env));
    }
  }

  /** @returns {Fn} */
  unary() {
    if (this.take("-")) {
      const operand = this.unary();
      return (env) => -operand(env);
    }
    if (this.take("+")) return this.unary();
    return this.power();
  }

  /** `a ** b`, right-associative, binding tighter than a unary minus on its left. @returns {Fn} */
  power() {
    const base = this.atom();
    if (!this.take("**")) return base;
    const exponent = this.unary();
    return (env) => base(env) ** exponent(env);
  }

  /** @returns {Fn} */
  atom() {
    const token = this.peek();
    if (token === undefined) throw new Error(t("options.formula_end"));
    this.at++;
    if (token === "(") {
      const inner = this.conditional();
      this.expect(")");
      return inner;
    }
    if (/^[\d.]/.test(token)) {
      const value = Number(token.replace(/_/g, ""));
      if (!Number.isFinite(value)) throw new Error(t("options.formula_not_number", { token }));
      return () => value;
    }
    if (/^[A-Za-z_]/.test(token) && !KEYWORDS.has(token)) {
      if (this.peek() === "(") return this.call(token);
      return (env) => {
        if (!(token in env)) throw new Error(t("options.formula_unknown", { token }));
        return env[token];
      };
    }
    throw new Error(t("options.formula_unexpected", { token }));
  }

  /** `abs(x)`, `min(a, b, …)`. @param {string} name @returns {Fn} */
  call(name) {
    this.expect("(");
    const args = [];
    if (!this.take(")")) {
      do args.push(this.conditional()); while (this.take(","));
      this.expect(")");
    }
    if (name in FOLDS && args.length >= 2) {
      const fold = FOLDS[name];
      return (env) => fold(...args.map((a) => a(env)));
    }
    if (name in FUNCTIONS && args.length === 1) {
      const fn = FUNCTIONS[name];
      const [arg] = args;
      return (env) => fn(arg(env));
    }
    throw new Error(t("options.formula_call", { name }));
  }
}

/** Python's (and numpy's) float remainder: the sign of the divisor. @param {number} a @param {number} b */
function pyMod(a, b) {
  const r = a % b;
  return r !== 0 && (r < 0) !== (b < 0) ? r + b : r;
}

const compiled = new Map(); // text -> Fn | null (a run's formula is asked at every step)

/**
 * The formula `text` over the features `env` ({dr: 3, dc: 4, …}), or null when the text is not one
 * this page reads, or names a feature `env` lacks.
 * @param {string} text
 * @param {Record<string, number>} env
 * @returns {number | null}
 */
export function evaluateFormula(text, env) {
  if (!compiled.has(text)) {
    let fn = null;
    try {
      const tokens = tokenize(text);
      if (tokens) {
        const parser = new Parser(tokens);
        const parsed = parser.conditional();
        if (parser.at === tokens.length) fn = parsed;
      }
    } catch {
      fn = null;
    }
    if (compiled.size > 50) compiled.clear();
    compiled.set(text, fn);
  }
  const fn = compiled.get(text);
  if (!fn) return null;
  try {
    return fn(env);
  } catch {
    return null;
  }
}
