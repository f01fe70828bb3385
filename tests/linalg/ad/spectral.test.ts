// Derivatives of the spectral decompositions: eigh (eigenvalues; eigenvectors
// through gauge-invariant functions), eigvalsh, svd (s; u and vh through
// gauge-invariant functions; m > n, m < n, square), on float64 and complex128,
// plus the documented degenerate behaviour (repeated eigenvalues, eig).
// JVP vs central finite differences, VJP vs JVP by the dot-product identity
// (tolerances: helpers.ts and ad-harness.ts).
//
// Eigenvectors and singular vectors are defined up to a sign (real) or phase
// (complex) per column, which the kernels fix arbitrarily, so only functions
// invariant under that gauge are compared with finite differences:
//   eigh: |v|² (elementwise), v diag(g(w)) vᴴ for a nonlinear g (a matrix function);
//   svd:  |u|², |vh|², u vh (the polar factor: a common phase per pair cancels),
//         u diag(s²) vh (a nonlinear function of the singular values).
// Inputs have distinct eigen/singular values with gaps >= 0.3 (helpers.ts).

import { describe, expect, it } from 'vitest';
import * as rlx from '../../../src/index.js';
import type { Tensor } from '../../../src/index.js';
import { DEVICES } from '../../harness/devices.js';
import { checkJvpFd } from '../../transforms/ad-harness.js';
import { L, checkLinalgCase, expectZero, flatCat, hermitianWith, ignoredTriangleDirection, imagDiagonalDirection, input, isCx, jvpOf, prng, toT, vals, wellConditioned, type DT, type LCase } from './helpers.js';

const DTS: DT[] = ['float64', 'complex128'];

/** v diag(d) vᴴ for a real vector d (batched). */
const sandwich = (v: Tensor, d: Tensor, w: Tensor = v): Tensor => {
  const dd = d.cast(v.dtype).expandDims(-2);
  const wh = w.swapaxes(-1, -2);
  return v.mul(dd).matmul(rlx.isComplex(v.dtype) ? wh.conj() : wh);
};
const abs2 = (x: Tensor): Tensor => x.abs().square();

type Uplo = 'L' | 'U';

function cases(dt: DT): LCase[] {
  const cx = isCx(dt);
  const herm = (n: number) => (r: () => number) => [input(hermitianWith(n, cx, r), dt)];
  const out: LCase[] = [];
  for (const uplo of ['L', 'U'] as Uplo[]) {
    out.push(
      { name: `eigh eigenvalues, uplo ${uplo} (${dt})`, dt, build: (r) => ({ ins: herm(4)(r), f: (a) => L.eigh(a!, { uplo }).eigenvalues }) },
      { name: `eigvalsh, uplo ${uplo} (${dt})`, dt, build: (r) => ({ ins: herm(4)(r), f: (a) => L.eigvalsh(a!, { uplo }) }) },
      { name: `eigh eigenvectors through |v|², uplo ${uplo} (${dt})`, dt, build: (r) => ({ ins: herm(4)(r), f: (a) => abs2(L.eigh(a!, { uplo }).eigenvectors) }) },
      {
        name: `eigh: v diag(sin w) vᴴ and w, uplo ${uplo} (${dt})`,
        dt,
        build: (r) => ({
          ins: herm(4)(r),
          f: (a) => {
            const { eigenvalues: w, eigenvectors: v } = L.eigh(a!, { uplo });
            return flatCat(sandwich(v, w.sin()), w);
          },
        }),
      },
    );
  }
  out.push({
    name: `eigh batched [3, n, n]: v diag(exp w) vᴴ (${dt})`,
    dt,
    build: (r) => ({
      ins: [input([0, 1, 2].map(() => hermitianWith(3, cx, r)), dt)],
      f: (a) => {
        const { eigenvalues: w, eigenvectors: v } = L.eigh(a!);
        return sandwich(v, w.exp());
      },
    }),
  });
  const shapes: [number, number][] = [[5, 3], [3, 5], [4, 4]];
  for (const [m, n] of shapes) {
    const A = (r: () => number) => [input(wellConditioned(m, n, cx, r), dt)];
    out.push(
      { name: `svd s, computeUv false, ${m}x${n} (${dt})`, dt, build: (r) => ({ ins: A(r), f: (a) => L.svd(a!, { computeUv: false }).s }) },
      {
        name: `svd: s, |u|², |vh|², ${m}x${n} (${dt})`,
        dt,
        build: (r) => ({ ins: A(r), f: (a) => { const { u, s, vh } = L.svd(a!); return flatCat(s, abs2(u!), abs2(vh!)); } }),
      },
      {
        name: `svd: u vh and u diag(s²) vh, ${m}x${n} (${dt})`,
        dt,
        build: (r) => ({
          ins: A(r),
          f: (a) => {
            const { u, s, vh } = L.svd(a!);
            return flatCat(u!.matmul(vh!), sandwich(u!, s.square(), vh!.swapaxes(-1, -2).conj()));
          },
        }),
      },
    );
  }
  out.push({
    name: `svd fullMatrices of a square matrix: u vh (${dt})`,
    dt,
    build: (r) => ({ ins: [input(wellConditioned(3, 3, cx, r), dt)], f: (a) => { const { u, vh } = L.svd(a!, { fullMatrices: true }); return u!.matmul(vh!); } }),
  });
  return out;
}

