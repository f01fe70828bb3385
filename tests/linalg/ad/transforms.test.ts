// The linalg primitive under composed transforms:
// - vmap of linalg ops equals the batched call and the per-example stack
//   (the generic batching rule moves the vmapped axis to the first batch dim);
// - vmap of jvp and of grad equals the per-example derivatives stacked;
// - jit(grad(f)) equals grad(f);
// - second derivatives: hvp (jvp of grad) of det, logabsdet, a Cholesky
//   log-determinant, eigenvalue and singular-value functions, against central
//   finite differences of grad, and the symmetry of the Hessian.
//
// Comparisons. A vmapped linalg op runs the same kernel on the same matrices
// as the batched call, so those are compared bit for bit. Derivatives under
// vmap/jit run the same math through differently shaped (batched, fused)
// elementwise and matmul kernels, whose summation order can differ: compared
// at rtol 1e-10, atol 1e-12 (relative rounding of these O(10)-flop-deep,
// well-conditioned computations is ~1e-14; a wrong batching or a dropped term
// is O(1)). hvp tolerances: as tests/transforms/ad-higher.test.ts (h = 1e-5,
// rtol 1e-6, atol 1e-6·(1 + max|g|)), for the same reasons.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as rlx from '../../../src/index.js';
import type { Tensor } from '../../../src/index.js';
import { DEVICES } from '../../harness/devices.js';
import { directions, reDot } from '../../transforms/ad-harness.js';
import { expectSameBits, expectVmap } from '../../transforms/vmap-harness.js';
import { L, RUNS, hermitianWith, triangularIn, input, isCx, prng, randMat, spd, toT, vals, wellConditioned, type DT } from './helpers.js';

const TOL = { rtol: 1e-10, atol: 1e-12 };
const B = 3;

/** A batch of B generated matrices as one tensor [B, m, n] on device. */
const batchOf = (gen: (r: () => number) => Parameters<typeof input>[0] & object, dt: DT, seed: number, device: string): Tensor => {
  const r = prng(seed);
  const { spec, data } = input(Array.from({ length: B }, () => gen(r) as never), dt);
  return toT(data, spec, device);
};

function expectClose(got: Tensor, want: Tensor, what: string): void {
  expect(got.shape, `${what}: shape`).toEqual(want.shape);
  expect(got.dtype, `${what}: dtype`).toBe(want.dtype);
  expect(vals(got), what).toBeAllclose(vals(want), TOL);
}

