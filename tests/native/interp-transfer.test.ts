// Async interpreter runs whose arrays are transferred away mid-flight (issue
// 13: "detach/transfer during flight must not touch freed memory"). The runs
// happen in a child process (tests/native/fixtures/interp-transfer.mjs) so that
// a segfault fails this test instead of killing the test runner. The expected
// values are exact: out = (a + b) * 2 on small integers.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { STATUS, describeNative } from './native-harness.js';
import { encodeElementwise } from '../../src/backends/native/program.js';
import { addTimesTwo } from './interp-harness.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/interp-transfer.mjs', import.meta.url));
const N = 1 << 20;

const ADD = addTimesTwo(N);

describeNative('interpRunAsync on arrays transferred while it runs', () => {
  it('an output transferred away rejects with a ValueError and is not written; inputs transferred and freed leave the result right', () => {
    const enc = encodeElementwise(ADD, [[N], [N], [N]]);
    const input = JSON.stringify({ program: Array.from(enc.program), consts: Array.from(enc.consts), loop: Array.from(enc.loop(new Map())), n: N });
    const r = spawnSync(process.execPath, ['--expose-gc', FIXTURE, STATUS.path!], { input, encoding: 'utf8', timeout: 120_000 });
    expect(r.signal, `child died by a signal; stderr: ${r.stderr.slice(-2000)}`).toBeNull();
    expect(r.status, r.stderr.slice(-2000)).toBe(0);
    const s = JSON.parse(r.stdout.trim().split('\n').pop()!) as unknown;
    expect(s).toEqual({
      outTransferred: { rejectedValueError: 12, otherRejection: [], resolved: 0, keptWritten: 0 },
      inTransferred: { right: 12, wrong: 0, rejected: [] },
    });
  }, 180_000);
});
