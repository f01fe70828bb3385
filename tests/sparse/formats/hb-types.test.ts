// Harwell–Boeing / Rutherford–Boeing files written by hand (issue 13 §6): every
// assembled type SciPy does not write (symmetric, skew, Hermitian, complex, pattern,
// integer, rectangular RB), Fortran formats I/E/D/F/G and 1P, values that run into
// each other (fields cut by width), D exponents and exponents without their letter,
// right-hand sides (ignored) — each with the matrix written out by hand from the
// file — and the typed errors with their line numbers.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as sp from '../../../src/sparse/index.js';
import { expectValid } from './helpers.js';

/** Integers right-aligned in 14 columns (the I14 fields of header lines 2 and 3). */
const i14 = (...n: number[]): string => n.map((v) => String(v).padStart(14)).join('');

/** A file with the header laid out as the HB guide says (A72 A8 / 5I14 / A3 11X 4I14 / 2A16 2A20). */
function hb(o: { title?: string; key?: string; cards: number[]; type: string; dims: number[]; fmts: string[]; line5?: string; data: string[] }): string {
  const l1 = (o.title ?? 'hand-written test matrix').padEnd(72) + (o.key ?? 'KEY');
  const l3 = o.type + ' '.repeat(11) + i14(...o.dims);
  const l4 = o.fmts[0]!.padEnd(16) + o.fmts[1]!.padEnd(16) + (o.fmts[2] ?? '').padEnd(20) + (o.fmts[3] ?? '');
  return [l1, i14(...o.cards), l3, l4, ...(o.line5 !== undefined ? [o.line5] : []), ...o.data].join('\n') + '\n';
}

const read = (text: string, opts?: sp.HBReadOptions): unknown => {
  const A = sp.readHarwellBoeing(text, opts);
  expectValid(A, true);
  return A.toDense().tolist();
};

// [[4 1 0] [1 5 2] [0 2 6]]: the lower triangle by columns, D exponents.
const RSA = {
  cards: [5, 1, 1, 3], type: 'RSA', dims: [3, 3, 5, 0], fmts: ['(4I3)', '(5I3)', '(2D12.4)'],
  data: ['  1  3  5  6', '  1  2  2  3  3', '  0.4000D+01  0.1000D+01', '  0.5000D+01  0.2000D+01', '  0.6000D+01'],
};

