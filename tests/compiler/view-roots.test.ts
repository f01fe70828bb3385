// Roots that are contiguous views (reshapes and contiguous slices of a realized
// buffer or of a linalg node) are realized as a range of the base's data, with
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

  it('complex parts of a linalg node: q and r of qr share its buffer, eigenvalues are copied out', () => {
    const a = rlx.complex(rlx.tensor(ramp(16)).reshape([4, 4]), rlx.tensor(ramp(16).reverse()).reshape([4, 4])).on(device).add(rlx.eye(4).mul(9)).realize();
    const { q, r } = rlx.linalg.qr(a);
    q!.realize();
    r.realize();
    expect(q!.node.data!.buffer).toBe(r.node.data!.buffer);
    const back = q!.matmul(r).sub(a).abs().max().item() as number;
    expect(back).toBeLessThan(1e-12);
    const h = a.add(a.swapaxes(0, 1).conj());
    const { eigenvalues: w, eigenvectors: v } = rlx.linalg.eigh(h);
    v.realize();
    w.realize();
    expect(w.node.data!.buffer).not.toBe(v.node.data!.buffer); // 4 values of a 4 + 16 element pack: copied
    const res = h.matmul(v).sub(v.mul(w.cast('complex128').expandDims(0))).abs().max().item() as number;
    expect(res).toBeLessThan(1e-12);
  });
});

describe.each(DEVICES)('explain() of view roots on %s', (device) => {
  it('lists a factorization part as a view of the linalg output, not as a copy kernel', () => {
    const a = rlx.tensor(Float64Array.from({ length: 16 }, (_, i) => ((i * 7) % 5) + (i % 5 === 0 ? 4 : 0))).reshape([4, 4]).on(device).realize();
    const { q, r } = rlx.linalg.qr(a) as { q: rlx.Tensor; r: rlx.Tensor };
    const one = rlx.explain(q, { print: false });
    expect(one.kernels.map((k) => k.kind)).toEqual(['registered']);
    expect(one.views).toEqual([{ shape: [4, 4], dtype: 'float64', of: 'registered', offset: 0, length: 16, copied: false }]);
    expect(one.toString()).toContain('views (no kernel):');
    const both = rlx.explain([q, r], { print: false });
    expect(both.kernels.length).toBe(1);
    expect(both.views.length).toBe(2);
    // A computed (non-view) tensor still shows its kernels and no views.
    const sum = rlx.explain(q.add(1), { print: false });
    expect(sum.views).toEqual([]);
    expect(sum.kernels.length).toBe(2);
  });

  it('a small part (eigenvalues) is marked as copied out, and a view of a realized buffer compiles nothing', () => {
    const a = rlx.tensor(Float64Array.from([2, 1, 0, 1, 3, 1, 0, 1, 4])).reshape([3, 3]).on(device).realize();
    const { eigenvalues } = rlx.linalg.eigh(a);
    const p = rlx.explain(eigenvalues, { print: false });
    expect(p.views.length).toBe(1);
    expect(p.views[0]!.copied).toBe(true);
    const x = rlx.tensor(ramp(12)).on(device).realize();
    const v = rlx.explain(x.reshape([3, 4]), { print: false });
    expect(v.views).toEqual([{ shape: [3, 4], dtype: 'float64', of: 'buffer', offset: 0, length: 12, copied: false }]);
    expect(v.kernels).toEqual([]);
  });
});
