// The addon does not trust a caller's "validated" flag (found by the longer
// boundary fuzz, scripts/fuzz.mjs: sparseSpmm with validated = 1 and index
// values of 2^30 read far out of bounds and crashed the process). Every sparse
// product checks its indices, whatever the flag says; run in a child process
// so that a regression fails this test instead of killing the test runner.

import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { STATUS, describeNative } from './native-harness.js';

const CHILD = `
const A = require(process.argv[1]);
const I = (...v) => Int32Array.from(v), F = (...v) => Float64Array.from(v);
const bad = () => ['float64', 3, 3, I(0, 2, 5, 7), new Int32Array(7).fill(1 << 30), F(4, -1, -1, 4, -1, -1, 4)];
const out = [];
for (const [name, args] of [
  ['sparseSpmm', [...bad(), true, new Float64Array(6).fill(1), 2, new Float64Array(6), 1, 0, 0, 0]],
  ['sparseSpmm', [...bad(), 1, new Float64Array(6).fill(1), 2, new Float64Array(6), 1, 0, 0, 0]],
  ['sparseSpmv', [...bad(), 1, new Float64Array(3).fill(1), new Float64Array(3), 1, 0, 0, 0]],
  ['sparseSpmvH', [...bad(), true, new Float64Array(3).fill(1), new Float64Array(3), 1, 0, 0, 0]],
]) {
  try { A[name](...args); out.push(name + ': no error'); } catch (e) { out.push(name + ': ' + (e.rlxKind ?? 'untyped') + ' ' + e.message); }
}
console.log(JSON.stringify(out));
`;

describeNative('native sparse products do not trust "validated"', () => {
  it('out-of-range indices with validated = true / 1 are an IndexError-class error, not a crash', () => {
    const r = spawnSync(process.execPath, ['-e', CHILD, STATUS.path!], { encoding: 'utf8', timeout: 60_000 });
    expect(r.signal, r.stderr.slice(-2000)).toBeNull();
    expect(r.status, r.stderr.slice(-2000)).toBe(0);
    const lines = JSON.parse(r.stdout.trim()) as string[];
    expect(lines).toHaveLength(4);
    for (const l of lines) expect(l).toMatch(/: (IndexError|ValueError) .*(outside|index)/i);
  });
});
