// savePng / readPng: PNGs written by Python's zlib+struct (golden) decode to
// their bytes/255; images on the 8-bit grid round-trip exactly in every
// layout; the float → byte rule round(clamp(x, 0, 1)·255) with NaN → 0 at its
// rounding boundaries; typed errors.

import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { tensor } from '../../src/tensor/create.js';
import { ShapeError } from '../../src/tensor/errors.js';
import { SplatFileError } from '../../src/splat/io/errors.js';
import { readPng, savePng } from '../../src/splat/io/png.js';
import { flat, golden, GOLDEN, goldenBytes, rng } from './io-helpers.js';

describe('readPng: Python-written golden PNGs', () => {
  it.each([
    ['rgb.png', 3],
    ['rgba.png', 4],
    ['gray.png', 1],
  ])('%s decodes to its bytes / 255 (float32)', (name, channels) => {
    const px = golden.png[name] as number[][] | number[][][];
    const h = px.length, w = px[0]!.length;
    const img = readPng(path.join(GOLDEN, name), { alpha: true });
    expect(img.dtype).toBe('float32');
    expect(img.shape).toEqual([h, w, 4]);
    const a = img.toArray(), bytes = flat(px);
    for (let p = 0; p < h * w; p++) {
      for (let c = 0; c < 4; c++) {
        const want = c === 3 ? (channels === 4 ? bytes[4 * p + 3]! : 255) : channels === 1 ? bytes[p]! : bytes[channels * p + c]!;
        expect(a[4 * p + c]).toBe(Math.fround(want / 255));
      }
    }
    expect(readPng(goldenBytes(name)).shape).toEqual([h, w, 3]);
  });
});

describe('savePng', () => {
  const grid = (shape: number[], seed: number, dtype: 'float32' | 'float64') => {
    const r = rng(seed);
    const n = shape.reduce((a, b) => a * b, 1);
    const v = Float64Array.from({ length: n }, () => Math.floor(r() * 256) / 255);
    return tensor(dtype === 'float32' ? Float32Array.from(v) : v, { dtype, shape });
  };

  it.each([
    [[7, 5, 3], 'float32'],
    [[4, 9, 4], 'float64'],
    [[6, 3], 'float32'],
  ] as const)('an image %j (%s) on the 8-bit grid round-trips exactly (bytes and path)', (shape, dtype) => {
    const img = grid([...shape], shape.length, dtype);
    const bytes = savePng(img);
    expect(Array.from(bytes.subarray(0, 8))).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'rlx-png-')), 'a.png');
    expect(savePng(img, file)).toBeUndefined();
    for (const back of [readPng(bytes, { alpha: shape[2] === 4 }), readPng(file, { alpha: shape[2] === 4 })]) {
      const want = Array.from(img.toArray(), (v) => Math.fround(v));
      if (shape.length === 2) {
        expect(back.shape).toEqual([...shape, 3]);
        const a = back.toArray();
        for (let p = 0; p < want.length; p++) for (let c = 0; c < 3; c++) expect(a[3 * p + c]).toBe(want[p]);
      } else {
        expect(back.shape).toEqual([...shape]);
        expect(Array.from(back.toArray())).toEqual(want);
      }
    }
  });

  it('float → byte is round(clamp(x, 0, 1)·255), NaN → 0 (checked at the rounding boundaries)', () => {
    const xs = [-1, 0, 0.4 / 255, 0.6 / 255, 127.49 / 255, 127.51 / 255, 254.4 / 255, 254.6 / 255, 1, 7, NaN, -Infinity, Infinity, 0.5];
    const want = [0, 0, 0, 1, 127, 128, 254, 255, 255, 255, 0, 0, 255, 128];
    const back = readPng(savePng(tensor(Float64Array.from(xs), { shape: [1, xs.length] })));
    expect(Array.from(back.toArray()).filter((_, i) => i % 3 === 0).map((v) => Math.round(v * 255))).toEqual(want);
  });

  it('typed errors: shapes, undecodable bytes, missing files', () => {
    expect(() => savePng(tensor(new Float32Array(12), { shape: [2, 2, 3, 1] }))).toThrow(ShapeError);
    expect(() => savePng(tensor(new Float32Array(4), { shape: [2, 1, 2] }))).toThrow(/expected \[H, W\], \[H, W, 3\] or \[H, W, 4\]/);
    expect(() => savePng(tensor(new Float32Array(0), { shape: [0, 3, 3] }))).toThrow(ShapeError);
    expect(() => readPng(new Uint8Array([1, 2, 3, 4]))).toThrow(SplatFileError);
    const bytes = savePng(tensor(new Float32Array(27), { shape: [3, 3, 3] }));
    expect(() => readPng(bytes.subarray(0, bytes.length - 20))).toThrow(SplatFileError);
    expect(() => readPng('/nonexistent/x.png')).toThrow(/png: cannot read/);
  });
});
