// Fuzzing the Harwell–Boeing reader (issue 13 §6, the Matrix Market reader's rules):
// mutated HB/RB files give a valid matrix or a HarwellBoeingError — never another
// error, a crash or a hang (each input bounded in time). Seeded: a failure's message
// carries the input. scripts/fuzz.mjs runs it RLX_FUZZ_SCALE times longer.

import { describe, expect, it } from 'vitest';
import * as sp from '../../../src/sparse/index.js';
import { HB_SEEDS, mutate, prng, readOutcome } from './hb-fuzz-core.js';

const SCALE = Math.max(1, Number(process.env['RLX_FUZZ_SCALE']) || 1);

describe('Harwell–Boeing fuzz', () => {
  it('the seeds are valid files', () => {
    for (const s of HB_SEEDS) expect(sp.readHarwellBoeing(s).nnz).toBeGreaterThan(0);
  });

  it(`${6000 * SCALE} mutated files: a matrix or a HarwellBoeingError, each read in bounded time`, () => {
    const rnd = prng(20240613);
    const counts = { ok: 0, error: 0 };
    const t0 = performance.now();
    let slowest = 0;
    for (let i = 0; i < 6000 * SCALE; i++) {
      const text = mutate(HB_SEEDS[i % HB_SEEDS.length]!, rnd);
      const t = performance.now();
      counts[readOutcome(text)]++;
      slowest = Math.max(slowest, performance.now() - t);
    }
    // Both outcomes occur: the mutations are neither all harmless nor all fatal.
    expect(counts.ok).toBeGreaterThan(300);
    expect(counts.error).toBeGreaterThan(3000);
    expect(slowest).toBeLessThan(1000); // one input: a few MiB at most, read linearly
    expect(performance.now() - t0).toBeLessThan(40000 * SCALE);
  });
});
