// Roots that are contiguous views (reshapes and contiguous slices of a realized
// buffer or of a registered op's output) are realized as a range of the base's data, with
// no compiled kernel; other views still compile. Values must be the same
// either way, on every device, and a small part must not keep a large base alive.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { ax, rg, s } from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';
import { viewRootOf } from '../../src/compiler/view-roots.js';

const ramp = (n: number) => Float64Array.from({ length: n }, (_, i) => i + 1);

describe.each(DEVICES)('view roots on %s', (device) => {
  it('slices and reshapes of a realized tensor: contiguous ones are views, the values are right either way', () => {
    const x = rlx.tensor(ramp(60)).reshape([3, 4, 5]).on(device).realize();
    const want = (t: rlx.Tensor) => Array.from(t.add(0).toArray());
    const cases: [rlx.Tensor, boolean][] = [
      [x.slice(s(1)), true], // one index of the first axis
      [x.slice(s(rg(1, 3))), true], // a range of the first axis
      [x.slice(s(2, rg(1, 3))), true], // one index, then a range
      [x.slice(s(1, 2, rg(1, 4))), true],
      [x.reshape([12, 5]), true],
      [x.reshape([60]).slice(s(rg(7, 19))).reshape([3, 4]), true],
      [x.slice(s(ax(), rg(1, 2))), false], // a range of the second axis in every row: strided
      [x.slice(s(rg(0, 3, 2))), false], // step 2
      [x.slice(s(ax(), ax(), rg(0, 2))), false],
    ];
    for (const [v, contiguous] of cases) {
      expect(viewRootOf(v.node) !== undefined, JSON.stringify(v.shape)).toBe(contiguous);
      const expected = want(v);
      expect(Array.from(v.realize().toArray())).toEqual(expected);
    }
  });

  it('outputs of a registered op are buffers of their own: q and r of qr, eigenvalues apart from eigenvectors (nothing larger kept alive)', () => {
    const a = rlx.complex(rlx.tensor(ramp(16)).reshape([4, 4]), rlx.tensor(ramp(16).reverse()).reshape([4, 4])).on(device).add(rlx.eye(4).mul(9)).realize();
    const { q, r } = rlx.linalg.qr(a);
    q!.realize();
    r.realize();
    expect(q!.node.data!.length).toBe(32); // 4x4 complex128, exactly
    expect(r.node.data!.length).toBe(32);
    const back = q!.matmul(r).sub(a).abs().max().item() as number;
    expect(back).toBeLessThan(1e-12);
    const h = a.add(a.swapaxes(0, 1).conj());
    const { eigenvalues: w, eigenvectors: v } = rlx.linalg.eigh(h);
    w.realize();
    expect(w.node.data).toBeInstanceOf(Float64Array); // real eigenvalues in their own dtype
    expect(w.node.data!.length).toBe(4);
    expect(v.node.op).toBe('buffer'); // computed by the same call, realized with it
    expect(v.node.data!.length).toBe(32);
    const res = h.matmul(v).sub(v.mul(w.cast('complex128').expandDims(0))).abs().max().item() as number;
    expect(res).toBeLessThan(1e-12);
  });
});

describe.each(DEVICES)('explain() of view roots on %s', (device) => {
  it('a factorization is one kernel writing every output, whichever outputs are asked for; no views', () => {
    const a = rlx.tensor(Float64Array.from({ length: 16 }, (_, i) => ((i * 7) % 5) + (i % 5 === 0 ? 4 : 0))).reshape([4, 4]).on(device).realize();
    const { q, r } = rlx.linalg.qr(a) as { q: rlx.Tensor; r: rlx.Tensor };
    for (const what of [q, r, [q, r]]) {
      const p = rlx.explain(what, { print: false });
      expect(p.kernels.map((k) => k.kind)).toEqual(['registered']);
      expect(p.kernels[0]!.out.shape).toEqual([4, 4]);
      expect(p.kernels[0]!.parts).toEqual([{ index: 1, buffer: expect.any(Number), shape: [4, 4], dtype: 'float64' }]);
      expect(p.views).toEqual([]);
    }
    const sum = rlx.explain(q.add(1), { print: false });
    expect(sum.views).toEqual([]);
    expect(sum.kernels.length).toBe(2);
  });

  it('a view of a realized buffer compiles nothing', () => {
    const x = rlx.tensor(ramp(12)).on(device).realize();
    const v = rlx.explain(x.reshape([3, 4]), { print: false });
    expect(v.views).toEqual([{ shape: [3, 4], dtype: 'float64', of: 'buffer', offset: 0, length: 12, copied: false }]);
    expect(v.kernels).toEqual([]);
  });
});
