// io.loadSafetensors / saveSafetensors / readSafetensorsHeader against files
// written without rlx (tests/io/golden/make_safetensors.py: struct, json,
// NumPy) and, the other way, rlx's files read by an independent Python reader
// (golden/read_safetensors.py); zero-copy views where the data is aligned; and
// one typed SafetensorsError per way a file can be malformed.

import { describe, expect, it } from 'vitest';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import '../../src/index.js';
import { tensor, zeros, arange } from '../../src/tensor/create.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { s, rg } from '../../src/tensor/slicing.js';
import * as io from '../../src/io/index.js';
import { SafetensorsError } from '../../src/io/errors.js';
import { ValueError } from '../../src/tensor/errors.js';
import { GOLDEN, craft, f32Bytes } from './helpers.js';

interface Expected { metadata: Record<string, string>; tensors: Record<string, { dtype: string; shape: number[]; data: number[] }> }
const expected: Record<string, Expected> = JSON.parse(readFileSync(path.join(GOLDEN, 'expected.json'), 'utf8'));
const golden = (f: string) => path.join(GOLDEN, f);
/** A copy of a file's bytes at offset 0 of a fresh ArrayBuffer (so alignment is the file's own). */
const ownBytes = (f: string) => new Uint8Array(readFileSync(golden(f)));
const values = (t: Tensor) => Array.from(t.toArray() as ArrayLike<number>);
const storage = (t: Tensor) => t.node.data!;

const hasPython = spawnSync('/usr/bin/python3', ['-c', 'import numpy'], { encoding: 'utf8' }).status === 0;

