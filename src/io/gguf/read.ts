// io.readGguf: GGUF files (ggml / llama.cpp models) → metadata, the tensor
// index and tensors. The header is parsed and checked in header.ts; this file
// turns each tensor's bytes into an rlx Tensor: F32, F64, F16 and BF16 as
// typed-array views on the file's bytes where aligned (else copies), I8 as
// int8 likewise, I16 and I32 as int32, I64 narrowed to int32 when every value fits, and
// Q8_0, Q4_0 and Q4_K dequantized to float32 (dequantize.ts). Any other ggml
// type is refused by name unless only the index is asked for ({tensors: false},
// which on a path reads just the header's bytes). Little-endian hosts only.

import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { Tensor } from '../../tensor/tensor.js';
import { fromStorage } from '../../tensor/create.js';
import type { DType, StorageArray } from '../../tensor/dtype.js';
import { ValueError } from '../../tensor/errors.js';
import { bf16BitsToF32, ensureF16Table } from '../../tensor/half.js';
import { GgufError } from './errors.js';
import { NeedMore, parseHeader, type GgufHeader, type GgufTensorInfo } from './header.js';
import { DEQUANTIZERS } from './dequantize.js';

export type { GgufHeader, GgufTensorInfo, GgufValue } from './header.js';

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export interface ReadGgufOptions {
  /** Decode the tensors (default true); false returns the metadata and the tensor index only, `tensors` empty. */
  tensors?: boolean;
  /** F16 and BF16 tensors as float32 instead of float16 / bfloat16 (default false). */
  upcast?: boolean;
  /** Copy F32/F64/F16/BF16/I8 data instead of viewing the file's bytes where alignment allows (default false). */
  copy?: boolean;
}

/** A GGUF file's contents: the header's fields and {name: Tensor}. */
export interface GgufFile extends GgufHeader {
  /** Tensor name → Tensor in the rlx shape (ggml's dimensions reversed); empty with {tensors: false}. */
  tensors: Record<string, Tensor>;
}

/** Plain element types rlx stores as they are: typed-array constructor and rlx dtype. */
const PLAIN: Record<string, { Ctor: { new (b: ArrayBufferLike, off: number, len: number): StorageArray; BYTES_PER_ELEMENT: number }; dtype: DType }> = {
  F32: { Ctor: Float32Array, dtype: 'float32' },
  F64: { Ctor: Float64Array, dtype: 'float64' },
  F16: { Ctor: Uint16Array, dtype: 'float16' },
  BF16: { Ctor: Uint16Array, dtype: 'bfloat16' },
  I8: { Ctor: Int8Array, dtype: 'int8' },
};

