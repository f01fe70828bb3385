// Fuzzing: malformed Matrix Market texts and random (mostly invalid) CSR arrays
// must either give a valid matrix or a typed error (MatrixMarketError /
// SparseFormatError) — never a TypeError/RangeError, a crash or a hang.
// Deterministic (seeded) so a failure is reproducible: the message carries the input.

import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as sp from '../../../src/sparse/index.js';
import { expectValid, arbCase, build, DTYPES } from './helpers.js';
import { MM_SEEDS, mutate as mutateMM, prng as prngMM, readOutcome as outcomeMM } from './mm-fuzz-core.js';

// scripts/fuzz.mjs runs these property fuzzes longer (RLX_FUZZ_SCALE times the CI-sized budget).
const SCALE = Math.max(1, Number(process.env['RLX_FUZZ_SCALE']) || 1);

const here = dirname(fileURLToPath(import.meta.url));


const SEEDS: string[] = [
  ...readdirSync(join(here, 'fixtures')).map((f) => readFileSync(join(here, 'fixtures', f), 'utf8')),
  '%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 1\n2 2 -2.5e3\n3 1 4\n1 3 .5\n',
  '%%MatrixMarket matrix coordinate complex hermitian\n2 2 2\n1 1 1 0\n2 1 3 -4\n',
  '%%MatrixMarket matrix array integer skew-symmetric\n3 3\n1\n2\n3\n',
  '%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 3\n',
];
const ATOMS = ['0', '1', '9', '-', '+', '.', 'e', 'E', 'D', ' ', '\t', '\n', '\r\n', '%', 'x', 'nan', 'inf', '99999999999', '2147483648', '-1', '1e308', '%%MatrixMarket', 'matrix', 'array', 'coordinate', 'complex', 'pattern', 'hermitian', 'symmetric', '\u00e9', '\uFEFF'];

function mutate(text: string, rnd: () => number): string {
  let t = text;
  const k = 1 + Math.floor(rnd() * 4);
  for (let r = 0; r < k; r++) {
    const pos = Math.floor(rnd() * (t.length + 1));
    const lines = t.split('\n');
    const li = Math.floor(rnd() * lines.length);
    switch (Math.floor(rnd() * 8)) {
      case 0: t = t.slice(0, pos) + t.slice(pos + 1 + Math.floor(rnd() * 3)); break; // delete chars
      case 1: t = t.slice(0, pos) + ATOMS[Math.floor(rnd() * ATOMS.length)] + t.slice(pos); break; // insert atom
      case 2: lines.splice(li, 1); t = lines.join('\n'); break; // drop a line
      case 3: lines.splice(li, 0, lines[Math.floor(rnd() * lines.length)]!); t = lines.join('\n'); break; // duplicate a line
      case 4: { // replace a token
        const toks = lines[li]!.split(' ');
        toks[Math.floor(rnd() * toks.length)] = ATOMS[Math.floor(rnd() * ATOMS.length)]!;
        lines[li] = toks.join(' ');
        t = lines.join('\n');
        break;
      }
      case 5: t = t.slice(0, Math.floor(rnd() * t.length)); break; // truncate
      case 6: t = t.replace(/\d+/, String(Math.floor(rnd() * 20) - 3)); break; // change a size
      default: t = t.slice(0, pos) + String.fromCharCode(Math.floor(rnd() * 128)) + t.slice(pos); // random char
    }
  }
  return t;
}

/** Reads; returns 'ok' or 'error' and fails the test on any other outcome. */
function readOutcome(text: string): 'ok' | 'error' {
  try {
    // maxDimension bounds the CSR indptr a mutated size line can demand, keeping the run fast.
    const A = sp.readMatrixMarket(text.includes('\n') || text.startsWith('%%') ? text : text + '\n', { maxDimension: 1e5 });
    expectValid(A, true);
    return 'ok';
  } catch (e) {
    if (e instanceof sp.MatrixMarketError) return 'error';
    throw new Error(`untyped ${(e as Error).name} for input ${JSON.stringify(text)}: ${(e as Error).message}`);
  }
}

