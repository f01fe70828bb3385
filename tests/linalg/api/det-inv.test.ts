// det, slogdet and inv on their dedicated ops (src/linalg/ops/det.ts, inv.ts)
// on every device and dtype: agreement with the factors of the lu op (the
// path they took before), batched shapes and dtypes, a determinant whose
// plain pivot product would overflow, slogdet beyond the float range,
// singular inputs (det 0; inv raises naming the op, pivot and batch entry),
// and inv against the host inverse on the benchmark's pseudo-random matrices.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../../src/index.js';
import { SingularMatrixError } from '../../../src/tensor/errors-linalg.js';
import { DEVICES } from '../../harness/devices.js';
import { type H, LDTYPES, cplx, dev, expectNear, expectOn, heye, hinv, host, hrand, mm, rng, rounded, single, sub, maxAbs } from './helpers.js';

const L = rlx.linalg;

/** det from the lu op's factors: Π diag(u) · (−1)^(row interchanges). */
function detFromLu(a: rlx.Tensor): H {
  const { lu, piv } = L.luFactor(a);
  const f = host(lu),
    p = piv.toArray() as Int32Array;
  const n = a.shape[a.ndim - 1]!;
  const count = f.re.length / Math.max(n * n, 1);
  const out: H = { shape: a.shape.slice(0, -2) as number[], re: new Float64Array(count), im: new Float64Array(count) };
  for (let e = 0; e < count; e++) {
    let dr = 1,
      di = 0;
    for (let i = 0; i < n; i++) {
      const o = e * n * n + i * n + i;
      [dr, di] = [dr * f.re[o]! - di * f.im[o]!, dr * f.im[o]! + di * f.re[o]!];
      if (p[e * n + i] !== i) (dr = -dr), (di = -di);
    }
    (out.re[e] = dr), (out.im[e] = di);
  }
  return out;
}

const relErr = (got: H, want: H) => maxAbs(sub(got, want)) / Math.max(maxAbs(want), 1e-300);

