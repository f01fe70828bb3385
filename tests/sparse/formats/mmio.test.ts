// Matrix Market: round trips for every format/field/symmetry, file I/O, errors
// with line numbers, bounded allocation for huge declared sizes.

import fc from 'fast-check';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as sp from '../../../src/sparse/index.js';
import { arbTrips, expectClose, expectValid, toRef } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rlx-mm-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A random matrix with the given symmetry (built as L + σ·op(L)ᵀ). */
const arbSym = fc
  .record({
    n: fc.nat(6),
    m: fc.nat(6),
    sym: fc.constantFrom<sp.MMSymmetry>('general', 'symmetric', 'skew-symmetric', 'hermitian'),
    field: fc.constantFrom<sp.MMField>('real', 'integer', 'complex', 'pattern'),
    format: fc.constantFrom<sp.MMFormat>('coordinate', 'array'),
  })
  .filter(({ sym, field, format }) => !(field === 'pattern' && (format === 'array' || sym === 'skew-symmetric')) && !(sym === 'hermitian' && field !== 'complex'))
  .chain((o) => arbTrips(o.n, o.sym === 'general' ? o.m : o.n).map((trips) => ({ ...o, trips })));

describe('round trips', () => {
  it('write → read reproduces the matrix for every format, field and symmetry', () => {
    fc.assert(
      fc.property(arbSym, ({ n, m, sym, field, format, trips }) => {
        const cols = sym === 'general' ? m : n;
        const cplx = field === 'complex';
        const vals = trips.map(([, , re, im]) => (cplx ? [re, im] : field === 'pattern' ? 1 : re + 0.25 * (field === 'real' ? im : 0)));
        let A: sp.CsrMatrix = sp.fromTriplets(trips.map((t) => t[0]), trips.map((t) => t[1]), (cplx ? vals : vals) as never, [n, cols], { dtype: cplx ? 'complex128' : 'float64' });
        if (field === 'pattern') A = sp.fromTriplets(trips.map((t) => t[0]), trips.map((t) => t[1]), trips.map(() => 1), [n, cols]).tocsr();
        if (sym === 'symmetric') A = A.add(A.transpose());
        if (sym === 'skew-symmetric') A = A.sub(A.transpose());
        if (sym === 'hermitian') A = A.add(A.conjTranspose());
        if (field === 'pattern') A = sp.csr({ indptr: A.indptr, indices: A.indices, data: new Float64Array(A.nnz).fill(1), shape: A.shape });
        const text = sp.writeMatrixMarket(A, undefined, { format, field, symmetry: sym });
        expect(text.startsWith(`%%MatrixMarket matrix ${format} ${field} ${sym}\n`)).toBe(true);
        const B = sp.readMatrixMarket(text);
        expectValid(B, true);
        expectClose(toRef(B.toDense()), toRef(A.toDense()), 0);
        const h = sp.readMatrixMarketHeader(text);
        expect([h.format, h.field, h.symmetry, h.rows, h.cols]).toEqual([format, field, sym, n, cols]);
      }),
      { numRuns: 150 },
    );
  });

  it('float64 values round-trip bit for bit, float32 and specials too', () => {
    const vals = [Math.PI, -1e-300, 1.7976931348623157e308, 5e-324, 0.1 + 0.2, NaN, Infinity, -Infinity];
    const A = sp.fromTriplets(vals.map((_, i) => i), vals.map(() => 0), vals, [vals.length, 1]);
    const B = sp.readMatrixMarket(sp.writeMatrixMarket(A));
    expect(Array.from(B.data)).toEqual(vals);
    const F = A.astype('float32');
    expect(Array.from(sp.readMatrixMarket(sp.writeMatrixMarket(F), { dtype: 'float32' }).data)).toEqual(Array.from(F.data));
  });

  it('files: write to a path (chunked), read back streaming', () => {
    const A = sp.poisson2d(120); // 14,400 rows, 71,520 entries: several write chunks and read chunks
    const path = join(dir, 'p.mtx');
    expect(sp.writeMatrixMarket(A, path, { symmetry: 'symmetric', comment: ' poisson2d(120)\n second line' })).toBeUndefined();
    const B = sp.readMatrixMarket(path);
    expect(B.nnz).toBe(A.nnz);
    expect(B.sub(A).nnz).toBe(0);
    expect(sp.readMatrixMarketHeader(path)).toEqual({ format: 'coordinate', field: 'real', symmetry: 'symmetric', rows: 14400, cols: 14400, entries: (A.nnz + 14400) / 2 });
  });

  it('writer refuses wrong symmetry claims and impossible fields', () => {
    const A = sp.fromDense([[1, 2], [3, 4]]);
    expect(() => sp.writeMatrixMarket(A, undefined, { symmetry: 'symmetric' })).toThrow(/not symmetric/);
    expect(() => sp.writeMatrixMarket(A.scale(0.5), undefined, { field: 'integer' })).toThrow(/not an integer/);
    expect(() => sp.writeMatrixMarket(A.scale([0, 1]), undefined, { field: 'real' })).toThrow(/cannot be written/);
    expect(() => sp.writeMatrixMarket(A, undefined, { format: 'array', field: 'pattern' })).toThrow(/pattern/);
  });
});

