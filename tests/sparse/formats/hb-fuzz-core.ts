// The Harwell–Boeing fuzzer shared by hb-fuzz.test.ts (a CI-sized budget) and
// scripts/fuzz.mjs (longer, RLX_FUZZ_SCALE): seeded mutations of valid HB/RB files
// of every assembled type — truncation, byte flips, dropped and duplicated lines,
// huge or negative counts in the fixed header columns, other formats, very long
// runs — and the one rule: every input gives a valid canonical CSR matrix of the
// header's shape or a HarwellBoeingError with a line number, never another error.
// Uses the seeded generator of mm-fuzz-core.ts. No vitest imports.

import * as sp from '../../../src/sparse/index.js';
import { validateCompressed } from '../../../src/sparse/validate.js';
import { prng, show } from './mm-fuzz-core.js';

export { prng, show };

const i14 = (...n: number[]): string => n.map((v) => String(v).padStart(14)).join('');
const file = (cards: number[], type: string, dims: number[], fmts: string[], data: string[], extra: string[] = []): string =>
  ['fuzz seed'.padEnd(72) + 'SEED', i14(...cards), type + ' '.repeat(11) + i14(...dims), fmts[0]!.padEnd(16) + fmts[1]!.padEnd(16) + (fmts[2] ?? '').padEnd(20) + (fmts[3] ?? ''), ...extra, ...data].join('\n') + '\n';

export const HB_SEEDS: string[] = [
  file([5, 1, 1, 3], 'RSA', [3, 3, 5, 0], ['(4I3)', '(5I3)', '(2D12.4)'], ['  1  3  5  6', '  1  2  2  3  3', '  0.4000D+01  0.1000D+01', '  0.5000D+01  0.2000D+01', '  0.6000D+01']),
  file([3, 1, 1, 1], 'RUA', [2, 3, 4, 0], ['(4I1)', '(4I1)', '(4E9.1)'], ['1245', '1122', '-1.0E+100 2.5E-100-3.0E+100  1.0E+00']),
  file([3, 1, 1, 1], 'RUA', [1, 3, 3, 0], ['(4I2)', '(3I2)', '(3E12.4)'], [' 1 2 3 4', ' 1 1 1', '  0.1000-101 -0.2500+102  0.3000+000']),
  file([4, 1, 1, 2], 'CUA', [2, 2, 3, 0], ['(3I2)', '(3I2)', '(4E10.2)'], [' 1 3 4', ' 1 2 2', '  1.00E+00  2.00E+00 -3.00E+00  5.00E-01', '  0.00E+00 -4.00E+00']),
  file([3, 1, 1, 1], 'CHA', [2, 2, 3, 0], ['(3I2)', '(3I2)', '(6F6.1)'], [' 1 3 4', ' 1 2 2', '   2.0   0.0   1.0   1.0   3.0   0.0']),
  file([3, 1, 1, 1], 'RZA', [3, 3, 3, 0], ['(4I2)', '(3I2)', '(3G10.3)'], [' 1 3 4 4', ' 2 3 3', '       2.0      -1.0       4.0']),
  file([2, 1, 1, 0], 'PSA', [3, 3, 2, 0], ['(4I2)', '(2I2)'], [' 1 2 2 3', ' 2 3']),
  file([3, 1, 1, 1], 'ISA', [2, 2, 2, 0], ['(3I2)', '(2I2)', '(2I13)'], [' 1 3 3', ' 1 2', '           -7 123456789012']),
  file([3, 1, 1, 1], 'rra', [2, 3, 3, 0], ['(8I10)', '(8I10)', '(3E26.18)'], ['         1         2         3         4', '         1         2         1', '  5.000000000000000000E-01 -1.250000000000000000E+00  1.000000000000000000E-05']),
  file([4, 1, 1, 1, 1], 'RUA', [2, 2, 2, 0], ['(3I2)', '(2I2)', '(2E10.2)', '(2E10.2)'], [' 1 2 3', ' 1 2', '  1.00E+00  2.00E+00', '  5.00E+00  6.00E+00'], ['F             1             0']),
  // SciPy's hb_write: E fields one column narrower than (3E25.16) declares.
  file([4, 1, 1, 2], 'RUA', [3, 3, 5, 0], ['(40I2)', '(40I2)', '(3E25.16)'], [' 1 3 4 6', ' 1 3 2 1 3', '  1.5000000000000000E+00  4.0000000000000000E+10 -3.2500000000000000E+00', '-2.0000000000000001E-300  5.0000000000000000E+00']),
];

const ATOMS = ['0', '1', '9', '-', '+', '.', 'E', 'D', 'd', 'e', ' ', '  ', '\t', '\n', '\r\n', '\r', '(', ')', ',', 'I', 'P', 'X', '|', '99999999999', '2147483647', '2147483648', '-1', '1e308', 'NaN', 'inf', '(1I1)', '(99999I99)', '(1P,3E26.18)', '(0I3)', '(3E0.0)', 'RUA', 'CHA', 'PSA', 'RZE', 'QUA', '\u00e9', '\uFEFF', '\0'];

