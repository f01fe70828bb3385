// io.readIdx: the IDX files MNIST and Fashion-MNIST ship in (LeCun's format),
// plain or gzipped, as one tensor.
//
// Layout: two zero bytes, a type code, the number of dimensions d, then d
// big-endian uint32 sizes, then the values big-endian and row-major. Type codes:
// 0x08 unsigned byte → uint8, 0x09 signed byte → int8, 0x0B int16 → int32
// (rlx has no int16: widened, every value kept), 0x0C int32, 0x0D float32,
// 0x0E float64. Every malformed file is an IdxError naming the byte at fault;
// nothing is allocated before the sizes have been checked against the bytes
// present, so a corrupt header cannot ask for gigabytes.

import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { ValueError } from '../tensor/errors.js';
import { fromStorage } from '../tensor/create.js';
import type { Tensor } from '../tensor/tensor.js';
import type { DType, StorageArray } from '../tensor/dtype.js';

/** A malformed IDX file; `offset` is the byte where reading failed. */
export class IdxError extends ValueError {
  constructor(
    /** Byte offset in the (decompressed) file where the problem was found; undefined when no single byte is at fault. */
    readonly offset: number | undefined,
    detail: string,
  ) {
    super(`io.readIdx: ${offset !== undefined ? `byte ${offset}: ` : ''}${detail}`);
  }
}

/** Per IDX type code: the rlx dtype, bytes per value in the file, and how a value is read. */
const TYPES: Record<number, { dtype: DType; size: number; name: string }> = {
  0x08: { dtype: 'uint8', size: 1, name: 'unsigned byte' },
  0x09: { dtype: 'int8', size: 1, name: 'signed byte' },
  0x0b: { dtype: 'int32', size: 2, name: 'int16 (widened to int32)' },
  0x0c: { dtype: 'int32', size: 4, name: 'int32' },
  0x0d: { dtype: 'float32', size: 4, name: 'float32' },
  0x0e: { dtype: 'float64', size: 8, name: 'float64' },
};

/** The largest element count read (2^31 − 1: what a typed array index reaches everywhere rlx runs). */
const MAX_ELEMENTS = 2 ** 31 - 1;

/**
 * Reads an IDX file (MNIST / Fashion-MNIST images and labels), gzipped or not,
 * from a path or bytes: unsigned bytes become a uint8 tensor of the file's
 * shape (images [n, 28, 28], labels [n]); other type codes int8, int32 or floats.
 * @example
 * ```ts
 * // a 2×3 unsigned-byte file: magic 0 0 8 2, sizes 2 and 3 (big-endian), then the values
 * const bytes = new Uint8Array([0, 0, 8, 2, 0, 0, 0, 2, 0, 0, 0, 3, 1, 2, 3, 4, 5, 255]);
 * io.readIdx(bytes).tolist();   // [[1, 2, 3], [4, 5, 255]]
 * io.readIdx(bytes).dtype;      // 'uint8'
 * ```
 */
export function readIdx(source: string | Uint8Array): Tensor {
  let bytes: Uint8Array;
  if (typeof source === 'string') bytes = readFileSync(source);
  else if (source instanceof Uint8Array) bytes = source;
  else throw new ValueError(`io.readIdx: expected a path or a Uint8Array, got ${source === null ? 'null' : typeof source}`);
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes);
    } catch (e) {
      throw new IdxError(undefined, `the gzip stream is corrupt (${(e as Error).message})`);
    }
  }
  return parseIdx(bytes);
}

function parseIdx(b: Uint8Array): Tensor {
  if (b.length < 4) throw new IdxError(0, `a file of ${b.length} bytes is shorter than the 4-byte magic number`);
  if (b[0] !== 0 || b[1] !== 0) throw new IdxError(0, `the magic number must start with two zero bytes, got ${b[0]}, ${b[1]} (not an IDX file)`);
  const type = TYPES[b[2]!];
  if (!type) throw new IdxError(2, `unknown type code 0x${b[2]!.toString(16).padStart(2, '0')}; expected 0x08, 0x09, 0x0b, 0x0c, 0x0d or 0x0e`);
  const rank = b[3]!;
  const dataStart = 4 + 4 * rank;
  if (b.length < dataStart) throw new IdxError(b.length, `the header declares ${rank} dimensions (${4 * rank} bytes of sizes) but the file ends after ${b.length} bytes`);
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const shape: number[] = [];
  let n = 1;
  for (let i = 0; i < rank; i++) {
    const d = view.getUint32(4 + 4 * i, false);
    shape.push(d);
    n *= d;
  }
  if (n > MAX_ELEMENTS) throw new IdxError(4, `the sizes [${shape}] make ${n} values, more than ${MAX_ELEMENTS}`);
  const need = dataStart + n * type.size;
  if (b.length !== need)
    throw new IdxError(Math.min(b.length, need), `sizes [${shape}] of ${type.name} need ${need} bytes in all; the file has ${b.length}${b.length > need ? ' (trailing bytes)' : ''}`);
  return fromStorage(decode(view, dataStart, n, b[2]!), shape, type.dtype);
}

/** The n big-endian values from byte `at`, in the storage their dtype uses. */
function decode(v: DataView, at: number, n: number, code: number): StorageArray {
  switch (code) {
    case 0x08:
      return new Uint8Array(v.buffer.slice(v.byteOffset + at, v.byteOffset + at + n));
    case 0x09:
      return new Int8Array(v.buffer.slice(v.byteOffset + at, v.byteOffset + at + n));
    case 0x0b: {
      const out = new Int32Array(n);
      for (let i = 0; i < n; i++) out[i] = v.getInt16(at + 2 * i, false);
      return out;
    }
    case 0x0c: {
      const out = new Int32Array(n);
      for (let i = 0; i < n; i++) out[i] = v.getInt32(at + 4 * i, false);
      return out;
    }
    case 0x0d: {
      const out = new Float32Array(n);
      for (let i = 0; i < n; i++) out[i] = v.getFloat32(at + 4 * i, false);
      return out;
    }
    default: {
      const out = new Float64Array(n);
      for (let i = 0; i < n; i++) out[i] = v.getFloat64(at + 8 * i, false);
      return out;
    }
  }
}
