// The n-dimensional js kernels (c2cNd, r2cNd, c2rNd of ../contract.ts):
// successive 1-D passes, one per transformed axis, over `batch` contiguous
// row-major blocks, each pass in place on a float64 work array.
//
// Why passes and not a transpose: an axis of a row-major block is a set of
// lines of n values at a fixed stride (`inner`), between `outer` repeats.
// The last axis (inner = 1) is contiguous rows and runs the row kernels as
// they are; any other axis is gathered a tile of TILE lines at a time (each
// read touches TILE neighbouring values, a few cache lines, instead of one
// value per line), each line transformed by the cached 1-D plan, and
// scattered back. float32 blocks are computed in float64 and rounded once at
// the end, as the 1-D kernels do.

import type { FloatArray } from '../contract.js';
import { c2cRows, complexPlan } from './complex.js';
import { c2rRows, r2cRows } from './real.js';

/** Lines gathered per tile on a strided axis. */
const TILE = 16;

const prod = (s: readonly number[], lo: number, hi: number) => {
  let p = 1;
  for (let i = lo; i < hi; i++) p *= s[i]!;
  return p;
};

/** The c2c of every line along one axis of w (complex, shape outer × n × inner), in place. */
function c2cAxis(w: Float64Array, outer: number, n: number, inner: number, inverse: boolean): void {
  if (n === 1) return;
  if (inner === 1) return c2cRows(outer, n, w, w, inverse);
  const plan = complexPlan(n);
  const tile = new Float64Array(2 * TILE * n);
  for (let o = 0; o < outer; o++) {
    const base = o * n * inner;
    for (let j0 = 0; j0 < inner; j0 += TILE) {
      const t = Math.min(TILE, inner - j0);
      // tile[l][k] = line j0 + l at position k
      for (let k = 0; k < n; k++) {
        const src = 2 * (base + k * inner + j0);
        for (let l = 0; l < t; l++) {
          tile[2 * (l * n + k)] = w[src + 2 * l]!;
          tile[2 * (l * n + k) + 1] = w[src + 2 * l + 1]!;
        }
      }
      // conj(FFT(conj(·))) for the inverse, as c2cRows.
      for (let l = 0; l < t; l++) {
        const a = plan.a,
          off = 2 * l * n,
          s = inverse ? -1 : 1;
        for (let i = 0; i < 2 * n; i += 2) {
          a[i] = tile[off + i]!;
          a[i + 1] = s * tile[off + i + 1]!;
        }
        const z = plan.forward();
        for (let i = 0; i < 2 * n; i += 2) {
          tile[off + i] = z[i]!;
          tile[off + i + 1] = s * z[i + 1]!;
        }
      }
      for (let k = 0; k < n; k++) {
        const dst = 2 * (base + k * inner + j0);
        for (let l = 0; l < t; l++) {
          w[dst + 2 * l] = tile[2 * (l * n + k)]!;
          w[dst + 2 * l + 1] = tile[2 * (l * n + k) + 1]!;
        }
      }
    }
  }
}

/** c2c passes over `axes` of w (batch blocks of complex `shape`), in place. */
function c2cPasses(w: Float64Array, batch: number, shape: readonly number[], axes: readonly number[], inverse: boolean): void {
  for (const a of axes) c2cAxis(w, batch * prod(shape, 0, a), shape[a]!, prod(shape, a + 1, shape.length), inverse);
}

/** A float64 copy of x, or out itself holding x when out is float64 (the work array of the passes). */
function workFrom(x: FloatArray, out: FloatArray): Float64Array {
  if (out instanceof Float64Array && out.length === x.length) {
    out.set(x);
    return out;
  }
  return Float64Array.from(x);
}

export function c2cNdBlocks(batch: number, shape: readonly number[], axes: readonly number[], x: FloatArray, out: FloatArray, inverse: boolean): void {
  const w = workFrom(x, out);
  c2cPasses(w, batch, shape, axes, inverse);
  if (w !== out) out.set(w);
}

export function r2cNdBlocks(batch: number, shape: readonly number[], axes: readonly number[], x: FloatArray, out: FloatArray): void {
  const h = axes[axes.length - 1]!,
    n = shape[h]!,
    m = (n >> 1) + 1;
  const half = shape.map((d, i) => (i === h ? m : d));
  const w = out instanceof Float64Array ? out : new Float64Array(out.length);
  const outer = batch * prod(shape, 0, h),
    inner = prod(shape, h + 1, shape.length);
  if (inner === 1) r2cRows(outer, n, x, w);
  else {
    const line = new Float64Array(n),
      spec = new Float64Array(2 * m);
    for (let o = 0; o < outer; o++)
      for (let j = 0; j < inner; j++) {
        for (let k = 0; k < n; k++) line[k] = x[(o * n + k) * inner + j]!;
        r2cRows(1, n, line, spec);
        for (let k = 0; k < m; k++) {
          const d = 2 * ((o * m + k) * inner + j);
          w[d] = spec[2 * k]!;
          w[d + 1] = spec[2 * k + 1]!;
        }
      }
  }
  c2cPasses(w, batch, half, axes.slice(0, -1), false);
  if (w !== out) out.set(w);
}

export function c2rNdBlocks(batch: number, shape: readonly number[], axes: readonly number[], x: FloatArray, out: FloatArray): void {
  const h = axes[axes.length - 1]!,
    n = shape[h]!,
    m = (n >> 1) + 1;
  const half = shape.map((d, i) => (i === h ? m : d));
  // The inner inverse transforms run on a float64 copy (x is the caller's); c2rRows ignores Im X[0] and Im X[n/2] after them.
  const w = Float64Array.from(x);
  c2cPasses(w, batch, half, axes.slice(0, -1), true);
  const outer = batch * prod(shape, 0, h),
    inner = prod(shape, h + 1, shape.length);
  if (inner === 1) return c2rRows(outer, n, w, out);
  const spec = new Float64Array(2 * m),
    line = new Float64Array(n);
  for (let o = 0; o < outer; o++)
    for (let j = 0; j < inner; j++) {
      for (let k = 0; k < m; k++) {
        const s = 2 * ((o * m + k) * inner + j);
        spec[2 * k] = w[s]!;
        spec[2 * k + 1] = w[s + 1]!;
      }
      c2rRows(1, n, spec, line);
      for (let k = 0; k < n; k++) out[(o * n + k) * inner + j] = line[k]!;
    }
}
