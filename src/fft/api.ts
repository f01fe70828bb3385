// numpy.fft for tensors: fft, ifft, rfft, irfft and their 2-D and n-D forms,
// with NumPy's signatures and semantics (n / s zero-pad or truncate, axis /
// axes, norm 'backward' | 'ortho' | 'forward', batched over the other axes).
// Each transform, 1-D or n-D, pads or truncates its axes, runs ONE IR op over
// all of them (ops/transforms.ts: unnormalized c2c, r2c, c2r over any set of
// axes, strided: no transposes; on native one FFTW plan) and scales by the
// norm; all of it is lazy graph, so it fuses with what surrounds it and
// differentiates, vmaps and jits through the ops' rules. Repeated axes in an
// n-D call (NumPy transforms such an axis twice) take the axis-by-axis path.
//
// Dtypes follow NumPy 2: float32 (and float16/bfloat16) → complex64, float64,
// integers and bool → complex128; complex stays. rfft refuses complex input
// (NumPy 1.x silently dropped the imaginary part).

import { Tensor } from '../tensor/tensor.js';
import type { DType } from '../tensor/dtype.js';
import { isComplex } from '../tensor/dtype.js';
import { DTypeError, ShapeError, ValueError } from '../tensor/errors.js';
import { normAxis } from '../tensor/shape.js';
import { toTensor } from '../tensor/ops/operand.js';
import { ax, rg, s as sliceSpec } from '../tensor/slicing.js';
import { c2cAxes, c2rAxes, r2cAxes } from './ops/transforms.js';

export type FftNorm = 'backward' | 'ortho' | 'forward';
/** What the transforms take: a tensor or anything tensor() takes. */
type Input = Tensor | Parameters<typeof toTensor>[1];

const NORMS: readonly string[] = ['backward', 'ortho', 'forward'];

function checkNorm(op: string, norm: unknown): FftNorm {
  if (norm === undefined || norm === null) return 'backward';
  if (!NORMS.includes(norm as string)) throw new ValueError(`fft.${op}: norm must be 'backward', 'ortho' or 'forward', got ${JSON.stringify(norm)}`);
  return norm as FftNorm;
}

/** The factor a transform of length n is scaled by under `norm` (forward or inverse direction). */
function scaleOf(norm: FftNorm, n: number, inverse: boolean): number {
  if (norm === 'ortho') return 1 / Math.sqrt(n);
  return (norm === 'forward') !== inverse ? 1 / n : 1;
}
const scaled = (t: Tensor, f: number) => (f === 1 ? t : t.mul(f));

const COMPLEX_OF: Partial<Record<DType, DType>> = { float32: 'complex64', float16: 'complex64', bfloat16: 'complex64' };
const REAL_OF: Partial<Record<DType, DType>> = { float32: 'float32', float16: 'float32', bfloat16: 'float32' };

function complexInput(op: string, x: Input): Tensor {
  const t = toTensor(`fft.${op}`, x, 'x');
  return isComplex(t.dtype) ? t : t.cast(COMPLEX_OF[t.dtype] ?? 'complex128');
}

function realInput(op: string, x: Input): Tensor {
  const t = toTensor(`fft.${op}`, x, 'x');
  if (isComplex(t.dtype)) throw new DTypeError(`fft.${op}: expects real input, got ${t.dtype} (use fft.fft for complex data)`);
  const d = REAL_OF[t.dtype] ?? 'float64';
  return t.dtype === d ? t : t.cast(d);
}

function lengthArg(op: string, n: unknown, what: string): number {
  if (!Number.isInteger(n) || (n as number) < 1) throw new ValueError(`fft.${op}: ${what} must be a positive integer, got ${String(n)}`);
  return n as number;
}

/** t with axis `a` zero-padded or truncated to length n (NumPy's n / s). */
function resized(t: Tensor, a: number, n: number): Tensor {
  const have = t.shape[a] as number;
  if (have === n) return t;
  if (have > n) return t.slice(sliceSpec(...t.shape.slice(0, a).map(() => ax()), rg(0, n)));
  const widths = t.shape.map((_, i) => (i === a ? [0, n - have] : [0, 0]) as [number, number]);
  return t.pad(widths, 0);
}

