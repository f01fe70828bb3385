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
import type { ElementwiseKernel } from '../../src/compiler/kernel.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/interp-transfer.mjs', import.meta.url));
const N = 1 << 20;

// out[i] = (a[i] + b[i]) * 2: slots a = 0, b = 1, out = 2.
const ADD: ElementwiseKernel = {
  kind: 'elementwise',
  out: 2,
  outDType: 'float64',
  outShape: [N],
  fused: ['add', 'mul'],
  expr: {
    loads: [
      { slot: 0, dtype: 'float64', chain: [] },
      { slot: 1, dtype: 'float64', chain: [] },
    ],
    instrs: [
      { op: 'load', load: 0, dtype: 'float64' },
      { op: 'load', load: 1, dtype: 'float64' },
      { op: 'add', args: [0, 1], dtype: 'float64', attrs: {} },
      { op: 'const', value: 2, dtype: 'float64' },
      { op: 'mul', args: [2, 3], dtype: 'float64', attrs: {} },
    ],
  },
};

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