/** A long run (16 … 4M characters, log-uniform): past the 1 MiB line limit, or long tokens and fields. */
function longRun(rnd: () => number): string {
  const c = ['1', '0', ' ', 'E', '.', '9 ', '\t'][Math.floor(rnd() * 7)]!;
  return c.repeat(Math.ceil(Math.floor(2 ** (4 + rnd() * 18)) / c.length));
}

export function mutate(text: string, rnd: () => number): string {
  let t = text;
  const k = 1 + Math.floor(rnd() * 3);
  const pick = <T>(a: T[]): T => a[Math.floor(rnd() * a.length)]!;
  for (let r = 0; r < k; r++) {
    const pos = Math.floor(rnd() * (t.length + 1));
    const lines = t.split('\n');
    const li = Math.floor(rnd() * lines.length);
    switch (Math.floor(rnd() * 12)) {
      case 0: t = t.slice(0, pos) + t.slice(pos + 1 + Math.floor(rnd() * 3)); break; // delete characters
      case 1: t = t.slice(0, pos) + pick(ATOMS) + t.slice(pos); break; // insert an atom
      case 2: t = t.slice(0, pos) + String.fromCharCode(Math.floor(rnd() * 128)) + t.slice(pos + 1); break; // flip a byte
      case 3: lines.splice(li, 1); t = lines.join('\n'); break; // drop a line
      case 4: lines.splice(li, 0, pick(lines)); t = lines.join('\n'); break; // duplicate a line
      case 5: t = t.slice(0, Math.floor(rnd() * t.length)); break; // truncate
      case 6: { // a count of header line 2 or 3 (I14 columns) replaced: huge, negative, off by one
        const h = 1 + Math.floor(rnd() * 2);
        const col = (h === 2 ? 14 : 0) + 14 * Math.floor(rnd() * 4);
        const v = pick([2147483647, 2147483648, 99999999999, -1, 0, 1, 2, 3, 4, 7, 60000000, 1 << 26]);
        const l = (lines[h] ?? '').padEnd(col + 14);
        lines[h] = l.slice(0, col) + String(v).padStart(14).slice(-14) + l.slice(col + 14);
        t = lines.join('\n');
        break;
      }
      case 7: t = t.replace(/\d/g, (d) => (rnd() < 0.1 ? String((Number(d) + 1 + Math.floor(rnd() * 8)) % 10) : d)); break; // change some digits
      case 8: { // swap two lines
        const lj = Math.floor(rnd() * lines.length);
        [lines[li], lines[lj]] = [lines[lj]!, lines[li]!];
        t = lines.join('\n');
        break;
      }
      case 9: lines[3] = pick(['(1I1)', '(8I10)', '(2E9.1)', '(1P5E16.8)', '(3F8.3)', '(I3)', '(4D12.4)', '(26I3)']) + ' ' + (lines[3] ?? ''); t = lines.join('\n'); break; // another format first
      case 10: lines[2] = pick(['RUA', 'RSA', 'CHA', 'CZA', 'PUA', 'PZA', 'IUA', 'QSA', 'RUE', 'rsa', 'XYZ', 'R']) + (lines[2] ?? '').slice(3); t = lines.join('\n'); break; // another type
      default: t = t.slice(0, pos) + longRun(rnd) + t.slice(pos); // a very long run
    }
  }
  return t;
}

export type Outcome = 'ok' | 'error';

/** 'ok' for a valid canonical CSR of the header's shape, 'error' for a HarwellBoeingError; anything else throws with the input. */
export function readOutcome(text: string, maxDimension = 1e5): Outcome {
  const input = text.includes('\n') ? text : text + '\n'; // never read as a path
  let A: sp.CsrMatrix;
  try {
    A = sp.readHarwellBoeing(input, { maxDimension });
  } catch (e) {
    if (e instanceof sp.HarwellBoeingError) {
      if (!(Number.isInteger(e.line) && e.line >= 0)) throw new Error(`HarwellBoeingError with line ${e.line} for input ${show(text)}`);
      return 'error';
    }
    throw new Error(`untyped ${(e as Error)?.name} for input ${show(text)}: ${(e as Error)?.message}`);
  }
  let flags: { canonical: boolean };
  try {
    flags = validateCompressed('csr', A.shape, A.indptr, A.indices, A.nnz);
  } catch (e) {
    throw new Error(`invalid CSR result (${(e as Error).message}) for input ${show(text)}`);
  }
  if (!flags.canonical) throw new Error(`non-canonical result for input ${show(text)}`);
  const h = sp.readHarwellBoeingHeader(input, { maxDimension });
  if (A.shape[0] !== h.rows || A.shape[1] !== h.cols) throw new Error(`shape ${A.shape} ≠ header ${h.rows}×${h.cols} for input ${show(text)}`);
  if (A.nnz > (h.structure === 'unsymmetric' || h.structure === 'rectangular' ? h.nnz : 2 * h.nnz)) throw new Error(`nnz ${A.nnz} beyond the ${h.nnz} stored entries for input ${show(text)}`);
  if (A.data.length !== A.nnz * (A.dtype === 'complex128' ? 2 : 1)) throw new Error(`data length ${A.data.length} ≠ nnz·lanes for input ${show(text)}`);
  return 'ok';
}
