// io.readIdx (src/io/idx.ts): every type code against files written here by an
// independent encoder, gzip, Debian's Fashion-MNIST (known shapes and class
// counts), and malformed files (typed errors, never a crash or a huge allocation).
import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { io } from '../../src/index.js';
import { IdxError } from '../../src/io/idx.js';
import { mulberry32 } from '../../src/tensor/random/mulberry32.js';

/** An IDX file: magic (0, 0, code, rank), big-endian uint32 sizes, big-endian values written by `put`. */
function idx(code: number, shape: number[], values: number[], size: number, put: (v: DataView, at: number, x: number) => void): Uint8Array {
  const head = 4 + 4 * shape.length;
  const b = new Uint8Array(head + values.length * size);
  const v = new DataView(b.buffer);
  b.set([0, 0, code, shape.length]);
  shape.forEach((d, i) => v.setUint32(4 + 4 * i, d, false));
  values.forEach((x, i) => put(v, head + i * size, x));
  return b;
}

const FASHION = '/usr/share/datasets/fashion-mnist';

describe('io.readIdx', () => {
  it('reads every type code with its dtype, shape and big-endian values', () => {
    const cases: [number, string, number, (v: DataView, at: number, x: number) => void, number[]][] = [
      [0x08, 'uint8', 1, (v, a, x) => v.setUint8(a, x), [0, 1, 127, 128, 200, 255]],
      [0x09, 'int8', 1, (v, a, x) => v.setInt8(a, x), [-128, -1, 0, 1, 100, 127]],
      [0x0b, 'int32', 2, (v, a, x) => v.setInt16(a, x, false), [-32768, -300, 0, 1, 258, 32767]],
      [0x0c, 'int32', 4, (v, a, x) => v.setInt32(a, x, false), [-(2 ** 31), -70000, 0, 5, 65536, 2 ** 31 - 1]],
      [0x0d, 'float32', 4, (v, a, x) => v.setFloat32(a, x, false), [-1.5, 0, 0.25, 3, 1e-3, 65504]],
      [0x0e, 'float64', 8, (v, a, x) => v.setFloat64(a, x, false), [-1.5, 0, 0.1, Math.PI, 1e-300, 1e300]],
    ];
    for (const [code, dtype, size, put, vals] of cases) {
      const t = io.readIdx(idx(code, [2, 3], vals, size, put));
      expect(t.dtype).toBe(dtype);
      expect(t.shape).toEqual([2, 3]);
      const expected = code === 0x0d ? vals.map((x) => Math.fround(x)) : vals;
      expect(Array.from(t.toArray() as ArrayLike<number>)).toEqual(expected);
    }
  });

  it('reads gzipped files, rank 0 (one value) and empty dimensions', () => {
    const plain = idx(0x08, [4], [9, 8, 7, 6], 1, (v, a, x) => v.setUint8(a, x));
    expect(io.readIdx(gzipSync(plain)).tolist()).toEqual([9, 8, 7, 6]);
    expect(io.readIdx(idx(0x0c, [], [42], 4, (v, a, x) => v.setInt32(a, x, false))).item()).toBe(42);
    expect(io.readIdx(idx(0x08, [0, 28], [], 1, () => {})).shape).toEqual([0, 28]);
  });

  it.runIf(existsSync(`${FASHION}/t10k-labels-idx1-ubyte.gz`))("reads Debian's Fashion-MNIST: 10k test images 28×28, 1,000 labels of each of the 10 classes", () => {
    const images = io.readIdx(`${FASHION}/t10k-images-idx3-ubyte.gz`);
    const labels = io.readIdx(`${FASHION}/t10k-labels-idx1-ubyte.gz`);
    expect(images.dtype).toBe('uint8');
    expect(images.shape).toEqual([10000, 28, 28]);
    expect(labels.shape).toEqual([10000]);
    const counts = new Array(10).fill(0);
    for (const l of labels.toArray() as Uint8Array) counts[l]++;
    expect(counts).toEqual(new Array(10).fill(1000));
  });

  it('malformed files are IdxErrors naming the byte', () => {
    const good = idx(0x08, [2, 2], [1, 2, 3, 4], 1, (v, a, x) => v.setUint8(a, x));
    const bad = (b: Uint8Array, re: RegExp) => {
      expect(() => io.readIdx(b)).toThrow(IdxError);
      expect(() => io.readIdx(b)).toThrow(re);
    };
    bad(new Uint8Array([0, 0]), /shorter than the 4-byte magic/);
    bad(Uint8Array.from([1, ...good.slice(1)]), /byte 0: .*two zero bytes/);
    bad(Uint8Array.from([0, 0, 0x0a, ...good.slice(3)]), /byte 2: unknown type code 0x0a/);
    bad(good.slice(0, 10), /declares 2 dimensions/);
    bad(good.slice(0, good.length - 1), /need 16 bytes in all; the file has 15/);
    bad(Uint8Array.from([...good, 0]), /trailing bytes/);
    // sizes whose product is huge: refused before any allocation
    bad(idx(0x0e, [65536, 65536], [], 8, () => {}), /more than/);
    bad(Uint8Array.from([0x1f, 0x8b, 1, 2, 3]), /gzip stream is corrupt/);
    expect(() => io.readIdx(42 as unknown as Uint8Array)).toThrow(/expected a path or a Uint8Array/);
  });

  it('fuzz: 3,000 mutated files each give a tensor or an IdxError', () => {
    const rand = mulberry32(17);
    const seeds = [idx(0x08, [3, 2], [1, 2, 3, 4, 5, 6], 1, (v, a, x) => v.setUint8(a, x)), idx(0x0d, [2], [1.5, -2], 4, (v, a, x) => v.setFloat32(a, x, false))];
    let parsed = 0,
      typed = 0;
    for (let i = 0; i < 3000; i++) {
      const b = Uint8Array.from(seeds[i % 2]!);
      const edits = 1 + Math.floor(rand() * 3);
      for (let e = 0; e < edits; e++) b[Math.floor(rand() * b.length)] = Math.floor(rand() * 256);
      const cut = rand() < 0.2 ? b.slice(0, Math.floor(rand() * b.length)) : b;
      try {
        io.readIdx(cut);
        parsed++;
      } catch (err) {
        expect(err).toBeInstanceOf(IdxError);
        typed++;
      }
    }
    expect(parsed + typed).toBe(3000);
    expect(parsed).toBeGreaterThan(100);
    expect(typed).toBeGreaterThan(100);
  });
});