describe('reader', () => {
  it('accepts comments, blank lines, CRLF, case, "double" and Fortran exponents; sums duplicates', () => {
    const text = '%%MatrixMarket MATRIX Coordinate Double General\r\n% comment\r\n\r\n2 3 3\r\n1 1 1.5D2\r\n\r\n% mid comment\r\n2 3 -4\r\n1 1 .5\r\n';
    const A = sp.readMatrixMarket(text);
    expect(A.toDense().tolist()).toEqual([[150.5, 0, 0], [0, 0, -4]]);
    expect(A.nnz).toBe(2);
  });

  const H = '%%MatrixMarket matrix coordinate real general\n';
  const cases: [string, string, number, RegExp][] = [
    ['empty', '', 0, /empty input/],
    ['bad banner', '%%MatrixMarkt matrix coordinate real general\n1 1 0\n', 1, /expected the header/],
    ['bad field', '%%MatrixMarket matrix coordinate float general\n', 1, /field "float"/],
    ['bad symmetry', '%%MatrixMarket matrix coordinate real upper\n', 1, /symmetry "upper"/],
    ['pattern array', '%%MatrixMarket matrix array pattern general\n', 1, /pattern/],
    ['hermitian real', '%%MatrixMarket matrix coordinate real hermitian\n', 1, /hermitian/],
    ['missing size', H + '% only a comment\n', 3, /missing size line/],
    ['size arity', H + '2 2\n', 2, /size line must have 3 integers/],
    ['negative size', H + '-2 2 0\n', 2, /non-negative/],
    ['non-numeric size', H + '2 x 1\n', 2, /cols "x" is not an integer/],
    ['too many declared', H + '2 2 5\n', 2, /at most 4/],
    ['non-square symmetric', '%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n', 2, /must be square/],
    ['row out of range', H + '2 2 1\n3 1 1.0\n', 3, /row index 3 out of range \[1, 2\]/],
    ['zero index', H + '2 2 1\n1 0 1.0\n', 3, /column index 0 out of range/],
    ['non-numeric value', H + '2 2 1\n1 1 abc\n', 3, /value "abc" is not a number/],
    ['hex value', H + '2 2 1\n1 1 0x10\n', 3, /not a number/],
    ['too few fields', H + '2 2 1\n1 1\n', 3, /expected 3 fields/],
    ['too many fields', H + '2 2 1\n1 1 1 1\n', 3, /expected 3 fields/],
    ['too many entries', H + '2 2 1\n1 1 1\n2 2 2\n', 4, /more entries than the 1 declared/],
    ['missing entries', H + '2 2 3\n1 1 1\n\n', 4, /found 1 entries, the header declared 3/],
    ['integer field float', '%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 1.5\n', 3, /value "1.5" is not an integer/],
    // Upper-triangle entries of symmetric files are read and mirrored, as SciPy and CHOLMOD do (mm-compat.test.ts).
    ['diagonal in skew', '%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n1 1 1\n', 3, /strictly lower triangle/],
    ['complex hermitian diagonal', '%%MatrixMarket matrix coordinate complex hermitian\n2 2 1\n1 1 1 2\n', 3, /imaginary part 2/],
    ['array missing', '%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n', 5, /found 3 entries, the header declared 4/],
    ['array too many', '%%MatrixMarket matrix array real general\n1 1\n1\n2\n', 4, /more entries/],
    ['huge dims', H + '1000000000 1000000000 0\n', 2, /exceeds maxDimension/],
    ['int32 overflow', H + '99999999999 1 0\n', 2, /does not fit in int32/],
  ];
  for (const [name, text, line, re] of cases) {
    it(`rejects ${name} (line ${line})`, () => {
      let err: unknown;
      try {
        sp.readMatrixMarket(text);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(sp.MatrixMarketError);
      const e = err as sp.MatrixMarketError;
      expect(e.message).toMatch(re);
      if (name !== 'empty') expect(e.line).toBe(line);
      if (line > 0 && name !== 'empty') expect(e.message).toContain(`line ${line}:`);
    });
  }

  it('a huge declared count without data allocates nothing big and fails fast', () => {
    const before = process.memoryUsage().arrayBuffers;
    const t0 = performance.now();
    expect(() => sp.readMatrixMarket(H + '50000000 50000000 2000000000\n1 1 1\n')).toThrow(/found 1 entries, the header declared 2000000000/);
    expect(() => sp.readMatrixMarket('%%MatrixMarket matrix array real general\n60000000 60000000\n1\n')).toThrow(/found 1 entries/);
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 << 20);
  });

  it('missing file is a MatrixMarketError; maxDimension can be raised', () => {
    expect(() => sp.readMatrixMarket(join(dir, 'nope.mtx'))).toThrow(sp.MatrixMarketError);
    const p = join(dir, 'big.mtx');
    writeFileSync(p, H + '3000000 2 1\n3000000 2 3.5\n');
    expect(() => sp.readMatrixMarket(p, { maxDimension: 1e6 })).toThrow(/exceeds maxDimension 1000000/);
    const A = sp.readMatrixMarket(p, { maxDimension: 1e7 });
    expect(A.shape).toEqual([3000000, 2]);
    expect(A.getRow(-1).toDense().tolist()).toEqual([[0, 3.5]]);
  });
});
