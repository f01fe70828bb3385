// io.writeGguf: {name: Tensor} and metadata → a GGUF v3 file, for the plain
// element types (float32 → F32, float16 → F16, bfloat16 → BF16, float64 → F64,
// int32 → I32, int8 → I8); rlx does not quantize to ggml's block formats. Metadata value
// types are inferred from the JS values or given per key in `types` (llama.cpp
// checks types strictly: its integer keys are mostly uint32, its floats float32).

import { writeFileSync } from 'node:fs';
import { Tensor } from '../../tensor/tensor.js';
import type { DType } from '../../tensor/dtype.js';
import { GgufError } from './errors.js';
import { DEFAULT_ALIGNMENT, VALUE_TYPES, type GgufValue, type GgufValueType } from './header.js';
import { GGML_TYPE_ID } from './types.js';

export interface WriteGgufOptions {
  /** Metadata key → value (see GgufValue). */
  metadata?: Record<string, GgufValue>;
  /** Metadata key → GGUF value type ('uint32', 'float32', 'array<int32>', ...) where the inferred one is not wanted; readGguf's `metadataTypes` fits here. */
  types?: Record<string, string>;
  /** The data section's alignment, a power of two (default 32; written as general.alignment when not 32). */
  alignment?: number;
}

const GGML_OF: Partial<Record<DType, string>> = { float32: 'F32', float16: 'F16', bfloat16: 'BF16', float64: 'F64', int32: 'I32', int8: 'I8' };
const SIZE: Partial<Record<GgufValueType, number>> = { uint8: 1, int8: 1, uint16: 2, int16: 2, uint32: 4, int32: 4, float32: 4, bool: 1, uint64: 8, int64: 8, float64: 8 };
const TYPED_NAME = new Map<unknown, GgufValueType>([
  [Uint8Array, 'uint8'], [Int8Array, 'int8'], [Uint16Array, 'uint16'], [Int16Array, 'int16'], [Uint32Array, 'uint32'], [Int32Array, 'int32'],
  [Float32Array, 'float32'], [Float64Array, 'float64'], [BigUint64Array, 'uint64'], [BigInt64Array, 'int64'],
]);

/** The type a value is written as when none is given. */
function inferType(v: unknown): string | undefined {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'bigint') return v >= 2n ** 63n ? 'uint64' : 'int64';
  if (typeof v === 'number') {
    if (Number.isInteger(v)) return v >= 0 && v < 2 ** 32 ? 'uint32' : v >= -(2 ** 31) && v < 2 ** 31 ? 'int32' : Number.isSafeInteger(v) ? 'int64' : 'float64';
    return Math.fround(v) === v || !Number.isFinite(v) ? 'float32' : 'float64';
  }
  if (ArrayBuffer.isView(v)) {
    const t = TYPED_NAME.get(v.constructor);
    return t === undefined ? undefined : `array<${t}>`;
  }
  if (Array.isArray(v)) {
    if (v.length === 0 || v.every((x) => typeof x === 'string')) return 'array<string>';
    if (v.every((x) => typeof x === 'boolean')) return 'array<bool>';
    if (v.every((x) => Array.isArray(x) || ArrayBuffer.isView(x))) return 'array<array>';
    if (v.every((x) => typeof x === 'number')) return v.every((x) => Number.isInteger(x) && x >= -(2 ** 31) && x < 2 ** 31) ? 'array<int32>' : v.every((x) => Math.fround(x) === x) ? 'array<float32>' : 'array<float64>';
  }
  return undefined;
}

