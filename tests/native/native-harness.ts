// Shared pieces of the native addon tests: when to run them, seeded data, and
// operands built twice from the same storage: as an rlx view on the 'js'
// device (the reference) and as the strided spec the addon takes. The strides
// here are written out by hand, independently of rlx's view folding, so a
// mistake on either side shows up as a mismatch.

import { describe, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { nativeStatus } from '../../src/backends/native/addon.js';
import type { GemmDType, GemmOperandSpec } from '../../src/backends/native/gemm.js';
import { mulberry32 } from '../harness/prng.js';

export const STATUS = nativeStatus();
export const REQUIRE_NATIVE = process.env['RLX_REQUIRE_NATIVE'] === '1';

/**
 * describe() when the addon is built. Otherwise: under RLX_REQUIRE_NATIVE=1 a
 * failing test carrying the reason; else the block is reported as skipped with
 * the reason in its name.
 */
export function describeNative(name: string, body: () => void): void {
  if (STATUS.available) describe(name, body);
  else if (REQUIRE_NATIVE) {
    describe(name, () => {
      it('needs the native addon (RLX_REQUIRE_NATIVE=1)', () => {
        throw new Error(`RLX_REQUIRE_NATIVE=1 but the native addon is not available: ${STATUS.reason}`);
      });
    });
  } else describe.skip(`${name} [skipped: native addon ${STATUS.reason}]`, body);
}

/** Uniform in [-1, 1): the shared mulberry32, scaled. */
export function rng(seed: number): () => number {
  const r = mulberry32(seed);
  return () => r() * 2 - 1;
}

export const isComplexD = (d: GemmDType): boolean => d === 'complex64' || d === 'complex128';
export const storageFor = (d: GemmDType) => (d === 'float32' || d === 'complex64' ? Float32Array : Float64Array);

/**
 * How an operand's [rows, cols] matrix sits in its storage:
 *   row       contiguous [rows, cols]
 *   trans     stored [cols, rows], viewed transposed (BLAS: transpose flag)
 *   padded    a window of a [rows + 1, cols + 2] array (BLAS: leading dim > cols)
 *   padtrans  a window of a [cols + 1, rows + 3] array, transposed
 *   colstep   every other column of [rows, 2 cols] (no unit stride: copied)
 *   negrows   rows reversed (negative stride: copied)
 */
export type Layout = 'row' | 'trans' | 'padded' | 'padtrans' | 'colstep' | 'negrows';
export const LAYOUTS: Layout[] = ['row', 'trans', 'padded', 'padtrans', 'colstep', 'negrows'];

export interface Operand {
  /** The view as an rlx tensor on 'js', shape [...batch, rows, cols]. */
  ref: rlx.Tensor;
  spec: GemmOperandSpec;
}

/**
 * An operand of logical shape [...batch, rows, cols] in `layout`; batch dims
 * with `bcast[i]` are stored once and broadcast (stride 0).
 */
export function makeOperand(dtype: GemmDType, batch: number[], bcast: boolean[], rows: number, cols: number, layout: Layout, seed: number): Operand {
  const stored = batch.map((d, i) => (bcast[i] ? 1 : d));
  // Stored matrix dims, and (offset, row stride, col stride) of the window inside one stored matrix.
  const [sr, sc, off, rs, cs] = ((): [number, number, number, number, number] => {
    switch (layout) {
      case 'row': return [rows, cols, 0, cols, 1];
      case 'trans': return [cols, rows, 0, 1, rows];
      case 'padded': return [rows + 1, cols + 2, cols + 2 + 2, cols + 2, 1];
      case 'padtrans': return [cols + 1, rows + 3, rows + 3, 1, rows + 3];
      case 'colstep': return [rows, 2 * cols, 0, 2 * cols, 2];
      case 'negrows': return [rows, cols, (rows - 1) * cols, -cols, 1];
    }
  })();
  const lanes = isComplexD(dtype) ? 2 : 1;
  const total = stored.reduce((a, b) => a * b, 1) * sr * sc;
  const next = rng(seed);
  const data = new (storageFor(dtype))(total * lanes);
  for (let i = 0; i < data.length; i++) data[i] = next();
  // Batch strides over the stored (contiguous) batch dims; 0 where broadcast.
  const bstr: number[] = [];
  let s = sr * sc;
  for (let i = stored.length - 1; i >= 0; i--) bstr[i] = bcast[i] ? 0 : s, (s *= stored[i]!);
  const spec: GemmOperandSpec = { data, offset: off, strides: [...bstr, rs, cs] };

  // The same view through rlx's own ops.
  let t = rlx.fromStorage(data.slice(), [...stored, sr, sc], dtype, 'js');
  const whole = stored.map(() => rlx.ax());
  switch (layout) {
    case 'row':
      break;
    case 'trans':
      t = t.swapaxes(-1, -2);
      break;
    case 'padded':
      t = t.slice(rlx.s(...whole, rlx.rg(1, rows + 1), rlx.rg(2, cols + 2)));
      break;
    case 'padtrans':
      t = t.slice(rlx.s(...whole, rlx.rg(1, cols + 1), rlx.rg(0, rows))).swapaxes(-1, -2);
      break;
    case 'colstep':
      t = t.slice(rlx.s(...whole, rlx.ax(), rlx.rg(0, 2 * cols, 2)));
      break;
    case 'negrows':
      t = t.slice(rlx.s(...whole, rlx.rg(null, null, -1)));
      break;
  }
  return { ref: t.broadcastTo([...batch, rows, cols]), spec };
}

/**
 * Compares a GEMM result with the reference elementwise under the forward
 * error bound of a dot product of length k (Higham, Accuracy and Stability,
 * §3.1 and §3.6): |fl(AB) - AB|_ij <= γ_k (|A||B|)_ij with γ_k ≈ k u, and for
 * complex data √2 γ_{k+2}. BLAS and the reference both satisfy it with their
 * own summation orders (the reference accumulates in float64 and rounds once to
 * float32), so their difference is below twice the bound; |A||B| is computed
 * from moduli. `u` is the unit roundoff of the dtype: 2^-24 (float32,
 * complex64) or 2^-53 (float64, complex128).
 */
export function expectGemmClose(got: ArrayLike<number>, want: ArrayLike<number>, absProduct: ArrayLike<number>, dtype: GemmDType, k: number, what: string): void {
  const u = dtype === 'float32' || dtype === 'complex64' ? 2 ** -24 : 2 ** -53;
  const cplx = isComplexD(dtype);
  const factor = 2 * (cplx ? Math.SQRT2 * (k + 2) : k + 1) * u;
  if (got.length !== want.length) throw new Error(`${what}: ${got.length} values, expected ${want.length}`);
  for (let i = 0; i < got.length; i++) {
    const bound = factor * absProduct[cplx ? i >> 1 : i]! + Number.MIN_VALUE;
    const err = Math.abs(got[i]! - want[i]!);
    if (!(err <= bound)) {
      throw new Error(`${what}: value ${i} is ${got[i]}, reference ${want[i]} (|diff| ${err.toExponential(3)} > bound ${bound.toExponential(3)})`);
    }
  }
}

/** Elementwise |x| as float64 (moduli for complex) for the error bound. */
export const absF64 = (t: rlx.Tensor): rlx.Tensor => t.abs().cast('float64');

/** len values of rng(seed) in a fresh array of C. */
export function randomArray<C extends Float32ArrayConstructor | Float64ArrayConstructor = Float64ArrayConstructor>(len: number, seed: number, ctor?: C): InstanceType<C> {
  const r = rng(seed);
  const out = new (ctor ?? Float64Array)(len) as InstanceType<C>;
  for (let i = 0; i < len; i++) out[i] = r();
  return out;
}

/** The error a promise rejects with / a function throws (undefined when none). */
export async function rejection(p: () => Promise<unknown>): Promise<unknown> {
  try {
    await p();
  } catch (e) {
    return e;
  }
  return undefined;
}

/** The largest gap (ms) between ticks of a 10 ms interval (and the start / end) while `work` runs. */
export async function maxGap(work: () => Promise<unknown> | unknown): Promise<number> {
  await new Promise((r) => setTimeout(r, 20)); // let earlier timers settle
  const ticks: number[] = [performance.now()];
  const timer = setInterval(() => ticks.push(performance.now()), 10);
  try {
    await new Promise((r) => setTimeout(r, 15)); // the interval is running
    await work();
  } finally {
    ticks.push(performance.now());
    clearInterval(timer);
  }
  let gap = 0;
  for (let i = 1; i < ticks.length; i++) gap = Math.max(gap, ticks[i]! - ticks[i - 1]!);
  return gap;
}
