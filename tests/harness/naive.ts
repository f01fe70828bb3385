// An independent, deliberately naive float64 reference for the parity suite.
//
// Written WITHOUT rlx: a value is a flat row-major Float64Array plus a shape
// array, and every op is explicit index loops over multi-indices. Complex arrays
// hold interleaved (re, im) pairs (data.length = 2 * size) and set `cplx`.
// Semantics follow NumPy 1.24 (broadcasting, reductions with keepdims, var with
// ddof, matmul with 1-D promotion and batch broadcasting, np.take, np.pad
// constant mode) and Python's slice semantics (slice.indices) for slicing.
// Nothing here is clever: it is meant to be obviously right, not fast.

export interface NArr {
  shape: number[];
  data: Float64Array;
  /** Interleaved (re, im) pairs when true. */
  cplx?: boolean;
}

export class NaiveShapeError extends Error {}
export class NaiveIndexError extends Error {}

// ---- shapes and indices --------------------------------------------------------

export function sizeOf(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

export function stridesOf(shape: readonly number[]): number[] {
  const st = new Array<number>(shape.length).fill(0);
  let s = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    st[i] = s;
    s *= shape[i]!;
  }
  return st;
}

/** Multi-index of flat position `flat` in a row-major array of `shape`. */
export function unravel(flat: number, shape: readonly number[]): number[] {
  const idx = new Array<number>(shape.length).fill(0);
  for (let i = shape.length - 1; i >= 0; i--) {
    const d = shape[i]!;
    idx[i] = flat % d;
    flat = Math.floor(flat / d);
  }
  return idx;
}

export function ravel(idx: readonly number[], shape: readonly number[]): number {
  let f = 0;
  for (let i = 0; i < shape.length; i++) f = f * shape[i]! + idx[i]!;
  return f;
}

const lanes = (a: NArr): number => (a.cplx ? 2 : 1);

export function make(shape: readonly number[], data: ArrayLike<number>, cplx = false): NArr {
  const n = sizeOf(shape) * (cplx ? 2 : 1);
  if (data.length !== n) throw new Error(`naive.make: ${data.length} values for shape [${shape.join(', ')}]${cplx ? ' (complex)' : ''}`);
  return { shape: [...shape], data: Float64Array.from(data), cplx };
}

export function filled(shape: readonly number[], value: number): NArr {
  return { shape: [...shape], data: new Float64Array(sizeOf(shape)).fill(value) };
}

/** Reads element at multi-index idx (real arrays). */
export function at(a: NArr, idx: readonly number[]): number {
  return a.data[ravel(idx, a.shape)]!;
}

/** NumPy broadcasting of any number of shapes; throws NaiveShapeError. */
export function broadcastShapes(...shapes: (readonly number[])[]): number[] {
  let rank = 0;
  for (const s of shapes) rank = Math.max(rank, s.length);
  const out: number[] = [];
  for (let i = 0; i < rank; i++) {
    let d = 1;
    for (const s of shapes) {
      const k = i - (rank - s.length);
      if (k < 0) continue;
      const e = s[k]!;
      if (e === 1) continue;
      if (d === 1) d = e;
      else if (d !== e) throw new NaiveShapeError(`cannot broadcast [${shapes.map((x) => x.join(', ')).join('] [')}]`);
    }
    out.push(d);
  }
  return out;
}

export function canBroadcast(a: readonly number[], b: readonly number[]): boolean {
  try {
    broadcastShapes(a, b);
    return true;
  } catch {
    return false;
  }
}

/** Flat source index in an array of shape `src` for multi-index `outIdx` of the broadcast shape. */
function broadcastSource(outIdx: readonly number[], src: readonly number[]): number {
  const off = outIdx.length - src.length;
  let f = 0;
  for (let i = 0; i < src.length; i++) {
    const d = src[i]!;
    f = f * d + (d === 1 ? 0 : outIdx[i + off]!);
  }
  return f;
}

export function broadcastTo(a: NArr, shape: readonly number[]): NArr {
  const b = broadcastShapes(a.shape, shape);
  if (b.length !== shape.length || b.some((d, i) => d !== shape[i])) throw new NaiveShapeError('broadcastTo');
  const n = sizeOf(shape),
    L = lanes(a);
  const out = new Float64Array(n * L);
  for (let f = 0; f < n; f++) {
    const s = broadcastSource(unravel(f, shape), a.shape);
    for (let l = 0; l < L; l++) out[f * L + l] = a.data[s * L + l]!;
  }
  return { shape: [...shape], data: out, cplx: a.cplx };
}

