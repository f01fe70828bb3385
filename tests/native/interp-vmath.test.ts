// exp, erf, gelu and sigmoid on the native block interpreter (four lanes at
// a time, native/src/interp/vmath.cc) give the js backend's bits: V8's
// Math.exp is fdlibm's exp, which the interpreter now computes operation for
// operation (splat/exp_fdlibm.h), and erf/erfc/gelu/sigmoid are ports of
// special.ts over it. Compared bit for bit (BigUint64 views of the doubles;
// any NaN equals any NaN) on float64 and float32, edge and random inputs,
// block sizes that are not multiples of four, through fused kernels and a
// softmax, and once more on the SSE2 build (a child process with
// RLX_INTERP_BASELINE=1, where the AVX2 one would otherwise be picked).

import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { describeNative } from './native-harness.js';
import { bitMismatches, edgeValues, randomValues } from './interp-vmath-cases.js';

type Op = 'exp' | 'erf' | 'gelu' | 'sigmoid';
const OPS: Op[] = ['exp', 'erf', 'gelu', 'sigmoid'];
const apply = (x: rlx.Tensor, op: Op): rlx.Tensor => x[op]();

function values(dtype: 'float32' | 'float64', device: string, xs: number[]): rlx.Tensor {
  return rlx.tensor(dtype === 'float32' ? Float32Array.from(xs) : Float64Array.from(xs), { device, dtype, shape: [xs.length] });
}

/** f on js and on native over xs; the bits must agree. */
function same(f: (x: rlx.Tensor) => rlx.Tensor, xs: number[], dtype: 'float32' | 'float64', what: string): void {
  const want = f(values(dtype, 'js', xs)).toArray() as ArrayLike<number>;
  const got = f(values(dtype, 'native', xs)).toArray() as ArrayLike<number>;
  const inputs = dtype === 'float32' ? Float32Array.from(xs) : xs;
  const m = bitMismatches(got, want, inputs);
  expect(m.count, `${what}: ${m.first.join('; ')}`).toBe(0);
}

describeNative('interpreter vector exp / erf / gelu / sigmoid: the js backend bit for bit', () => {
  const edges = edgeValues();
  const random = randomValues(20_000, 7);

  for (const dtype of ['float64', 'float32'] as const) {
    it(`${dtype}: edge values (thresholds, branch boundaries and their neighbours, specials)`, () => {
      for (const op of OPS) same((x) => apply(x, op), edges, dtype, `${op} ${dtype} edges`);
    });

    it(`${dtype}: 20,000 random values at four scales`, () => {
      for (const op of OPS) same((x) => apply(x, op), random, dtype, `${op} ${dtype} random`);
    });

    it(`${dtype}: lengths 1..9, 255, 257, 1029 (ragged ends of a four-lane loop and of 256-element blocks)`, () => {
      for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9, 255, 257, 1029])
        for (const op of OPS) same((x) => apply(x, op), random.slice(3 * n, 4 * n), dtype, `${op} ${dtype} n=${n}`);
    });

    it(`${dtype}: fused kernels (x·2 → exp → +1, gelu(x)·x, sigmoid(erf(x)) − exp(−x²)) and a softmax`, () => {
      const xs = random.slice(0, 4096).map((v) => v / 8);
      same((x) => x.mul(2).exp().add(1), xs, dtype, `exp fused ${dtype}`);
      same((x) => x.gelu().mul(x), xs, dtype, `gelu fused ${dtype}`);
      same((x) => x.erf().sigmoid().sub(x.square().neg().exp()), xs, dtype, `erf/sigmoid fused ${dtype}`);
      const rows = (x: rlx.Tensor) => rlx.nn.functional.softmax(x.reshape([32, 128]).mul(3), -1).reshape([4096]);
      same(rows, xs, dtype, `softmax ${dtype}`);
    });
  }

  it('a strided (transposed) and a broadcast operand read through the double path', () => {
    const xs = random.slice(0, 37 * 41);
    for (const op of OPS) {
      same((x) => apply(x.reshape([37, 41]).transpose(), op).reshape([37 * 41]), xs, 'float32', `${op} transposed`);
      same((x) => apply(x.reshape([37, 41]).mul(0.5).add(x.reshape([37, 41]).max(0, true)), op).reshape([37 * 41]), xs, 'float64', `${op} broadcast`);
    }
  });

  it('the SSE2 build (RLX_INTERP_BASELINE=1 in a child process) gives the same bits', () => {
    const r = spawnSync(process.execPath, ['tests/native/interp-vmath-child.mjs'], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, RLX_INTERP_BASELINE: '1' },
    });
    expect(r.status, `child failed: ${r.stderr}`).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { what: string; count: number; first: string[] });
    expect(lines.length).toBe(2 * 2 * OPS.length);
    for (const l of lines) expect(l.count, `${l.what}: ${l.first.join('; ')}`).toBe(0);
  });
});
