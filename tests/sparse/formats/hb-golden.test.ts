// Harwell–Boeing files written by SciPy (issue 13 §6): scipy.io.hb_write's RUA and
// IUA output of small and random matrices, read back by sparse.readHarwellBoeing
// from text and from a file, compared exactly with the matrices they were written
// from (goldens and script: gen_hb.py → hb-golden.json). Two of them SciPy's own
// hb_read cannot read (negative values with three-digit exponents leave no blank
// between fields); rlx reads them by the format's field widths.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import * as sp from '../../../src/sparse/index.js';
import { expectValid } from './helpers.js';

const here = dirname(fileURLToPath(import.meta.url));
interface GoldenCase {
  name: string;
  text: string;
  expected: number[][];
  scipy_read: number[][] | null;
}
const golden = JSON.parse(readFileSync(join(here, 'hb-golden.json'), 'utf8')) as { scipy: string; cases: GoldenCase[] };
const dir = mkdtempSync(join(tmpdir(), 'rlx-hb-golden-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('reads what scipy.io.hb_write writes, exactly', () => {
  it('the goldens cover SciPy-readable and SciPy-unreadable files', () => {
    expect(golden.cases.length).toBeGreaterThanOrEqual(8);
    expect(golden.cases.some((c) => c.scipy_read === null)).toBe(true);
  });
  for (const c of golden.cases) {
    it(c.name, () => {
      const A = sp.readHarwellBoeing(c.text);
      expectValid(A, true);
      expect(A.dtype).toBe('float64');
      // Exact: hb_write prints 17 significant digits, which read back to the same float64.
      expect(A.toDense().tolist()).toEqual(c.expected);
      if (c.scipy_read !== null) expect(A.toDense().tolist()).toEqual(c.scipy_read);
      const nnz = c.expected.flat().filter((v) => v !== 0).length;
      expect(A.nnz).toBe(nnz);
      const h = sp.readHarwellBoeingHeader(c.text);
      expect(h).toMatchObject({ type: c.name.includes('integer') ? 'IUA' : 'RUA', rows: c.expected.length, cols: c.expected[0]!.length, nnz, storage: 'assembled', structure: 'unsymmetric', title: 'Default title', key: '0' });
      // The same file read from disk (the chunked file reader).
      const path = join(dir, 'm.rua');
      writeFileSync(path, c.text);
      expect(sp.readHarwellBoeing(path).toDense().tolist()).toEqual(c.expected);
    });
  }
  it('opts.dtype casts the result', () => {
    const A = sp.readHarwellBoeing(golden.cases[0]!.text, { dtype: 'complex128' });
    expect(A.dtype).toBe('complex128');
    expect(A.toDense().tolist()).toEqual(golden.cases[0]!.expected.map((r) => r.map((v) => [v, 0])));
  });
});
