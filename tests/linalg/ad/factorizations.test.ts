// Derivatives of the factorizations and determinants: cholesky (lower and
// upper), lu (through p/l/u and through det), qr (reduced m >= n, m < n, mode
// 'r'), det and slogdet (logabsdet; sign for complex), on float64 and complex128.
// JVP vs central finite differences, VJP vs JVP by the dot-product identity
// (tolerances: helpers.ts and ad-harness.ts).
//
// Conventions checked: cholesky reads one triangle, and its rule is exact for
// that: a general direction agrees with finite differences, and a direction
// confined to the other triangle gives an exactly zero tangent (so does a
// purely imaginary diagonal of a complex input: the kernels read a Hermitian
// matrix, whose diagonal is real). lu's pivots are locally constant; qr's
// factors are those of the Householder kernel (r's diagonal real), a smooth
// function of a near a generic input, so finite differences of q and r apply.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../../src/index.js';
import type { Tensor } from '../../../src/index.js';
import { DEVICES } from '../../harness/devices.js';
import { checkJvpFd } from '../../transforms/ad-harness.js';
import { L, checkLinalgCase, expectZero, flatCat, ignoredTriangleDirection, imagDiagonalDirection, input, isCx, jvpOf, prng, spd, toT, wellConditioned, type DT, type LCase } from './helpers.js';

const DTS: DT[] = ['float64', 'complex128'];

function cases(dt: DT): LCase[] {
  const cx = isCx(dt);
  const sq = (n: number) => (r: () => number) => ({ ins: [input(wellConditioned(n, n, cx, r), dt)] });
  const with_ = (n: number, f: (a: Tensor) => Tensor) => (r: () => number) => ({ ...sq(n)(r), f: (a: Tensor) => f(a) });
  const out: LCase[] = [
    { name: `cholesky lower (${dt})`, dt, build: (r) => ({ ins: [input(spd(4, cx, r), dt)], f: (a) => L.cholesky(a!) }) },
    { name: `cholesky upper (${dt})`, dt, build: (r) => ({ ins: [input(spd(4, cx, r), dt)], f: (a) => L.cholesky(a!, { lower: false }) }) },
    { name: `cholesky, batched [3, n, n] (${dt})`, dt, build: (r) => ({ ins: [input([0, 1, 2].map(() => spd(3, cx, r)), dt)], f: (a) => L.cholesky(a!) }) },
    { name: `lu through p, l and u (${dt})`, dt, build: with_(4, (a) => { const { p, l, u } = L.lu(a); return flatCat(p, l, u); }) },
    { name: `luFactor's packed factors (${dt})`, dt, build: with_(4, (a) => L.luFactor(a).lu) },
    { name: `det (${dt})`, dt, build: with_(4, (a) => L.det(a)) },
    { name: `det, batched (${dt})`, dt, build: (r) => ({ ins: [input([0, 1, 2].map(() => wellConditioned(3, 3, cx, r)), dt)], f: (a) => L.det(a!) }) },
    { name: `slogdet logabsdet (${dt})`, dt, build: with_(4, (a) => L.slogdet(a).logabsdet) },
    { name: `qr reduced, square (${dt})`, dt, build: with_(4, (a) => { const { q, r } = L.qr(a); return flatCat(q!, r); }) },
    { name: `qr reduced, tall 5x3 (${dt})`, dt, build: (r) => ({ ins: [input(wellConditioned(5, 3, cx, r), dt)], f: (a) => { const o = L.qr(a!); return flatCat(o.q!, o.r); } }) },
    { name: `qr reduced, wide 3x5 (${dt})`, dt, build: (r) => ({ ins: [input(wellConditioned(3, 5, cx, r), dt)], f: (a) => { const o = L.qr(a!); return flatCat(o.q!, o.r); } }) },
    { name: `qr mode 'r', tall 5x3 (${dt})`, dt, build: (r) => ({ ins: [input(wellConditioned(5, 3, cx, r), dt)], f: (a) => L.qr(a!, { mode: 'r' }).r }) },
    { name: `qr mode 'r', wide 3x4 (${dt})`, dt, build: (r) => ({ ins: [input(wellConditioned(3, 4, cx, r), dt)], f: (a) => L.qr(a!, { mode: 'r' }).r }) },
    { name: `qr complete, wide 3x5 (same factors as reduced) (${dt})`, dt, build: (r) => ({ ins: [input(wellConditioned(3, 5, cx, r), dt)], f: (a) => { const o = L.qr(a!, { mode: 'complete' }); return flatCat(o.q!, o.r); } }) },
  ];
  // slogdet's sign: constant for real input (zero derivative), a unit complex number for complex input
  out.push({ name: `slogdet sign (${dt})`, dt, build: with_(4, (a) => L.slogdet(a).sign) });
  out.push({
    name: `slogdet sign and logabsdet together, batched (${dt})`,
    dt,
    build: (r) => ({ ins: [input([0, 1].map(() => wellConditioned(3, 3, cx, r)), dt)], f: (a) => { const s = L.slogdet(a!); return flatCat(s.sign, s.logabsdet.cast(dt)); } }),
  });
  return out;
}

