// A minimal protobuf wire-format reader: ONNX files are protobuf messages and
// rlx carries no protobuf library, so this decodes exactly what the format's
// encoding defines (varints, 64- and 32-bit fixed values, length-delimited
// fields, packed repeated scalars) with every length checked against the
// bytes that remain. Malformed input raises OnnxError at the byte where it
// breaks; reading never runs past a message's end or loops without progress.
// The schema (which field number is what) lives in schema.ts.

import { OnnxError } from './errors.js';

/** Wire types of the protobuf encoding (3 and 4, proto2 groups, are not used by ONNX and are rejected). */
export const WIRE = { varint: 0, fixed64: 1, bytes: 2, fixed32: 5 } as const;

const TEXT = new TextDecoder('utf-8', { fatal: false });

/** Reads one message's bytes [pos, end) of `buf`; nested messages are sub-readers over their bytes. */
export class ProtoReader {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    start = 0,
    readonly end = buf.length,
    /** Nesting depth, bounded so crafted input cannot exhaust the stack. */
    readonly depth = 0,
  ) {
    this.pos = start;
  }

  fail(detail: string, at = this.pos): never {
    throw new OnnxError('loadOnnx', at, undefined, `malformed protobuf: ${detail}`);
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** An unsigned varint as a BigInt (up to 10 bytes, 64 bits). */
  varintBig(): bigint {
    const start = this.pos;
    let v = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (this.pos >= this.end) this.fail('a varint runs past the end of its message', start);
      const b = this.buf[this.pos++]!;
      v |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return BigInt.asUintN(64, v);
    }
    this.fail('a varint is longer than 10 bytes', start);
  }

  /** An unsigned varint that must fit a JS number exactly (lengths, tags, enums). */
  uint(): number {
    let v = 0;
    for (let shift = 0; shift < 28; shift += 7) {
      if (this.pos >= this.end) this.fail('a varint runs past the end of its message');
      const b = this.buf[this.pos++]!;
      v |= (b & 0x7f) << shift;
      if ((b & 0x80) === 0) return v >>> 0;
    }
    // Longer than 4 bytes: back up over them and decode in BigInt.
    this.pos -= 4;
    const start = this.pos;
    const big = this.varintBig();
    if (big > BigInt(Number.MAX_SAFE_INTEGER)) this.fail(`a length or tag ${big} is too large`, start);
    return Number(big);
  }

  /** A varint read as a two's-complement int64, as a JS number (exact within ±2^53; the int64 extremes ONNX uses as "to the end" stay beyond any real size). */
  int64(): number {
    return Number(BigInt.asIntN(64, this.varintBig()));
  }

  /** A varint read as an int32 (negative int32 values are encoded as 10-byte int64 varints). */
  int32(): number {
    return Number(BigInt.asIntN(32, this.varintBig()));
  }

  fixed32(): DataView {
    if (this.end - this.pos < 4) this.fail('a 32-bit value runs past the end of its message');
    const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 4);
    this.pos += 4;
    return v;
  }

  fixed64(): DataView {
    if (this.end - this.pos < 8) this.fail('a 64-bit value runs past the end of its message');
    const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8);
    this.pos += 8;
    return v;
  }

  float(): number {
    return this.fixed32().getFloat32(0, true);
  }

  double(): number {
    return this.fixed64().getFloat64(0, true);
  }

  /** A length-delimited field's bytes (a view, not a copy). */
  bytes(): Uint8Array {
    const at = this.pos;
    const n = this.uint();
    if (n > this.end - this.pos) this.fail(`a field of ${n} bytes runs past the end of its message (${this.end - this.pos} bytes left)`, at);
    const v = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }

  string(): string {
    return TEXT.decode(this.bytes());
  }

  /** A reader over a nested message's bytes. */
  message(): ProtoReader {
    if (this.depth >= 64) this.fail('messages nested more than 64 deep');
    const at = this.pos;
    const n = this.uint();
    if (n > this.end - this.pos) this.fail(`a message of ${n} bytes runs past the end of its parent (${this.end - this.pos} bytes left)`, at);
    const r = new ProtoReader(this.buf, this.pos, this.pos + n, this.depth + 1);
    this.pos += n;
    return r;
  }

  /** The next field's number and wire type. */
  tag(): { field: number; wire: number; at: number } {
    const at = this.pos;
    const t = this.uint();
    const field = Math.floor(t / 8);
    const wire = t % 8;
    if (field === 0) this.fail('field number 0', at);
    if (wire !== 0 && wire !== 1 && wire !== 2 && wire !== 5) this.fail(`wire type ${wire} (field ${field}) is not one ONNX uses`, at);
    return { field, wire, at };
  }

  /** Skips a field of an unknown number. */
  skip(wire: number): void {
    if (wire === WIRE.varint) this.varintBig();
    else if (wire === WIRE.fixed64) this.fixed64();
    else if (wire === WIRE.fixed32) this.fixed32();
    else this.bytes();
  }

  /**
   * A repeated scalar field, packed (one length-delimited run) or not (one value per tag); `one` reads one element.
   */
  repeated(wire: number, scalarWire: number, one: (r: ProtoReader) => number, out: number[]): void {
    if (wire === scalarWire) {
      out.push(one(this));
      return;
    }
    if (wire !== WIRE.bytes) this.fail(`a repeated field has wire type ${wire}, expected ${scalarWire} or packed (2)`);
    const r = this.message();
    while (!r.done) out.push(one(r));
  }
}

/**
 * Decodes the fields of one message: `fields[n]` reads field n given its wire type (it must check the type with
 * expectWire); other fields are skipped, as protobuf readers do.
 */
export function readFields(r: ProtoReader, fields: Record<number, (wire: number, at: number) => void>): void {
  while (!r.done) {
    const { field, wire, at } = r.tag();
    const f = fields[field];
    if (f === undefined) r.skip(wire);
    else f(wire, at);
  }
}

/** Fails unless a field arrived with the wire type the schema gives it. */
export function expectWire(r: ProtoReader, wire: number, expected: number, what: string, at: number): void {
  if (wire !== expected) r.fail(`${what} has wire type ${wire}, expected ${expected}`, at);
}
