// numpy.fft's helpers: the sample frequencies of a transform's outputs and the
// shifts that put the zero frequency in the middle.

import { Tensor } from '../tensor/tensor.js';
import { tensor } from '../tensor/create.js';
import { ValueError } from '../tensor/errors.js';
import { normAxis } from '../tensor/shape.js';
import { toTensor } from '../tensor/ops/operand.js';
import { cat } from '../tensor/ops/movement.js';
import { ax, rg, s } from '../tensor/slicing.js';

function lengthArg(op: string, n: unknown): number {
  if (!Number.isInteger(n) || (n as number) < 1) throw new ValueError(`fft.${op}: n must be a positive integer, got ${String(n)}`);
  return n as number;
}
function spacingArg(op: string, d: unknown): number {
  if (typeof d !== 'number' || !Number.isFinite(d) || d === 0) throw new ValueError(`fft.${op}: d must be a finite non-zero number, got ${String(d)}`);
  return d;
}

/**
 * The sample frequencies of fft's n outputs for spacing d: [0, 1, ..., ⌈n/2⌉ − 1, −⌊n/2⌋, ..., −1] / (d·n) (numpy.fft.fftfreq), float64.
 * @example
 * ```ts
 * fft.fftfreq(4).tolist();        // [0, 0.25, -0.5, -0.25]
 * fft.fftfreq(5, 0.1).tolist();   // [0, 2, 4, -4, -2]
 * ```
 */
export function fftfreq(n: number, d = 1.0): Tensor {
  lengthArg('fftfreq', n);
  spacingArg('fftfreq', d);
  const out = new Float64Array(n);
  const half = (n - 1) >> 1; // the last non-negative frequency
  for (let i = 0; i < n; i++) out[i] = (i <= half ? i : i - n) / (d * n);
  return tensor(out);
}

/**
 * The sample frequencies of rfft's n/2 + 1 outputs: [0, 1, ..., ⌊n/2⌋] / (d·n) (numpy.fft.rfftfreq), float64.
 * @example
 * ```ts
 * fft.rfftfreq(8, 0.1).tolist();   // [0, 1.25, 2.5, 3.75, 5]  (k / (0.1 · 8))
 * ```
 */
export function rfftfreq(n: number, d = 1.0): Tensor {
  lengthArg('rfftfreq', n);
  spacingArg('rfftfreq', d);
  const m = (n >> 1) + 1;
  return tensor(Float64Array.from({ length: m }, (_, i) => i / (d * n)));
}

/** x rolled by `shift` along axis a (a view of two slices, concatenated). */
function roll(x: Tensor, shift: number, a: number): Tensor {
  const n = x.shape[a] as number;
  const k = ((shift % n) + n) % n;
  if (k === 0) return x;
  const lead = x.shape.slice(0, a).map(() => ax());
  return cat([x.slice(s(...lead, rg(n - k, n))), x.slice(s(...lead, rg(0, n - k)))], a);
}

function shifted(op: string, x: Tensor | unknown, axes: number | readonly number[] | undefined, sign: 1 | -1): Tensor {
  const t = toTensor(`fft.${op}`, x, 'x');
  const list = axes === undefined || axes === null ? [...Array(t.ndim).keys()] : typeof axes === 'number' ? [axes] : axes;
  let out = t;
  for (const a0 of list) {
    const a = normAxis(`fft.${op}`, a0, t.ndim);
    out = roll(out, sign * ((t.shape[a] as number) >> 1), a);
  }
  return out;
}

/**
 * The zero frequency moved to the middle of `axes` (all by default): a roll by ⌊n/2⌋ per axis (numpy.fft.fftshift).
 * @example
 * ```ts
 * fft.fftshift(tensor([0, 1, 2, 3, 4])).tolist();   // [3, 4, 0, 1, 2]
 * fft.fftshift(fft.fftfreq(5)).tolist();            // [-0.4, -0.2, 0, 0.2, 0.4]  (ascending frequencies)
 * ```
 */
export function fftshift(x: Tensor | unknown, axes?: number | readonly number[]): Tensor {
  return shifted('fftshift', x, axes, 1);
}

/**
 * The inverse of fftshift: a roll by −⌊n/2⌋ per axis (numpy.fft.ifftshift).
 * @example
 * ```ts
 * fft.ifftshift(tensor([3, 4, 0, 1, 2])).tolist();   // [0, 1, 2, 3, 4]  (undoes fftshift for odd n too)
 * ```
 */
export function ifftshift(x: Tensor | unknown, axes?: number | readonly number[]): Tensor {
  return shifted('ifftshift', x, axes, -1);
}
