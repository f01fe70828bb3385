// io.readGguf / io.writeGguf. Golden files come from tests/io/golden/make_gguf.py
// (struct + NumPy, its own transcription of ggml's reference quantizers and
// dequantizers): metadata, the tensor index and every tensor's values must
// match its record bit for bit. Quantized round trips are held to their error
// bounds, hand-built blocks to values worked out by hand, and every malformed
// header to a GgufError naming the byte (and tensor) at fault.

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import '../../src/index.js';
import { tensor } from '../../src/tensor/create.js';
import * as io from '../../src/io/index.js';
import { GgufError } from '../../src/io/gguf/errors.js';
import { GOLDEN } from './helpers.js';
import { cat, craft, f16Value, kv, str, u32, u64 } from './gguf-craft.js';

interface ExpTensor { type: string; shape: number[]; offset: number; nbytes: number; bits?: number[]; source_bits?: number[]; f16_bits?: number[]; bf16_bits?: number[]; values?: number[] }
interface ExpFile { version: number; alignment: number; data_offset: number; size: number; metadata: Record<string, { type: string; value: unknown }>; tensors: Record<string, ExpTensor> }
const EXPECTED = JSON.parse(readFileSync(path.join(GOLDEN, 'gguf_expected.json'), 'utf8')) as Record<string, ExpFile>;
const file = (name: string) => path.join(GOLDEN, name);
const bitsOf = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));
const fromBits = (b: number[]) => new Float32Array(new Uint32Array(b).buffer);

/** A metadata value in the golden JSON's spelling: 64-bit integers as decimal strings, typed arrays as arrays. */
function asJson(v: unknown, type: string): unknown {
  if (type === 'uint64' || type === 'int64') return String(v);
  if (type.startsWith('array<')) {
    const inner = type.slice(6, -1);
    return Array.from(v as ArrayLike<unknown>, (x) => (inner === 'array' ? asJsonAny(x) : asJson(x, inner)));
  }
  return v;
}
const asJsonAny = (x: unknown): unknown => (ArrayBuffer.isView(x) ? Array.from(x as unknown as ArrayLike<number>) : Array.isArray(x) ? x : x);

