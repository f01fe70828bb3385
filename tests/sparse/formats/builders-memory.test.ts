// Memory of the PDE builders (src/sparse/builders.ts): the peak against the size
// of the result, and builds whose number[] triplets used to exhaust V8's heap and
// abort the process with an uncatchable fatal error (issue 13: poisson1d(4e7),
// diffusion2d(f, 5000), convectionDiffusion2d(5000) at the default heap limit; the
// same failure is reproduced here at 1/10 of the size under a 128 MiB heap, in a
// child process so that an abort fails this test instead of killing the runner).
// In its own file so the worker process is fresh: its peak RSS
// (process.resourceUsage().maxRSS) then reflects the builder, not earlier tests.

import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import * as sp from '../../../src/sparse/index.js';

const resultBytes = (A: sp.CsrMatrix): number => A.indptr.byteLength + A.indices.byteLength + A.data.byteLength;

/**
 * Growth of the process's peak RSS while `f` runs, measured from the current RSS
 * before it. If an earlier peak was higher this over-estimates, so a bound on it
 * cannot pass by accident.
 */
function peakGrowth<T>(f: () => T): { value: T; grown: number } {
  const before = process.memoryUsage().rss;
  const value = f();
  return { value, grown: process.resourceUsage().maxRSS * 1024 - before };
}

describe('builder memory', () => {
  it('peak memory of a mid-size build is about the result (≤ 1.25× + 24 MiB), not 3-7×', () => {
    const { value: A, grown } = peakGrowth(() => sp.poisson1d(4_000_000));
    expect(A.nnz).toBe(3 * 4_000_000 - 2);
    expect(grown).toBeLessThan(1.25 * resultBytes(A) + (24 << 20)); // result: 160 MB
    const { value: B, grown: g2 } = peakGrowth(() => sp.convectionDiffusion2d(1000));
    expect(g2).toBeLessThan(1.25 * resultBytes(B) + (24 << 20)); // result: 64 MB
  });

  it('builds bigger than the JS heap succeed: the arrays are typed, off the heap', () => {
    const n1 = 4_000_000, n2 = 1500, n3 = 60;
    const r = spawnSync(process.execPath, ['--max-old-space-size=128', 'tests/sparse/formats/builders-heap-child.mjs', `poisson1d=${n1}`, `convectionDiffusion2d=${n2}`, `diffusion2d=${n2}`, `poisson3d=${n3}`], { encoding: 'utf8', timeout: 120_000 });
    expect(r.stderr.slice(-2000)).not.toMatch(/FATAL|out of memory/i);
    expect(r.status, `child exited with ${r.status ?? r.signal}: ${r.stderr.slice(-2000)}`).toBe(0);
    const five = n2 * n2 + 4 * n2 * (n2 - 1);
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l))).toEqual([
      { name: 'poisson1d', nnz: 3 * n1 - 2 },
      { name: 'convectionDiffusion2d', nnz: five },
      { name: 'diffusion2d', nnz: five },
      { name: 'poisson3d', nnz: n3 ** 3 + 6 * n3 * n3 * (n3 - 1) },
    ]);
  });
});
