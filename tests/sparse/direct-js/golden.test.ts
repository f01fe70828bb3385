// jsSplu against SciPy's spsolve (SuperLU) and NumPy's slogdet on fixed
// matrices; regenerate golden.json with gen_golden.py (see its docstring).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SparseDType } from '../../../src/sparse/contract.js';
import { jsSplu } from '../../../src/sparse/direct/index.js';
import { relDiff } from './helpers.js';

interface Case {
  dtype: SparseDType;
  n: number;
  k: number;
  indptr: number[];
  indices: number[];
  data: number[];
  b: number[];
  x: number[];
  xT: number[];
  xH: number[];
  sign: number | number[];
  logabsdet: number;
}

const golden = JSON.parse(readFileSync(new URL('./golden.json', import.meta.url), 'utf8')) as { cases: Record<string, Case> };

describe.each(Object.entries(golden.cases))('golden %s', (_name, c) => {
  const arrays = {
    shape: [c.n, c.n] as [number, number],
    dtype: c.dtype,
    indptr: Int32Array.from(c.indptr),
    indices: Int32Array.from(c.indices),
    data: Float64Array.from(c.data),
    format: 'csr' as const,
  };
  it.each(['amd', 'rcm', 'natural'] as const)('ordering %s: x, xT, xH, slogdet', (ordering) => {
    const lu = jsSplu(arrays, { ordering });
    const b = Float64Array.from(c.b);
    expect(relDiff(lu.solve(b), c.x)).toBeLessThan(1e-12);
    expect(relDiff(lu.solve(b, { trans: 'T' }), c.xT)).toBeLessThan(1e-12);
    expect(relDiff(lu.solve(b, { trans: 'H' }), c.xH)).toBeLessThan(1e-12);
    const ld = lu.logDet();
    expect(ld.logabsdet).toBeCloseTo(c.logabsdet, 11);
    if (Array.isArray(c.sign)) {
      const s = ld.sign as [number, number];
      expect(s[0]).toBeCloseTo(c.sign[0], 11);
      expect(s[1]).toBeCloseTo(c.sign[1], 11);
    } else expect(ld.sign).toBe(c.sign);
  });
});
