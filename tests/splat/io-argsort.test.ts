// argsortStable (writeSplat's order) against a comparator sort: random keys
// with many ties, negatives, ±0, infinities and subnormals.

import { describe, expect, it } from 'vitest';
import { argsortStable } from '../../src/splat/io/argsort.js';
import { rng } from './io-helpers.js';

describe('argsortStable', () => {
  it('matches a stable comparator sort on keys with ties, signs, ±0, infinities and subnormals', () => {
    const r = rng(11);
    const pool = [0, -0, 1, -1, Infinity, -Infinity, 5e-324, -5e-324, 1e308, -1e308, 0.5, -0.5];
    for (const n of [0, 1, 2, 17, 1000, 70000]) {
      const keys = Float64Array.from({ length: n }, () => (r() < 0.3 ? pool[Math.floor(r() * pool.length)]! : (r() - 0.5) * 10 ** Math.floor(r() * 20 - 10)));
      const want = Array.from({ length: n }, (_, i) => i).sort((p, q) => (keys[p]! < keys[q]! ? -1 : keys[p]! > keys[q]! ? 1 : p - q));
      expect(Array.from(argsortStable(keys))).toEqual(want);
    }
  });
});