function axisArg(op: string, t: Tensor, axis: number): number {
  if (t.ndim === 0) throw new ShapeError(`fft.${op}: expects at least one dimension, got a scalar`);
  return normAxis(`fft.${op}`, axis, t.ndim);
}

function complex1d(op: string, x: Input, n: number | undefined, axis: number, norm: FftNorm | undefined, inverse: boolean): Tensor {
  const nm = checkNorm(op, norm);
  const t = complexInput(op, x);
  const a = axisArg(op, t, axis);
  const len = n === undefined || n === null ? (t.shape[a] as number) : lengthArg(op, n, 'n');
  if (len < 1) throw new ValueError(`fft.${op}: invalid number of data points (${len})`);
  return scaled(c2cAxes(resized(t, a, len), [a], inverse), scaleOf(nm, len, inverse));
}

/**
 * The discrete Fourier transform along `axis` (numpy.fft.fft).
 * @example
 * ```ts
 * fft.fft(tensor([0, 1, 0, 0])).tolist();   // [[1, 0], [0, -1], [-1, 0], [0, 1]]  ([re, im] pairs: 1, -i, -1, i)
 * ```
 */
export function fft(x: Input, n?: number, axis = -1, norm?: FftNorm): Tensor {
  return complex1d('fft', x, n, axis, norm, false);
}

/**
 * The inverse discrete Fourier transform along `axis` (numpy.fft.ifft).
 * @example
 * ```ts
 * fft.ifft(fft.fft(tensor([1, 2, 3])));   // complex128 [1, 2, 3] (+0i)
 * ```
 */
export function ifft(x: Input, n?: number, axis = -1, norm?: FftNorm): Tensor {
  return complex1d('ifft', x, n, axis, norm, true);
}

/**
 * The DFT of real input: the n/2 + 1 non-negative frequencies (numpy.fft.rfft).
 * @example
 * ```ts
 * fft.rfft(tensor([1, 1, 1, 1])).tolist();   // [[4, 0], [0, 0], [0, 0]]  (n/2 + 1 = 3 bins)
 * ```
 */
export function rfft(x: Input, n?: number, axis = -1, norm?: FftNorm): Tensor {
  const nm = checkNorm('rfft', norm);
  const t = realInput('rfft', x);
  const a = axisArg('rfft', t, axis);
  const len = n === undefined || n === null ? (t.shape[a] as number) : lengthArg('rfft', n, 'n');
  if (len < 1) throw new ValueError(`fft.rfft: invalid number of data points (${len})`);
  return scaled(r2cAxes(resized(t, a, len), [a], a), scaleOf(nm, len, false));
}

/**
 * The inverse of rfft: n real values from a half spectrum (numpy.fft.irfft; n defaults to 2(m − 1)).
 * @example
 * ```ts
 * fft.irfft(tensor([4, 0, 0])).tolist();       // [1, 1, 1, 1]  (n = 2(3 − 1) = 4; numpy.fft.irfft)
 * fft.irfft(fft.rfft(tensor([1, 2, 3])), 3).tolist();   // ≈ [1, 2, 3]  (odd length: pass n)
 * ```
 */
export function irfft(x: Input, n?: number, axis = -1, norm?: FftNorm): Tensor {
  const nm = checkNorm('irfft', norm);
  const t = complexInput('irfft', x);
  const a = axisArg('irfft', t, axis);
  const m = t.shape[a] as number;
  const len = n === undefined || n === null ? 2 * (m - 1) : lengthArg('irfft', n, 'n');
  if (len < 1) throw new ValueError(`fft.irfft: invalid number of data points (${len}) from ${m} input values; pass n`);
  return scaled(c2rAxes(resized(t, a, (len >> 1) + 1), [a], a, len), scaleOf(nm, len, true));
}

