// Results checked against SciPy 1.10 (goldens written by gen_golden.py, run with
// /usr/bin/python3): kronsum, kron, diags, poisson2d(4)/poisson3d(3) as SciPy users
// build them with kronsum, SpGEMM, eye, and .mtx fixtures written by scipy.io.mmwrite
// whose dense content is what scipy.io.mmread returns (symmetry expanded).

import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as sp from '../../../src/sparse/index.js';
import { expectClose, expectValid, toRef, type Ref } from './helpers.js';

const here = dirname(fileURLToPath(import.meta.url));
type Dense = number[][] | [number, number][][];
interface GCase { op: string; inputs?: Dense[]; expected: Dense; diagonals?: number[][]; offsets?: number[]; shape?: [number, number] | null; n?: number; m?: number; k?: number }
const golden = JSON.parse(readFileSync(join(here, 'golden.json'), 'utf8')) as { cases: GCase[]; fixtures: Record<string, { expected: Dense; complex: boolean }> };

function denseRef(d: Dense): Ref {
  const m = d.length, n = m ? d[0]!.length : 0;
  const cplx = m > 0 && n > 0 && Array.isArray(d[0]![0]);
  const l = cplx ? 2 : 1;
  const v = new Float64Array(m * n * l);
  d.forEach((row, i) => row.forEach((x, j) => {
    if (cplx) [v[(i * n + j) * 2], v[(i * n + j) * 2 + 1]] = x as [number, number];
    else v[i * n + j] = x as number;
  }));
  return { m, n, l, v };
}
const fromG = (d: Dense): sp.CsrMatrix => sp.fromDense(d as never) as sp.CsrMatrix;

describe('SciPy goldens', () => {
  golden.cases.forEach((c, idx) => {
    it(`${idx}: ${c.op}`, () => {
      let got: sp.CsrMatrix;
      switch (c.op) {
        case 'kronsum': got = sp.kronsum(fromG(c.inputs![0]!), fromG(c.inputs![1]!)); break;
        case 'kron': got = sp.kron(fromG(c.inputs![0]!), fromG(c.inputs![1]!).tocsc()); break;
        case 'spgemm': got = fromG(c.inputs![0]!).matmulSparse(fromG(c.inputs![1]!)); break;
        case 'diags': got = sp.diags(c.diagonals!, c.offsets!, c.shape ?? undefined); break;
        case 'poisson2d': got = sp.poisson2d(c.n!); break;
        case 'poisson3d': got = sp.poisson3d(c.n!); break;
        case 'eye': got = sp.eye(c.n!, { m: c.m, k: c.k }); break;
        default: throw new Error(`unknown golden op ${c.op}`);
      }
      expectValid(got, true);
      expectClose(toRef(got.toDense()), denseRef(c.expected), 1e-12);
    });
  });
  expect(golden.cases.length).toBeGreaterThanOrEqual(10);

  for (const [name, f] of Object.entries(golden.fixtures)) {
    it(`reads fixture ${name} like scipy.io.mmread`, () => {
      const path = join(here, 'fixtures', name);
      const A = sp.readMatrixMarket(path);
      expectValid(A, true);
      expect(A.dtype).toBe(f.complex ? 'complex128' : 'float64');
      expectClose(toRef(A.toDense()), denseRef(f.expected), 0);
      // The same text given as a string, and a round trip through our writer.
      const text = readFileSync(path, 'utf8');
      expectClose(toRef(sp.readMatrixMarket(text).toDense()), denseRef(f.expected), 0);
      const h = sp.readMatrixMarketHeader(text);
      const back = sp.readMatrixMarket(sp.writeMatrixMarket(A, undefined, { format: h.format, field: h.field, symmetry: h.symmetry }));
      expectClose(toRef(back.toDense()), denseRef(f.expected), 0);
    });
  }
});
