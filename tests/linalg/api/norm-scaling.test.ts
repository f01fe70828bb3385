// linalg.norm without overflow or underflow (issue 13): the orders that raise
// entries to a power (vector 2 and p > 0, Frobenius, the default norm of any
// rank) scale by the largest modulus like LAPACK's nrm2, so [1e20] in float32
// and [1e200] in float64 are 1e20 and 1e200, not inf, and tiny entries do not
// flush to 0. Expected values are exact (Pythagorean triples, powers of the
// same value); the gradient x/‖x‖ is checked at huge scale too.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../../src/index.js';
import { DEVICES } from '../../harness/devices.js';

const L = rlx.linalg;
const vals = (t: rlx.Tensor) => Array.from(t.toArray() as ArrayLike<number>);
const rel = (got: number, want: number, tol: number) => expect(Math.abs(got - want)).toBeLessThanOrEqual(tol * Math.abs(want));

describe.each(DEVICES)('norm scaling on %s', (device) => {
  const t = (v: number[], dtype: 'float32' | 'float64', shape?: number[]) => rlx.tensor(v, { dtype, shape: shape ?? [v.length] }).on(device);

  it.each([
    ['float32', 1e20, 1e-6],
    ['float32', 1e-25, 1e-6],
    ['float64', 1e200, 1e-14],
    ['float64', 1e-200, 1e-14],
    ['float64', 1, 1e-14],
  ] as const)('%s at scale %s: 2-norm, default, Frobenius, p = 3 and p = 0.5', (dtype, s, tol) => {
    const v = t([3 * s, -4 * s], dtype);
    rel(L.norm(t([s], dtype)).item() as number, s, tol);
    rel(L.norm(v).item() as number, 5 * s, tol);
    rel(L.norm(v, { ord: 2 }).item() as number, 5 * s, tol);
    rel(L.norm(v, { ord: 2, axis: 0 }).item() as number, 5 * s, tol);
    // 2 × 2 matrix: Frobenius, default (no axis), and a 3-D default (all entries).
    const m = t([3 * s, 0, 0, 4 * s], dtype, [2, 2]);
    rel(L.norm(m, { ord: 'fro' }).item() as number, 5 * s, tol);
    rel(L.norm(m).item() as number, 5 * s, tol);
    rel(L.norm(t([3 * s, 0, 0, 4 * s], dtype, [1, 2, 2])).item() as number, 5 * s, tol);
    // p-norms of [s, s]: 2^(1/p) s.
    rel(L.norm(t([s, s], dtype), { ord: 3 }).item() as number, 2 ** (1 / 3) * s, tol);
    rel(L.norm(t([s, s], dtype), { ord: 0.5 }).item() as number, 4 * s, tol);
  });

  it('per axis with keepdims: each row scaled by its own largest entry', () => {
    const m = t([3e200, 4e200, 3, 4, 0, 0], 'float64', [3, 2]);
    const r = L.norm(m, { axis: 1, keepdims: true });
    expect(r.shape).toEqual([3, 1]);
    const got = vals(r);
    rel(got[0]!, 5e200, 1e-14);
    rel(got[1]!, 5, 1e-14);
    expect(got[2]).toBe(0);
    const f = L.norm(t([3e200, 0, 0, 4e200, 6e-200, 0, 0, 8e-200], 'float64', [2, 2, 2]), { axis: [1, 2] });
    const fv = vals(f);
    rel(fv[0]!, 5e200, 1e-14);
    rel(fv[1]!, 1e-199, 1e-14);
  });

  it('complex: |3e200 + 4e200i| and the Frobenius norm of complex64 entries near 1e20', () => {
    const c = rlx.tensor(new Float64Array([3e200, 4e200, 0, 1e-200]), { dtype: 'complex128', shape: [2] }).on(device);
    rel(L.norm(c).item() as number, 5e200, 1e-14);
    const c32 = rlx.tensor(new Float64Array([3e20, 0, 0, 4e20]), { dtype: 'complex64', shape: [1, 2] }).on(device);
    rel(L.norm(c32, { ord: 'fro' }).item() as number, 5e20, 1e-6);
  });

  it('inf, nan and all-zero inputs', () => {
    expect(L.norm(t([Infinity, 1], 'float64')).item()).toBe(Infinity);
    expect(L.norm(t([-Infinity, 1], 'float32'), { ord: 3 }).item()).toBe(Infinity);
    expect(Number.isNaN(L.norm(t([NaN, 1], 'float64')).item() as number)).toBe(true);
    expect(L.norm(t([0, 0], 'float64')).item()).toBe(0);
    expect(L.norm(t([0, 0, 0, 0], 'float32', [2, 2]), { ord: 'fro' }).item()).toBe(0);
  });
});

