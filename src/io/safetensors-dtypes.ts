// The dtypes of safetensors files and the rlx dtypes they are, as one table
// keyed on rlx's names. Adding an rlx dtype whose bytes are the file's is one
// line here (int8: 'I8', uint8: 'U8'); everything else (sizes, alignment,
// typed-array views) comes from DTYPE_INFO. I64, which PyTorch uses for
// indices, has no rlx dtype: it is read as int32 when every value fits.

import { DTYPE_INFO, type DType } from '../tensor/dtype.js';

/** The safetensors dtype name of each rlx dtype that a file can hold (complex128 has none). */
export const SAFETENSORS_DTYPE: Partial<Record<DType, string>> = {
  bool: 'BOOL',
  int8: 'I8',
  uint8: 'U8',
  int32: 'I32',
  float16: 'F16',
  bfloat16: 'BF16',
  float32: 'F32',
  float64: 'F64',
  complex64: 'C64',
};

/** rlx dtype of each safetensors dtype name rlx reads as it is. */
export const FROM_SAFETENSORS: ReadonlyMap<string, DType> = new Map(Object.entries(SAFETENSORS_DTYPE).map(([d, s]) => [s, d as DType]));

/** I64 is read as int32 (every value must fit). */
export const NARROWED: ReadonlyMap<string, { dtype: DType; itemsize: number }> = new Map([['I64', { dtype: 'int32', itemsize: 8 }]]);

/** Every dtype name of the safetensors format (its Rust Dtype enum). */
const FORMAT_DTYPES = ['BOOL', 'U8', 'I8', 'F8_E5M2', 'F8_E4M3', 'I16', 'U16', 'F16', 'BF16', 'I32', 'U32', 'F32', 'F64', 'I64', 'U64', 'C64'];

/** The format's dtypes that rlx cannot read yet (a clearer message than "unknown"). */
export const UNSUPPORTED: readonly string[] = FORMAT_DTYPES.filter((n) => !FROM_SAFETENSORS.has(n) && !NARROWED.has(n));

/** Bytes per element in the file for a dtype name rlx reads, or undefined. */
export function fileItemsize(st: string): number | undefined {
  const d = FROM_SAFETENSORS.get(st);
  if (d !== undefined) return DTYPE_INFO[d].itemsize;
  return NARROWED.get(st)?.itemsize;
}

/** The names rlx reads, for messages. */
export const readableNames = (): string => [...FROM_SAFETENSORS.keys(), ...NARROWED.keys()].join(', ');