/** The tensor's storage and dtype, or a GgufError naming the tensor and its type. */
function decode(op: string, name: string, e: GgufTensorInfo, file: Uint8Array, opts: ReadGgufOptions): { data: StorageArray; dtype: DType } {
  const n = e.shape.reduce((a, b) => a * b, 1);
  const src = file.subarray(e.offset, e.offset + e.nbytes);
  const dequantize = DEQUANTIZERS.get(e.type);
  if (dequantize !== undefined) return { data: dequantize(src, n), dtype: 'float32' };
  const plain = PLAIN[e.type];
  if (plain !== undefined) {
    if (opts.upcast && (e.type === 'F16' || e.type === 'BF16')) {
      const dv = new DataView(src.buffer, src.byteOffset, src.byteLength);
      const out = new Float32Array(n);
      if (e.type === 'F16') {
        const table = ensureF16Table();
        for (let i = 0; i < n; i++) out[i] = table[dv.getUint16(2 * i, true)]!;
      } else for (let i = 0; i < n; i++) out[i] = bf16BitsToF32(dv.getUint16(2 * i, true));
      return { data: out, dtype: 'float32' };
    }
    const at = file.byteOffset + e.offset;
    if (!opts.copy && at % plain.Ctor.BYTES_PER_ELEMENT === 0) return { data: new plain.Ctor(file.buffer, at, n), dtype: plain.dtype };
    const bytes = new Uint8Array(e.nbytes);
    bytes.set(src); // a memcpy, not Buffer.slice (a view)
    return { data: new plain.Ctor(bytes.buffer, 0, n), dtype: plain.dtype };
  }
  const dv = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const out = new Int32Array(n);
  switch (e.type) {
    case 'I16':
      for (let i = 0; i < n; i++) out[i] = dv.getInt16(2 * i, true);
      return { data: out, dtype: 'int32' };
    case 'I32':
      for (let i = 0; i < n; i++) out[i] = dv.getInt32(4 * i, true);
      return { data: out, dtype: 'int32' };
    case 'I64':
      for (let i = 0; i < n; i++) {
        const lo = dv.getInt32(8 * i, true),
          hi = dv.getInt32(8 * i + 4, true);
        if (hi !== lo >> 31) throw new GgufError(op, e.offset + 8 * i, name, `I64 element ${i} is ${dv.getBigInt64(8 * i, true)}, outside int32's range: rlx reads I64 tensors as int32 only when every value fits`);
        out[i] = lo;
      }
      return { data: out, dtype: 'int32' };
  }
  throw new GgufError(op, e.offset, name, `ggml type ${e.type} (${e.typeId}) is not supported: rlx decodes F32, F16, BF16, F64, I8, I16, I32, I64, Q8_0, Q4_0 and Q4_K (read the index alone with {tensors: false})`);
}

/** The header of the file at `path`, reading only as many of its bytes as the header takes. */
function headerOfPath(op: string, path: string): GgufHeader {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    let want = Math.min(size, 1 << 20);
    for (;;) {
      const head = new Uint8Array(want);
      readSync(fd, head, 0, want, 0);
      try {
        return parseHeader(op, head, size);
      } catch (err) {
        if (!(err instanceof NeedMore)) throw err;
        want = Math.min(size, Math.max(err.bytes, 2 * want));
      }
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a GGUF file (a path or its bytes): metadata, the tensor index, and tensors (Q8_0/Q4_0/Q4_K dequantized to float32, shapes as ggml's dimensions reversed).
 * @example
 * ```ts
 * const bytes = io.writeGguf({ w: tensor([[1, 2, 3], [4, 5, 6]], { dtype: 'float32' }) }, undefined, { metadata: { 'general.name': 'tiny' } });
 * const g = io.readGguf(bytes);
 * g.metadata['general.name'];   // 'tiny'
 * g.info.w.type;                // 'F32'
 * g.tensors.w.tolist();         // [[1, 2, 3], [4, 5, 6]]
 * io.readGguf(bytes, { tensors: false }).info.w.shape;   // [2, 3]
 * ```
 */
export function readGguf(source: string | Uint8Array, opts: ReadGgufOptions = {}): GgufFile {
  const op = 'readGguf';
  if (!LITTLE_ENDIAN) throw new ValueError(`io.${op}: this host is big-endian; rlx reads GGUF (little-endian) only on little-endian hosts`);
  if (typeof source !== 'string' && !(source instanceof Uint8Array)) throw new ValueError(`io.${op}: expects a path or a Uint8Array, got ${source === null ? 'null' : typeof source}`);
  const wantTensors = opts.tensors ?? true;
  if (!wantTensors) return { ...(typeof source === 'string' ? headerOfPath(op, source) : parseHeader(op, source, source.length)), tensors: {} };
  const file = typeof source === 'string' ? readFileSync(source) : source;
  const header = parseHeader(op, file, file.length);
  const tensors: Record<string, Tensor> = {};
  for (const [name, e] of Object.entries(header.info)) {
    const s = decode(op, name, e, file, opts);
    Object.defineProperty(tensors, name, { value: fromStorage(s.data, e.shape, s.dtype), enumerable: true, writable: true, configurable: true });
  }
  return { ...header, tensors };
}
