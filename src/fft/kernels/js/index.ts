// The js FFT kernels (the FftKernels contract, ../contract.ts): pure
// TypeScript, float64 internally for both precisions. complex.ts runs c2c,
// real.ts r2c and c2r; the plans (factorization, twiddles, work arrays) are
// built once per length and cached (plan.ts, complex.ts).
//
// The checks here are of the caller (the fft ops), not of user input: a
// wrong length or array type is a bug upstream, so a plain Error, as the
// contract says.

import type { ComplexDType, FftKernels, FloatArray, RealDType } from '../contract.js';
import { c2cRows } from './complex.js';
import { c2rRows, r2cRows } from './real.js';

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
};
