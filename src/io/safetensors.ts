// safetensors files (Hugging Face's tensor format, what PyTorch and JAX models
// ship their weights in): loadSafetensors → {name: Tensor}, readSafetensorsHeader
// for the metadata and the tensor index without the data, saveSafetensors.
// The header is parsed and checked in safetensors-header.ts; this file turns
// the data spans into tensors. A span whose first byte is aligned to its
// element's size becomes a typed-array view on the file's bytes (no copy);
// otherwise (or when asked) the bytes are copied. Little-endian hosts only
// (the format is little-endian and typed arrays use the host's order).

import { closeSync, openSync, readFileSync, readSync, writeFileSync, fstatSync } from 'node:fs';
import { Tensor } from '../tensor/tensor.js';
import { fromStorage } from '../tensor/create.js';
import { DTYPE_INFO, type DType, type StorageArray } from '../tensor/dtype.js';
import { ValueError } from '../tensor/errors.js';
import { SafetensorsError } from './errors.js';
import { FROM_SAFETENSORS, NARROWED, SAFETENSORS_DTYPE } from './safetensors-dtypes.js';
import { parseHeader, headerLength, type SafetensorsHeader } from './safetensors-header.js';

export type { SafetensorsHeader, TensorEntry } from './safetensors-header.js';

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export interface LoadSafetensorsOptions {
  /** Copy every tensor's bytes instead of viewing the file's buffer where alignment allows (default false). */
  copy?: boolean;
}

function bytesOf(op: string, source: string | Uint8Array): Uint8Array {
  if (typeof source === 'string') return readFileSync(source);
  if (source instanceof Uint8Array) return source;
  throw new ValueError(`io.${op}: expects a path or a Uint8Array, got ${source === null ? 'null' : typeof source}`);
}

/** The storage of one tensor: a view when aligned (and not copying), else a copy; I64 narrowed to int32, BOOL bytes normalised to 0/1. */
function storageOf(op: string, name: string, st: string, file: Uint8Array, begin: number, end: number, copy: boolean): { data: StorageArray; dtype: DType } {
  const narrowed = NARROWED.get(st);
  if (narrowed !== undefined) {
    // I64 → int32: the high word must be the sign extension of the low word.
    const dv = new DataView(file.buffer, file.byteOffset + begin, end - begin);
    const n = (end - begin) / 8;
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const lo = dv.getInt32(8 * i, true),
        hi = dv.getInt32(8 * i + 4, true);
      if (hi !== lo >> 31) throw new SafetensorsError(op, begin + 8 * i, name, `I64 element ${i} is ${dv.getBigInt64(8 * i, true)}, outside int32's range: rlx reads I64 tensors as int32 only when every value fits`);
      out[i] = lo;
    }
    return { data: out, dtype: narrowed.dtype };
  }
  const dtype = FROM_SAFETENSORS.get(st)!;
  const info = DTYPE_INFO[dtype];
  const Ctor = info.storage as unknown as { new (b: ArrayBufferLike, off: number, len: number): StorageArray; BYTES_PER_ELEMENT: number };
  const length = ((end - begin) / info.itemsize) * info.lanes;
  const at = file.byteOffset + begin;
  let data: StorageArray;
  if (!copy && at % Ctor.BYTES_PER_ELEMENT === 0) data = new Ctor(file.buffer, at, length);
  else {
    // A copy by set() (a memcpy), not file.slice: a Node Buffer's slice is a view.
    const bytes = new Uint8Array(end - begin);
    bytes.set(file.subarray(begin, end));
    data = new Ctor(bytes.buffer, 0, length);
  }
  if (dtype === 'bool' && data.some((v) => v > 1)) data = Uint8Array.from(data, (v) => (v !== 0 ? 1 : 0));
  return { data, dtype };
}

/**
 * Loads every tensor of a safetensors file (a path or its bytes) as {name: Tensor}; views the bytes without copying where alignment allows.
 * @example
 * ```ts
 * const bytes = io.saveSafetensors({ w: tensor([[1, 2], [3, 4]], { dtype: 'float32' }) });
 * const t = io.loadSafetensors(bytes);
 * t.w.dtype;      // 'float32'
 * t.w.tolist();   // [[1, 2], [3, 4]]
 * ```
 */
export function loadSafetensors(source: string | Uint8Array, opts: LoadSafetensorsOptions = {}): Record<string, Tensor> {
  const op = 'loadSafetensors';
  if (!LITTLE_ENDIAN) throw new ValueError(`io.${op}: this host is big-endian; rlx reads safetensors (little-endian) only on little-endian hosts`);
  const file = bytesOf(op, source);
  const header = parseHeader(op, file, file.length);
  const data = file.subarray(header.dataStart);
  const out: [string, Tensor][] = [];
  for (const [name, e] of Object.entries(header.tensors)) {
    const s = storageOf(op, name, e.dtype, data, e.dataOffsets[0], e.dataOffsets[1], opts.copy ?? false);
    out.push([name, fromStorage(s.data, e.shape, s.dtype)]);
  }
  return Object.fromEntries(out);
}