describe('fuzz', () => {
  it('12,000 mutated Matrix Market texts: a matrix or a MatrixMarketError', () => {
    const rnd = prngMM(20240611);
    const counts = { ok: 0, error: 0 };
    const t0 = performance.now();
    for (let i = 0; i < 12000; i++) counts[readOutcome(mutate(SEEDS[i % SEEDS.length]!, rnd))]++;
    // Both outcomes occur: the mutations are neither all harmless nor all fatal.
    expect(counts.ok).toBeGreaterThan(500);
    expect(counts.error).toBeGreaterThan(3000);
    expect(performance.now() - t0).toBeLessThan(8000);
  });

  it('4,000 inputs of the extended mutator (long lines and tokens, upper triangles, wide integers): no crash, no hang, only MatrixMarketError', () => {
    // scripts/fuzz-mm.mjs runs the same mutator for as long as asked (with a watchdog for hangs).
    const rnd = prngMM(13);
    const counts = { ok: 0, error: 0 };
    const t0 = performance.now();
    let slowest = 0;
    for (let i = 0; i < 4000; i++) {
      const text = mutateMM(MM_SEEDS[i % MM_SEEDS.length]!, rnd, { long: true });
      const t = performance.now();
      counts[outcomeMM(text)]++;
      slowest = Math.max(slowest, performance.now() - t);
    }
    expect(counts.ok).toBeGreaterThan(200);
    expect(counts.error).toBeGreaterThan(1000);
    expect(slowest).toBeLessThan(1000); // one input: a few MiB at most, read linearly
    expect(performance.now() - t0).toBeLessThan(30000);
  });

  it('arbitrary strings after a valid banner', () => {
    fc.assert(
      fc.property(fc.constantFrom('coordinate real general', 'array complex general', 'coordinate integer symmetric'), fc.string({ maxLength: 60 }), (kind, body) => {
        readOutcome(`%%MatrixMarket matrix ${kind}\n${body}`);
      }),
      { numRuns: 2000 * SCALE, seed: 7 },
    );
  });

  it('random CSR arrays: a valid matrix (whose ops then work) or a SparseFormatError', () => {
    const anyNum = fc.oneof(fc.integer({ min: -3, max: 8 }), fc.constantFrom(NaN, 1.5, 2 ** 31, -(2 ** 31) - 1, Infinity, -0));
    // Valid arrays (from random triplets, unsorted, with duplicates), then one or no corruption.
    const valid = arbCase({ maxDim: 5 }).map((c) => {
      const A = build(c) as sp.CsrMatrix;
      return { shape: [...A.shape] as unknown[], indptr: Array.from(A.indptr) as unknown[], indices: Array.from(A.indices) as unknown[], nData: A.nnz, dtype: c.dtype };
    });
    const arb = fc.record({
      base: fc.oneof(
        valid,
        fc.record({ shape: fc.tuple(anyNum, anyNum), indptr: fc.array(anyNum, { maxLength: 7 }), indices: fc.array(anyNum, { maxLength: 8 }), nData: fc.nat(9), dtype: fc.constantFrom(...DTYPES) }),
      ),
      mut: fc.tuple(fc.constantFrom('none', 'none', 'indptr', 'indices', 'shape', 'data'), fc.nat(20), anyNum),
      fmt: fc.constantFrom('csr', 'csc'),
    });
    let ok = 0, rejected = 0;
    fc.assert(
      fc.property(arb, ({ base, mut: [where, at, v], fmt }) => {
        const b = { ...base, indptr: [...base.indptr], indices: [...base.indices], shape: [...base.shape] };
        if (where === 'indptr' && b.indptr.length) b.indptr[at % b.indptr.length] = v;
        if (where === 'indices' && b.indices.length) b.indices[at % b.indices.length] = v;
        if (where === 'shape') b.shape[at % 2] = v;
        if (where === 'data') b.nData = Math.max(0, b.nData + (at % 2 ? 1 : -1));
        const l = b.dtype.startsWith('complex') ? 2 : 1;
        const data = new Float64Array(b.nData * l).map((_, i) => (i % 5) - 2);
        let A: sp.CsrMatrix | sp.CscMatrix;
        try {
          A = (fmt === 'csr' ? sp.csr : sp.csc)({ indptr: b.indptr as number[], indices: b.indices as number[], data, shape: b.shape as [number, number], dtype: b.dtype });
        } catch (e) {
          if (e instanceof sp.SparseFormatError) {
            rejected++;
            return;
          }
          throw e;
        }
        ok++;
        expectValid(A);
        const [m, n] = A.shape;
        const y = sp.raw.matvec(A, new Float64Array(n * l).map((_, i) => (i % l === 0 ? 1 : 0)));
        const D = A.toDense().toArray();
        for (let i = 0; i < m; i++)
          for (let t = 0; t < l; t++) {
            let s = 0;
            for (let j = 0; j < n; j++) s += D[(i * n + j) * l + t]!;
            expect(y[i * l + t]).toBeCloseTo(s, 9);
          }
        expectValid(A.sumDuplicates(), true);
        expectValid(A.tocsc());
        expectValid(A.transpose().tocsr());
      }),
      { numRuns: 4000 * SCALE, seed: 11 },
    );
    expect(ok).toBeGreaterThan(400);
    expect(rejected).toBeGreaterThan(1000);
  });
});
