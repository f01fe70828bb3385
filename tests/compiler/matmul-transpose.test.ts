// Transposed products (passes/matmul-transpose.ts): a matmul read only through
// a transpose of its last two axes is computed as Bᵀ @ Aᵀ, so its consumers
// read it contiguously; a matmul operand that is a transpose of an unrealized
// elementwise node realizes that node, not a transposed copy of it
// (passes/fusion.ts). What must hold: the plan (the product's shape, no
// transposed copy kernel, the GEMM epilogue kept), the values (by the
// definition, in plain JS; bit for bit on js, whose sums run over k in the
// same order either way), and no rewrite where something else reads the
// untransposed product.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';

const quiet = { print: false };
const [m, k, n] = [5, 7, 3];
const grid = (r: number, c: number, s: number) => Array.from({ length: r }, (_, i) => Array.from({ length: c }, (_, j) => (((i * 5 + j * 3 + s) % 13) - 6) / 4));
const aRows = grid(k, m, 1); // A is k x m: Aᵀ @ B is m x n
const bRows = grid(k, n, 2);
/** (Aᵀ B)ᵀ by the definition: n x m. */
const want = Array.from({ length: n }, (_, j) => Array.from({ length: m }, (_, i) => aRows.reduce((s, row, t) => s + row[i]! * bRows[t]![j]!, 0)));
const pass = (plan: rlx.Plan) => plan.passes.find((p) => p.name === 'matmul-transpose')?.detail;

describe.each(DEVICES)('transposed products on %s', (device) => {
  const A = rlx.tensor(aRows).on(device).realize();
  const B = rlx.tensor(bRows).on(device).realize();

  it('(Aᵀ B)ᵀ read by elementwise ops is computed as Bᵀ A: an [n, m] product that takes them as its epilogue', () => {
    const y = A.transpose().matmul(B).transpose().mul(2).add(1);
    const plan = rlx.explain(y, quiet);
    expect(pass(plan)).toBe('1 turned');
    const mm = plan.kernels.find((q) => q.kind === 'matmul')!;
    expect(mm.out.shape).toEqual([n, m]);
    expect(plan.kernels.map((q) => q.kind)).toEqual(['matmul']);
    expect(mm.ops).toEqual(expect.arrayContaining(['mul', 'add']));
    const got = y.toArray() as Float64Array;
    want.flat().forEach((w, i) => {
      if (device === 'js') expect(got[i]).toBe(2 * w + 1);
      else expect(got[i]).toBeCloseTo(2 * w + 1, 12);
    });
  });

  it('not rewritten when the untransposed product is read too', () => {
    const p = A.transpose().matmul(B);
    const y = p.transpose().add(p.sum());
    const plan = rlx.explain(y, quiet);
    expect(pass(plan)).toBe('0 turned');
    expect(plan.kernels.find((q) => q.kind === 'matmul')!.out.shape).toEqual([m, n]);
    const s = want.flat().reduce((a, b) => a + b, 0);
    const got = y.toArray() as Float64Array;
    want.flat().forEach((w, i) => expect(got[i]).toBeCloseTo(w + s, 12));
  });

  it("a Linear layer's weight gradient is computed in the weight's layout, its GEMM keeping the ReLU-mask epilogue", () => {
    const { nn } = rlx;
    const model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 3));
    const x = rlx.tensor(grid(8, 4, 3)).cast('float32').on(device).realize();
    const y = rlx.tensor(Int32Array.from({ length: 8 }, (_, i) => i % 3)).on(device).realize();
    const [, g] = rlx.valueAndGrad((mm: typeof model) => nn.functional.crossEntropy(mm.forward(x), y))(model);
    const grads = rlx.tree.leaves(g);
    const plan = rlx.explain(grads, quiet);
    expect(pass(plan)).toBe('2 turned');
    const mms = plan.kernels.filter((q) => q.kind === 'matmul');
    // Two weight gradients in [out, in] layout, the input gradient of the hidden layer with the mask as epilogue.
    expect(mms.map((q) => q.out.shape)).toEqual(expect.arrayContaining([[6, 4], [3, 6]]));
    expect(mms.some((q) => q.ops.includes('gt'))).toBe(true);
    // No elementwise kernel writes a transposed copy: none reads through a permute.
    expect(plan.kernels.filter((q) => q.kind === 'elementwise').every((q) => !q.ops.includes('permute'))).toBe(true);
    // The weight gradients against finite differences of the loss in float64.
    const W = (model as unknown as { '0': { weight: rlx.Tensor } })['0'].weight;
    const gW = (g as unknown as { '0': { weight: rlx.Tensor } })['0'].weight.toArray() as Float32Array;
    const loss64 = (w: number[][]) => {
      const m64 = rlx.tree.map((t: rlx.Tensor) => t.cast('float64'), model);
      (m64 as unknown as { '0': { weight: rlx.Tensor } })['0'].weight = rlx.tensor(w).on(device);
      return nn.functional.crossEntropy(m64.forward(x.cast('float64')), y).item() as number;
    };
    const w0 = W.cast('float64').tolist() as number[][];
    for (const [i, j] of [[0, 0], [2, 3], [5, 1]] as const) {
      const h = 1e-6;
      const up = w0.map((r) => [...r]),
        dn = w0.map((r) => [...r]);
      up[i]![j]! += h;
      dn[i]![j]! -= h;
      expect(gW[i * 4 + j]).toBeCloseTo((loss64(up) - loss64(dn)) / (2 * h), 4);
    }
  });
});