// ---- elementwise ---------------------------------------------------------------

export function unary(a: NArr, f: (x: number) => number): NArr {
  const out = new Float64Array(a.data.length);
  for (let i = 0; i < out.length; i++) out[i] = f(a.data[i]!);
  return { shape: [...a.shape], data: out };
}

export function binary(a: NArr, b: NArr, f: (x: number, y: number) => number): NArr {
  const shape = broadcastShapes(a.shape, b.shape);
  const n = sizeOf(shape);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const idx = unravel(i, shape);
    out[i] = f(a.data[broadcastSource(idx, a.shape)]!, b.data[broadcastSource(idx, b.shape)]!);
  }
  return { shape, data: out };
}

export function ternary(c: NArr, a: NArr, b: NArr, f: (c: number, x: number, y: number) => number): NArr {
  const shape = broadcastShapes(c.shape, a.shape, b.shape);
  const n = sizeOf(shape);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const idx = unravel(i, shape);
    out[i] = f(c.data[broadcastSource(idx, c.shape)]!, a.data[broadcastSource(idx, a.shape)]!, b.data[broadcastSource(idx, b.shape)]!);
  }
  return { shape, data: out };
}

export type C = [number, number];

export function cunary(a: NArr, f: (z: C) => C): NArr {
  if (!a.cplx) throw new Error('cunary: expected a complex array');
  const n = sizeOf(a.shape);
  const out = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    const [re, im] = f([a.data[2 * i]!, a.data[2 * i + 1]!]);
    out[2 * i] = re;
    out[2 * i + 1] = im;
  }
  return { shape: [...a.shape], data: out, cplx: true };
}

export function cbinary(a: NArr, b: NArr, f: (x: C, y: C) => C): NArr {
  const shape = broadcastShapes(a.shape, b.shape);
  const n = sizeOf(shape);
  const out = new Float64Array(2 * n);
  const get = (x: NArr, k: number): C => (x.cplx ? [x.data[2 * k]!, x.data[2 * k + 1]!] : [x.data[k]!, 0]);
  for (let i = 0; i < n; i++) {
    const idx = unravel(i, shape);
    const [re, im] = f(get(a, broadcastSource(idx, a.shape)), get(b, broadcastSource(idx, b.shape)));
    out[2 * i] = re;
    out[2 * i + 1] = im;
  }
  return { shape, data: out, cplx: true };
}

/** Textbook complex arithmetic (no scaling tricks: inputs in tests are moderate). */
export const cmath = {
  add: (x: C, y: C): C => [x[0] + y[0], x[1] + y[1]],
  sub: (x: C, y: C): C => [x[0] - y[0], x[1] - y[1]],
  mul: (x: C, y: C): C => [x[0] * y[0] - x[1] * y[1], x[0] * y[1] + x[1] * y[0]],
  div: (x: C, y: C): C => {
    const d = y[0] * y[0] + y[1] * y[1];
    return [(x[0] * y[0] + x[1] * y[1]) / d, (x[1] * y[0] - x[0] * y[1]) / d];
  },
  conj: (x: C): C => [x[0], -x[1]],
  neg: (x: C): C => [-x[0], -x[1]],
  abs: (x: C): number => Math.hypot(x[0], x[1]),
  exp: (x: C): C => {
    const r = Math.exp(x[0]);
    return [r * Math.cos(x[1]), r * Math.sin(x[1])];
  },
};

/** Real and imaginary parts of a complex array as two real arrays. */
export function splitComplex(a: NArr): { re: NArr; im: NArr } {
  const n = sizeOf(a.shape);
  const re = new Float64Array(n),
    im = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    re[i] = a.data[2 * i]!;
    im[i] = a.data[2 * i + 1]!;
  }
  return { re: { shape: [...a.shape], data: re }, im: { shape: [...a.shape], data: im } };
}

// ---- scalar references without a Math.* counterpart ----------------------------

/** erf by the everywhere-positive series erf(x) = 2/√π · e^{-x²} · Σ x^{2n+1} 2^n / (1·3···(2n+1)). */
export function naiveErf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (Math.abs(x) > 6) return Math.sign(x);
  let term = x,
    sum = x;
  for (let n = 1; n < 500 && Math.abs(term) > 1e-17 * Math.abs(sum); n++) {
    term *= (2 * x * x) / (2 * n + 1);
    sum += term;
  }
  return (2 / Math.sqrt(Math.PI)) * Math.exp(-x * x) * sum;
}

