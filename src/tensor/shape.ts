// Shapes and dims. A dim is a concrete size or a named dynamic symbol ('batch', '?').
// Every shape rule of every op funnels through these helpers so that errors read the same.

import { ShapeError } from './errors.js';

/** A dimension: a concrete size, or the name of a dynamic size bound at run time. */
export type Dim = number | string;
export type Shape = readonly Dim[];

export const isStatic = (s: Shape): s is readonly number[] => s.every((d) => typeof d === 'number');

export function fmtShape(s: Shape): string {
  return `[${s.map((d) => (typeof d === 'number' ? String(d) : `'${d}'`)).join(', ')}]`;
}

/**
 * Throws ShapeError unless `shape` is an array of non-negative integers: every
 * user-given concrete shape (tensor's {shape}, zeros/ones/full, fromStorage...)
 * goes through here, since a negative, fractional or NaN dim would otherwise
 * make a buffer whose length disagrees with its shape.
 */
export function checkShape(op: string, shape: unknown): asserts shape is number[] {
  // A plain loop (no callback): fromStorage, on the per-call path of jit outputs, checks here.
  let ok = Array.isArray(shape);
  if (ok) {
    const s = shape as unknown[];
    for (let i = 0; i < s.length && ok; i++) ok = Number.isInteger(s[i]) && (s[i] as number) >= 0;
  }
  if (!ok) {
    const got = Array.isArray(shape) ? `[${shape.map((d) => (typeof d === 'string' ? `'${d}'` : String(d))).join(', ')}]` : `${typeof shape} ${String(shape)}`;
    throw new ShapeError(`${op}: shape must be an array of non-negative integers, got ${got}`);
  }
}

/** Number of elements; undefined when a dim is symbolic. */
export function staticSize(s: Shape): number | undefined {
  let n = 1;
  for (const d of s) {
    if (typeof d !== 'number') return undefined;
    n *= d;
  }
  return n;
}

/** Number of elements with symbols resolved by `env`. */
export function resolvedSize(s: Shape, env: ReadonlyMap<string, number>): number {
  let n = 1;
  for (const d of s) n *= resolveDim(d, env);
  return n;
}

export function resolveDim(d: Dim, env: ReadonlyMap<string, number>): number {
  if (typeof d === 'number') return d;
  const v = env.get(d);
  if (v === undefined) throw new ShapeError(`dynamic dim '${d}' is not bound`);
  return v;
}

export function resolveShape(s: Shape, env: ReadonlyMap<string, number>): number[] {
  return s.map((d) => resolveDim(d, env));
}

export const shapesEqual = (a: Shape, b: Shape): boolean => {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};

/** NumPy broadcasting of shapes; `op` names the caller in the error. */
export function broadcastShapes(op: string, ...shapes: Shape[]): Dim[] {
  // Common cases: two equal shapes, or a shape and a scalar's [].
  if (shapes.length === 2) {
    const [a, b] = shapes as [Shape, Shape];
    if (b.length === 0 || shapesEqual(a, b)) return [...a];
    if (a.length === 0) return [...b];
  }
  const rank = Math.max(0, ...shapes.map((s) => s.length));
  const out: Dim[] = new Array(rank).fill(1);
  for (let i = 0; i < rank; i++) {
    let d: Dim = 1;
    for (const s of shapes) {
      const k = s.length - rank + i;
      if (k < 0) continue;
      const e = s[k]!;
      if (e === 1 || e === d) continue;
      if (d === 1) d = e;
      else throw new ShapeError(`${op}: shapes ${shapes.map(fmtShape).join(', ')} cannot be broadcast together (axis ${i - rank}: ${d} vs ${e})`);
    }
    out[i] = d;
  }
  return out;
}

/** Normalizes a possibly negative axis; throws naming the op and rank. */
export function normAxis(op: string, axis: number, rank: number): number {
  if (!Number.isInteger(axis) || axis < -rank || axis >= rank) {
    throw new ShapeError(`${op}: axis ${axis} is out of range for a tensor of rank ${rank} (expected an integer in [${-rank}, ${rank - 1}])`);
  }
  return axis < 0 ? axis + rank : axis;
}

/** Normalizes an axis argument (undefined = all axes); sorted, unique. */
export function normAxes(op: string, axis: number | readonly number[] | undefined | null, rank: number): number[] {
  if (axis === undefined || axis === null) return [...Array(rank).keys()];
  const list = typeof axis === 'number' ? [axis] : [...axis];
  const out = list.map((a) => normAxis(op, a, rank));
  if (new Set(out).size !== out.length) throw new ShapeError(`${op}: repeated axis in ${JSON.stringify(list)}`);
  return out.sort((a, b) => a - b);
}

/** Row-major strides of a concrete shape. */
export function contiguousStrides(shape: readonly number[]): number[] {
  const st = new Array<number>(shape.length);
  let s = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    st[i] = s;
    s *= shape[i]!;
  }
  return st;
}
