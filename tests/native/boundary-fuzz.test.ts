// A fuzz of the native boundary at a CI-sized budget (issue 13, item 5): the
// addon's kernel exports called with valid arguments mutated at random
// (shared and detached buffers, wrong lengths and types, the output passed as
// an input or overlapping it, bad numbers, missing arguments). Runs in a
// child process (tests/native/fixtures/boundary-fuzz.mjs) so a crash fails
// the test: 0 crashes, and every error carries the rlx class it maps to.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { STATUS, describeNative } from './native-harness.js';
import { UMFPACK_SKIP } from '../sparse/native/util.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/boundary-fuzz.mjs', import.meta.url));

describeNative('native boundary fuzz', () => {
  it.each([1, 2])('seed %i: 1500 mutated calls, no crash, no untyped error', (seed) => {
    const r = spawnSync(process.execPath, [FIXTURE, STATUS.path!, '1500', String(seed), ...(UMFPACK_SKIP ? ['--no-umfpack'] : [])], { encoding: 'utf8', timeout: 120_000 });
    expect(r.signal, `child died by a signal; stderr: ${r.stderr.slice(-2000)}`).toBeNull();
    expect(r.status, r.stderr.slice(-2000)).toBe(0);
    const s = JSON.parse(r.stdout.trim().split('\n').pop()!) as { calls: number; ok: number; typed: number; untyped: string[] };
    expect(s.untyped).toEqual([]);
    expect(s.calls).toBe(1500);
    expect(s.typed).toBeGreaterThan(0);
  }, 120_000);
});