/** NumPy's round: half to even. */
export function roundHalfEven(x: number): number {
  if (!Number.isFinite(x)) return x;
  if (Math.abs(x - Math.trunc(x)) === 0.5) return 2 * Math.round(x / 2);
  return Math.round(x);
}


/** Round-to-nearest-even onto a binary float grid with `mant` fraction bits, min exponent emin, largest finite value max. */
function roundToGrid(x: number, mant: number, emin: number, max: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const a = Math.abs(x);
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  else if (2 ** (e + 1) <= a) e++;
  e = Math.max(e, emin);
  const ulp = 2 ** (e - mant);
  const q = a / ulp;
  let r = Math.floor(q);
  const frac = q - r;
  if (frac > 0.5 || (frac === 0.5 && r % 2 === 1)) r++;
  const v = r * ulp;
  return Math.sign(x) * (v > max ? Infinity : v);
}

/** Nearest IEEE half (float16) value, ties to even; overflow to ±inf. */
export const roundF16 = (x: number): number => roundToGrid(x, 10, -14, 65504);

/** Nearest bfloat16 value (8-bit significand, float32 exponent range), ties to even. */
export const roundBF16 = (x: number): number => roundToGrid(x, 7, -126, (2 - 2 ** -7) * 2 ** 127);

// ---- reductions ----------------------------------------------------------------

export type ReduceKind = 'sum' | 'prod' | 'max' | 'min' | 'mean';

/** Normalizes axes (undefined = all); throws on out-of-range or repeated axes. */
export function normAxes(axis: number | readonly number[] | undefined, rank: number): number[] {
  const list = axis === undefined ? Array.from({ length: rank }, (_, i) => i) : typeof axis === 'number' ? [axis] : [...axis];
  const out: number[] = [];
  for (const a of list) {
    if (!Number.isInteger(a) || a < -rank || a >= rank) throw new NaiveShapeError(`axis ${a} out of range for rank ${rank}`);
    const n = a < 0 ? a + rank : a;
    if (out.includes(n)) throw new NaiveShapeError(`repeated axis ${a}`);
    out.push(n);
  }
  return out.sort((x, y) => x - y);
}

/**
 * Groups the elements of x by their position outside `axes`: calls visit(outFlat,
 * value) for every element, in row-major order of x (so "first" means what NumPy
 * means by first along the reduced axes). Returns the output shapes.
 */
function groups(x: NArr, axes: number[], keepdims: boolean, visit: (o: number, v: number, pos: number[]) => void): { shape: number[]; keptShape: number[] } {
  const keptShape = x.shape.map((d, i) => (axes.includes(i) ? 1 : d));
  const shape = keepdims ? keptShape : x.shape.filter((_, i) => !axes.includes(i));
  const n = sizeOf(x.shape);
  for (let f = 0; f < n; f++) {
    const idx = unravel(f, x.shape);
    const oidx = idx.map((v, i) => (axes.includes(i) ? 0 : v));
    visit(ravel(oidx, keptShape), x.data[f]!, idx);
  }
  return { shape, keptShape };
}

/** sum/prod/max/min/mean over axes with keepdims (NumPy: max/min propagate NaN). */
export function reduce(x: NArr, kind: ReduceKind, axis?: number | readonly number[], keepdims = false): NArr {
  const axes = normAxes(axis, x.shape.length);
  const keptShape = x.shape.map((d, i) => (axes.includes(i) ? 1 : d));
  const m = sizeOf(keptShape);
  let count = 1;
  for (const a of axes) count *= x.shape[a]!;
  if ((kind === 'max' || kind === 'min') && count === 0) throw new NaiveShapeError(`${kind}: zero-size reduction`);
  const init = kind === 'prod' ? 1 : kind === 'max' ? -Infinity : kind === 'min' ? Infinity : 0;
  const acc = new Float64Array(m).fill(init);
  const { shape } = groups(x, axes, keepdims, (o, v) => {
    const cur = acc[o]!;
    if (kind === 'sum' || kind === 'mean') acc[o] = cur + v;
    else if (kind === 'prod') acc[o] = cur * v;
    else if (Number.isNaN(cur) || Number.isNaN(v)) acc[o] = NaN;
    else if (kind === 'max') acc[o] = v > cur ? v : cur;
    else acc[o] = v < cur ? v : cur;
  });
  if (kind === 'mean') for (let i = 0; i < m; i++) acc[i] = acc[i]! / count;
  return { shape, data: acc };
}