describe.each(DEVICES)('det, slogdet and inv on %s', (device) => {
  describe.each(LDTYPES)('%s', (dtype) => {
    const tol = single(dtype) ? 1e-4 : 1e-11;

    it('agree with the lu factors (det, sign · exp(logabsdet)) and with the host inverse, batched [2, 3, n, n]', () => {
      const r = rng(101);
      for (const n of [1, 4, 9]) {
        const a = rounded(hrand(r, [2, 3, n, n], cplx(dtype)), dtype);
        const A = dev(a, dtype, device);
        const d = L.det(A);
        expect(d.shape).toEqual([2, 3]);
        expect(d.dtype).toBe(dtype);
        expectOn(d, device);
        const ref = detFromLu(A);
        expect(relErr(host(d), ref), `det n=${n}`).toBeLessThan(tol * n);
        const { sign, logabsdet } = L.slogdet(A);
        expect(sign.dtype).toBe(dtype);
        expect(logabsdet.dtype).toBe(single(dtype) ? 'float32' : 'float64');
        expect(logabsdet.shape).toEqual([2, 3]);
        const s = host(sign),
          la = host(logabsdet);
        const rebuilt: H = { shape: [2, 3], re: s.re.map((x, i) => x * Math.exp(la.re[i]!)), im: s.im.map((x, i) => x * Math.exp(la.re[i]!)) };
        expect(relErr(rebuilt, ref), `slogdet n=${n}`).toBeLessThan(tol * n);
        for (let i = 0; i < 6; i++) expect(Math.hypot(s.re[i]!, s.im[i]!)).toBeCloseTo(1, single(dtype) ? 5 : 13);
        const x = L.inv(A);
        expect(x.shape).toEqual([2, 3, n, n]);
        expect(x.dtype).toBe(dtype);
        // random matrices: forward error ~ cond · eps; the residual is the sharper check
        expectNear(mm(a, host(x)), heye(n, [2, 3]), single(dtype) ? 1e-3 : 1e-10, `a inv(a) = I, n=${n}`);
        expectNear(host(x), hinv(a), single(dtype) ? 1e-2 : 1e-8, `inv = host inverse, n=${n}`);
      }
    });

    it('det of a matrix whose plain pivot product overflows is finite; slogdet beyond the range', () => {
      const [big, small] = single(dtype) ? [2 ** 100, 2 ** -100] : [2 ** 800, 2 ** -800];
      const n = 4;
      const a: H = { shape: [n, n], re: new Float64Array(n * n), im: new Float64Array(n * n) };
      [big, big, small, small].forEach((v, i) => (a.re[i * n + i] = v * (i + 1)));
      const d = host(L.det(dev(a, dtype, device)));
      expect(d.re[0]).toBe(24); // exact: powers of two and small integers
      // 1000·I of order 200: det = 1e600 overflows, logabsdet does not
      const m = single(dtype) ? 20 : 200;
      const big2 = rlx.eye(m, m, { dtype }).mul(1000).on(device);
      expect(Math.abs(L.det(big2).real().item() as number)).toBe(Infinity);
      const { sign, logabsdet } = L.slogdet(big2);
      expect(sign.real().item()).toBe(1);
      expect(logabsdet.item() as number).toBeCloseTo(m * Math.log(1000), single(dtype) ? 2 : 9);
    });

    it('singular: det 0 and slogdet (0, −inf); inv raises SingularMatrixError naming inv, the pivot and the batch entry', () => {
      const t = (x: number[][][]) => rlx.tensor(x, { dtype }).on(device);
      const s = t([[[1, 2], [2, 4]], [[2, 0], [0, 3]], [[0, 0], [0, 0]]]);
      const d = host(L.det(s));
      expect(Array.from(d.re).map(Math.abs)).toEqual([0, 6, 0]);
      const { sign, logabsdet } = L.slogdet(s);
      expect(Array.from(host(sign).re).map(Math.abs)).toEqual([0, 1, 0]);
      expect(Array.from(host(logabsdet).re)).toEqual([-Infinity, Math.log(6), -Infinity].map((x) => (single(dtype) ? Math.fround(x) : x)));
      let e: unknown;
      try {
        L.inv(s).toArray();
      } catch (err) {
        e = err;
      }
      expect(e).toBeInstanceOf(SingularMatrixError);
      const sme = e as SingularMatrixError;
      expect([sme.op, sme.index, sme.batch]).toEqual(['inv', 1, 0]);
      expect(sme.message).toMatch(/^inv: matrix is singular: pivot 1 .*batch entry 0/);
      // the device still works
      expect(L.inv(t([[[2, 0], [0, 4]]])).toArray()[0]).toBe(0.5);
    });
  });

  it('integer and boolean input promote to float64; non-square is a ShapeError naming the op', () => {
    const i = rlx.tensor([[2, 1], [1, 3]], { dtype: 'int32' }).on(device);
    expect(L.det(i).dtype).toBe('float64');
    expect(L.slogdet(i).logabsdet.item()).toBeCloseTo(Math.log(5), 14);
    expect(L.inv(i).dtype).toBe('float64');
    const r = rlx.zeros([2, 3]).on(device);
    for (const [op, f] of [['det', () => L.det(r)], ['slogdet', () => L.slogdet(r)], ['inv', () => L.inv(r)]] as const) expect(f, op).toThrow(new RegExp(`linalg\\.${op}: .*square`));
  });

  it("inv on the benchmark's scaled pseudo-random matrix (n = 64): residual at LAPACK's level", () => {
    const n = 64;
    const r = rng(7);
    const a = hrand(r, [n, n], false);
    const x = L.inv(dev(a, 'float64', device));
    expectNear(mm(a, host(x)), heye(n), 1e-11, 'a inv(a) = I');
  });
});
