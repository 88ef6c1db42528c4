// @ts-check
// Typed arrays that grow as records arrive: doubled when full, so n pushes copy O(n) numbers in all.
// `withRoom` for a class that keeps its own array and count (a board's path, a state space's
// ranks), `GrowableColumn` for a column of numbers on its own (the comparison's step index, explain
// mode's frontier entries).

/**
 * `array` itself when it holds `length` numbers, else a copy at least twice as long (its numbers kept).
 * @template {Int32Array | Float64Array} T
 * @param {T} array
 * @param {number} length
 * @returns {T}
 */
export function withRoom(array, length) {
  if (length <= array.length) return array;
  const Type = /** @type {any} */ (array.constructor);
  const bigger = new Type(Math.max(length, array.length * 2));
  bigger.set(array);
  return bigger;
}

/** A column of numbers that grows: `data[0..length)` holds them. */
export class GrowableColumn {
  /** @param {Int32ArrayConstructor | Float64ArrayConstructor} [Type] */
  constructor(Type = Int32Array) {
    /** @type {Int32Array | Float64Array} */
    this.data = new Type(1024);
    this.length = 0;
  }

  /** @param {number} value */
  push(value) {
    this.data = withRoom(this.data, this.length + 1);
    this.data[this.length++] = value;
  }

  clear() {
    this.length = 0;
  }

  /** The numbers so far (a view, not a copy). */
  view() {
    return this.data.subarray(0, this.length);
  }
}