describe.each(DEVICES)('linalg spectral derivatives on %s', (device) => {
  for (const dt of DTS) for (const c of cases(dt)) it(c.name, () => checkLinalgCase(c, device));

  for (const dt of DTS)
    for (const uplo of ['L', 'U'] as Uplo[]) {
      const lower = uplo === 'L';
      const f = (a: Tensor) => {
        const { eigenvalues: w, eigenvectors: v } = L.eigh(a, { uplo });
        return flatCat(w, sandwich(v, w.square().mul(w)), abs2(v));
      };
      it(`eigh uplo ${uplo} (${dt}): a direction in the ignored triangle gives a zero tangent`, () => {
        const r = prng(31 + (lower ? 1 : 0));
        const { spec, data } = input(hermitianWith(4, isCx(dt), r), dt);
        const v = ignoredTriangleDirection(4, dt, lower, r);
        expectZero(jvpOf(f, [toT(data, spec, device)], [toT(v, spec, device)]), 'jvp along the ignored triangle');
        checkJvpFd(f, { specs: [spec], data: [data] }, [v], device);
      });
      if (isCx(dt))
        it(`eigh uplo ${uplo} (complex128): a purely imaginary diagonal direction gives a zero tangent`, () => {
          // heevd (and the js kernel) read a Hermitian matrix: the imaginary part of the diagonal is not read
          const r = prng(41 + (lower ? 1 : 0));
          const { spec, data } = input(hermitianWith(3, true, r), dt);
          const v = imagDiagonalDirection(3, r);
          checkJvpFd(f, { specs: [spec], data: [data] }, [v], device);
          expectZero(jvpOf(f, [toT(data, spec, device)], [toT(v, spec, device)]), 'jvp along an imaginary diagonal');
        });
    }

  describe('degenerate inputs (documented behaviour)', () => {
    // diag(1, 1, 2): the kernels return the repeated eigenvalue exactly twice, so f = 1/(w_j − w_i) is ±inf there
    const rep = () => rlx.tensor([[1, 0, 0], [0, 1, 0], [0, 0, 2]], { dtype: 'float64' }).on(device);
    const dir = () => rlx.tensor([[0.3, -0.2, 0.5], [0.7, 0.1, -0.4], [0.2, 0.6, -0.3]], { dtype: 'float64' }).on(device);

    it('eigh with a repeated eigenvalue: eigenvalue tangents and gradients are finite', () => {
      const dw = vals(jvpOf((a) => L.eigh(a).eigenvalues, [rep()], [dir()]));
      expect(dw.every(Number.isFinite), `eigenvalue tangents ${Array.from(dw)}`).toBe(true);
      // the tangent of the distinct eigenvalue 2 (eigenvector e3) is e3ᵀ S(da) e3 = da[2, 2]
      expect(dw[2]).toBeCloseTo(-0.3, 14);
      // the sum of the eigenvalues is the trace of the matrix read (lower triangle): its gradient is I exactly
      const g = vals(rlx.grad((a: Tensor) => L.eigvalsh(a).sum())(rep()) as Tensor);
      expect(Array.from(g)).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
      const g2 = vals(rlx.grad((a: Tensor) => L.eigh(a).eigenvalues.square().sum())(rep()) as Tensor);
      expect(g2.every(Number.isFinite), `gradient ${Array.from(g2)}`).toBe(true);
    });

    it('eigh with a repeated eigenvalue: eigenvector tangents are not finite (as documented)', () => {
      const dv = vals(jvpOf((a) => L.eigh(a).eigenvectors, [rep()], [dir()]));
      expect(dv.some((x) => !Number.isFinite(x)), `eigenvector tangents ${Array.from(dv)}`).toBe(true);
    });

    it('svd with a repeated singular value: singular-value tangents are finite, vector tangents are not', () => {
      const a = rlx.tensor([[2, 0, 0], [0, 2, 0], [0, 0, 1]], { dtype: 'float64' }).on(device);
      const ds = vals(jvpOf((x) => L.svd(x, { computeUv: false }).s, [a], [dir()]));
      expect(ds.every(Number.isFinite), `singular-value tangents ${Array.from(ds)}`).toBe(true);
      expect(ds[2]).toBeCloseTo(-0.3, 14); // the simple singular value 1 with vectors e3: Re e3ᵀ da e3
      // the values' gradient through the full decomposition (u and vh unused) is finite too
      const g = vals(rlx.grad((x: Tensor) => L.svd(x).s.square().sum())(a) as Tensor);
      expect(g.every(Number.isFinite), `gradient ${Array.from(g)}`).toBe(true);
      expect(Array.from(g)).toEqual([4, 0, 0, 0, 4, 0, 0, 0, 2]); // d Σ s² = d ‖a‖²_F: 2a
      const du = vals(jvpOf((x) => L.svd(x).u!, [a], [dir()]));
      expect(du.some((x) => !Number.isFinite(x)), `u tangents ${Array.from(du)}`).toBe(true);
    });

    it('eig has no derivative: jvp and grad throw TransformError', () => {
      const a = rlx.tensor([[2, 1], [0.5, 3]], { dtype: 'float64' }).on(device);
      expect(() => rlx.jvp((x: Tensor) => L.eigvals(x).real(), [a], [rlx.onesLike(a)])).toThrow(rlx.TransformError);
      expect(() => rlx.grad((x: Tensor) => L.eig(x).eigenvalues.real().sum())(a)).toThrow(rlx.TransformError);
    });

    it('svd fullMatrices of a non-square matrix has no derivative (TransformError)', () => {
      const a = rlx.tensor([[1, 2], [3, 4], [5, 7]], { dtype: 'float64' }).on(device);
      expect(() => rlx.jvp((x: Tensor) => L.svd(x, { fullMatrices: true }).u!, [a], [rlx.onesLike(a)])).toThrow(rlx.TransformError);
    });
  });
});
