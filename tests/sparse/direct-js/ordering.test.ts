// The orderings return permutations on any pattern (empty rows, dense rows,
// disconnected components), and RCM reduces the bandwidth of a scrambled band.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toCsc } from '../../../src/sparse/direct/csc.js';
import { amdOrder, rcmOrder, symmetricGraph } from '../../../src/sparse/direct/index.js';
import { mulberry32, poisson2d, randomSparse, toArrays, zeros } from './helpers.js';

const isPerm = (p: Int32Array, n: number) => p.length === n && new Set(p).size === n && p.every((v) => v >= 0 && v < n);

describe('orderings', () => {
  it('AMD and RCM give permutations on random patterns (incl. dense rows, empty rows)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 200 }), fc.double({ min: 0, max: 0.3, noNaN: true }), fc.boolean(), (seed, n, density, denseRow) => {
        const rnd = mulberry32(seed);
        const a = randomSparse(n, density * (n > 60 ? 0.1 : 1), false, rnd, 'none');
        if (denseRow) for (let j = 0; j < n; j++) a.re[(n >> 1) * n + j] = 1;
        const g = symmetricGraph(toCsc(toArrays(a, 'float64', 'csr'), 'csr', 't'));
        expect(isPerm(amdOrder(g), n)).toBe(true);
        expect(isPerm(rcmOrder(g), n)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('RCM restores a small bandwidth after a random symmetric scramble', () => {
    const n = 200;
    const rnd = mulberry32(4);
    const perm = Array.from({ length: n }, (_, i) => i).sort(() => rnd() - 0.5);
    const a = zeros(n);
    for (let i = 0; i < n; i++)
      for (let d = -2; d <= 2; d++) if (i + d >= 0 && i + d < n) a.re[perm[i] * n + perm[i + d]] = 1;
    const g = symmetricGraph(toCsc(toArrays(a, 'float64', 'csr'), 'csr', 't'));
    const bw = (q: Int32Array) => {
      const pos = new Int32Array(n);
      q.forEach((v, k) => (pos[v] = k));
      let b = 0;
      for (let i = 0; i < n; i++) for (let p = g.ptr[i]; p < g.ptr[i + 1]; p++) b = Math.max(b, Math.abs(pos[i] - pos[g.adj[p]]));
      return b;
    };
    expect(bw(Int32Array.from({ length: n }, (_, i) => i))).toBeGreaterThan(50);
    expect(bw(rcmOrder(g))).toBeLessThanOrEqual(4);
  });

  it('symmetricGraph of poisson2d has the 5-point degrees', () => {
    const g = symmetricGraph(toCsc(poisson2d(5), 'csr', 't'));
    expect(g.ptr[25]).toBe(2 * 2 * 5 * 4);
  });
});