describe.each(DEVICES)('linalg factorization derivatives on %s', (device) => {
  for (const dt of DTS) for (const c of cases(dt)) it(c.name, () => checkLinalgCase(c, device));

  it("Jacobi's formula: grad det = det · inv(a)ᵀ, grad logabsdet = inv(a)ᵀ (float64, batched)", () => {
    const r = prng(5);
    const { spec, data } = input([0, 1].map(() => wellConditioned(3, 3, false, r)), 'float64');
    const a = toT(data, spec, device);
    const invT = L.inv(a).swapaxes(-1, -2);
    const g = rlx.grad((x: Tensor) => L.det(x).sum())(a) as Tensor;
    expect(g.toArray()).toBeAllclose(invT.mul(L.det(a).reshape([2, 1, 1])).toArray(), { rtol: 1e-12, atol: 1e-12 });
    const h = rlx.grad((x: Tensor) => L.slogdet(x).logabsdet.sum())(a) as Tensor;
    expect(h.toArray()).toBeAllclose(invT.toArray(), { rtol: 1e-12, atol: 1e-12 });
  });

  for (const dt of DTS)
    for (const lower of [true, false]) {
      it(`cholesky lower=${lower} (${dt}): a direction in the ignored triangle gives a zero tangent`, () => {
        const r = prng(11 + (lower ? 1 : 0));
        const n = 4;
        const { spec, data } = input(spd(n, isCx(dt), r), dt);
        const v = ignoredTriangleDirection(n, dt, lower, r);
        const f = (a: Tensor) => L.cholesky(a, { lower });
        expectZero(jvpOf(f, [toT(data, spec, device)], [toT(v, spec, device)]), 'jvp along the ignored triangle');
        checkJvpFd(f, { specs: [spec], data: [data] }, [v], device); // and the function indeed does not move
      });
      if (isCx(dt))
        it(`cholesky lower=${lower} (complex128): a purely imaginary diagonal direction gives a zero tangent`, () => {
          // the kernels read a Hermitian matrix: the imaginary part of the diagonal is not read (LAPACK's potrf)
          const r = prng(21 + (lower ? 1 : 0));
          const { spec, data } = input(spd(3, true, r), dt);
          const v = imagDiagonalDirection(3, r);
          const f = (a: Tensor) => L.cholesky(a, { lower });
          checkJvpFd(f, { specs: [spec], data: [data] }, [v], device);
          expectZero(jvpOf(f, [toT(data, spec, device)], [toT(v, spec, device)]), 'jvp along an imaginary diagonal');
        });
    }

  it('lu of a non-square matrix has no derivative (TransformError)', () => {
    const a = rlx.tensor([[1, 2, 3], [4, 5, 7]], { dtype: 'float64' }).on(device);
    expect(() => rlx.jvp((x: Tensor) => L.lu(x).u, [a], [rlx.onesLike(a)])).toThrow(rlx.TransformError);
  });

  it('qr complete of a tall matrix has no derivative (TransformError)', () => {
    const a = rlx.tensor([[1, 2], [4, 5], [7, 9]], { dtype: 'float64' }).on(device);
    expect(() => rlx.jvp((x: Tensor) => L.qr(x, { mode: 'complete' }).q!, [a], [rlx.onesLike(a)])).toThrow(rlx.TransformError);
  });
});