/** NumPy's s / axes resolution for the n-D transforms (numpy.fft._cook_nd_args). */
function ndArgs(op: string, t: Tensor, s: readonly number[] | undefined, axes: readonly number[] | undefined, invReal: boolean): { s: (number | undefined)[]; axes: number[] } {
  if (t.ndim === 0) throw new ShapeError(`fft.${op}: expects at least one dimension, got a scalar`);
  for (const [what, v] of [['s', s], ['axes', axes]] as const) {
    if (v !== undefined && v !== null && !Array.isArray(v)) throw new ValueError(`fft.${op}: ${what} must be an array of integers, got ${JSON.stringify(v)}`);
    if (Array.isArray(v) && v.some((x) => !Number.isInteger(x))) throw new ValueError(`fft.${op}: ${what} must hold integers, got ${JSON.stringify(v)}`);
  }
  let ax: number[];
  if (axes === undefined || axes === null) ax = s === undefined || s === null ? [...Array(t.ndim).keys()] : [...Array(s.length).keys()].map((i) => t.ndim - s.length + i);
  else ax = axes.map((a) => normAxis(`fft.${op}`, a, t.ndim));
  if (s !== undefined && s !== null && s.length !== ax.length) throw new ValueError(`fft.${op}: s has ${s.length} entries for ${ax.length} axes`);
  if (ax.length === 0) throw new ValueError(`fft.${op}: no axes to transform`);
  for (const a of ax) if (a < 0 || a >= t.ndim) throw new ShapeError(`fft.${op}: axis out of range for rank ${t.ndim}`);
  const sizes: (number | undefined)[] = s === undefined || s === null ? ax.map(() => undefined) : s.map((n) => lengthArg(op, n, 's entries'));
  void invReal;
  return { s: sizes, axes: ax };
}

const distinct = (axes: readonly number[]) => new Set(axes).size === axes.length;

/** t with each of `axes` resized to its length in `s` (undefined: kept). */
function resizedAll(t: Tensor, axes: readonly number[], s: readonly (number | undefined)[]): Tensor {
  axes.forEach((a, i) => (t = resized(t, a, s[i] ?? (t.shape[a] as number))));
  return t;
}
const lengths = (t: Tensor, axes: readonly number[]) => axes.reduce((p, a) => p * (t.shape[a] as number), 1);

function complexNd(op: string, x: Input, s: readonly number[] | undefined, axes: readonly number[] | undefined, norm: FftNorm | undefined, inverse: boolean): Tensor {
  const nm = checkNorm(op, norm);
  let t = complexInput(op, x);
  const a = ndArgs(op, t, s, axes, false);
  if (!distinct(a.axes)) {
    for (let i = a.axes.length - 1; i >= 0; i--) t = complex1d(op, t, a.s[i], a.axes[i]!, norm, inverse);
    return t;
  }
  t = resizedAll(t, a.axes, a.s);
  return scaled(c2cAxes(t, a.axes, inverse), scaleOf(nm, lengths(t, a.axes), inverse));
}

/**
 * The n-dimensional DFT over `axes` (numpy.fft.fftn).
 * @example
 * ```ts
 * const x = tensor([[1, 2], [3, 4]]);
 * fft.fftn(x).real().tolist();                    // [[10, -2], [-4, 0]]  (all axes; imaginary parts 0)
 * fft.fftn(x, undefined, [0]).real().tolist();    // [[4, 6], [-2, -2]]  (axis 0 only; numpy.fft.fftn)
 * ```
 */
export function fftn(x: Input, s?: readonly number[], axes?: readonly number[], norm?: FftNorm): Tensor {
  return complexNd('fftn', x, s, axes, norm, false);
}

/**
 * The n-dimensional inverse DFT over `axes` (numpy.fft.ifftn).
 * @example
 * ```ts
 * // the spectrum of a constant 1 on 2×2×2 points is 8 at the zero frequency
 * const spec = tensor([[[8, 0], [0, 0]], [[0, 0], [0, 0]]]);
 * fft.ifftn(spec).real().tolist();   // [[[1, 1], [1, 1]], [[1, 1], [1, 1]]]  (numpy.fft.ifftn)
 * ```
 */
export function ifftn(x: Input, s?: readonly number[], axes?: readonly number[], norm?: FftNorm): Tensor {
  return complexNd('ifftn', x, s, axes, norm, true);
}

/**
 * The 2-D DFT over `axes` (default the last two; numpy.fft.fft2).
 * @example
 * ```ts
 * fft.fft2(tensor([[1, 2], [3, 4]])).tolist();   // [[[10, 0], [-2, 0]], [[-4, 0], [0, 0]]]  ([re, im] pairs; numpy.fft.fft2)
 * ```
 */
export function fft2(x: Input, s?: readonly number[], axes: readonly number[] = [-2, -1], norm?: FftNorm): Tensor {
  return complexNd('fft2', x, s, axes, norm, false);
}