/** Growable little-endian byte sink. */
class Sink {
  private buf = new Uint8Array(256);
  private dv = new DataView(this.buf.buffer);
  length = 0;
  private room(n: number): number {
    if (this.length + n > this.buf.length) {
      const bigger = new Uint8Array(Math.max(2 * this.buf.length, this.length + n));
      bigger.set(this.buf.subarray(0, this.length));
      this.buf = bigger;
      this.dv = new DataView(bigger.buffer);
    }
    const at = this.length;
    this.length += n;
    return at;
  }
  // room() first: it may replace buf and dv
  u32(v: number) { const at = this.room(4); this.dv.setUint32(at, v, true); }
  u64(v: number | bigint) { const at = this.room(8); this.dv.setBigUint64(at, BigInt(v), true); }
  bytes(b: Uint8Array) { const at = this.room(b.length); this.buf.set(b, at); }
  string(s: string) {
    const b = new TextEncoder().encode(s);
    this.u64(b.length);
    this.bytes(b);
  }
  pad(alignment: number) { this.room((alignment - (this.length % alignment)) % alignment); }
  result(): Uint8Array { return this.buf.slice(0, this.length); }
}

/** Writes one value of type `type` ('uint32', 'array<float32>', 'array<array>', ...) or throws naming the key. */
function writeValue(out: Sink, v: unknown, type: string, key: string, op: string): void {
  const bad = (why: string): never => { throw new GgufError(op, undefined, undefined, `metadata ${JSON.stringify(key)}: ${why}`); };
  const m = /^array<(\w+)>$/.exec(type);
  if (m !== null) {
    const inner = m[1]! as GgufValueType;
    if (!VALUE_TYPES.includes(inner)) bad(`unknown element type ${inner}`);
    if (!Array.isArray(v) && !ArrayBuffer.isView(v)) bad(`type ${type} needs an array, got ${typeof v}`);
    const items = [...(v as ArrayLike<unknown> & Iterable<unknown>)];
    out.u32(VALUE_TYPES.indexOf(inner));
    out.u64(items.length);
    items.forEach((x, i) => writeValue(out, x, inner === 'array' ? (inferType(x) ?? bad(`element ${i} has no GGUF type`)) : inner, `${key}[${i}]`, op));
    return;
  }
  const vt = type as GgufValueType;
  if (!VALUE_TYPES.includes(vt) || vt === 'array') bad(`unknown value type ${type}`);
  if (vt === 'string') {
    if (typeof v !== 'string') bad(`type string needs a string, got ${typeof v}`);
    return out.string(v as string);
  }
  if (vt === 'bool') {
    if (typeof v !== 'boolean') bad(`type bool needs a boolean, got ${typeof v}`);
    return out.bytes(Uint8Array.of(v ? 1 : 0));
  }
  if (typeof v !== 'number' && typeof v !== 'bigint') bad(`type ${vt} needs a number, got ${typeof v}`);
  const b = new Uint8Array(SIZE[vt]!);
  const dv = new DataView(b.buffer);
  const isFloat = vt === 'float32' || vt === 'float64';
  if (!isFloat && (typeof v === 'number' ? !Number.isInteger(v) : false)) bad(`type ${vt} needs an integer, got ${v}`);
  const big = typeof v === 'bigint' ? v : isFloat ? 0n : BigInt(v as number);
  const range: Record<string, [bigint, bigint]> = { uint8: [0n, 255n], int8: [-128n, 127n], uint16: [0n, 65535n], int16: [-32768n, 32767n], uint32: [0n, 2n ** 32n - 1n], int32: [-(2n ** 31n), 2n ** 31n - 1n], uint64: [0n, 2n ** 64n - 1n], int64: [-(2n ** 63n), 2n ** 63n - 1n] };
  const r = range[vt];
  if (r !== undefined && (big < r[0] || big > r[1])) bad(`${v} does not fit ${vt}`);
  switch (vt) {
    case 'uint8': case 'int8': dv.setUint8(0, Number(BigInt.asUintN(8, big))); break;
    case 'uint16': case 'int16': dv.setUint16(0, Number(BigInt.asUintN(16, big)), true); break;
    case 'uint32': case 'int32': dv.setUint32(0, Number(BigInt.asUintN(32, big)), true); break;
    case 'uint64': case 'int64': dv.setBigUint64(0, BigInt.asUintN(64, big), true); break;
    case 'float32': dv.setFloat32(0, Number(v), true); break;
    default: dv.setFloat64(0, Number(v), true);
  }
  out.bytes(b);
}