/** np.var(x, axis, ddof=ddof, keepdims): sum((x - mean)^2) / max(n - ddof, 0). */
export function variance(x: NArr, axis?: number | readonly number[], keepdims = false, ddof = 0): NArr {
  const axes = normAxes(axis, x.shape.length);
  const mean = reduce(x, 'mean', axes, true);
  let count = 1;
  for (const a of axes) count *= x.shape[a]!;
  const acc = new Float64Array(sizeOf(mean.shape));
  const { shape } = groups(x, axes, keepdims, (o, v) => {
    const d = v - mean.data[o]!;
    acc[o] = acc[o]! + d * d;
  });
  const div = Math.max(count - ddof, 0);
  for (let i = 0; i < acc.length; i++) acc[i] = acc[i]! / div;
  return { shape, data: acc };
}

/** argmax/argmin along one axis, or of the flattened array when axis is undefined (first NaN wins, then first extreme). */
export function argReduce(x: NArr, kind: 'argmax' | 'argmin', axis?: number, keepdims = false): NArr {
  if (axis === undefined) {
    const flat = { shape: [sizeOf(x.shape)], data: x.data };
    const r = argReduce(flat, kind, 0, false);
    return keepdims ? { shape: x.shape.map(() => 1), data: r.data } : r;
  }
  const [a] = normAxes(axis, x.shape.length) as [number];
  if (x.shape[a] === 0) throw new NaiveShapeError(`${kind}: zero-size axis`);
  const keptShape = x.shape.map((d, i) => (i === a ? 1 : d));
  const m = sizeOf(keptShape);
  const best = new Float64Array(m).fill(NaN);
  const bestAt = new Float64Array(m).fill(-1);
  const { shape } = groups(x, [a], keepdims, (o, v, pos) => {
    const k = pos[a]!;
    if (bestAt[o] === -1) {
      best[o] = v;
      bestAt[o] = k;
      return;
    }
    const cur = best[o]!;
    if (Number.isNaN(cur)) return;
    const better = Number.isNaN(v) || (kind === 'argmax' ? v > cur : v < cur);
    if (better) {
      best[o] = v;
      bestAt[o] = k;
    }
  });
  return { shape, data: bestAt };
}

/** Inclusive prefix sums along axis (flattened first when undefined). */
export function cumsum(x: NArr, axis?: number): NArr {
  if (axis === undefined) return cumsum({ shape: [sizeOf(x.shape)], data: x.data }, 0);
  const [a] = normAxes(axis, x.shape.length) as [number];
  const out = new Float64Array(x.data.length);
  const n = sizeOf(x.shape);
  for (let f = 0; f < n; f++) {
    const idx = unravel(f, x.shape);
    let s = 0;
    const j = [...idx];
    for (let k = 0; k <= idx[a]!; k++) {
      j[a] = k;
      s += at(x, j);
    }
    out[f] = s;
  }
  return { shape: [...x.shape], data: out };
}

// ---- linear algebra -------------------------------------------------------------

/** np.matmul: 1-D operands get a unit dim added then removed; batch dims broadcast. */
export function matmul(a: NArr, b: NArr): NArr {
  if (a.shape.length === 0 || b.shape.length === 0) throw new NaiveShapeError('matmul: scalar operand');
  const aVec = a.shape.length === 1,
    bVec = b.shape.length === 1;
  const as = aVec ? [1, a.shape[0]!] : a.shape;
  const bs = bVec ? [b.shape[0]!, 1] : b.shape;
  const m = as[as.length - 2]!,
    k = as[as.length - 1]!,
    k2 = bs[bs.length - 2]!,
    n = bs[bs.length - 1]!;
  if (k !== k2) throw new NaiveShapeError(`matmul: ${k} vs ${k2}`);
  const batch = broadcastShapes(as.slice(0, -2), bs.slice(0, -2));
  const full = [...batch, m, n];
  const out = new Float64Array(sizeOf(full));
  for (let f = 0; f < out.length; f++) {
    const idx = unravel(f, full);
    const bi = idx.slice(0, batch.length);
    const i = idx[batch.length]!,
      j = idx[batch.length + 1]!;
    const aBase = broadcastSource(bi, as.slice(0, -2)),
      bBase = broadcastSource(bi, bs.slice(0, -2));
    let s = 0;
    for (let p = 0; p < k; p++) s += a.data[aBase * m * k + i * k + p]! * b.data[bBase * k * n + p * n + j]!;
    out[f] = s;
  }
  const shape = [...batch, ...(aVec ? [] : [m]), ...(bVec ? [] : [n])];
  return { shape, data: out };
}

