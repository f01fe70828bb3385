// The kernels of the random IR ops (../random-ops.ts): each runs the host
// Threefry functions of this folder once per key of a batch of keys and writes
// the results, one key's block after the other, into the op's output array.
//
// Why this file exists: a key in the IR is an int32 tensor [..., 2] holding the
// bits of JAX's two uint32 words, so the kernels read each key as a Uint32Array
// view of the int32 input and call the same functions the host API always used
// (threefry.ts, samplers.ts). The bits are therefore those of the host sampler,
// hence JAX's, by construction; the hot loops stay in threefry.ts, module-private
// as its header explains. Arguments are checked by the op's binder before a node
// exists; the checks inside the called functions remain as a backstop.

import type { DType, StorageArray } from '../dtype.js';
import { encodeValues } from '../storage.js';
import { foldIn, splitKeyData } from './threefry.js';
import { bernoulliBits, normalFloat32, normalFloat64, randint, uniformFloat32, uniformFloat64 } from './samplers.js';

/** Key b of a batch of keys [batch, 2] stored as int32, as the uint32 words the host functions take (a view, no copy). */
function keyAt(keys: Int32Array, b: number): Uint32Array {
  return new Uint32Array(keys.buffer, keys.byteOffset + 8 * b, 2);
}

/** A float draw converted to the storage of `dtype` (float16/bfloat16 encoded; float32/float64 as they are). */
function stored(v: Float32Array | Float64Array, dtype: DType): StorageArray {
  return dtype === 'float64' || dtype === 'float32' ? v : encodeValues(v, dtype);
}

/** split: n keys per key; out is [batch, n, 2] int32 (Int32Array.set wraps the uint32 words to their int32 bits). */
export function splitKernel(keys: Int32Array, batch: number, n: number, out: Int32Array): void {
  for (let b = 0; b < batch; b++) out.set(splitKeyData(keyAt(keys, b), n), 2 * n * b);
}

/** foldIn: key b folded with data[b] (int32 bits of a uint32); out is [batch, 2] int32. */
export function foldInKernel(keys: Int32Array, data: Int32Array, batch: number, out: Int32Array): void {
  for (let b = 0; b < batch; b++) out.set(foldIn(keyAt(keys, b), data[b]! >>> 0), 2 * b);
}

/** uniform on [lo, hi): n values per key in a floating dtype (float16/bfloat16 rounded from the float32 draw, as before). */
export function uniformKernel(keys: Int32Array, batch: number, n: number, dtype: DType, lo: number, hi: number, out: StorageArray): void {
  for (let b = 0; b < batch; b++) {
    const k = keyAt(keys, b);
    const v = dtype === 'float64' ? uniformFloat64(k, n, lo, hi) : uniformFloat32(k, n, lo, hi);
    out.set(stored(v, dtype), n * b);
  }
}

/**
 * Standard normals: n values per key. Complex dtypes: the key is split in two,
 * real and imaginary parts are independent real normals scaled by sqrt(1/2)
 * (variance 1/2 each, NumPy's and JAX's convention), interleaved.
 */
export function normalKernel(keys: Int32Array, batch: number, n: number, dtype: DType, out: StorageArray): void {
  const complex = dtype === 'complex64' || dtype === 'complex128';
  const wide = dtype === 'float64' || dtype === 'complex128';
  const real = wide ? normalFloat64 : normalFloat32;
  for (let b = 0; b < batch; b++) {
    const k = keyAt(keys, b);
    if (!complex) {
      out.set(stored(real(k, n), dtype), n * b);
      continue;
    }
    const ks = splitKeyData(k, 2);
    const re = real(ks.subarray(0, 2), n);
    const im = real(ks.subarray(2, 4), n);
    const v = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) (v[2 * i] = re[i]! * Math.SQRT1_2), (v[2 * i + 1] = im[i]! * Math.SQRT1_2);
    out.set(encodeValues(v, dtype), 2 * n * b);
  }
}

/** Integers uniform on [lo, hi): n int32 values per key. */
export function randintKernel(keys: Int32Array, batch: number, n: number, lo: number, hi: number, out: Int32Array): void {
  for (let b = 0; b < batch; b++) out.set(randint(keyAt(keys, b), n, lo, hi), n * b);
}

/** Booleans true with probability p (drawn as uniform float64 < p): n values per key. */
export function bernoulliKernel(keys: Int32Array, batch: number, n: number, p: number, out: Uint8Array): void {
  for (let b = 0; b < batch; b++) out.set(bernoulliBits(keyAt(keys, b), n, p), n * b);
}

/** The random kernel set: these host kernels run on every device whose buffers are host memory (js, native). */
export const hostRandomKernels = {
  split: splitKernel,
  foldIn: foldInKernel,
  uniform: uniformKernel,
  normal: normalKernel,
  randint: randintKernel,
  bernoulli: bernoulliKernel,
};

/** What a device provides to run the random ops (../random-ops.ts's kernel family). */
export type RandomKernels = typeof hostRandomKernels;