describe('types and formats', () => {
  it('RSA: symmetric lower triangle expanded, D exponents', () => {
    expect(read(hb(RSA))).toEqual([[4, 1, 0], [1, 5, 2], [0, 2, 6]]);
    expect(sp.readHarwellBoeingHeader(hb(RSA))).toMatchObject({ type: 'RSA', valueType: 'real', structure: 'symmetric', nnz: 5, formats: { pointer: '(4I3)', index: '(5I3)', value: '(2D12.4)', rhs: '' } });
  });

  it('fields that run into each other are cut by width: (4I1) and (4E9.1) with 3-digit exponents', () => {
    const text = hb({ cards: [3, 1, 1, 1], type: 'RUA', dims: [2, 3, 4, 0], fmts: ['(4I1)', '(4I1)', '(4E9.1)'], data: ['1245', '1122', '-1.0E+100 2.5E-100-3.0E+100  1.0E+00'] });
    expect(read(text)).toEqual([[-1e100, 2.5e-100, 0], [0, -3e100, 1]]);
  });

  it('exponents without the letter (1.0-101, Fortran E output beyond two exponent digits)', () => {
    const text = hb({ cards: [3, 1, 1, 1], type: 'RUA', dims: [1, 3, 3, 0], fmts: ['(4I2)', '(3I2)', '(3E12.4)'], data: [' 1 2 3 4', ' 1 1 1', '  0.1000-101 -0.2500+102  0.3000+000'] });
    expect(read(text)).toEqual([[1e-102, -2.5e101, 0.3]]);
  });

  it('CUA: complex values as (re, im) pairs', () => {
    const text = hb({ cards: [4, 1, 1, 2], type: 'CUA', dims: [2, 2, 3, 0], fmts: ['(3I2)', '(3I2)', '(4E10.2)'], data: [' 1 3 4', ' 1 2 2', '  1.00E+00  2.00E+00 -3.00E+00  5.00E-01', '  0.00E+00 -4.00E+00'] });
    const A = sp.readHarwellBoeing(text);
    expect(A.dtype).toBe('complex128');
    expect(A.toDense().tolist()).toEqual([[[1, 2], [0, 0]], [[-3, 0.5], [0, -4]]]);
  });

  it('CHA: Hermitian, the mirrored entry conjugated; F format', () => {
    const text = hb({ cards: [3, 1, 1, 1], type: 'CHA', dims: [2, 2, 3, 0], fmts: ['(3I2)', '(3I2)', '(6F6.1)'], data: [' 1 3 4', ' 1 2 2', '   2.0   0.0   1.0   1.0   3.0   0.0'] });
    expect(read(text)).toEqual([[[2, 0], [1, -1]], [[1, 1], [3, 0]]]);
  });

  it('CSA: complex symmetric (not conjugated); (1P,2E12.4)', () => {
    const text = hb({ cards: [4, 1, 1, 2], type: 'CSA', dims: [2, 2, 2, 0], fmts: ['(3I2)', '(2I2)', '(1P,2E12.4)'], data: [' 1 3 3', ' 1 2', '  1.0000E+00 -1.0000E+00', '  2.0000E+00  3.0000E+00'] });
    expect(read(text)).toEqual([[[1, -1], [2, 3]], [[2, 3], [0, 0]]]);
  });

  it('RZA: skew-symmetric, the mirrored entry negated; lower-case G format', () => {
    const text = hb({ cards: [3, 1, 1, 1], type: 'RZA', dims: [3, 3, 3, 0], fmts: ['(4I2)', '(3I2)', '(3g10.3)'], data: [' 1 3 4 4', ' 2 3 3', '       2.0      -1.0       4.0'] });
    expect(read(text)).toEqual([[0, -2, 1], [2, 0, -4], [-1, 4, 0]]);
  });

  it('PUA and PSA: pattern matrices have no value section; entries are 1', () => {
    expect(read(hb({ cards: [2, 1, 1, 0], type: 'PUA', dims: [3, 3, 3, 0], fmts: ['(4I2)', '(3I2)'], data: [' 1 3 3 4', ' 1 3 2'] }))).toEqual([[1, 0, 0], [0, 0, 1], [1, 0, 0]]);
    expect(read(hb({ cards: [2, 1, 1, 0], type: 'PSA', dims: [3, 3, 2, 0], fmts: ['(4I2)', '(2I2)'], data: [' 1 2 2 3', ' 2 3'] }))).toEqual([[0, 1, 0], [1, 0, 0], [0, 0, 1]]);
  });

  it('ISA: integer values (I format, beyond int32) as float64', () => {
    const text = hb({ cards: [3, 1, 1, 1], type: 'ISA', dims: [2, 2, 2, 0], fmts: ['(3I2)', '(2I2)', '(2I13)'], data: [' 1 3 3', ' 1 2', '           -7 123456789012'] });
    expect(read(text)).toEqual([[-7, 123456789012], [123456789012, 0]]);
  });

  it('a symmetric file storing an upper-triangle entry is mirrored (as the Matrix Market reader does)', () => {
    expect(read(hb({ cards: [3, 1, 1, 1], type: 'RSA', dims: [2, 2, 1, 0], fmts: ['(3I2)', '(1I2)', '(1E10.2)'], data: [' 1 1 2', ' 1', '  5.00E+00'] }))).toEqual([[0, 5], [5, 0]]);
  });

  it("Rutherford–Boeing: lower-case 'rra', four line counts, '|' before the key, RBio's (8I10) (3E26.18)", () => {
    const text = hb({
      title: 'RB rectangular'.padEnd(71) + '|', key: 'rb1', cards: [3, 1, 1, 1], type: 'rra', dims: [2, 3, 3, 0], fmts: ['(8I10)', '(8I10)', '(3E26.18)'],
      data: ['         1         2         3         4', '         1         2         1', '  5.000000000000000000E-01 -1.250000000000000000E+00  1.000000000000000000E-05'],
    });
    expect(read(text)).toEqual([[0.5, 0, 1e-5], [0, -1.25, 0]]);
    expect(sp.readHarwellBoeingHeader(text)).toMatchObject({ title: 'RB rectangular', key: 'rb1', type: 'RRA', structure: 'rectangular', cards: { total: 3, pointer: 1, index: 1, value: 1, rhs: 0 } });
  });

  it('right-hand sides (RHSCRD > 0, header line 5) are skipped', () => {
    const text = hb({ cards: [4, 1, 1, 1, 1], type: 'RUA', dims: [2, 2, 2, 0], fmts: ['(3I2)', '(2I2)', '(2E10.2)', '(2E10.2)'], line5: 'F             1             0', data: [' 1 2 3', ' 1 2', '  1.00E+00  2.00E+00', '  5.00E+00  6.00E+00'] });
    expect(read(text)).toEqual([[1, 0], [0, 2]]);
    expect(sp.readHarwellBoeingHeader(text)).toMatchObject({ cards: { rhs: 1 }, formats: { rhs: '(2E10.2)' } });
  });

  it('header and values written with blanks instead of fixed columns (as SciPy reads them), CRLF line ends', () => {
    // '1.0 -2.5' is not two (2E10.2) fields (the first would be "1.0 -2.5"): read as two blank-separated values.
    const text = ['free-form', '3 1 1 1', 'RUA 2 2 2', '(3I2) (2I2) (2E10.2)', ' 1 2 3', ' 1 2', '1.0 -2.5', ''].join('\r\n');
    expect(read(text)).toEqual([[1, 0], [0, -2.5]]);
  });

  it('elemental matrices: the header reads, the matrix is a HarwellBoeingError naming them unsupported', () => {
    const text = hb({ cards: [3, 1, 1, 1], type: 'RUE', dims: [3, 3, 4, 6], fmts: ['(4I2)', '(4I2)', '(3E10.2)'], data: [' 1 3 5', ' 1 2 2 3', '  1.00E+00'] });
    expect(sp.readHarwellBoeingHeader(text)).toMatchObject({ storage: 'elemental', elementals: 6 });
    expect(errorOf(() => sp.readHarwellBoeing(text))).toMatchObject({ line: 3, message: expect.stringMatching(/elemental matrices \('RUE'\) are not supported/) });
  });
});