// ---- movement -------------------------------------------------------------------

export function reshape(x: NArr, shape: readonly number[]): NArr {
  const neg = shape.filter((d) => d === -1).length;
  if (neg > 1) throw new NaiveShapeError('reshape: more than one -1');
  let out = [...shape];
  const n = sizeOf(x.shape);
  if (neg === 1) {
    const known = sizeOf(shape.filter((d) => d !== -1));
    if (known === 0 || n % known !== 0) throw new NaiveShapeError('reshape: cannot infer -1');
    out = shape.map((d) => (d === -1 ? n / known : d));
  }
  if (sizeOf(out) !== n) throw new NaiveShapeError(`reshape: ${n} elements into [${shape.join(', ')}]`);
  return { shape: out, data: Float64Array.from(x.data), cplx: x.cplx };
}

export function transpose(x: NArr, perm?: readonly number[]): NArr {
  const r = x.shape.length;
  const p = perm ? perm.map((a) => (a < 0 ? a + r : a)) : Array.from({ length: r }, (_, i) => r - 1 - i);
  const shape = p.map((a) => x.shape[a]!);
  const n = sizeOf(shape),
    L = lanes(x);
  const out = new Float64Array(n * L);
  for (let f = 0; f < n; f++) {
    const idx = unravel(f, shape);
    const src = new Array<number>(r).fill(0);
    for (let i = 0; i < r; i++) src[p[i]!] = idx[i]!;
    const s = ravel(src, x.shape);
    for (let l = 0; l < L; l++) out[f * L + l] = x.data[s * L + l]!;
  }
  return { shape, data: out, cplx: x.cplx };
}

/** One axis of a slice: a Python slice (start, stop, step), or a kept index i (i:i+1). */
export type NaiveAxisSlice = { start?: number; stop?: number; step?: number } | { index: number };

/** Python's slice(start, stop, step).indices(n) and the slice length (CPython PySlice_AdjustIndices). */
export function pySliceIndices(start: number | undefined, stop: number | undefined, step: number, n: number): { start: number; stop: number; step: number; length: number } {
  if (step === 0) throw new Error('slice step cannot be zero');
  let lo: number, hi: number;
  if (start === undefined) lo = step < 0 ? n - 1 : 0;
  else {
    lo = start;
    if (lo < 0) {
      lo += n;
      if (lo < 0) lo = step < 0 ? -1 : 0;
    } else if (lo >= n) lo = step < 0 ? n - 1 : n;
  }
  if (stop === undefined) hi = step < 0 ? -1 : n;
  else {
    hi = stop;
    if (hi < 0) {
      hi += n;
      if (hi < 0) hi = step < 0 ? -1 : 0;
    } else if (hi >= n) hi = step < 0 ? n - 1 : n;
  }
  let length = 0;
  if (step < 0) {
    if (hi < lo) length = Math.floor((lo - hi - 1) / -step) + 1;
  } else if (lo < hi) length = Math.floor((hi - lo - 1) / step) + 1;
  return { start: lo, stop: hi, step, length };
}

/** Basic slicing; axes past the given specs are taken whole. */
export function slice(x: NArr, spec: readonly NaiveAxisSlice[]): NArr {
  const r = x.shape.length;
  if (spec.length > r) throw new NaiveShapeError('slice: too many axes');
  const starts: number[] = [],
    steps: number[] = [],
    shape: number[] = [];
  for (let i = 0; i < r; i++) {
    const n = x.shape[i]!;
    const sp = spec[i] ?? {};
    if ('index' in sp) {
      const k = sp.index < 0 ? sp.index + n : sp.index;
      if (k < 0 || k >= n) throw new NaiveIndexError(`index ${sp.index} out of range for size ${n}`);
      starts.push(k), steps.push(1), shape.push(1);
    } else {
      const q = pySliceIndices(sp.start, sp.stop, sp.step ?? 1, n);
      starts.push(q.start), steps.push(q.step), shape.push(q.length);
    }
  }
  const N = sizeOf(shape),
    L = lanes(x);
  const out = new Float64Array(N * L);
  for (let f = 0; f < N; f++) {
    const idx = unravel(f, shape);
    const src = idx.map((v, i) => starts[i]! + v * steps[i]!);
    const s = ravel(src, x.shape);
    for (let l = 0; l < L; l++) out[f * L + l] = x.data[s * L + l]!;
  }
  return { shape, data: out, cplx: x.cplx };
}

