// readSplat / writeSplat: a .splat file written by an independent NumPy
// writer (tests/splat/golden/gen_io.py: same rounding, stable sort by
// −(s0·s1·s2)·opacity) is reproduced byte for byte and decodes to NumPy's
// values; the quantization error of the round trip is measured against its
// bound; lengths that are not a multiple of 32 are typed errors.

import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { tensor } from '../../src/tensor/create.js';
import { SH_C0 } from '../../src/splat/constants.js';
import { SplatFileError } from '../../src/splat/io/errors.js';
import { readSplat, writeSplat } from '../../src/splat/io/splat-file.js';
import type { Gaussians } from '../../src/splat/types.js';
import { flat, golden, GOLDEN, goldenBytes, randomGaussians } from './io-helpers.js';

const ref = golden['cloud.splat'];
const source = (): Gaussians => {
  const t = (x: unknown, shape: number[]) => tensor(Float32Array.from(flat(x)), { dtype: 'float32', shape });
  const n = ref.source.means.length;
  return { means: t(ref.source.means, [n, 3]), quats: t(ref.source.quats, [n, 4]), scales: t(ref.source.scales, [n, 3]), opacities: t(ref.source.opacities, [n]), colors: t(ref.source.colors, [n, 3]) };
};

describe('.splat golden', () => {
  it('writeSplat reproduces the NumPy-written file byte for byte (sort with a tie, clamped colours, rounding)', () => {
    const want = goldenBytes('cloud.splat');
    const got = writeSplat(source());
    expect(got.length).toBe(want.length);
    expect(Buffer.from(got).equals(Buffer.from(want))).toBe(true);
  });

  it('readSplat (bytes and path, float32 and float64) decodes to NumPy values', () => {
    for (const g of [readSplat(goldenBytes('cloud.splat'), { dtype: 'float64' }), readSplat(path.join(GOLDEN, 'cloud.splat'))]) {
      const tol = g.means.dtype === 'float64' ? 0 : 6e-8;
      for (const f of ['means', 'scales', 'colors', 'opacities', 'quats'] as const) {
        const a = g[f]!.toArray(), e = flat(ref.decoded[f]);
        expect(a.length).toBe(e.length);
        for (let i = 0; i < e.length; i++) expect(Math.abs(a[i]! - e[i]!)).toBeLessThanOrEqual(tol * Math.abs(e[i]!));
      }
      expect(g.sh).toBeUndefined();
    }
  });
});