function expectGgufError(f: () => unknown, want: { offset?: number; tensor?: string; message: RegExp }): GgufError {
  let err: unknown;
  try {
    f();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(GgufError);
  const g = err as GgufError;
  if (want.offset !== undefined) expect(g.offset).toBe(want.offset);
  expect(g.tensor).toBe(want.tensor);
  expect(g.message).toMatch(want.message);
  if (g.offset !== undefined) expect(g.message).toContain(`byte ${g.offset}`);
  return g;
}

describe('golden files (make_gguf.py)', () => {
  for (const name of ['tensors.gguf', 'aligned64.gguf']) {
    const exp = EXPECTED[name]!;
    it(`${name}: header, metadata values and types, tensor index`, () => {
      const g = io.readGguf(file(name));
      expect(g.version).toBe(exp.version);
      expect(g.alignment).toBe(exp.alignment);
      expect(g.dataOffset).toBe(exp.data_offset);
      expect(Object.keys(g.metadata)).toEqual(Object.keys(exp.metadata));
      for (const [k, m] of Object.entries(exp.metadata)) {
        expect(g.metadataTypes[k], k).toBe(m.type);
        expect(asJson(g.metadata[k], m.type), k).toEqual(m.value);
      }
      expect(Object.keys(g.info)).toEqual(Object.keys(exp.tensors));
      for (const [t, e] of Object.entries(exp.tensors)) expect(g.info[t], t).toEqual({ type: e.type, typeId: g.info[t]!.typeId, shape: e.shape, offset: e.offset, nbytes: e.nbytes });
    });
    it(`${name}: every tensor's values bit for bit`, () => {
      const g = io.readGguf(new Uint8Array(readFileSync(file(name))));
      let checked = 0;
      for (const [t, e] of Object.entries(exp.tensors)) {
        const x = g.tensors[t]!;
        expect(x.shape, t).toEqual(e.shape);
        const data = x.realize().node.data!;
        if (e.bits !== undefined) {
          expect(x.dtype).toBe('float32');
          expect(bitsOf(data as Float32Array), t).toEqual(e.bits);
        } else if (e.f16_bits !== undefined) {
          expect(x.dtype).toBe('float16');
          expect(Array.from(data)).toEqual(e.f16_bits);
        } else if (e.bf16_bits !== undefined) {
          expect(x.dtype).toBe('bfloat16');
          expect(Array.from(data)).toEqual(e.bf16_bits);
        } else {
          expect(x.dtype).toBe(e.type === 'F64' ? 'float64' : e.type === 'I8' ? 'int8' : 'int32');
          expect(Array.from(data), t).toEqual(e.values);
        }
        checked += data.length;
      }
      expect(checked).toBeGreaterThan(name === 'tensors.gguf' ? 4000 : 800);
    });
  }

  it('the path and the bytes read alike; {tensors: false} on a path gives the same index and no tensors', () => {
    const a = io.readGguf(file('tensors.gguf'));
    const b = io.readGguf(new Uint8Array(readFileSync(file('tensors.gguf'))));
    const c = io.readGguf(file('tensors.gguf'), { tensors: false });
    expect(c.info).toEqual(a.info);
    expect(c.metadata).toEqual(b.metadata);
    expect(c.tensors).toEqual({});
    for (const k of Object.keys(a.tensors)) expect(a.tensors[k]!.tolist()).toEqual(b.tensors[k]!.tolist());
  });

  it('upcast: F16 and BF16 become float32 with the values their bits stand for', () => {
    const exp = EXPECTED['tensors.gguf']!.tensors;
    const g = io.readGguf(file('tensors.gguf'), { upcast: true });
    expect(g.tensors.f16!.dtype).toBe('float32');
    expect(Array.from(g.tensors.f16!.realize().node.data!)).toEqual(exp.f16!.f16_bits!.map(f16Value));
    expect(g.tensors.bf16!.dtype).toBe('float32');
    expect(bitsOf(g.tensors.bf16!.realize().node.data as Float32Array)).toEqual(exp.bf16!.bf16_bits!.map((b) => b * 65536));
  });

  it('aligned plain tensors view the file bytes; {copy: true} copies them', () => {
    const bytes = new Uint8Array(readFileSync(file('tensors.gguf')));
    expect(io.readGguf(bytes).tensors.f32!.node.data!.buffer).toBe(bytes.buffer);
    expect(io.readGguf(bytes, { copy: true }).tensors.f32!.node.data!.buffer).not.toBe(bytes.buffer);
  });

  it('I64 past int32 and an unsupported type (Q5_0) are refused by tensor name; their index still reads', () => {
    expectGgufError(() => io.readGguf(file('i64_overflow.gguf')), { offset: EXPECTED['i64_overflow.gguf']!.tensors.big!.offset + 8, tensor: 'big', message: /I64 element 1 is 1099511627776/ });
    expectGgufError(() => io.readGguf(file('unsupported.gguf')), { offset: EXPECTED['unsupported.gguf']!.tensors.q5!.offset, tensor: 'q5', message: /ggml type Q5_0 \(6\) is not supported/ });
    const h = io.readGguf(file('unsupported.gguf'), { tensors: false });
    expect(h.info.q5).toMatchObject({ type: 'Q5_0', typeId: 6, shape: [32], nbytes: 22 });
  });
});

describe('quantization error bounds (source values from make_gguf.py)', () => {
  const f32 = Math.fround;
  const f16 = (x: number) => f16Value(roundF16Bits(x));
  /** Nearest float16 bits to x (ties to even), by search over the finite halves (test-only). */
  function roundF16Bits(x: number): number {
    let best = 0;
    for (let h = 0; h < 0x7c00; h++) if (Math.abs(f16Value(h) - Math.abs(x)) < Math.abs(f16Value(best) - Math.abs(x)) || (Math.abs(f16Value(h) - Math.abs(x)) === Math.abs(f16Value(best) - Math.abs(x)) && (h & 1) === 0 && (best & 1) === 1)) best = h;
    return x < 0 ? best | 0x8000 : best;
  }
  const cases: [string, string, number][] = [['tensors.gguf', 'blk.0.q8', 127], ['aligned64.gguf', 'output.weight', 127], ['tensors.gguf', 'blk.0.q4', 8]];
  for (const [fname, t, qmax] of cases) {
    it(`${t}: each block within d/2 (Q4_0: d where x/d > 7.5) plus ${qmax}·|d − f16(d)|`, () => {
      const e = EXPECTED[fname]!.tensors[t]!;
      const x = fromBits(e.source_bits!);
      const deq = io.readGguf(file(fname)).tensors[t]!.realize().node.data as Float32Array;
      let worst = 0;
      for (let b = 0; b < x.length / 32; b++) {
        const blk = x.subarray(32 * b, 32 * b + 32);
        // the scale the reference quantizer chose: amax/127 (Q8_0) or the signed extreme/−8 (Q4_0)
        let ext = 0;
        for (const v of blk) if (Math.abs(v) > Math.abs(ext)) ext = v;
        const d = qmax === 127 ? f32(Math.abs(ext) / 127) : f32(ext / -8);
        const dh = f16(d);
        for (let j = 0; j < 32; j++) {
          const err = Math.abs(blk[j]! - deq[32 * b + j]!);
          const clamped = qmax === 8 && d !== 0 && blk[j]! / d > 7.5;
          const bound = (clamped ? Math.abs(d) : Math.abs(d) / 2) + qmax * Math.abs(d - dh) + 1e-6 * Math.abs(ext);
          expect(err, `block ${b} element ${j}`).toBeLessThanOrEqual(bound);
          worst = Math.max(worst, err / Math.max(Math.abs(d), 1e-30));
        }
      }
      console.log(`${t}: worst |x − deq| / d = ${worst.toFixed(3)}`);
    });
  }
  it('Q4_K: relative RMS error of the random rows below 0.08 (4-bit codes with 6-bit scales)', () => {
    for (const [fname, t] of [['tensors.gguf', 'blk.0.q4k'], ['aligned64.gguf', 'token_embd.weight']] as const) {
      const e = EXPECTED[fname]!.tensors[t]!;
      const x = fromBits(e.source_bits!);
      const deq = io.readGguf(file(fname)).tensors[t]!.realize().node.data as Float32Array;
      const n = t === 'blk.0.q4k' ? 1024 : x.length; // the two random rows (the special rows follow)
      let se = 0,
        sx = 0;
      for (let i = 0; i < n; i++) {
        se += (x[i]! - deq[i]!) ** 2;
        sx += x[i]! ** 2;
      }
      const rel = Math.sqrt(se / sx);
      console.log(`${t}: Q4_K relative RMS error ${rel.toFixed(4)}`);
      expect(rel).toBeLessThan(0.08);
      expect(rel).toBeGreaterThan(0.01); // it is a 4-bit code: no error at all would mean the data was not quantized
    }
  });
});

describe('hand-built blocks', () => {
  const one = (type: number, ne: number[], data: number[] | Uint8Array) => io.readGguf(craft({ tensors: [{ name: 't', ne, type, offset: 0 }], data })).tensors.t!;

  it('Q4_0 with d = 1 and nibbles 0..15 (low) and 15..0 (high) dequantizes to −8..7 then 7..−8', () => {
    const qs = Array.from({ length: 16 }, (_, j) => j | ((15 - j) << 4));
    const t = one(2, [32], [0x00, 0x3c, ...qs]); // f16 1.0 = 0x3c00
    expect(t.dtype).toBe('float32');
    expect(t.tolist()).toEqual([...Array.from({ length: 16 }, (_, j) => j - 8), ...Array.from({ length: 16 }, (_, j) => 7 - j)]);
  });

  it('Q8_0 with d = 0.5 and q = −16..15 gives −8..7.5; two blocks along a row, rows reversed into the shape', () => {
    const blk = (dBits: number, qs: number[]) => [dBits & 255, dBits >> 8, ...qs.map((q) => q & 255)];
    const q = Array.from({ length: 32 }, (_, j) => j - 16);
    const t = one(8, [64, 2], [...blk(0x3800, q), ...blk(0x4000, q), ...blk(0xbc00, q), ...blk(0x0000, q)]); // 0.5, 2, −1, 0
    expect(t.shape).toEqual([2, 64]);
    const rows = t.tolist() as number[][];
    expect(rows[0]).toEqual([...q.map((v) => v * 0.5), ...q.map((v) => v * 2)]);
    expect(rows[1]).toEqual([...q.map((v) => -v), ...q.map((v) => v * 0)]); // 0·negative is −0, as in C;
  });

  it('Q4_K: d = 1, dmin = 0.5, 6-bit scales and mins packed with their high bits, nibbles l % 16 (low) and 15 − l % 16 (high)', () => {
    const sc = [1, 2, 3, 4, 17, 33, 48, 63];
    const mn = [0, 1, 2, 3, 16, 32, 47, 62];
    // the packing of ggml's quantize_row_q4_K_ref
    const packed = new Array<number>(12).fill(0);
    for (let j = 0; j < 8; j++) {
      if (j < 4) {
        packed[j] = sc[j]!;
        packed[j + 4] = mn[j]!;
      } else {
        packed[j + 4] = (sc[j]! & 15) | ((mn[j]! & 15) << 4);
        packed[j - 4]! |= (sc[j]! >> 4) << 6;
        packed[j]! |= (mn[j]! >> 4) << 6;
      }
    }
    const qs = Array.from({ length: 128 }, (_, i) => (i % 16) | ((15 - (i % 16)) << 4));
    const t = one(12, [256], [0x00, 0x3c, 0x00, 0x38, ...packed, ...qs]);
    const want: number[] = [];
    for (let s = 0; s < 8; s++) for (let l = 0; l < 32; l++) want.push(sc[s]! * (s % 2 === 0 ? l % 16 : 15 - (l % 16)) - 0.5 * mn[s]!);
    expect(t.tolist()).toEqual(want);
  });
});

describe('malformed files: GgufError with the byte and tensor at fault', () => {
  const f32t = (name: string, n: number, offset = 0): { name: string; ne: number[]; type: number; offset: number } => ({ name, ne: [n], type: 0, offset });
  const good = () => craft({ kvs: [kv('a', 4, u32(7))], tensors: [f32t('w', 4)], data: new Uint8Array(16) });

  it('bad magic, v1, v4 and a byte-swapped version', () => {
    expectGgufError(() => io.readGguf(craft({ magic: 'GGML' })), { offset: 0, message: /not a GGUF file: the magic is 47 47 4d 4c/ });
    expectGgufError(() => io.readGguf(craft({ version: 1 })), { offset: 4, message: /GGUF v1 .* obsolete/ });
    expectGgufError(() => io.readGguf(craft({ version: 4 })), { offset: 4, message: /unsupported version 4; rlx reads versions 2 and 3/ });
    expectGgufError(() => io.readGguf(craft({ version: 0x03000000 })), { offset: 4, message: /big-endian/ });
    expectGgufError(() => io.readGguf(new Uint8Array([0x47, 0x47])), { offset: 0, message: /truncated/ });
  });

  it('every truncation of a valid file is a GgufError at or before the cut', () => {
    const bytes = good();
    for (let n = 0; n < bytes.length; n++) {
      const g = expectGgufError(() => io.readGguf(bytes.subarray(0, n)), { tensor: n >= 24 + 17 + 9 ? 'w' : undefined /* named once its name is read */, message: /truncated|past the end|the file has \d+ left/ });
      expect(g.offset!).toBeLessThanOrEqual(n);
    }
    expect(io.readGguf(bytes).tensors.w!.shape).toEqual([4]);
  });

  it('counts of 2^60 (tensors, key/values, string length, array length) fail before allocating', () => {
    const big = 2n ** 60n;
    expectGgufError(() => io.readGguf(craft({ nTensors: big })), { offset: 8, message: /tensor count 1152921504606846976 needs at least/ });
    expectGgufError(() => io.readGguf(craft({ nKv: big })), { offset: 16, message: /metadata key\/value count/ });
    expectGgufError(() => io.readGguf(craft({ kvs: [cat(u64(big), [97])] })), { offset: 24, message: /metadata key 0 length count 1152921504606846976/ });
    expectGgufError(() => io.readGguf(craft({ kvs: [kv('a', 9, cat(u32(4), u64(big)))] })), { offset: 24 + 9 + 4 + 4, message: /element count 1152921504606846976/ });
    expectGgufError(() => io.readGguf(craft({ kvs: [kv('a', 9, cat(u32(9), u64(big)))] })), { message: /element count/ });
  });

  it('alignment: zero, not a power of two, or not an integer', () => {
    expectGgufError(() => io.readGguf(craft({ kvs: [kv('general.alignment', 4, u32(0))] })), { offset: 24 + 8 + 17 + 4, message: /general.alignment must be a power of two .* got uint32 0/ });
    expectGgufError(() => io.readGguf(craft({ kvs: [kv('general.alignment', 4, u32(48))] })), { message: /got uint32 48/ });
    expectGgufError(() => io.readGguf(craft({ kvs: [kv('general.alignment', 8, str('32'))] })), { message: /got string 32/ });
    expect(io.readGguf(craft({ kvs: [kv('general.alignment', 4, u32(8))], tensors: [f32t('w', 2, 8), f32t('v', 2, 0)], data: new Uint8Array(16), alignment: 8 })).tensors.w!.shape).toEqual([2]);
  });

  it('tensor data: misaligned, overlapping, past the end', () => {
    const at = (name: string, bytes: Uint8Array) => {
      // the data-offset field of tensor `name` (the last 8 bytes of its info record)
      const key = new TextEncoder().encode(name);
      for (let i = 24; i < bytes.length; i++) if (key.every((b, k) => bytes[i + 8 + k] === b) && bytes[i] === key.length) return i + 8 + key.length + 4 + 8 + 4;
      throw new Error('not found');
    };
    let b = craft({ tensors: [f32t('w', 4, 16)], data: new Uint8Array(64) });
    expectGgufError(() => io.readGguf(b), { offset: at('w', b), tensor: 'w', message: /data offset 16 is not a multiple of the alignment 32/ });
    b = craft({ tensors: [f32t('a', 16, 0), f32t('b', 4, 32)], data: new Uint8Array(64) });
    expectGgufError(() => io.readGguf(b), { offset: at('b', b), tensor: 'b', message: /overlaps tensor "a"/ });
    b = craft({ tensors: [f32t('a', 4, 0), f32t('c', 4, 0)], data: new Uint8Array(64) });
    expectGgufError(() => io.readGguf(b), { offset: at('c', b), tensor: 'c', message: /overlaps tensor "a"/ });
    b = craft({ tensors: [f32t('a', 4, 32)], data: new Uint8Array(40) });
    expectGgufError(() => io.readGguf(b), { offset: at('a', b), tensor: 'a', message: /runs past the end of the file/ });
    b = craft({ tensors: [{ name: 'a', ne: [4], type: 0, offset: 2n ** 62n }], data: new Uint8Array(16) });
    expectGgufError(() => io.readGguf(b), { offset: at('a', b), tensor: 'a', message: /lies past the end/ });
    b = craft({ tensors: [{ name: 'a', ne: [2n ** 40n, 2n ** 40n], type: 0, offset: 0 }] });
    expectGgufError(() => io.readGguf(b), { tensor: 'a', message: /need 4835703278458516698824704 bytes, more than the whole file/ });
  });

  it('tensor index: unknown ggml type, too many dimensions, partial blocks, duplicate names', () => {
    expectGgufError(() => io.readGguf(craft({ tensors: [{ name: 't', ne: [4], type: 4, offset: 0 }] })), { offset: 24 + 9 + 4 + 8, tensor: 't', message: /unknown ggml type 4/ });
    expectGgufError(() => io.readGguf(craft({ tensors: [{ name: 't', ne: [1, 1, 1, 1, 1], type: 0, offset: 0 }] })), { offset: 24 + 9, tensor: 't', message: /5 dimensions; GGUF \(ggml\) tensors have at most 4/ });
    expectGgufError(() => io.readGguf(craft({ tensors: [{ name: 't', ne: [16, 2], type: 2, offset: 0 }], data: new Uint8Array(64) })), { tensor: 't', message: /Q4_0 stores blocks of 32 elements along its first ggml dimension, which is 16/ });
    expectGgufError(() => io.readGguf(craft({ tensors: [f32t('w', 1), f32t('w', 1, 32)], data: new Uint8Array(64) })), { tensor: 'w', message: /duplicate tensor name/ });
  });

  it('metadata: duplicate keys, unknown value types, bools other than 0/1, arrays nested too deep', () => {
    expectGgufError(() => io.readGguf(craft({ kvs: [kv('a', 0, [1]), kv('a', 0, [2])] })), { offset: 24 + 14, message: /duplicate metadata key "a"/ });
    expectGgufError(() => io.readGguf(craft({ kvs: [kv('a', 13, [1])] })), { offset: 24 + 9, message: /unknown value type 13/ });
    expectGgufError(() => io.readGguf(craft({ kvs: [kv('a', 7, [2])] })), { offset: 24 + 13, message: /a bool must be 0 or 1, got 2/ });
    let nest: Uint8Array = cat(u32(0), u64(0));
    for (let i = 0; i < 40; i++) nest = cat(u32(9), u64(1), nest);
    expectGgufError(() => io.readGguf(craft({ kvs: [kv('a', 9, nest)] })), { message: /nested more than 16 deep/ });
  });

  it('bad arguments', () => {
    expect(() => io.readGguf(42 as unknown as Uint8Array)).toThrow(/expects a path or a Uint8Array, got number/);
  });
});

describe('writeGguf', () => {
  it('round-trips every writable dtype and metadata value type through readGguf', () => {
    const tensors = {
      f32: tensor([[1, 2, 3], [4, 5, 6]], { dtype: 'float32' }),
      f16: tensor([0.5, -2], { dtype: 'float16' }),
      bf16: tensor([[1.5], [3]], { dtype: 'bfloat16' }),
      f64: tensor([1 / 3], { dtype: 'float64' }),
      i32: tensor([[[[-5, 7]]]], { dtype: 'int32' }),
      i8: tensor([-128, 127], { dtype: 'int8' }),
    };
    const metadata = { s: 'é', b: true, u: 7, i: -7, big: 2 ** 40, f: 0.5, d: 0.1, n: 2n ** 63n, arr: new Float32Array([1, 2]), strs: ['a', ''], nest: [[1], ['x']], u8: 200, bools: [true, false] };
    const bytes = io.writeGguf(tensors, undefined, { metadata, types: { u8: 'uint8' }, alignment: 64 });
    const g = io.readGguf(bytes);
    expect(g.version).toBe(3);
    expect(g.alignment).toBe(64);
    for (const e of Object.values(g.info)) expect((e.offset - g.dataOffset) % 64).toBe(0);
    for (const [k, t] of Object.entries(tensors)) {
      expect(g.tensors[k]!.dtype).toBe(t.dtype);
      expect(g.tensors[k]!.tolist()).toEqual(t.tolist());
    }
    expect(g.metadataTypes).toEqual({ s: 'string', b: 'bool', u: 'uint32', i: 'int32', big: 'int64', f: 'float32', d: 'float64', n: 'uint64', arr: 'array<float32>', strs: 'array<string>', nest: 'array<array>', u8: 'uint8', bools: 'array<bool>', 'general.alignment': 'uint32' });
    expect(g.metadata).toEqual({ ...metadata, arr: new Float32Array([1, 2]), nest: [new Int32Array([1]), ['x']], 'general.alignment': 64 });
    // and back: the reader's types written again give the same bytes
    const again = io.writeGguf(tensors, undefined, { metadata: Object.fromEntries(Object.entries(g.metadata).filter(([k]) => k !== 'general.alignment')), types: g.metadataTypes, alignment: 64 });
    expect(again).toEqual(bytes);
  });

  it('refuses what GGUF cannot hold, naming it', () => {
    expectGgufError(() => io.writeGguf({ m: tensor([true]) }), { tensor: 'm', message: /dtype bool has no GGUF type/ });
    expectGgufError(() => io.writeGguf({ x: tensor([1]) }, undefined, { metadata: { k: 300 }, types: { k: 'uint8' } }), { message: /metadata "k": 300 does not fit uint8/ });
    expectGgufError(() => io.writeGguf({}, undefined, { metadata: { k: 1.5 }, types: { k: 'int32' } }), { message: /type int32 needs an integer/ });
    expectGgufError(() => io.writeGguf({}, undefined, { alignment: 24 }), { message: /alignment must be a power of two, got 24/ });
    expectGgufError(() => io.writeGguf({}, undefined, { metadata: { 'general.alignment': 64 } }), { message: /as the alignment option/ });
  });
});