export function flip(x: NArr, axis?: number | readonly number[]): NArr {
  const axes = normAxes(axis, x.shape.length);
  return slice(
    x,
    x.shape.map((): NaiveAxisSlice => ({})).map((s, i) => (axes.includes(i) ? { step: -1 } : s)),
  );
}

/** np.pad(x, widths, constant_values=value). */
export function pad(x: NArr, widths: readonly (readonly [number, number])[], value = 0): NArr {
  const shape = x.shape.map((d, i) => d + widths[i]![0] + widths[i]![1]);
  const n = sizeOf(shape);
  const out = new Float64Array(n);
  for (let f = 0; f < n; f++) {
    const idx = unravel(f, shape);
    const src = idx.map((v, i) => v - widths[i]![0]);
    const inside = src.every((v, i) => v >= 0 && v < x.shape[i]!);
    out[f] = inside ? at(x, src) : value;
  }
  return { shape, data: out };
}

/** np.take(x, indices, axis): indices of any shape; negative count from the end. */
export function take(x: NArr, indices: NArr, axis: number): NArr {
  const [a] = normAxes(axis, x.shape.length) as [number];
  const d = x.shape[a]!;
  const shape = [...x.shape.slice(0, a), ...indices.shape, ...x.shape.slice(a + 1)];
  const n = sizeOf(shape);
  const out = new Float64Array(n);
  const ir = indices.shape.length;
  for (let f = 0; f < n; f++) {
    const idx = unravel(f, shape);
    const pos = idx.slice(a, a + ir);
    let k = indices.data[ravel(pos, indices.shape)]!;
    if (k < 0) k += d;
    if (k < 0 || k >= d) throw new NaiveIndexError(`take: index out of range`);
    const src = [...idx.slice(0, a), k, ...idx.slice(a + ir)];
    out[f] = at(x, src);
  }
  return { shape, data: out };
}

/** x with updates[..., j, ...] added at x[..., indices[j], ...] along axis (repeats accumulate). */
export function scatterAdd(x: NArr, indices: NArr, updates: NArr, axis: number): NArr {
  const [a] = normAxes(axis, x.shape.length) as [number];
  const d = x.shape[a]!;
  const ushape = [...x.shape.slice(0, a), ...indices.shape, ...x.shape.slice(a + 1)];
  const u = broadcastTo(updates, ushape);
  const out = Float64Array.from(x.data);
  const ir = indices.shape.length;
  const n = sizeOf(ushape);
  for (let f = 0; f < n; f++) {
    const idx = unravel(f, ushape);
    let k = indices.data[ravel(idx.slice(a, a + ir), indices.shape)]!;
    if (k < 0) k += d;
    if (k < 0 || k >= d) throw new NaiveIndexError('scatterAdd: index out of range');
    const dst = ravel([...idx.slice(0, a), k, ...idx.slice(a + ir)], x.shape);
    out[dst] = out[dst]! + u.data[f]!;
  }
  return { shape: [...x.shape], data: out };
}

export function concat(xs: readonly NArr[], axis: number): NArr {
  const r = xs[0]!.shape.length;
  const [a] = normAxes(axis, r) as [number];
  for (const x of xs) {
    if (x.shape.length !== r || x.shape.some((d, i) => i !== a && d !== xs[0]!.shape[i])) throw new NaiveShapeError('concat: shapes differ');
  }
  const shape = [...xs[0]!.shape];
  shape[a] = xs.reduce((s, x) => s + x.shape[a]!, 0);
  const n = sizeOf(shape);
  const out = new Float64Array(n);
  for (let f = 0; f < n; f++) {
    const idx = unravel(f, shape);
    let k = idx[a]!,
      t = 0;
    while (k >= xs[t]!.shape[a]!) {
      k -= xs[t]!.shape[a]!;
      t++;
    }
    const src = [...idx];
    src[a] = k;
    out[f] = at(xs[t]!, src);
  }
  return { shape, data: out };
}

export function expandDims(x: NArr, axis: number): NArr {
  const r = x.shape.length + 1;
  const a = axis < 0 ? axis + r : axis;
  const shape = [...x.shape.slice(0, a), 1, ...x.shape.slice(a)];
  return { shape, data: Float64Array.from(x.data), cplx: x.cplx };
}

export function stack(xs: readonly NArr[], axis: number): NArr {
  return concat(
    xs.map((x) => expandDims(x, axis)),
    axis,
  );
}