describe('round-trip quantization', () => {
  it('10k random Gaussians: means/scales exact, colours and opacities within 0.5/255, unit quaternion components within 0.5/128 (1/128 above 127.5/128), sorted', () => {
    const g = randomGaussians(10000, { seed: 21 });
    const back = readSplat(writeSplat(g));
    // The file is sorted: match rows by their (exact) means.
    const key = (m: ArrayLike<number>, i: number) => `${m[3 * i]},${m[3 * i + 1]},${m[3 * i + 2]}`;
    const m0 = g.means.toArray(), m1 = back.means.toArray();
    const row = new Map(Array.from({ length: 10000 }, (_, i) => [key(m0, i), i]));
    const [s0, s1, c0, c1, o0, o1, q0, q1] = [g.scales, back.scales, g.colors!, back.colors!, g.opacities, back.opacities, g.quats, back.quats].map((t) => t.toArray());
    let colour = 0, opacity = 0, comp = 0, angle = 0;
    let prevKey = -Infinity;
    for (let j = 0; j < 10000; j++) {
      const i = row.get(key(m1, j))!;
      for (let c = 0; c < 3; c++) {
        if (s1[3 * j + c] !== s0[3 * i + c]) throw new Error(`scale of row ${j} changed`);
        colour = Math.max(colour, Math.abs(c1[3 * j + c]! - c0[3 * i + c]!));
      }
      opacity = Math.max(opacity, Math.abs(o1[j]! - o0[i]!));
      const q = [0, 1, 2, 3].map((c) => q0[4 * i + c]!), qn = Math.hypot(...q);
      const r = [0, 1, 2, 3].map((c) => q1[4 * j + c]!), rn = Math.hypot(...r);
      // byte = round(u·128 + 128) clamped to 255: error 0.5/128, but up to 1/128 where u > 127.5/128 (255 means 127/128)
      for (let c = 0; c < 4; c++) {
        const u = q[c]! / qn;
        comp = Math.max(comp, Math.abs(r[c]! - u) / (u > 127.5 / 128 ? 2 : 1));
      }
      const dot = Math.abs(q.reduce((a, v, c) => a + (v / qn) * (r[c]! / rn), 0));
      angle = Math.max(angle, 2 * Math.acos(Math.min(1, dot)));
      // sorted by −(s0·s1·s2)·opacity ascending (computed here from the original values)
      const k = -(s0[3 * i]! * s0[3 * i + 1]! * s0[3 * i + 2]!) * o0[i]!;
      if (!(k >= prevKey)) throw new Error(`row ${j} is out of order`);
      prevKey = k;
    }
    console.log(`.splat round trip: colour ${(colour * 255).toFixed(4)}/255, opacity ${(opacity * 255).toFixed(4)}/255, quaternion component ${(comp * 128).toFixed(4)}/128 (1/128 units above 127.5/128 halved), rotation angle ${((angle * 180) / Math.PI).toFixed(3)}°`);
    expect(colour).toBeLessThanOrEqual(0.5 / 255 + 1e-7);
    expect(opacity).toBeLessThanOrEqual(0.5 / 255 + 1e-7);
    expect(comp).toBeLessThanOrEqual(0.5 / 128 + 1e-7);
    expect(angle).toBeLessThan(0.02); // radians: at most 2·|q̂ − q| ≈ 2·√4·(0.5/128) = 0.0156 (plus the clamp)
  });

  it('sh Gaussians are written with their DC colour 0.5 + C0·sh[:, 0, :]; colours outside [0, 1] and NaN are clamped (NaN → 0)', () => {
    const dc = [(0.2 - 0.5) / SH_C0, (0.71 - 0.5) / SH_C0, 10, (-3 - 0.5) / SH_C0, NaN, 0];
    const g: Gaussians = {
      means: tensor(new Float32Array(6), { shape: [2, 3] }),
      quats: tensor(new Float32Array([0, 0, 0, 0, NaN, 1, 0, 0]), { shape: [2, 4] }),
      scales: tensor(new Float32Array([1, 1, 1, 2, 2, 2]), { shape: [2, 3] }),
      opacities: tensor(new Float32Array([0.5, NaN]), { shape: [2] }),
      sh: tensor(new Float32Array([...dc.slice(0, 3), 9, 9, 9, 9, 9, 9, 9, 9, 9, ...dc.slice(3), 9, 9, 9, 9, 9, 9, 9, 9, 9]), { shape: [2, 4, 3] }),
    };
    const b = writeSplat(g);
    // Gaussian 1 has the NaN key (sorted last); Gaussian 0 first.
    expect(Array.from(b.subarray(24, 32))).toEqual([51, 181, 255, 128, 255, 128, 128, 128]);
    expect(Array.from(b.subarray(56, 64))).toEqual([0, 0, 128, 0, 255, 128, 128, 128]);
  });
});

describe('errors and paths', () => {
  it('a length that is not a multiple of 32 is a SplatFileError at the incomplete record', () => {
    const e = (() => {
      try {
        readSplat(new Uint8Array(70));
      } catch (err) {
        return err as SplatFileError;
      }
    })();
    expect(e).toBeInstanceOf(SplatFileError);
    expect(e!.offset).toBe(64);
    expect(e!.message).toMatch(/byte 64: .*70 bytes, not a multiple of 32.*record 2 is incomplete/);
    expect(readSplat(new Uint8Array(0)).means.shape).toEqual([0, 3]);
  });

  it('writeSplat(g, path) writes the bytes writeSplat(g) returns; readSplat of a missing path is a SplatFileError', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rlx-splat-'));
    const g = randomGaussians(70000, { k: 4, seed: 2 }); // more than one chunk of 65536
    writeSplat(g, path.join(dir, 'a.splat'));
    expect(readFileSync(path.join(dir, 'a.splat')).equals(Buffer.from(writeSplat(g)))).toBe(true);
    expect(() => readSplat(path.join(dir, 'missing.splat'))).toThrow(SplatFileError);
  });
});