/**
 * Reads a safetensors file's header only: its `__metadata__` and each tensor's {dtype, shape, dataOffsets} (a path reads just the header's bytes).
 * @example
 * ```ts
 * const bytes = io.saveSafetensors({ b: tensor([1, 2, 3]) }, undefined, { metadata: { format: 'pt' } });
 * const h = io.readSafetensorsHeader(bytes);
 * h.metadata.format;      // 'pt'
 * h.tensors.b.dtype;      // 'F64'
 * h.tensors.b.shape;      // [3]
 * ```
 */
export function readSafetensorsHeader(source: string | Uint8Array): SafetensorsHeader {
  const op = 'readSafetensorsHeader';
  if (typeof source !== 'string') {
    const file = bytesOf(op, source);
    return parseHeader(op, file, file.length);
  }
  const fd = openSync(source, 'r');
  try {
    const size = fstatSync(fd).size;
    const first8 = new Uint8Array(8);
    readSync(fd, first8, 0, Math.min(8, size), 0);
    const n = headerLength(op, first8, size);
    const head = new Uint8Array(8 + n);
    head.set(first8);
    readSync(fd, head, 8, n, 8);
    return parseHeader(op, head, size);
  } finally {
    closeSync(fd);
  }
}

export interface SaveSafetensorsOptions {
  /** String key/value pairs stored as the header's `__metadata__` (PyTorch writes {format: 'pt'}). */
  metadata?: Record<string, string>;
}

/**
 * Writes {name: Tensor} as a safetensors file at `path`, or returns the bytes when no path is given.
 * @example
 * ```ts
 * const bytes = io.saveSafetensors({ x: tensor([1, 2], { dtype: 'float32' }) });
 * bytes.length;   // 72  (the 8-byte length, a 56-byte JSON header (padded with spaces to a multiple of 8), 8 bytes of data)
 * ```
 */
export function saveSafetensors(tensors: Record<string, Tensor>, path?: undefined, opts?: SaveSafetensorsOptions): Uint8Array;
export function saveSafetensors(tensors: Record<string, Tensor>, path: string, opts?: SaveSafetensorsOptions): void;
export function saveSafetensors(tensors: Record<string, Tensor>, path?: string, opts: SaveSafetensorsOptions = {}): Uint8Array | void {
  const op = 'saveSafetensors';
  if (!LITTLE_ENDIAN) throw new ValueError(`io.${op}: this host is big-endian; rlx writes safetensors (little-endian) only on little-endian hosts`);
  if (tensors === null || typeof tensors !== 'object' || Array.isArray(tensors) || tensors instanceof Tensor) {
    throw new SafetensorsError(op, undefined, undefined, `expects an object {name: Tensor}, got ${tensors === null ? 'null' : Array.isArray(tensors) ? 'an array' : tensors instanceof Tensor ? 'a Tensor' : typeof tensors}`);
  }
  const entries = Object.entries(tensors).map(([name, t]) => {
    if (name === '__metadata__') throw new SafetensorsError(op, undefined, name, 'the name __metadata__ is reserved by the format');
    if (!(t instanceof Tensor)) throw new SafetensorsError(op, undefined, name, `expected a Tensor, got ${t === null ? 'null' : typeof t}`);
    const st = SAFETENSORS_DTYPE[t.dtype];
    if (st === undefined) throw new SafetensorsError(op, undefined, name, `dtype ${t.dtype} has no safetensors dtype (writable: ${Object.keys(SAFETENSORS_DTYPE).join(', ')})`);
    return { name, t, st, itemsize: DTYPE_INFO[t.dtype].itemsize };
  });
  const metadata = opts.metadata;
  if (metadata !== undefined) {
    if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) throw new SafetensorsError(op, undefined, undefined, `metadata must be an object of strings, got ${metadata === null ? 'null' : typeof metadata}`);
    for (const [k, v] of Object.entries(metadata)) if (typeof v !== 'string') throw new SafetensorsError(op, undefined, undefined, `metadata[${JSON.stringify(k)}] must be a string, got ${v === null ? 'null' : typeof v}`);
  }
  // Largest elements first, then by name (as the Rust writer): with the data
  // starting at a multiple of 8, every tensor's offset is a multiple of its
  // element size, so a reader can view each in place.
  entries.sort((a, b) => b.itemsize - a.itemsize || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const header: Record<string, unknown> = {};
  const define = (k: string, v: unknown) => Object.defineProperty(header, k, { value: v, enumerable: true, writable: true, configurable: true });
  if (metadata !== undefined) define('__metadata__', metadata);
  let offset = 0;
  const chunks = entries.map((e) => {
    const storage = e.t.realize().node.data!;
    const bytes = new Uint8Array(storage.buffer, storage.byteOffset, storage.byteLength);
    define(e.name, { dtype: e.st, shape: e.t.shape, data_offsets: [offset, offset + bytes.length] });
    offset += bytes.length;
    return bytes;
  });
  const jsonBytes = new TextEncoder().encode(JSON.stringify(header));
  const padded = jsonBytes.length + ((8 - (jsonBytes.length % 8)) % 8);
  const out = new Uint8Array(8 + padded + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(padded), true);
  out.set(jsonBytes, 8);
  out.fill(0x20, 8 + jsonBytes.length, 8 + padded);
  let at = 8 + padded;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  if (path === undefined) return out;
  writeFileSync(path, out);
}