function errorOf(f: () => unknown): sp.HarwellBoeingError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(sp.HarwellBoeingError);
    return e as sp.HarwellBoeingError;
  }
  throw new Error('expected a HarwellBoeingError');
}

/** The RSA file with some of its lines (1-based) replaced. */
const rsaWith = (lines: Record<number, string | null>): string => {
  const all = hb(RSA).split('\n');
  for (const [k, v] of Object.entries(lines)) all[Number(k) - 1] = v as string;
  return all.filter((l) => l !== null).join('\n');
};
const fails = (text: string, line: number, re: RegExp): void => {
  const e = errorOf(() => sp.readHarwellBoeing(text));
  expect(e.line).toBe(line);
  expect(e.message).toMatch(re);
  expect(e.message).toMatch(line > 0 ? new RegExp(`^harwell-boeing: line ${line}: `) : /^harwell-boeing: /);
};

describe('typed errors with the line', () => {
  it('header: type, counts, sizes, formats', () => {
    fails(rsaWith({ 3: 'XUA' + ' '.repeat(11) + i14(3, 3, 5, 0) }), 3, /matrix type "XUA" is not valid/);
    fails(rsaWith({ 2: i14(5, 2, 1, 2) }), 2, /PTRCRD = 2, but 4 column pointers in \(4I3\) take 1 line/);
    fails(rsaWith({ 2: i14(6, 1, 1, 3) }), 2, /TOTCRD = 6 is not PTRCRD \+ INDCRD \+ VALCRD \+ RHSCRD = 5/);
    fails(rsaWith({ 2: i14(5, 1, 1) }), 2, /expected the integers TOTCRD PTRCRD INDCRD VALCRD \[RHSCRD\]/);
    fails(rsaWith({ 3: 'RSA' + ' '.repeat(11) + i14(3, 4, 5, 0) }), 3, /a symmetric matrix \('RSA'\) must be square, got 3×4/);
    fails(rsaWith({ 3: 'RUA' + ' '.repeat(11) + i14(2, 2, 5, 0) }), 3, /NNZERO = 5 entries declared but a 2×2 matrix has 4 positions/);
    fails(rsaWith({ 3: 'RUA' + ' '.repeat(11) + i14(3, 3, 99999999999, 0) }), 3, /NNZERO = 99999999999 is not a count/);
    fails(rsaWith({ 3: 'RUA' + ' '.repeat(11) + i14(100000000, 3, 5, 0) }), 3, /exceeds maxDimension 67108864/);
    fails(rsaWith({ 3: 'PZA' + ' '.repeat(11) + i14(3, 3, 5, 0) }), 3, /pattern matrix cannot be skew-symmetric/);
    fails(rsaWith({ 4: '(4I3)           (5I3)           (2X12.4)' }), 4, /value format: format "\(2X12.4\)" has no I, E, D, F or G edit descriptor/);
    fails(rsaWith({ 4: '(4E3.1)         (5I3)           (2D12.4)' }), 4, /pointer format \(4E3.1\) must be an integer format/);
    fails(rsaWith({ 4: '(4I3)' }), 4, /expected the formats PTRFMT INDFMT VALFMT/);
    fails('only a title\n', 1, /the input ends before line 2/);
  });

  it('data: pointers, indices, numbers, truncation, trailing data', () => {
    fails(rsaWith({ 5: '  2  3  5  6' }), 5, /the first column pointer must be 1, got 2/);
    fails(rsaWith({ 5: '  1  3  2  6' }), 5, /column pointer 3 = 2 is less than the one before \(3\)/);
    fails(rsaWith({ 5: '  1  3  5  5' }), 5, /column pointer 4 = 5, but the last one must be NNZERO \+ 1 = 6/);
    fails(rsaWith({ 6: '  1  2  4  3  3' }), 6, /row index 4 \(entry 3\) is out of range \[1, 3\]/);
    fails(rsaWith({ 8: '  0.5000X+01  0.2000D+01' }), 8, /values: field 1 of 2 \(columns 1-12 of \(2D12.4\)\) "0.5000X\+01" is not a number/);
    fails(rsaWith({ 8: '              0.2000D+01' }), 8, /field 1 of 2 .* is blank/);
    fails(rsaWith({ 8: '  0.5000D+01' }), 8, /field 2 of 2 .* is missing: the line ends before it/);
    fails(rsaWith({ 8: '  0.5000D+01  0.2000D+01  1.0' }), 8, /characters after the 2 fields of \(2D12.4\): "1.0"/);
    fails(rsaWith({ 9: null }), 8, /the input ends in the values section after 4 of 5 values/);
    fails(rsaWith({ 6: null, 7: null, 8: null, 9: null }), 5, /the input ends in the row indices section after 0 of 5 row indices/);
    fails(hb(RSA) + '  1\n', 10, /data after the 5 lines the header declares \(TOTCRD\): "1"/);
    expect(read(hb(RSA) + '\n   \n')).toEqual([[4, 1, 0], [1, 5, 2], [0, 2, 6]]); // trailing blank lines are fine
  });

  it('values that contradict the type', () => {
    const herm = hb({ cards: [3, 1, 1, 1], type: 'CHA', dims: [1, 1, 1, 0], fmts: ['(2I2)', '(1I2)', '(2F6.1)'], data: [' 1 2', ' 1', '   2.0   0.5'] });
    fails(herm, 7, /Hermitian diagonal entry \(1, 1\) has imaginary part 0.5/);
    const skew = hb({ cards: [3, 1, 1, 1], type: 'RZA', dims: [1, 1, 1, 0], fmts: ['(2I2)', '(1I2)', '(1F6.1)'], data: [' 1 2', ' 1', '   1.0'] });
    fails(skew, 7, /diagonal entry \(1, 1\) = 1 of a skew-symmetric matrix must be 0/);
    const int = hb({ cards: [3, 1, 1, 1], type: 'IUA', dims: [1, 1, 1, 0], fmts: ['(2I2)', '(1I2)', '(1E10.2)'], data: [' 1 2', ' 1', '  1.50E+00'] });
    fails(int, 7, /value 1.5 \(entry 1\) is not an integer in an integer matrix \('IUA'\)/);
  });

  it('huge declared counts followed by nothing: refused at once, nothing allocated', () => {
    // 6·10⁷ columns and 2³¹−1 entries, line counts consistent with the formats.
    const ptr = Math.ceil(60000001 / 8), ind = Math.ceil(2147483647 / 8), val = Math.ceil(2147483647 / 3);
    const text = hb({ cards: [ptr + ind + val, ptr, ind, val], type: 'RUA', dims: [60000000, 60000000, 2147483647, 0], fmts: ['(8I10)', '(8I10)', '(3E26.18)'], data: ['         1         1'] });
    const t0 = performance.now();
    fails(text, 5, /pointers: field 3 of 8 .* is missing/);
    // Allocating for the declared counts would take gigabytes and seconds; a loaded CI machine can pause 0.2 s.
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it('inputs that are not HB text or a readable path', () => {
    fails('', 0, /empty input/);
    fails(42 as unknown as string, 0, /expected a path or the Harwell–Boeing text, got number/);
    fails('/no/such/file.rua', 0, /cannot open "\/no\/such\/file.rua"/);
    const dir = mkdtempSync(join(tmpdir(), 'rlx-hb-dir-'));
    try {
      fails(dir, 0, /cannot read the file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    fails('x'.repeat(2 << 20) + '\n', 1, /line longer than 1048576 characters/);
    expect(() => sp.readHarwellBoeing(hb(RSA), { dtype: 'int7' })).toThrow(/int7/);
  });
});

describe('files larger than the 1 MiB read chunk', () => {
  it('a 60,000×60,000 diagonal RUA file (2.8 MB, lines across chunk boundaries) reads exactly', () => {
    const n = 60000;
    const ints = (a: number[], per: number, w: number): string[] => {
      const out: string[] = [];
      for (let i = 0; i < a.length; i += per) out.push(a.slice(i, i + per).map((v) => String(v).padStart(w)).join(''));
      return out;
    };
    const ptr = ints(Array.from({ length: n + 1 }, (_, k) => k + 1), 8, 10);
    const ind = ints(Array.from({ length: n }, (_, k) => k + 1), 8, 10);
    // Value k is k + 0.5, written as (3E26.18): exact in float64.
    const vals = ints([], 1, 1);
    for (let k = 0; k < n; k += 3) vals.push([k, k + 1, k + 2].filter((v) => v < n).map((v) => (v + 0.5).toExponential(18).replace('e', 'E').replace(/E([+-])(\d)$/, 'E$10$2').padStart(26)).join(''));
    const text = hb({ cards: [ptr.length + ind.length + vals.length, ptr.length, ind.length, vals.length], type: 'RUA', dims: [n, n, n, 0], fmts: ['(8I10)', '(8I10)', '(3E26.18)'], data: [...ptr, ...ind, ...vals] });
    expect(text.length).toBeGreaterThan(2 << 20);
    const dir = mkdtempSync(join(tmpdir(), 'rlx-hb-big-'));
    try {
      writeFileSync(join(dir, 'd.rua'), text);
      const A = sp.readHarwellBoeing(join(dir, 'd.rua'));
      expect(A.shape).toEqual([n, n]);
      expect(Array.from(A.indptr)).toEqual(Array.from({ length: n + 1 }, (_, k) => k));
      expect(Array.from(A.indices)).toEqual(Array.from({ length: n }, (_, k) => k));
      expect(Array.from(A.data)).toEqual(Array.from({ length: n }, (_, k) => k + 0.5));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
