// The scalar helpers in scope of every generated JS kernel (S, C, CX, H).

import * as special from './special.js';
import * as C from './complex-math.js';
import { ensureF16Table, f32ToF16Bits, f16BitsToF32, bf16BitsToF32, f32ToBf16Bits } from '../../tensor/half.js';

/** pow with C99 semantics where JS differs: 1**y = 1 and (-1)**±inf = 1 even for NaN/inf y. */
function pow(a: number, b: number): number {
  if (a === 1 || b === 0) return 1;
  if (a === -1 && (b === Infinity || b === -Infinity)) return 1;
  return Math.pow(a, b);
}

/** Integer power with int32 wrap-around; negative exponents are 0 except for ±1 (NumPy raises; we follow C). */
function ipow(a: number, b: number): number {
  if (b < 0) return a === 1 ? 1 : a === -1 ? (b % 2 === 0 ? 1 : -1) : 0;
  let r = 1,
    x = a | 0,
    e = b;
  while (e > 0) {
    if (e & 1) r = Math.imul(r, x);
    x = Math.imul(x, x);
    e >>>= 1;
  }
  return r;
}

/** float → int32 as NumPy on x86: truncation; NaN and out of range give INT32_MIN. */
function toInt32(v: number): number {
  const t = Math.trunc(v);
  return t >= -2147483648 && t <= 2147483647 ? t : -2147483648;
}

export const S = {
  ...special,
  pow,
  ipow,
  toInt32,
  f32ToF16: f32ToF16Bits,
  f32ToBF16: (v: number) => f32ToBf16Bits(Math.fround(v)),
  bf16ToF32: bf16BitsToF32,
  roundF16: (v: number) => f16BitsToF32(f32ToF16Bits(v)),
  roundBF16: (v: number) => bf16BitsToF32(f32ToBf16Bits(Math.fround(v))),
};

export { C };
export const CX = C.CX;
export const H = (): Float32Array => ensureF16Table();

/**
 * A generated kernel: B the slot buffers, P the sizes and strides of one
 * binding of the dims, CV the values of the graph's parameter literals
 * (compiler/const-params.ts; a kernel reads CV[i] where it would otherwise
 * hold a literal, so its source does not depend on the values).
 */
export type KernelFn = (B: unknown[], P: number[], CV: Float64Array) => void;

/** Turns a generated body into a kernel function `(B, P, CV) => void`. */
export function makeKernel(body: string): KernelFn {
  const factory = new Function('S', 'C', 'CX', 'H', `'use strict';\nreturn function kernel(B, P, CV) {\n${body}\n};`) as (...a: unknown[]) => KernelFn;
  return factory(S, C, CX, H());
}
