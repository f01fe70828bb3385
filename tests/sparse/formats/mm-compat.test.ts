// Matrix Market compatibility (issue 13 §6): what SciPy's mmread reads, rlx reads
// with the same values — goldens written by gen_mm_compat.py with SciPy 1.10
// (integers beyond int32, upper-triangle entries of symmetric/skew/hermitian files,
// pattern files with value columns) — and the two documented refusals (hermitian
// diagonal with an imaginary part, nonzero skew-symmetric diagonal).

import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as sp from '../../../src/sparse/index.js';
import { expectValid } from './helpers.js';

const here = dirname(fileURLToPath(import.meta.url));
type Dense = number[][] | [number, number][][];
const golden = JSON.parse(readFileSync(join(here, 'mm-compat.json'), 'utf8')) as { cases: { name: string; text: string; expected: Dense }[] };

describe('reads what SciPy reads, with the same values', () => {
  for (const c of golden.cases) {
    it(c.name, () => {
      const A = sp.readMatrixMarket(c.text);
      expectValid(A, true);
      const got = A.toDense().tolist() as Dense;
      // Exact: every golden value is an integer or a short decimal, read by both as the same float64.
      expect(got).toEqual(c.expected);
    });
  }
});

describe('documented refusals', () => {
  const fails = (text: string, line: number, re: RegExp): void => {
    let err: unknown;
    try {
      sp.readMatrixMarket(text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(sp.MatrixMarketError);
    expect((err as sp.MatrixMarketError).line).toBe(line);
    expect((err as Error).message).toMatch(re);
  };
  it('a hermitian diagonal entry with an imaginary part (SciPy keeps it: not Hermitian)', () => {
    fails('%%MatrixMarket matrix coordinate complex hermitian\n2 2 2\n2 1 1 1\n2 2 1 -0.5\n', 4, /hermitian diagonal entry \(2, 2\) has imaginary part -0.5/);
  });
  it('a nonzero skew-symmetric diagonal; an explicit zero one is accepted', () => {
    fails('%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 2\n1 2 1\n2 2 3\n', 4, /entry \(2, 2\) = 3 is not in the strictly lower triangle/);
    const A = sp.readMatrixMarket('%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 2\n1 2 1\n2 2 0\n');
    expect(A.toDense().tolist()).toEqual([[0, 1], [-1, 0]]);
  });
  it('integers that are not integers, and indices beyond int32, stay errors', () => {
    fails('%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 1e3\n', 3, /value "1e3" is not an integer/);
    fails('%%MatrixMarket matrix coordinate real general\n2 2 1\n4294967297 1 1\n', 3, /row index "4294967297" does not fit in int32/);
    fails('%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2 3 4 5\n', 3, /expected 2 to 4 fields/);
  });
});
