// The Matrix Market fuzzer shared by fuzz.test.ts (a CI-sized budget in `npm test`)
// and scripts/fuzz-mm.mjs (as long as you like): seeded mutations of valid files,
// including the inputs that used to crash or hang the reader (very long lines and
// number tokens, upper-triangle entries, integers beyond int32, stray whitespace),
// and the one rule: every input gives a valid canonical CSR matrix or a
// MatrixMarketError — never another error type. No vitest imports, so the script
// can load it.

import * as sp from '../../../src/sparse/index.js';
import { validateCompressed } from '../../../src/sparse/validate.js';
export { mulberry32 as prng } from '../../harness/prng.js';

export const MM_SEEDS: string[] = [
  '%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 1\n2 2 -2.5e3\n3 1 4\n1 3 .5\n',
  '%%MatrixMarket matrix coordinate complex hermitian\n3 3 3\n1 1 1 0\n2 1 3 -4\n1 3 2 2\n',
  '%%MatrixMarket matrix array integer skew-symmetric\n3 3\n1\n2\n3\n',
  '%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n2 1\n3 3 7\n1 2 1 1\n',
  '%%MatrixMarket matrix coordinate integer symmetric\n3 3 3\n1 2 -2147483648\n3 3 99999999999\n2 1 1\n',
  '%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n1 2 1D-3\n3 2 -inf\n',
  '%%MatrixMarket matrix array complex general\n2 2\n1 2\n3 4\n5 6\n7 8\n',
  '%%MatrixMarket matrix array real symmetric\n% c\n2 2\n1.5\n-2\n3e2\n',
];
const ATOMS = ['0', '1', '9', '-', '+', '.', 'e', 'E', 'D', 'd', ' ', '\t', '\n', '\r\n', '\r', '\v', '%', 'x', 'nan', '-inf', 'Infinity', '__proto__', '99999999999', '2147483648', '-2147483648', '-1', '1e308', '1e-400', '%%MatrixMarket', 'matrix', 'array', 'coordinate', 'complex', 'pattern', 'hermitian', 'symmetric', 'skew-symmetric', 'integer', '\u00e9', '\uFEFF', '\u00a0', '\0'];

/** A long run (up to ~3 MiB, past the 1 MiB line limit) of one of a few characters. */
function longRun(rnd: () => number): string {
  const c = ['1', '0', ' ', '%', 'e', '.', '9 ', '\t'][Math.floor(rnd() * 8)]!;
  const len = Math.floor(2 ** (4 + rnd() * 18)); // 16 … 4M characters, log-uniform
  return c.repeat(Math.ceil(len / c.length));
}

export function mutate(text: string, rnd: () => number, opts: { long?: boolean } = {}): string {
  let t = text;
  const k = 1 + Math.floor(rnd() * 4);
  for (let r = 0; r < k; r++) {
    const pos = Math.floor(rnd() * (t.length + 1));
    const lines = t.split('\n');
    const li = Math.floor(rnd() * lines.length);
    const pick = (a: string[]): string => a[Math.floor(rnd() * a.length)]!;
    switch (Math.floor(rnd() * (opts.long ? 11 : 10))) {
      case 0: t = t.slice(0, pos) + t.slice(pos + 1 + Math.floor(rnd() * 3)); break; // delete chars
      case 1: t = t.slice(0, pos) + pick(ATOMS) + t.slice(pos); break; // insert an atom
      case 2: lines.splice(li, 1); t = lines.join('\n'); break; // drop a line
      case 3: lines.splice(li, 0, pick(lines)); t = lines.join('\n'); break; // duplicate a line
      case 4: { // replace a token
        const toks = lines[li]!.split(' ');
        toks[Math.floor(rnd() * toks.length)] = pick(ATOMS);
        lines[li] = toks.join(' ');
        t = lines.join('\n');
        break;
      }
      case 5: t = t.slice(0, Math.floor(rnd() * t.length)); break; // truncate
      case 6: t = t.replace(/\d+/, String(Math.floor(rnd() * 20) - 3)); break; // change a size
      case 7: { // swap row and column of an entry (upper-triangle entries of symmetric files)
        const toks = lines[li]!.split(' ');
        if (toks.length >= 2) [toks[0], toks[1]] = [toks[1]!, toks[0]!];
        lines[li] = toks.join(' ');
        t = lines.join('\n');
        break;
      }
      case 8: t = t.slice(0, pos) + '\n% ' + pick(ATOMS) + '\n' + t.slice(pos); break; // a comment line
      case 9: t = t.slice(0, pos) + String.fromCharCode(Math.floor(rnd() * 128)) + t.slice(pos); break; // random char
      default: t = t.slice(0, pos) + longRun(rnd) + t.slice(pos); // a very long run: long lines and tokens
    }
  }
  return t;
}

export type Outcome = 'ok' | 'error';

/**
 * Reads `text`: 'ok' for a valid canonical CSR result, 'error' for a
 * MatrixMarketError; anything else throws an Error that carries the input.
 */
export function readOutcome(text: string, maxDimension = 1e5): Outcome {
  let A: sp.CsrMatrix;
  try {
    // maxDimension bounds the CSR indptr a mutated size line can demand, keeping runs fast.
    A = sp.readMatrixMarket(text.includes('\n') || text.startsWith('%%') ? text : text + '\n', { maxDimension });
  } catch (e) {
    if (e instanceof sp.MatrixMarketError) {
      if (!(Number.isInteger(e.line) && e.line >= 0)) throw new Error(`MatrixMarketError with line ${e.line} for input ${show(text)}`);
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
  const lanes = A.dtype === 'complex128' ? 2 : 1;
  if (A.data.length !== A.nnz * lanes) throw new Error(`data length ${A.data.length} ≠ nnz·lanes for input ${show(text)}`);
  return 'ok';
}

/** The input for a message, long runs abbreviated. */
export const show = (text: string): string => JSON.stringify(text.replace(/(.)\1{63,}/gs, (m, c: string) => `${c.repeat(8)}⟨×${m.length}⟩`));