/**
 * The 2-D inverse DFT over `axes` (default the last two; numpy.fft.ifft2).
 * @example
 * ```ts
 * fft.ifft2(tensor([[4, 0], [0, 0]])).real().tolist();   // [[1, 1], [1, 1]]  (numpy.fft.ifft2)
 * ```
 */
export function ifft2(x: Input, s?: readonly number[], axes: readonly number[] = [-2, -1], norm?: FftNorm): Tensor {
  return complexNd('ifft2', x, s, axes, norm, true);
}

/**
 * The n-D DFT of real input: rfft over the last of `axes`, fft over the others (numpy.fft.rfftn).
 * @example
 * ```ts
 * const spec = fft.rfftn(ones([2, 2, 4]));
 * spec.shape;                        // [2, 2, 3]  (last axis halved: 4/2 + 1)
 * spec.real().sum().item();          // 16  (all at the zero frequency: 2·2·4 ones)
 * ```
 */
export function rfftn(x: Input, s?: readonly number[], axes?: readonly number[], norm?: FftNorm): Tensor {
  const nm = checkNorm('rfftn', norm);
  const t0 = realInput('rfftn', x);
  const a = ndArgs('rfftn', t0, s, axes, false);
  const last = a.axes.length - 1;
  if (!distinct(a.axes)) {
    let t = rfft(t0, a.s[last], a.axes[last]!, norm);
    for (let i = last - 1; i >= 0; i--) t = complex1d('rfftn', t, a.s[i], a.axes[i]!, norm, false);
    return t;
  }
  const t = resizedAll(t0, a.axes, a.s);
  return scaled(r2cAxes(t, a.axes, a.axes[last]!), scaleOf(nm, lengths(t, a.axes), false));
}

/**
 * The inverse of rfftn: ifft over all but the last of `axes`, irfft over the last (numpy.fft.irfftn).
 * @example
 * ```ts
 * const x = tensor([[1, 2, 3], [4, 5, 6]]);
 * fft.irfftn(fft.rfftn(x), [2, 3]).tolist();   // ≈ [[1, 2, 3], [4, 5, 6]]  (odd last length: pass s)
 * ```
 */
export function irfftn(x: Input, s?: readonly number[], axes?: readonly number[], norm?: FftNorm): Tensor {
  const nm = checkNorm('irfftn', norm);
  let t = complexInput('irfftn', x);
  const a = ndArgs('irfftn', t, s, axes, true);
  const last = a.axes.length - 1;
  if (!distinct(a.axes)) {
    for (let i = 0; i < last; i++) t = complex1d('irfftn', t, a.s[i], a.axes[i]!, norm, true);
    return irfft(t, a.s[last], a.axes[last]!, norm);
  }
  const h = a.axes[last]!,
    m = t.shape[h] as number;
  const n = a.s[last] === undefined ? 2 * (m - 1) : (a.s[last] as number);
  if (n < 1) throw new ValueError(`fft.irfftn: invalid number of data points (${n}) from ${m} input values; pass s`);
  t = resizedAll(t, a.axes, [...a.s.slice(0, last), (n >> 1) + 1]);
  return scaled(c2rAxes(t, a.axes, h, n), scaleOf(nm, lengths(t, a.axes.slice(0, last)) * n, true));
}

/**
 * The 2-D rfft over `axes` (default the last two; numpy.fft.rfft2).
 * @example
 * ```ts
 * fft.rfft2(ones([2, 4])).real().tolist();   // [[8, 0, 0], [0, 0, 0]]  (shape [2, 3]; numpy.fft.rfft2)
 * ```
 */
export function rfft2(x: Input, s?: readonly number[], axes: readonly number[] = [-2, -1], norm?: FftNorm): Tensor {
  return rfftn(x, s, axes, norm);
}

/**
 * The 2-D irfft over `axes` (default the last two; numpy.fft.irfft2).
 * @example
 * ```ts
 * fft.irfft2(tensor([[8, 0, 0], [0, 0, 0]])).tolist();   // [[1, 1, 1, 1], [1, 1, 1, 1]]  (numpy.fft.irfft2)
 * ```
 */
export function irfft2(x: Input, s?: readonly number[], axes: readonly number[] = [-2, -1], norm?: FftNorm): Tensor {
  return irfftn(x, s, axes, norm);
}
