// Outputs that are a reshape of a computed node (a matmul's [n, 1] product
// returned as [n], a reduction's scalar returned as [1]) alias that node's
// buffer instead of being copied by a kernel of their own (passes/fusion.ts,
// passes/memory-plan.ts). What must hold: no copy kernel, the right values on
// every device, no two outputs sharing storage, an input's storage never handed
// out, and an aliased buffer never reused or overwritten by a later kernel.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';

const quiet = { print: false };
const n = 6;
/** A well-scaled n×n matrix and an n-vector, as plain arrays and as tensors. */
const aRows = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => ((i * 7 + j * 3) % 11) / 4 - 1 + (i === j ? 2 : 0)));
const vVals = Array.from({ length: n }, (_, i) => (i % 3) - 0.5 * i + 1);
/** A·v by the definition (plain JS). */
const matvec = (rows: number[][], v: number[]) => rows.map((r) => r.reduce((s, a, j) => s + a * v[j]!, 0));

describe.each(DEVICES)('outputs that alias a computed buffer on %s', (device) => {
  const A = rlx.tensor(aRows).on(device).realize();
  const v = rlx.tensor(vVals).on(device).realize();

  it('A.matmul(v) with v 1-D is one matmul kernel: the [n] result is the [n, 1] product, no copy', () => {
    const y = A.matmul(v);
    const plan = rlx.explain(y, quiet);
    expect(plan.kernels.map((k) => k.kind)).toEqual(['matmul']);
    expect(plan.buffers).toHaveLength(1);
    const got = Array.from(y.toArray() as Float64Array);
    matvec(aRows, vVals).forEach((w, i) => expect(got[i]).toBeCloseTo(w, 12));
    expect(y.shape).toEqual([n]);
  });

  it('a reduction reshaped to [1] is one reduce kernel with the right value', () => {
    const s = v.mul(v).sum().reshape([1]);
    const plan = rlx.explain(s, quiet);
    expect(plan.kernels.map((k) => k.kind)).toEqual(['reduce']);
    expect(s.shape).toEqual([1]);
    expect((s.toArray() as Float64Array)[0]).toBeCloseTo(vVals.reduce((a, x) => a + x * x, 0), 12);
  });

  it('in a jitted graph: the aliased buffer is read by later kernels and survives them; outputs never share storage', () => {
    // p = A v is an [n, 1] intermediate returned as [n] (aliased) and read again by
    // a second product whose [n, 1] intermediates, of p's size, must not reuse p's buffer.
    const f = rlx.jit((a: rlx.Tensor, x: rlx.Tensor) => {
      const p = a.matmul(x);
      const q = a.matmul(p.mul(2)).exp();
      const s = p.sum();
      // p twice (aliased once, copied once), the scalar as itself and as [1] (an output is not aliased).
      return [p, p.reshape([1, n]), q, s, s.reshape([1])];
    });
    const [p, p2, q, s, s1] = f(A, v) as rlx.Tensor[];
    const plan = rlx.explain(
      rlx.graph('f', (g) => {
        const a = g.input('a', [n, n]),
          x = g.input('x', [n]);
        const pp = a.matmul(x);
        return [pp, pp.reshape([1, n]), a.matmul(pp.mul(2)).exp(), pp.sum(), pp.sum().reshape([1])];
      }),
      quiet,
    );
    // Two products, the elementwise p·2, exp (fused after the second product or its own), the sum, and only the copies that must be.
    expect(plan.kernels.filter((k) => k.kind === 'matmul')).toHaveLength(2);
    const pWant = matvec(aRows, vVals);
    const qWant = matvec(aRows, pWant.map((x) => 2 * x)).map(Math.exp);
    const close = (t: rlx.Tensor, want: number[]) => Array.from(t.toArray() as Float64Array).forEach((x, i) => expect(x).toBeCloseTo(want[i]!, 9));
    close(p!, pWant);
    close(p2!, pWant);
    q!.toArray().forEach((x, i) => expect(x / qWant[i]!).toBeCloseTo(1, 12));
    close(s!, [pWant.reduce((a, x) => a + x, 0)]);
    close(s1!, [pWant.reduce((a, x) => a + x, 0)]);
    const storages = [p, p2, q, s, s1].map((t) => t!.node.data);
    expect(new Set(storages.map((d) => d!.buffer)).size).toBe(storages.length);
  });

  it("an output that reshapes an input is a copy: the caller's storage is never handed out", () => {
    const f = rlx.jit((x: rlx.Tensor) => x.reshape([2, n / 2]));
    const out = f(v) as rlx.Tensor;
    expect(out.node.data!.buffer).not.toBe(v.node.data!.buffer);
    expect(Array.from(out.toArray() as Float64Array)).toEqual(vVals);
  });

  it('repeated runs of one executable hand out fresh storage for an aliased output', () => {
    const f = rlx.jit((a: rlx.Tensor, x: rlx.Tensor) => a.matmul(x));
    const y1 = f(A, v) as rlx.Tensor;
    const y2 = f(A, v.mul(2).realize()) as rlx.Tensor;
    expect(y1.node.data!.buffer).not.toBe(y2.node.data!.buffer);
    const w = matvec(aRows, vVals);
    Array.from(y1.toArray() as Float64Array).forEach((x, i) => expect(x).toBeCloseTo(w[i]!, 12));
    Array.from(y2.toArray() as Float64Array).forEach((x, i) => expect(x).toBeCloseTo(2 * w[i]!, 12));
  });
});
