// Parsing and checking a GGUF file's header: magic, version (2 or 3), the
// metadata key/values, the tensor index and the data section's start. Every
// read is bounds-checked, every count is checked against the bytes left in
// the file before anything is allocated for it (a count of 2^60 allocates
// nothing), and the tensor index is validated as a whole: known ggml types,
// shapes whose first ggml dimension fills whole blocks, data that lies in the
// file, starts on the alignment and overlaps no other tensor's. Errors name
// the byte of the field at fault, which always lies inside the file.
//
// The parser may be given only a prefix of the file (readGguf's
// `{tensors: false}` on a path reads the header without the data); running
// past the prefix, but not past the file, throws NeedMore with the size wanted.

import { GgufError } from './errors.js';
import { GGML_TYPES } from './types.js';

/** A metadata value: numbers (64-bit integers as bigint when outside ±(2^53 − 1)), booleans, strings; arrays of numbers as typed arrays, of strings, booleans or arrays as JS arrays. */
export type GgufValue =
  | number
  | bigint
  | boolean
  | string
  | Uint8Array
  | Int8Array
  | Uint16Array
  | Int16Array
  | Uint32Array
  | Int32Array
  | Float32Array
  | Float64Array
  | BigUint64Array
  | BigInt64Array
  | string[]
  | boolean[]
  | GgufValue[];

/** Where one tensor's data lies and how it is encoded. */
export interface GgufTensorInfo {
  /** ggml type name: 'F32', 'F16', 'Q8_0', 'Q4_K', ... */
  type: string;
  /** ggml type id (GGML_TYPE_*). */
  typeId: number;
  /** The rlx (row-major) shape: ggml's dimensions ne[] reversed, so ne[0], the fastest-varying, is last. */
  shape: number[];
  /** Byte offset of the tensor's data from the start of the file. */
  offset: number;
  /** Bytes of data. */
  nbytes: number;
}

export interface GgufHeader {
  /** The format version: 2 or 3. */
  version: number;
  /** Metadata key → value, in file order. */
  metadata: Record<string, GgufValue>;
  /** Metadata key → its GGUF value type: 'uint32', 'string', 'array<float32>', 'array<array>', ... */
  metadataTypes: Record<string, string>;
  /** Tensor name → where its data lies, in file order. */
  info: Record<string, GgufTensorInfo>;
  /** The data section's alignment (general.alignment, default 32). */
  alignment: number;
  /** Byte offset of the data section (tensor offsets in the file are relative to it). */
  dataOffset: number;
}

/** Thrown when the header runs past the bytes given but not past the file: read `bytes` bytes and parse again. */
export class NeedMore extends Error {
  constructor(readonly bytes: number) {
    super(`need ${bytes} bytes`);
  }
}

export const VALUE_TYPES = ['uint8', 'int8', 'uint16', 'int16', 'uint32', 'int32', 'float32', 'bool', 'string', 'array', 'uint64', 'int64', 'float64'] as const;
export type GgufValueType = (typeof VALUE_TYPES)[number];
/** Bytes of one value of each fixed-size type (string and array: their smallest encoding). */
const MIN_SIZE: Record<GgufValueType, number> = { uint8: 1, int8: 1, uint16: 2, int16: 2, uint32: 4, int32: 4, float32: 4, bool: 1, string: 8, array: 12, uint64: 8, int64: 8, float64: 8 };
const TYPED: Partial<Record<GgufValueType, { new (b: ArrayBuffer): GgufValue & ArrayBufferView }>> = {
  uint8: Uint8Array, int8: Int8Array, uint16: Uint16Array, int16: Int16Array, uint32: Uint32Array, int32: Int32Array,
  float32: Float32Array, float64: Float64Array, uint64: BigUint64Array, int64: BigInt64Array,
};
export const DEFAULT_ALIGNMENT = 32;
/** ggml's GGML_MAX_DIMS: files with more dimensions cannot be loaded by ggml either. */
const MAX_DIMS = 4;
/** Arrays of arrays deeper than this are refused (no real file nests at all; a deep nest would overflow the stack). */
const MAX_NESTING = 16;
/** Smallest tensor-info record: an empty name, n_dims, type, offset. */
const MIN_TENSOR_INFO = 8 + 4 + 4 + 8;
/** Smallest key/value: an empty key, the type, a 1-byte value. */
const MIN_KV = 8 + 4 + 1;

const setKey = <T>(o: Record<string, T>, k: string, v: T) => Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });

