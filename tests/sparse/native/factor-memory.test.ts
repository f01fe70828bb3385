// Disposing a large sparse factorization gives its memory back to the OS
// (issue 13, item 4). Under the native backend's malloc policy freed memory
// stays in the heap for the next kernel outputs, so without a trim on free a
// disposed factor (~100 MB here, 877 MB in the report) stayed resident until
// some unrelated allocation trimmed. The addon now trims after freeing a
// factorization of 32 MiB or more, keeping at most 64 MiB (the policy's warm
// heap) mapped. Measured in a child process (its VmRSS, Linux only) so the
// test runner's own heap does not blur it.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { STATUS, describeNative } from '../../native/native-harness.js';
import { UMFPACK_SKIP } from './util.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/factor-rss.mjs', import.meta.url));
const MiB = 2 ** 20;
/** What the trim keeps mapped at the heap's top (native/src/sparse/direct.cc kTrimKeep), plus slack for the process's own churn. */
const KEPT = 64 * MiB + 16 * MiB;

/** Factors a 160k-unknown Poisson matrix of `kind` in a child process and checks its RSS before, factored and after dispose(). */
function rssFallsBack(kind: string): void {
  const r = spawnSync(process.execPath, [FIXTURE, STATUS.path!, '400', kind], { encoding: 'utf8', timeout: 120_000 });
  expect(r.status, r.stderr.slice(-2000)).toBe(0);
  const { before, factored, disposed, held } = JSON.parse(r.stdout.trim()) as Record<string, number>;
  expect(held).toBeGreaterThan(64 * MiB); // large enough to tell a trim from the kept warm heap
  expect(factored - before).toBeGreaterThan(KEPT);
  expect(disposed - before, `RSS before ${before}, factored ${factored}, disposed ${disposed}`).toBeLessThan(KEPT);
}

describeNative('memory of disposed sparse factorizations', () => {
  // UMFPACK only when this build has it (UMFPACK_SKIP: left out on request).
  it.runIf(process.platform === 'linux').each(UMFPACK_SKIP ? ['cholmod'] : ['cholmod', 'umfpack'])('%s on a 160k-unknown Poisson matrix: RSS falls back after dispose()', rssFallsBack, 120_000);
  if (UMFPACK_SKIP) it.skip(`umfpack on a 160k-unknown Poisson matrix: RSS falls back after dispose() [skipped: ${UMFPACK_SKIP}]`, () => rssFallsBack('umfpack'));
});