describe('reading files written by NumPy (make_safetensors.py)', () => {
  for (const file of ['mixed.safetensors', 'unaligned.safetensors']) {
    it(`${file}: every tensor's dtype, shape and values; the metadata`, () => {
      const want = expected[file]!;
      for (const source of [golden(file), ownBytes(file)]) {
        const got = io.loadSafetensors(source);
        expect(Object.keys(got).sort()).toEqual(Object.keys(want.tensors).sort());
        for (const [name, w] of Object.entries(want.tensors)) {
          expect(got[name]!.dtype, name).toBe(w.dtype);
          expect(got[name]!.shape, name).toEqual(w.shape);
          expect(values(got[name]!), name).toEqual(w.data); // exact: every value is representable in its dtype
        }
        expect(io.readSafetensorsHeader(source).metadata).toEqual(want.metadata);
      }
    });
  }

  it('the header alone, from a path (only its bytes read) or from bytes', () => {
    const h = io.readSafetensorsHeader(golden('mixed.safetensors'));
    expect(h).toEqual(io.readSafetensorsHeader(ownBytes('mixed.safetensors')));
    expect(h.tensors.index).toEqual({ dtype: 'I64', shape: [4], dataOffsets: [72, 104] });
    expect(h.dataStart % 8).toBe(0);
  });

  it('zero-copy: aligned tensors view the given bytes; {copy: true} and misaligned data copy', () => {
    const bytes = ownBytes('mixed.safetensors');
    const t = io.loadSafetensors(bytes);
    for (const name of ['weight', 'bias', 'ints', 'half', 'brain', 'complex', 'mask']) expect(storage(t[name]!).buffer, name).toBe(bytes.buffer);
    expect(storage(t.index!).buffer).not.toBe(bytes.buffer); // I64 narrowed: a new Int32Array
    const c = io.loadSafetensors(bytes, { copy: true });
    for (const name of Object.keys(c)) expect(storage(c[name]!).buffer, name).not.toBe(bytes.buffer);
    const u = ownBytes('unaligned.safetensors');
    const tu = io.loadSafetensors(u);
    expect(io.readSafetensorsHeader(u).dataStart % 8).not.toBe(0);
    expect(storage(tu.a!).buffer).not.toBe(u.buffer);
    expect(storage(tu.flag!).buffer).toBe(u.buffer); // one byte per element: always aligned
  });

  it('I64 values outside int32: a SafetensorsError naming the tensor, the element and its value', () => {
    const e = (() => {
      try {
        io.loadSafetensors(golden('i64_overflow.safetensors'));
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(SafetensorsError);
    expect((e as SafetensorsError).tensor).toBe('ids');
    expect((e as Error).message).toMatch(/tensor "ids": I64 element 1 is 1099511627776, outside int32's range/);
  });

  it('BOOL bytes other than 0 and 1 read as true', () => {
    const t = io.loadSafetensors(craft({ m: { dtype: 'BOOL', shape: [3], data_offsets: [0, 3] } }, [0, 2, 255]));
    expect(t.m!.tolist()).toEqual([false, true, true]);
  });
});

describe('writing', () => {
  const dict = () => ({
    f64: tensor([[1.5, -2], [3.25, 1e300]]),
    f32: tensor([0.1, -7], { dtype: 'float32' }),
    f16: tensor([0.5, 65504, -1e-4], { dtype: 'float16' }),
    bf16: tensor([3.140625, -256], { dtype: 'bfloat16' }),
    i32: tensor([-(2 ** 31), 5, 2 ** 31 - 1], { dtype: 'int32' }),
    mask: tensor([true, false]),
    c64: tensor([{ re: 1, im: -2 }, { re: 0.5, im: 4 }], { dtype: 'complex64' }),
    scalar: tensor(2.5),
    empty: zeros([0, 4], { dtype: 'float32' }),
    lazy: arange(6).reshape([2, 3]).mul(2), // unrealized: saving computes it
    filled: zeros([2, 2], { dtype: 'float32' }), // a broadcast constant: saving materializes it
    view: arange(12).reshape([3, 4]).slice(s(rg(1, 3), rg(0, 4, 2))), // a strided view
  });

  it('round trip of every writable dtype, lazy tensors included, with metadata', () => {
    const d = dict();
    const bytes = io.saveSafetensors(d, undefined, { metadata: { format: 'pt', epoch: '3' } });
    expect(bytes.length % 8).toBe(0); // 8 + padded header + data (whose total here is a multiple of 8)
    const back = io.loadSafetensors(bytes);
    for (const [k, t] of Object.entries(dict())) {
      expect(back[k]!.dtype, k).toBe(t.dtype);
      expect(back[k]!.shape, k).toEqual(t.shape);
      expect(back[k]!.tolist(), k).toEqual(t.tolist());
    }
    expect(io.readSafetensorsHeader(bytes).metadata).toEqual({ format: 'pt', epoch: '3' });
  });

  it('to a path (returns nothing) and back', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rlx-st-'));
    try {
      const file = path.join(dir, 'w.safetensors');
      expect(io.saveSafetensors({ w: tensor([1, 2, 3], { dtype: 'float32' }) }, file)).toBeUndefined();
      expect(io.loadSafetensors(file).w!.tolist()).toEqual([1, 2, 3]);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it.skipIf(!hasPython)("an independent Python reader (struct, json, NumPy) reads rlx's file: values, 8-byte padded header, aligned offsets", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rlx-st-'));
    try {
      const file = path.join(dir, 'all.safetensors');
      io.saveSafetensors(dict(), file, { metadata: { who: 'rlx' } });
      const r = spawnSync('/usr/bin/python3', [path.join(GOLDEN, 'read_safetensors.py'), file], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      const py = JSON.parse(r.stdout) as { header_length: number; metadata: Record<string, string>; tensors: Record<string, { dtype: string; shape: number[]; offsets: [number, number]; data: number[] }> };
      expect(py.header_length % 8).toBe(0);
      expect(py.metadata).toEqual({ who: 'rlx' });
      const itemsize: Record<string, number> = { F64: 8, C64: 8, F32: 4, I32: 4, F16: 2, BF16: 2, BOOL: 1 };
      const stName: Record<string, string> = { float64: 'F64', float32: 'F32', float16: 'F16', bfloat16: 'BF16', int32: 'I32', bool: 'BOOL', complex64: 'C64' };
      for (const [k, t] of Object.entries(dict())) {
        const p = py.tensors[k]!;
        expect(p.dtype, k).toBe(stName[t.dtype]);
        expect(p.shape, k).toEqual(t.shape);
        expect(p.offsets[0] % itemsize[p.dtype]!, k).toBe(0);
        expect(p.data, k).toEqual(values(t));
      }
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('typed errors: complex128, the reserved name, non-tensors, non-string metadata', () => {
    expect(() => io.saveSafetensors({ z: tensor([{ re: 1, im: 1 }]) })).toThrow(/tensor "z": dtype complex128 has no safetensors dtype/);
    expect(() => io.saveSafetensors({ __metadata__: tensor([1]) })).toThrow(/reserved/);
    expect(() => io.saveSafetensors({ a: [1, 2] as never })).toThrow(SafetensorsError);
    expect(() => io.saveSafetensors(tensor([1]) as never)).toThrow(/expects an object \{name: Tensor\}, got a Tensor/);
    expect(() => io.saveSafetensors({ a: tensor([1]) }, undefined, { metadata: { n: 3 as never } })).toThrow(/metadata\["n"\] must be a string/);
  });
});

describe('malformed files: a SafetensorsError with the byte and the tensor', () => {
  const entry = (dtype: string, shape: number[], begin: number, end: number) => ({ dtype, shape, data_offsets: [begin, end] });
  const cases: [string, Uint8Array, RegExp, number | undefined][] = [
    ['shorter than the length field', new Uint8Array(5), /byte 0: a file of 5 bytes is shorter than the 8-byte header length/, 0],
    ['header length past the end', craft({}, [], { length: 1000n }), /byte 0: header length 1000 runs past the end of the file \(10 bytes, so at most 2\)/, 0],
    ['header length over the limit', craft({}, [], { length: 2n ** 40n }), /exceeds the limit of 100000000 bytes/, 0],
    ['not JSON', craft('{"a": [1, 2'), /byte 8: the header is not valid JSON/, 8],
    ['not an object', craft('[1, 2]'), /byte 8: the header must be a JSON object starting with '\{'/, 8],
    ['invalid UTF-8', craft('{"\xff"}').map((b, i) => (i === 10 ? 0xff : b)), /not valid UTF-8/, 8],
    ['unknown dtype', craft({ x: entry('F33', [1], 0, 4) }, [0, 0, 0, 0]), /tensor "x": unknown dtype "F33"/, 8],
    ['a dtype rlx cannot hold yet', craft({ x: entry('U16', [2], 0, 4) }, [0, 0, 0, 0]), /tensor "x": dtype U16 is not supported by rlx yet/, 8],
    ['bad shape', craft({ x: entry('F32', [-1], 0, 4) }, [0, 0, 0, 0]), /tensor "x": shape must be an array of integers >= 0/, 8],
    ['begin after end', craft({ x: entry('F32', [1], 4, 0) }, [0, 0, 0, 0]), /data_offsets must be \[begin, end\]/, 8],
    ['shape × itemsize ≠ span', craft({ x: entry('F32', [2], 0, 4) }, [0, 0, 0, 0]), /tensor "x": shape \[2\] of F32 needs 8 bytes, but data_offsets \[0, 4\] span 4/, 8],
    ['overlapping tensors', craft({ a: entry('F32', [2], 0, 8), b: entry('F32', [1], 4, 8) }, f32Bytes([1, 2])), /tensor "b": data_offsets \[4, 8\] overlap the previous tensor's data/, undefined],
    ['a gap', craft({ a: entry('F32', [1], 0, 4), b: entry('F32', [1], 8, 12) }, f32Bytes([1, 2, 3])), /tensor "b": data_offsets \[8, 12\] leave the bytes \[4, 8\) of the data unused/, undefined],
    ['past the end of the data', craft({ a: entry('F32', [2], 0, 8) }, f32Bytes([1])), /tensor "a": data_offsets \[0, 8\] run past the end of the data \(4 bytes\)/, undefined],
    ['bytes after the last tensor', craft({ a: entry('F32', [1], 0, 4) }, f32Bytes([1, 2])), /the tensors' data ends at 4 but the data section has 8 bytes/, undefined],
    ['metadata not strings', craft({ __metadata__: { a: 1 } }), /__metadata__\["a"\] must be a string/, 8],
    ['an entry that is not an object', craft({ a: 3 }), /tensor "a": the entry must be an object/, 8],
  ];
  for (const [what, bytes, message, offset] of cases) {
    it(what, () => {
      let err: unknown;
      try {
        io.loadSafetensors(bytes);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(SafetensorsError);
      expect(err).toBeInstanceOf(ValueError);
      expect((err as Error).message).toMatch(message);
      const e = err as SafetensorsError;
      if (offset !== undefined) expect(e.offset).toBe(offset);
      expect(e.offset! >= 0 && e.offset! <= bytes.length).toBe(true);
      expect(e.message).toContain(`byte ${e.offset}`);
    });
  }

  it('the data error offsets are bytes of the file (8 + header length + data offset)', () => {
    const bytes = craft({ a: entry('F32', [1], 0, 4), b: entry('F32', [1], 8, 12) }, f32Bytes([1, 2, 3]));
    const n = new DataView(bytes.buffer).getUint32(0, true);
    try {
      io.loadSafetensors(bytes);
    } catch (e) {
      expect((e as SafetensorsError).offset).toBe(8 + n + 4);
      expect((e as SafetensorsError).tensor).toBe('b');
    }
    expect.assertions(2);
  });

  it('a wrong source is a ValueError', () => {
    expect(() => io.loadSafetensors(42 as never)).toThrow(/expects a path or a Uint8Array, got number/);
  });
});

describe('int8 and uint8 (I8, U8)', () => {
  it('round-trip with their dtypes and bytes; the header names I8/U8 as the format does', () => {
    const a = tensor(new Int8Array([-128, -1, 0, 1, 127, 5]), { shape: [2, 3] });
    const b = tensor(new Uint8Array([0, 1, 128, 255]));
    const bytes = io.saveSafetensors({ a, b }) as Uint8Array;
    const header = io.readSafetensorsHeader(bytes);
    expect(header.tensors.a!.dtype).toBe('I8');
    expect(header.tensors.b!.dtype).toBe('U8');
    const back = io.loadSafetensors(bytes);
    expect(back.a!.dtype).toBe('int8');
    expect(back.a!.tolist()).toEqual([[-128, -1, 0], [1, 127, 5]]);
    expect(back.b!.dtype).toBe('uint8');
    expect(Array.from(back.b!.toArray() as Uint8Array)).toEqual([0, 1, 128, 255]);
  });
});