describe.each(DEVICES)('linalg under vmap, jit and second derivatives on %s', (device) => {
  for (const dt of ['float64', 'complex128'] as DT[]) {
    const cx = isCx(dt);
    const A = (seed: number) => batchOf((r) => wellConditioned(3, 3, cx, r), dt, seed, device);
    const H = (seed: number) => batchOf((r) => hermitianWith(3, cx, r), dt, seed, device);
    const P = (seed: number) => batchOf((r) => spd(3, cx, r), dt, seed, device);
    const Bm = (seed: number) => batchOf((r) => randMat(3, 2, cx, r), dt, seed, device);
    const T = (seed: number) => batchOf((r) => wellConditioned(4, 3, cx, r), dt, seed, device);

    describe(`vmap of linalg ops equals the batched call (${dt})`, () => {
      const ops: [string, () => Tensor[], (...xs: Tensor[]) => Tensor][] = [
        ['solve', () => [A(1), Bm(2)], (a, b) => L.solve(a!, b!)],
        ['inv', () => [A(3)], (a) => L.inv(a!)],
        ['det', () => [A(4)], (a) => L.det(a!)],
        ['slogdet logabsdet', () => [A(5)], (a) => L.slogdet(a!).logabsdet],
        ['slogdet sign', () => [A(18)], (a) => L.slogdet(a!).sign],
        ['cholesky', () => [P(6)], (a) => L.cholesky(a!)],
        ['solveTriangular', () => [A(7), Bm(8)], (a, b) => L.solveTriangular(a!, b!, { lower: true, trans: 2 })],
        ['lu u', () => [A(9)], (a) => L.lu(a!).u],
        ['qr r', () => [T(10)], (a) => L.qr(a!).r],
        ['eigh eigenvectors', () => [H(11)], (a) => L.eigh(a!).eigenvectors],
        ['eigvalsh', () => [H(12)], (a) => L.eigvalsh(a!)],
        ['svd vh', () => [T(13)], (a) => L.svd(a!).vh!],
        ['lstsq x', () => [T(14), batchOf((r) => randMat(4, 2, cx, r), dt, 15, device)], (a, b) => L.lstsq(a!, b!).x],
        ['pinv', () => [T(16)], (a) => L.pinv(a!)],
        ['expm (per-matrix squaring counts)', () => [A(17).mul(rlx.tensor([0.1, 3, 40]).reshape([3, 1, 1]).cast(dt).on(device))], (a) => L.expm(a!)],
      ];
      for (const [name, args, f] of ops)
        it(name, () => {
          const xs = args();
          const got = rlx.vmap(f)(...xs) as Tensor;
          const want = f(...xs);
          expect(got.shape).toEqual(want.shape);
          expectSameBits(got.toArray() as ArrayLike<number>, want.toArray() as ArrayLike<number>, `vmap(${name})`);
          // a batch axis elsewhere than first: against the per-example loop (bitwise too)
          const moved = xs.map((x) => x.swapaxes(0, 1));
          expectVmap(f, moved, xs.map(() => 1), 0, `vmap(${name}) over axis 1`);
          // only the last argument batched: the others are shared by every example
          if (xs.length > 1) expectVmap(f, [...xs.slice(0, -1).map((x) => x.select(0, 0)), xs[xs.length - 1]!], [...xs.slice(0, -1).map(() => null), 0], 0, `vmap(${name}), first argument unbatched`);
        });
    });

    describe(`vmap of derivatives equals the per-example derivatives stacked (${dt})`, () => {
      const scalar: [string, () => Tensor, (a: Tensor) => Tensor][] = [
        ['logabsdet', () => A(21), (a) => L.slogdet(a).logabsdet],
        ['|det|²', () => A(22), (a) => L.det(a).abs().square()],
        ['Cholesky log-determinant', () => P(23), (a) => L.diagonal(L.cholesky(a)).real().log().sum()],
        ['eigenvalues and |v|²', () => H(24), (a) => { const { eigenvalues: w, eigenvectors: v } = L.eigh(a); return w.sin().sum().add(v.abs().square().mul(w.expandDims(-2)).sum()); }],
        ['nuclear norm', () => T(25), (a) => L.norm(a, { ord: 'nuc' })],
        ['Re Σ inv(a)·index', () => A(27), (a) => L.inv(a).mul(rlx.arange(9).reshape([3, 3]).cast(dt).on(device)).real().sum()],
        ['‖inv(a) b‖²', () => A(26), (a) => L.solve(a, rlx.ones([3, 2], { dtype: dt }).on(device)).abs().square().sum()],
        ['Σ r²·index (qr, tall)', () => T(29), (a) => L.qr(a).r.abs().square().mul(rlx.arange(9).reshape([3, 3]).cast('float64').on(device)).sum()],
        ['‖lstsq(a, 1).x‖² (tall)', () => T(30), (a) => L.lstsq(a, rlx.ones([4, 1], { dtype: dt }).on(device)).x.abs().square().sum()],
        ['‖solveTriangular(a, 1, trans T)‖²', () => batchOf((r) => triangularIn(3, cx, false, r), dt, 31, device), (a) => L.solveTriangular(a, rlx.ones([3, 1], { dtype: dt }).on(device), { lower: false, trans: 'T' }).abs().square().sum()],
        // expm picks its squaring count per matrix from the values inside its kernel (an op), so it runs under vmap/jit
        ['Re Σ expm(a)·index', () => A(32).mul(0.3), (a) => L.expm(a).mul(rlx.arange(9).reshape([3, 3]).cast(dt).on(device)).real().sum()],
      ];
      for (const [name, x, f] of scalar) {
        it(`grad of ${name}`, () => expectVmap((a) => rlx.grad(f)(a) as Tensor, [x()], [0], 0, `vmap(grad(${name}))`, TOL));
        it(`jvp of ${name}`, () => {
          const a = x();
          const t = batchOf((r) => randMat(a.shape[1]!, a.shape[2]!, cx, r), dt, 99, device);
          expectVmap((p, q) => (rlx.jvp(f, [p], [q]) as [Tensor, Tensor])[1], [a, t], [0, 0], 0, `vmap(jvp(${name}))`, TOL);
        });
        it(`jit(grad(${name})) equals grad(${name})`, () => {
          const a0 = x().select(0, 0);
          const g = rlx.grad(f);
          const jg = rlx.jit(g);
          expectClose(jg(a0) as Tensor, g(a0) as Tensor, `jit(grad(${name}))`);
          expectClose(jg(x().select(0, 1)) as Tensor, g(x().select(0, 1)) as Tensor, `jit(grad(${name})), second call`);
          expect(jg.compiles).toBe(1);
        });
      }
      it('grad through a vmapped linalg op inside f', () => {
        const f = (a: Tensor) => (rlx.vmap((m: Tensor) => L.slogdet(m).logabsdet)(a) as Tensor).sum();
        const g = (a: Tensor) => rlx.stack(Array.from({ length: B }, (_, i) => rlx.grad((m: Tensor) => L.slogdet(m).logabsdet)(a.select(0, i)) as Tensor), 0);
        const a = A(28);
        expectClose(rlx.grad(f)(a) as Tensor, g(a), 'grad(sum(vmap(logabsdet)))');
      });
    });
  }

  describe('second derivatives: hvp (jvp of grad) vs finite differences of grad, and Hessian symmetry', () => {
    const cases: [string, DT, (r: () => number) => ReturnType<typeof input>, (a: Tensor) => Tensor][] = [
      ['det', 'float64', (r) => input(wellConditioned(3, 3, false, r), 'float64'), (a) => L.det(a)],
      ['logabsdet', 'float64', (r) => input(wellConditioned(4, 4, false, r), 'float64'), (a) => L.slogdet(a).logabsdet],
      ['logabsdet (complex)', 'complex128', (r) => input(wellConditioned(3, 3, true, r), 'complex128'), (a) => L.slogdet(a).logabsdet],
      ['|det|² (complex)', 'complex128', (r) => input(wellConditioned(3, 3, true, r), 'complex128'), (a) => L.det(a).abs().square()],
      ['Cholesky log-determinant', 'float64', (r) => input(spd(3, false, r), 'float64'), (a) => L.diagonal(L.cholesky(a)).log().sum()],
      ['Σ sin(eigenvalues)', 'float64', (r) => input(hermitianWith(3, false, r), 'float64'), (a) => L.eigvalsh(a).sin().sum()],
      ['Σ s² log s (svd)', 'float64', (r) => input(wellConditioned(4, 3, false, r), 'float64'), (a) => { const s = L.svd(a, { computeUv: false }).s; return s.square().mul(s.log()).sum(); }],
      ['Σ inv(a)·index', 'float64', (r) => input(wellConditioned(3, 3, false, r), 'float64'), (a) => L.inv(a).mul(rlx.arange(9).reshape([3, 3]).cast('float64').on(a.device!)).sum()],
      ['Re Σ inv(a)·index (complex)', 'complex128', (r) => input(wellConditioned(3, 3, true, r), 'complex128'), (a) => L.inv(a).mul(rlx.arange(9).reshape([3, 3]).cast('complex128').on(a.device!)).real().sum()],
      ['‖solve(a, b)‖²', 'float64', (r) => input(wellConditioned(3, 3, false, r), 'float64'), (a) => L.solve(a, rlx.tensor([[1], [2], [-1]], { dtype: 'float64' }).on(a.device!)).square().sum()],
      ['Σ qr(a).r²·index', 'float64', (r) => input(wellConditioned(4, 3, false, r), 'float64'), (a) => L.qr(a).r.square().mul(rlx.arange(9).reshape([3, 3]).cast('float64').on(a.device!)).sum()],
      // through the factors (transposed JVPs differentiated again), real and complex
      ['Cholesky log-determinant (complex)', 'complex128', (r) => input(spd(3, true, r), 'complex128'), (a) => L.diagonal(L.cholesky(a)).real().log().sum()],
      ['eigh: Σ w·|v|² weights (complex)', 'complex128', (r) => input(hermitianWith(3, true, r), 'complex128'), (a) => { const { eigenvalues: w, eigenvectors: v } = L.eigh(a); return v.abs().square().mul(w.sin().expandDims(-2)).mul(rlx.arange(9).reshape([3, 3]).cast('float64').on(a.device!)).sum(); }],
      ['svd: Re Σ (u vh)·c (complex)', 'complex128', (r) => input(wellConditioned(4, 3, true, r), 'complex128'), (a) => { const { u, vh } = L.svd(a); return u!.matmul(vh!).mul(rlx.complex(rlx.arange(12).reshape([4, 3]).cast('float64'), 1).on(a.device!)).real().sum(); }],
      ['Σ |qr(a).r|²·index (complex, wide)', 'complex128', (r) => input(wellConditioned(3, 4, true, r), 'complex128'), (a) => L.qr(a).r.abs().square().mul(rlx.arange(12).reshape([3, 4]).cast('float64').on(a.device!)).sum()],
      ['‖lstsq(a, b).x‖² (complex, tall)', 'complex128', (r) => input(wellConditioned(4, 3, true, r), 'complex128'), (a) => L.lstsq(a, rlx.tensor([[1], [2], [-1], [0.5]], { dtype: 'complex128' }).on(a.device!)).x.abs().square().sum()],
      ['‖solveTriangular(a, b, trans C)‖² (complex)', 'complex128', (r) => input(triangularIn(3, true, true, r), 'complex128'), (a) => L.solveTriangular(a, rlx.tensor([[1], [2], [-1]], { dtype: 'complex128' }).on(a.device!), { lower: true, trans: 'C' }).abs().square().sum()],
    ];
    for (const [name, dt, gen, f] of cases)
      it(name, () => {
        fc.assert(
          fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
            const r = prng(seed);
            const { spec, data } = gen(r);
            const [v] = directions([spec], r, 'mixed');
            const [w] = directions([spec], r, 'mixed');
            const X = () => toT(data, spec, device);
            const hv = vals(rlx.hvp(f, [X()], [toT(v!, spec, device)]) as Tensor);
            const hw = vals(rlx.hvp(f, [X()], [toT(w!, spec, device)]) as Tensor);
            const h = 1e-5;
            const gAt = (sgn: number) => vals(rlx.grad(f)(toT(data.map((q, k) => q + sgn * h * v![k]!), spec, device)) as Tensor);
            const gp = gAt(1),
              gm = gAt(-1);
            const fd = gp.map((p, k) => (p - gm[k]!) / (2 * h));
            const scale = Math.max(1, ...Array.from(gp, Math.abs));
            expect(hv).toBeAllclose(fd, { rtol: 1e-6, atol: 1e-6 * scale });
            const c = isCx(dt);
            const s1 = reDot(w!, c, hv, c),
              s2 = reDot(v!, c, hw, c);
            expect(Math.abs(s1.v - s2.v)).toBeLessThanOrEqual(1e-9 * (s1.mag + s2.mag) + 1e-12);
          }),
          { numRuns: RUNS },
        );
      });
  });
});
