// The js FFT kernels (the FftKernels contract, ../contract.ts): pure
// TypeScript, float64 internally for both precisions. complex.ts runs c2c,
// real.ts r2c and c2r, nd.ts the n-D forms as passes; the plans (factorization, twiddles, work arrays) are
// built once per length and cached (plan.ts, complex.ts).
//
// The checks here are of the caller (the fft ops), not of user input: a
// wrong length or array type is a bug upstream, so a plain Error, as the
// contract says.

import type { ComplexDType, FftKernels, FloatArray, RealDType } from '../contract.js';
import { c2cRows } from './complex.js';
import { c2rRows, r2cRows } from './real.js';
import { c2cNdBlocks, c2rNdBlocks, r2cNdBlocks } from './nd.js';

/** Checks an n-D call's shape and axes; returns [full size, size halved along the last axis]. */
function checkNd(kernel: string, shape: readonly number[], axes: readonly number[]): [number, number] {
  if (!Array.isArray(shape) || shape.length === 0 || shape.some((d) => !Number.isSafeInteger(d) || d < 1)) throw new Error(`fft ${kernel}: shape must be a non-empty array of lengths ≥ 1, got ${JSON.stringify(shape)}`);
  if (!Array.isArray(axes) || axes.length === 0 || axes.some((a, i) => !Number.isInteger(a) || a < 0 || a >= shape.length || axes.indexOf(a) !== i))
    throw new Error(`fft ${kernel}: axes must be distinct indices into a shape of rank ${shape.length}, got ${JSON.stringify(axes)}`);
  const h = axes[axes.length - 1]!;
  let full = 1,
    half = 1;
  shape.forEach((d, i) => {
    full *= d;
    half *= i === h ? (d >> 1) + 1 : d;
  });
  return [full, half];
}

function check(kernel: string, dtype: string, batch: number, n: number, x: FloatArray, xLen: number, out: FloatArray, outLen: number): void {
  const f32 = dtype === 'complex64' || dtype === 'float32';
  if (!f32 && dtype !== 'complex128' && dtype !== 'float64') throw new Error(`fft ${kernel}: unknown dtype '${String(dtype)}'`);
  if (!Number.isSafeInteger(batch) || batch < 0) throw new Error(`fft ${kernel}: batch must be a non-negative integer, got ${batch}`);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`fft ${kernel}: n must be an integer ≥ 1, got ${n}`);
  const Want = f32 ? Float32Array : Float64Array;
  for (const [name, a, len] of [['x', x, xLen], ['out', out, outLen]] as const) {
    if (!(a instanceof Want)) throw new Error(`fft ${kernel}: ${name} must be a ${Want.name} for ${dtype}, got ${a?.constructor?.name ?? String(a)}`);
    if (a.length !== len) throw new Error(`fft ${kernel}: ${name} has length ${a.length}, expected ${len} for batch ${batch}, n ${n}`);
  }
  if (x.buffer === out.buffer && x.byteOffset < out.byteOffset + out.byteLength && out.byteOffset < x.byteOffset + x.byteLength)
    throw new Error(`fft ${kernel}: out overlaps x (the kernel writes a fresh array)`);
}

export const jsFftKernels: FftKernels = {
  c2c(dtype: ComplexDType, batch: number, n: number, x: FloatArray, out: FloatArray, inverse: boolean): void {
    check('c2c', dtype, batch, n, x, 2 * batch * n, out, 2 * batch * n);
    if (dtype !== 'complex64' && dtype !== 'complex128') throw new Error(`fft c2c: dtype must be complex64 or complex128, got ${dtype}`);
    if (batch > 0) c2cRows(batch, n, x, out, inverse);
  },
  r2c(dtype: RealDType, batch: number, n: number, x: FloatArray, out: FloatArray): void {
    check('r2c', dtype, batch, n, x, batch * n, out, 2 * batch * (Math.floor(n / 2) + 1));
    if (dtype !== 'float32' && dtype !== 'float64') throw new Error(`fft r2c: dtype must be float32 or float64, got ${dtype}`);
    if (batch > 0) r2cRows(batch, n, x, out);
  },
  c2r(dtype: RealDType, batch: number, n: number, x: FloatArray, out: FloatArray): void {
    check('c2r', dtype, batch, n, x, 2 * batch * (Math.floor(n / 2) + 1), out, batch * n);
    if (dtype !== 'float32' && dtype !== 'float64') throw new Error(`fft c2r: dtype must be float32 or float64, got ${dtype}`);
    if (batch > 0) c2rRows(batch, n, x, out);
  },
  c2cNd(dtype, batch, shape, axes, x, out, inverse) {
    const [full] = checkNd('c2cNd', shape, axes);
    check('c2cNd', dtype, batch, full, x, 2 * batch * full, out, 2 * batch * full);
    if (dtype !== 'complex64' && dtype !== 'complex128') throw new Error(`fft c2cNd: dtype must be complex64 or complex128, got ${dtype}`);
    if (batch > 0) c2cNdBlocks(batch, shape, axes, x, out, inverse);
  },
  r2cNd(dtype, batch, shape, axes, x, out) {
    const [full, half] = checkNd('r2cNd', shape, axes);
    check('r2cNd', dtype, batch, full, x, batch * full, out, 2 * batch * half);
    if (dtype !== 'float32' && dtype !== 'float64') throw new Error(`fft r2cNd: dtype must be float32 or float64, got ${dtype}`);
    if (batch > 0) r2cNdBlocks(batch, shape, axes, x, out);
  },
  c2rNd(dtype, batch, shape, axes, x, out) {
    const [full, half] = checkNd('c2rNd', shape, axes);
    check('c2rNd', dtype, batch, full, x, 2 * batch * half, out, batch * full);
    if (dtype !== 'float32' && dtype !== 'float64') throw new Error(`fft c2rNd: dtype must be float32 or float64, got ${dtype}`);
    if (batch > 0) c2rNdBlocks(batch, shape, axes, x, out);
  },
};