describe.each(DEVICES)('norm scaling at the ends of the float64 range on %s', (device) => {
  const t = (v: number[]) => rlx.tensor(v, { dtype: 'float64' }).on(device);
  it('subnormal, near-overflow and mixed-scale entries; a large p', () => {
    // Subnormals: 3e-320 and [3, 4]·2^-1070 (exact in subnormals) without flushing to 0.
    expect(L.norm(t([3e-320])).item()).toBe(3e-320);
    rel(L.norm(t([3 * 2 ** -1070, 4 * 2 ** -1070])).item() as number, 5 * 2 ** -1070, 1e-15);
    // Near the top: [3, 4]·2^1020 has norm 5·2^1020 < MAX; its squares overflow 30 times over.
    rel(L.norm(t([3 * 2 ** 1020, -4 * 2 ** 1020])).item() as number, 5 * 2 ** 1020, 1e-15);
    // The true norm above MAX is +inf, not NaN.
    expect(L.norm(t([1.7e308, 1.7e308])).item()).toBe(Infinity);
    // 1e300 and 1e-300 together: the small one adds nothing, the big one is kept exactly.
    expect(L.norm(t([1e300, 1e-300])).item()).toBe(1e300);
    // p = 2000: 2^2000 overflows; the norm of [1, 1] is 2^(1/2000).
    rel(L.norm(t([1, 1]), { ord: 2000 }).item() as number, 2 ** (1 / 2000), 1e-15);
    rel(L.norm(t([1e300, 1e300]), { ord: 2000 }).item() as number, 1e300 * 2 ** (1 / 2000), 1e-14);
  });
  it('complex128 at scale 1e200: |3 + 4i|·1e200', () => {
    const z = rlx.complex(rlx.tensor([3e200, 0], { dtype: 'float64' }), rlx.tensor([4e200, 1e200], { dtype: 'float64' })).on(device);
    rel(L.norm(z).item() as number, Math.sqrt(26) * 1e200, 1e-14);
  });
  it('allocates nothing of x\'s size (|x| is not materialized)', () => {
    const n = 4096;
    const x = rlx.tensor(Float64Array.from({ length: n }, (_, i) => Math.sin(i)), { dtype: 'float64' }).on(device).realize();
    const plan = rlx.explain(L.norm(x), { print: false });
    expect(plan.buffers.every((b) => (b.bytes ?? Infinity) < 8 * n)).toBe(true);
    let want = 0;
    for (let i = 0; i < n; i++) want += Math.sin(i) ** 2;
    rel(L.norm(x).item() as number, Math.sqrt(want), 1e-14);
  });
});

describe('norm scaling: derivatives', () => {
  it('grad of the 2-norm is x / ‖x‖ at ordinary and huge scale', () => {
    for (const s of [1, 1e200]) {
      const g = rlx.grad((x: rlx.Tensor) => L.norm(x))(rlx.tensor([3 * s, -4 * s], { dtype: 'float64' })) as rlx.Tensor;
      const gv = vals(g);
      rel(gv[0]!, 0.6, 1e-14);
      rel(gv[1]!, -0.8, 1e-14);
    }
  });
});