/**
 * Writes {name: Tensor} (float32, float16, bfloat16, float64, int32, int8) and metadata as a GGUF v3 file at `path`, or returns the bytes when no path is given.
 * @example
 * ```ts
 * const bytes = io.writeGguf({ b: tensor([1, 2], { dtype: 'float16' }) }, undefined, { metadata: { 'general.architecture': 'none' } });
 * io.readGguf(bytes).info.b.type;   // 'F16'
 * io.readGguf(bytes).metadataTypes['general.architecture'];   // 'string'
 * ```
 */
export function writeGguf(tensors: Record<string, Tensor>, path?: undefined, opts?: WriteGgufOptions): Uint8Array;
export function writeGguf(tensors: Record<string, Tensor>, path: string, opts?: WriteGgufOptions): void;
export function writeGguf(tensors: Record<string, Tensor>, path?: string, opts: WriteGgufOptions = {}): Uint8Array | void {
  const op = 'writeGguf';
  if (tensors === null || typeof tensors !== 'object' || Array.isArray(tensors) || tensors instanceof Tensor) {
    throw new GgufError(op, undefined, undefined, `expects an object {name: Tensor}, got ${tensors === null ? 'null' : Array.isArray(tensors) ? 'an array' : tensors instanceof Tensor ? 'a Tensor' : typeof tensors}`);
  }
  const alignment = opts.alignment ?? DEFAULT_ALIGNMENT;
  if (!Number.isInteger(alignment) || alignment <= 0 || (alignment & (alignment - 1)) !== 0 || alignment > 2 ** 30) throw new GgufError(op, undefined, undefined, `alignment must be a power of two, got ${alignment}`);
  const metadata: [string, unknown][] = Object.entries(opts.metadata ?? {});
  if (metadata.some(([k]) => k === 'general.alignment')) throw new GgufError(op, undefined, undefined, `give the alignment as the alignment option, not as metadata general.alignment`);
  if (alignment !== DEFAULT_ALIGNMENT) metadata.push(['general.alignment', alignment]);
  const types = opts.types ?? {};

  const entries = Object.entries(tensors).map(([name, t]) => {
    if (!(t instanceof Tensor)) throw new GgufError(op, undefined, name, `expected a Tensor, got ${t === null ? 'null' : typeof t}`);
    const ggml = GGML_OF[t.dtype];
    if (ggml === undefined) throw new GgufError(op, undefined, name, `dtype ${t.dtype} has no GGUF type (writable: ${Object.keys(GGML_OF).join(', ')})`);
    if (t.shape.length > 4) throw new GgufError(op, undefined, name, `${t.shape.length} dimensions; GGUF tensors have at most 4`);
    const storage = t.realize().node.data!;
    return { name, t, ggml, bytes: new Uint8Array(storage.buffer, storage.byteOffset, storage.byteLength) };
  });

  const out = new Sink();
  out.bytes(new TextEncoder().encode('GGUF'));
  out.u32(3);
  out.u64(entries.length);
  out.u64(metadata.length);
  for (const [key, v] of metadata) {
    const type = key === 'general.alignment' ? 'uint32' : (types[key] ?? inferType(v));
    if (type === undefined) throw new GgufError(op, undefined, undefined, `metadata ${JSON.stringify(key)}: no GGUF type for ${Array.isArray(v) ? 'a mixed array' : typeof v}`);
    out.string(key);
    out.u32(VALUE_TYPES.indexOf((type.startsWith('array<') ? 'array' : type) as GgufValueType));
    writeValue(out, v, type, key, op);
  }
  let offset = 0;
  for (const e of entries) {
    out.string(e.name);
    out.u32(e.t.shape.length);
    for (const d of [...e.t.shape].reverse()) out.u64(d);
    out.u32(GGML_TYPE_ID.get(e.ggml)!);
    out.u64(offset);
    offset += e.bytes.length + ((alignment - (e.bytes.length % alignment)) % alignment);
  }
  for (const e of entries) {
    out.pad(alignment);
    out.bytes(e.bytes);
  }
  const bytes = out.result();
  if (path === undefined) return bytes;
  writeFileSync(path, bytes);
}
