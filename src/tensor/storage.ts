// Conversions between user values and storage arrays (f16/bf16 bits, complex interleaving).

import { type DType, type StorageArray, DTYPE_INFO, allocStorage, floatToInt } from './dtype.js';
import { f16BitsToF32, f32ToF16Bits, bf16BitsToF32, f32ToBf16Bits } from './half.js';

/** Copy of storage as values: f16/bf16 bits decoded to Float32Array, others copied as-is. */
export function decodeStorage(data: StorageArray, dtype: DType): Float64Array | Float32Array | Int32Array | Int8Array | Uint8Array {
  if (dtype === 'float16' || dtype === 'bfloat16') {
    const dec = dtype === 'float16' ? f16BitsToF32 : bf16BitsToF32;
    const out = new Float32Array(data.length);
    for (let i = 0; i < data.length; i++) out[i] = dec(data[i]!);
    return out;
  }
  return (data as Float64Array | Float32Array | Int32Array | Int8Array | Uint8Array).slice();
}

/**
 * The bytes decodeStorageAsync copies between turns of the event loop: a
 * 96 MB result copied at once held the main thread ~28 ms here (CI, loaded:
 * 58 ms), past the 50 ms an awaited data() promises (issue 14 §4); 4 MiB pieces
 * take about a millisecond each.
 */
const DECODE_PIECE_BYTES = 4 << 20;

/** decodeStorage for data(): the same copy, in pieces with the event loop turning between them. */
export async function decodeStorageAsync(data: StorageArray, dtype: DType): Promise<Float64Array | Float32Array | Int32Array | Int8Array | Uint8Array> {
  if (data.byteLength <= DECODE_PIECE_BYTES) return decodeStorage(data, dtype);
  const half = dtype === 'float16' || dtype === 'bfloat16';
  const out = half ? new Float32Array(data.length) : new (data.constructor as new (n: number) => typeof data)(data.length);
  const piece = Math.max(1, Math.floor(DECODE_PIECE_BYTES / data.BYTES_PER_ELEMENT));
  for (let lo = 0; lo < data.length; lo += piece) {
    if (lo > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const hi = Math.min(data.length, lo + piece);
    if (half) out.set(decodeStorage(data.subarray(lo, hi), dtype), lo);
    else out.set(data.subarray(lo, hi), lo);
  }
  return out as Float64Array | Float32Array | Int32Array | Int8Array | Uint8Array;
}

/**
 * Storage for `dtype` from plain values (complex: interleaved re, im already).
 * Casts like NumPy's astype: floats to int32 truncate toward zero, to int8/uint8
 * truncate and wrap modulo 256 (dtype.ts floatToInt), to bool test != 0.
 */
export function encodeValues(values: ArrayLike<number>, dtype: DType): StorageArray {
  const lanes = DTYPE_INFO[dtype].lanes;
  const out = allocStorage(dtype, values.length / lanes);
  const n = values.length;
  switch (dtype) {
    case 'float16':
      for (let i = 0; i < n; i++) out[i] = f32ToF16Bits(values[i]!);
      break;
    case 'bfloat16':
      for (let i = 0; i < n; i++) out[i] = f32ToBf16Bits(Math.fround(values[i]!));
      break;
    case 'bool':
      for (let i = 0; i < n; i++) out[i] = values[i] !== 0 ? 1 : 0;
      break;
    case 'int32':
      for (let i = 0; i < n; i++) out[i] = Math.trunc(values[i]!) | 0;
      break;
    case 'int8':
    case 'uint8':
      for (let i = 0; i < n; i++) out[i] = floatToInt(values[i]!, dtype);
      break;
    default:
      for (let i = 0; i < n; i++) out[i] = values[i]!;
  }
  return out;
}