/** A bounds-checked little-endian reader over the file's first bytes. */
class Cursor {
  pos = 0;
  private readonly dv: DataView;
  private readonly decoder = new TextDecoder('utf-8');
  constructor(
    readonly op: string,
    readonly bytes: Uint8Array,
    /** The whole file's size (≥ bytes.length). */
    readonly fileSize: number,
  ) {
    this.dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  fail(detail: string, at = this.pos, tensor?: string): never {
    throw new GgufError(this.op, at, tensor, detail);
  }
  /** Ensures n more bytes (n may be a huge bigint-derived number). */
  need(n: number, what: string, tensor?: string): void {
    if (this.pos + n <= this.bytes.length) return;
    if (this.pos + n <= this.fileSize) throw new NeedMore(this.pos + n);
    this.fail(`${what} needs ${n} bytes but the file ends ${this.fileSize - this.pos} bytes later (truncated)`, this.pos, tensor);
  }
  u8(what: string, tensor?: string): number {
    this.need(1, what, tensor);
    return this.dv.getUint8(this.pos++);
  }
  u32(what: string, tensor?: string): number {
    this.need(4, what, tensor);
    const v = this.dv.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }
  u64(what: string, tensor?: string): bigint {
    this.need(8, what, tensor);
    const v = this.dv.getBigUint64(this.pos, true);
    this.pos += 8;
    return v;
  }
  /** A count of items of at least `each` bytes, checked against the bytes left in the file before anyone allocates for it. */
  count(what: string, each: number, tensor?: string): number {
    const at = this.pos;
    const n = this.u64(`${what} count`, tensor);
    const left = BigInt(this.fileSize - this.pos);
    if (n * BigInt(each) > left) this.fail(`${what} count ${n} needs at least ${n * BigInt(each)} bytes but the file has ${left} left`, at, tensor);
    return Number(n);
  }
  string(what: string, tensor?: string): string {
    const n = this.count(`${what} length`, 1, tensor);
    this.need(n, what, tensor);
    const s = this.decoder.decode(this.bytes.subarray(this.pos, this.pos + n));
    this.pos += n;
    return s;
  }
  /** A copy of the next n bytes (typed arrays need their own aligned buffer). */
  copy(n: number, what: string): ArrayBuffer {
    this.need(n, what);
    const out = new Uint8Array(n);
    out.set(this.bytes.subarray(this.pos, this.pos + n));
    this.pos += n;
    return out.buffer;
  }
  scalar(type: GgufValueType, what: string): number | bigint | boolean | string {
    const at = this.pos;
    switch (type) {
      case 'string':
        return this.string(what);
      case 'bool': {
        const b = this.u8(what);
        if (b > 1) this.fail(`${what}: a bool must be 0 or 1, got ${b}`, at);
        return b === 1;
      }
      case 'uint64':
      case 'int64': {
        const v = type === 'uint64' ? this.u64(what) : BigInt.asIntN(64, this.u64(what));
        return v >= -BigInt(Number.MAX_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
      }
      default: {
        const size = MIN_SIZE[type];
        this.need(size, what);
        const dv = this.dv,
          p = this.pos;
        this.pos += size;
        switch (type) {
          case 'uint8': return dv.getUint8(p);
          case 'int8': return dv.getInt8(p);
          case 'uint16': return dv.getUint16(p, true);
          case 'int16': return dv.getInt16(p, true);
          case 'uint32': return dv.getUint32(p, true);
          case 'int32': return dv.getInt32(p, true);
          case 'float32': return dv.getFloat32(p, true);
          default: return dv.getFloat64(p, true);
        }
      }
    }
  }
  valueType(what: string): GgufValueType {
    const at = this.pos;
    const id = this.u32(`${what} type`);
    const type = VALUE_TYPES[id];
    if (type === undefined) this.fail(`${what}: unknown value type ${id} (0–12 are defined)`, at);
    return type;
  }
  /** One value of the given type; returns it and its type name ('array<...>' for arrays). */
  value(type: GgufValueType, what: string, depth = 0): { v: GgufValue; type: string } {
    if (type !== 'array') return { v: this.scalar(type, what), type };
    if (depth >= MAX_NESTING) this.fail(`${what}: arrays nested more than ${MAX_NESTING} deep`);
    const inner = this.valueType(`${what} element`);
    const n = this.count(`${what} element`, MIN_SIZE[inner]);
    const Typed = TYPED[inner];
    if (Typed !== undefined) return { v: new Typed(this.copy(n * MIN_SIZE[inner], what)), type: `array<${inner}>` };
    const out: GgufValue[] = [];
    for (let i = 0; i < n; i++) out.push(this.value(inner, `${what}[${i}]`, depth + 1).v);
    return { v: out as GgufValue, type: `array<${inner}>` };
  }
}

/** Parses and checks the header of a GGUF file of `fileSize` bytes from its first bytes (all of them, or a prefix: see NeedMore). */
export function parseHeader(op: string, bytes: Uint8Array, fileSize: number): GgufHeader {
  const c: Cursor = new Cursor(op, bytes, fileSize);
  c.need(4, 'the magic "GGUF"');
  if (bytes[0] !== 0x47 || bytes[1] !== 0x47 || bytes[2] !== 0x55 || bytes[3] !== 0x46) {
    c.fail(`not a GGUF file: the magic is ${[...bytes.subarray(0, 4)].map((b) => b.toString(16).padStart(2, '0')).join(' ')}, expected 47 47 55 46 ("GGUF")`, 0);
  }
  c.pos = 4;
  const version = c.u32('the version');
  if (version !== 2 && version !== 3) {
    const why =
      version === 1 ? 'GGUF v1 (32-bit counts) is obsolete and not supported'
      : (version & 0xffff) === 0 && version !== 0 ? `the version reads ${version}, which looks byte-swapped: big-endian GGUF files are not supported`
      : `unsupported version ${version}`;
    c.fail(`${why}; rlx reads versions 2 and 3`, 4);
  }
  const nTensors = c.count('tensor', MIN_TENSOR_INFO);
  const nKv = c.count('metadata key/value', MIN_KV);

  const metadata: Record<string, GgufValue> = {};
  const metadataTypes: Record<string, string> = {};
  let alignment = DEFAULT_ALIGNMENT;
  for (let i = 0; i < nKv; i++) {
    const keyAt = c.pos;
    const key = c.string(`metadata key ${i}`);
    if (Object.prototype.hasOwnProperty.call(metadata, key)) c.fail(`duplicate metadata key ${JSON.stringify(key)}`, keyAt);
    const type = c.valueType(`metadata ${JSON.stringify(key)}`);
    const valueAt = c.pos;
    const { v, type: typeName } = c.value(type, `metadata ${JSON.stringify(key)}`);
    setKey(metadata, key, v);
    setKey(metadataTypes, key, typeName);
    if (key === 'general.alignment') {
      if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0 || (v & (v - 1)) !== 0 || v > 2 ** 30) {
        c.fail(`general.alignment must be a power of two (ggml writes a uint32), got ${typeName} ${String(v)}`, valueAt);
      }
      alignment = v;
    }
  }

  const info: Record<string, GgufTensorInfo> = {};
  const offsetFieldAt = new Map<string, number>();
  for (let i = 0; i < nTensors; i++) {
    const nameAt = c.pos;
    const name = c.string(`tensor ${i} name`);
    if (Object.prototype.hasOwnProperty.call(info, name)) c.fail(`duplicate tensor name`, nameAt, name);
    const nDimsAt = c.pos;
    const nDims = c.u32('n_dims', name);
    if (nDims > MAX_DIMS) c.fail(`${nDims} dimensions; GGUF (ggml) tensors have at most ${MAX_DIMS}`, nDimsAt, name);
    const ne: bigint[] = [];
    for (let d = 0; d < nDims; d++) ne.push(c.u64(`dimension ${d}`, name));
    const typeAt = c.pos;
    const typeId = c.u32('ggml type', name);
    const ty = GGML_TYPES.get(typeId);
    if (ty === undefined) c.fail(`unknown ggml type ${typeId}`, typeAt, name);
    const offAt = c.pos;
    const rel = c.u64('data offset', name);
    const elements = ne.reduce((a, b) => a * b, 1n);
    if (ne.length > 0 && ne[0]! % BigInt(ty.blockSize) !== 0n) c.fail(`${ty.name} stores blocks of ${ty.blockSize} elements along its first ggml dimension, which is ${ne[0]}`, nDimsAt, name);
    const nbytes = (elements / BigInt(ty.blockSize)) * BigInt(ty.typeSize);
    if (nbytes > BigInt(fileSize) || ne.some((d) => d > BigInt(Number.MAX_SAFE_INTEGER))) {
      c.fail(`dimensions [${ne.join(', ')}] of ${ty.name} need ${nbytes} bytes, more than the whole file (${fileSize})`, nDimsAt, name);
    }
    if (rel % BigInt(alignment) !== 0n) c.fail(`data offset ${rel} is not a multiple of the alignment ${alignment}`, offAt, name);
    if (rel > BigInt(fileSize)) c.fail(`data offset ${rel} lies past the end of the file (${fileSize} bytes)`, offAt, name);
    setKey(info, name, { type: ty.name, typeId, shape: ne.map(Number).reverse(), offset: Number(rel), nbytes: Number(nbytes) });
    offsetFieldAt.set(name, offAt);
  }

  const dataOffset = c.pos + ((alignment - (c.pos % alignment)) % alignment);
  // Offsets become absolute; each tensor must lie in the file and overlap no other.
  const spans: { name: string; begin: number; end: number }[] = [];
  for (const [name, e] of Object.entries(info)) {
    e.offset += dataOffset;
    if (e.offset + e.nbytes > fileSize) c.fail(`data [${e.offset}, ${e.offset + e.nbytes}) runs past the end of the file (${fileSize} bytes)`, offsetFieldAt.get(name)!, name);
    if (e.nbytes > 0) spans.push({ name, begin: e.offset, end: e.offset + e.nbytes }); // empty tensors overlap nothing
  }
  spans.sort((a, b) => a.begin - b.begin || a.end - b.end);
  for (let i = 1; i < spans.length; i++) {
    const a = spans[i - 1]!,
      b = spans[i]!;
    if (b.begin < a.end) c.fail(`data [${b.begin}, ${b.end}) overlaps tensor ${JSON.stringify(a.name)}'s [${a.begin}, ${a.end})`, offsetFieldAt.get(b.name)!, b.name);
  }
  return { version, metadata, metadataTypes, info, alignment, dataOffset };
}
