// Factorization objects splu / klu / cholesky on device 'native' (SuiteSparse)
// and 'js' (the TypeScript solvers): solves of [n] and [n, k] right-hand sides
// with trans 'N'/'T'/'H' (complex non-Hermitian LU) against a plain-JS dense
// elimination, logDet vs rlx.linalg.slogdet of the dense matrix, klu refactor,
// dispose, typed errors, and the two devices agreeing. Also spsolve('cholesky')
// reading the lower triangle in CSR and CSC alike.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../../src/index.js';
import type { Tensor } from '../../../src/index.js';
import { DEVICES } from '../../harness/devices.js';
import { SDTYPES, build, expectPlanesClose, isCplx, isSingle, planes, prng, randTensor, randomNonsym, randomSpd, refSolve } from './helpers.js';

// spsolve spells trans as factor objects do: 'N', 'T', 'H'.
const TRANS = ['N', 'T', 'H'] as const;

const FACTOR_DEVICES = (['native', 'js'] as const).filter((d) => d === 'js' || DEVICES.includes('native'));
const tol = (d: string) => (isSingle(d) ? { rtol: 2e-4, atol: 2e-5 } : { rtol: 1e-10, atol: 1e-12 });
type Kind = 'splu' | 'klu' | 'cholesky';
const factor = (kind: Kind, A: rlx.sparse.SparseMatrix, device: 'native' | 'js') => rlx.sparse[kind](A, { device });

describe('factor devices', () => {
  it('native is tested whenever the addon is built (or required)', () => {
    if (process.env['RLX_REQUIRE_NATIVE'] === '1') expect(FACTOR_DEVICES).toContain('native');
    expect(FACTOR_DEVICES).toContain('js');
  });
});

describe.each(FACTOR_DEVICES)('sparse factorizations on %s', (device) => {
  for (const kind of ['splu', 'klu', 'cholesky'] as const)
    for (const dtype of SDTYPES)
      it(`${kind} ${dtype}: solve [n] and [n, k] with trans N/T/H vs dense elimination`, () => {
        for (const [seed, n] of [[1, 1], [2, 5], [3, 12]] as const) {
          const r = prng(seed * 31 + SDTYPES.indexOf(dtype));
          const T = kind === 'cholesky' ? randomSpd(r, n, dtype, 0.3) : randomNonsym(r, n, dtype, 0.3);
          const A = build(T, seed === 2 ? 'csc' : 'csr');
          const F = factor(kind, A, device);
          expect(F.n).toBe(n);
          expect(F.dtype).toBe(dtype);
          for (const shape of [[n], [n, 3]]) {
            const b = randTensor(r, shape, dtype);
            const k = shape[1] ?? 1;
            for (const trans of ['N', 'T', 'H'] as const) {
              const x = F.solve(b.t, { trans });
              expect(x.dtype).toBe(dtype);
              expect(x.shape).toEqual(shape);
              expectPlanesClose(planes(x), refSolve(T.dense, b.p, k, trans), tol(dtype), `${kind} ${dtype} n=${n} trans ${trans} b${JSON.stringify(shape)}`);
            }
          }
          F.dispose();
        }
      });

  it('factor solves keep the right-hand side on its pinned device', () => {
    for (const kind of ['splu', 'klu', 'cholesky'] as const) {
      const F = factor(kind, rlx.sparse.poisson2d(3), device);
      for (const d of DEVICES) {
        const x = F.solve(rlx.ones([9, 2]).on(d));
        expect(x.device, `${kind} b on ${d}`).toBe(d);
        expect(F.solve(rlx.ones([9], { dtype: 'float32' }).on(d)).device).toBe(d);
      }
      expect(F.solve(rlx.ones([9])).device).toBeUndefined();
      F.dispose();
    }
  });

  it('complex non-Hermitian LU: T and H solves differ and each matches its dense reference', () => {
    const r = prng(77);
    const T = randomNonsym(r, 6, 'complex128', 0.5);
    const b = randTensor(r, [6], 'complex128');
    for (const kind of ['splu', 'klu'] as const) {
      const F = factor(kind, build(T, 'csr'), device);
      const xt = planes(F.solve(b.t, { trans: 'T' })),
        xh = planes(F.solve(b.t, { trans: 'H' }));
      expectPlanesClose(xt, refSolve(T.dense, b.p, 1, 'T'), tol('complex128'), `${kind} T`);
      expectPlanesClose(xh, refSolve(T.dense, b.p, 1, 'H'), tol('complex128'), `${kind} H`);
      expect(Math.max(...xt.im.map((v, i) => Math.abs(v - xh.im[i]!)))).toBeGreaterThan(1e-3);
      F.dispose();
    }
  });

  for (const kind of ['splu', 'klu', 'cholesky'] as const)
    for (const dtype of ['float64', 'complex128'] as const)
      it(`${kind} ${dtype}: logDet vs rlx.linalg.slogdet of the dense matrix`, () => {
        const r = prng(kind === 'cholesky' ? 6 : 5);
        for (const n of [1, 4, 9]) {
          const T = kind === 'cholesky' ? randomSpd(r, n, dtype, 0.4) : randomNonsym(r, n, dtype, 0.4);
          // a negative determinant for real LU: flip the sign of one row
          if (kind !== 'cholesky' && dtype === 'float64') T.data = T.data.map((v, e) => (T.ri[e] === 0 ? -v : v));
          const A = build(T, 'csr');
          const F = factor(kind, A, device);
          const ld = F.logDet();
          const ref = rlx.linalg.slogdet(A.toDense());
          expect(ld.logabsdet).toBeCloseTo(ref.logabsdet.item() as number, 10);
          if (isCplx(dtype)) {
            const [sr, si] = ref.sign.item() as [number, number];
            expect(ld.sign as [number, number]).toBeAllclose([sr, si], { rtol: 1e-10, atol: 1e-12 });
          } else {
            expect(ld.sign).toBe(ref.sign.item());
            if (kind !== 'cholesky' && n > 1) expect(ld.sign).toBe(-1);
          }
          F.dispose();
        }
      });

  it('klu refactor: new values of the same pattern (as a matrix and as a data array)', () => {
    const r = prng(9);
    for (const dtype of ['float64', 'complex128'] as const) {
      const T1 = randomNonsym(r, 7, dtype, 0.3);
      const A1 = build(T1, 'csr');
      const F = rlx.sparse.klu(A1, { device });
      const b = randTensor(r, [7], dtype);
      expectPlanesClose(planes(F.solve(b.t)), refSolve(T1.dense, b.p, 1), tol(dtype), 'before refactor');
      // same pattern, new values: scale every stored value by 2 and perturb the diagonal
      const T2 = { ...T1, data: T1.data.map((v) => 2 * v + 0.25) };
      const A2 = build(T2, 'csr');
      const dense2 = planes(A2.toDense());
      const D2 = { rows: 7, cols: 7, re: dense2.re, im: dense2.im };
      F.refactor(A2);
      expectPlanesClose(planes(F.solve(b.t)), refSolve(D2, b.p, 1), tol(dtype), 'refactor(matrix)');
      // the data array of the factored matrix itself (it has duplicates: the diagonal was added on top)
      expect(A1.nnz).toBeGreaterThan(A1.tocsr().sumDuplicates().nnz);
      F.refactor((A1 as unknown as { data: Float64Array }).data);
      expectPlanesClose(planes(F.solve(b.t, { trans: 'T' })), refSolve(T1.dense, b.p, 1, 'T'), tol(dtype), 'refactor(data)');
      // a matrix with another pattern is refused, even with as many entries; the factor is unchanged
      const other = build({ ...T1, ci: T1.ci.map((j) => (j + 1) % 7) }, 'csr');
      expect(() => F.refactor(other)).toThrow(rlx.ValueError);
      expect(() => F.refactor(new Float64Array(3))).toThrow(rlx.ShapeError);
      expectPlanesClose(planes(F.solve(b.t)), refSolve(T1.dense, b.p, 1), tol(dtype), 'after refused refactors');
      F.dispose();
    }
  });

  it('dispose: idempotent, then every method throws a ValueError (the process lives on)', () => {
    for (const kind of ['splu', 'klu', 'cholesky'] as const) {
      const F = factor(kind, rlx.sparse.poisson2d(3), device);
      F.dispose();
      F.dispose();
      expect(F.disposed).toBe(true);
      expect(() => F.solve(rlx.ones([9]))).toThrow(rlx.ValueError);
      expect(() => F.solve(rlx.ones([9]))).toThrow(/disposed/);
      expect(() => F.logDet()).toThrow(rlx.ValueError);
      expect(() => F.refactor(rlx.sparse.poisson2d(3))).toThrow(rlx.ValueError);
    }
    const G = factor('splu', rlx.sparse.poisson2d(3), device);
    expect(vals(G.solve(rlx.ones([9])))).toHaveLength(9);
    G.dispose();
  });

  it('singular → SingularMatrixError (the same class as rlx.linalg.SingularMatrixError)', () => {
    expect(rlx.sparse.SingularMatrixError).toBe(rlx.linalg.SingularMatrixError);
    expect(rlx.sparse.NotPositiveDefiniteError).toBe(rlx.linalg.NotPositiveDefiniteError);
    const structural = rlx.sparse.fromTriplets([0, 1, 2], [0, 0, 2], [1, 2, 3], [3, 3]); // column 1 empty
    const numeric = rlx.sparse.fromTriplets([0, 0, 1, 1], [0, 1, 0, 1], [1, 2, 2, 4], [2, 2]); // rank 1
    for (const A of [structural, numeric])
      for (const kind of ['splu', 'klu'] as const) {
        expect(() => factor(kind, A, device), `${kind} ${A.shape}`).toThrow(rlx.linalg.SingularMatrixError);
      }
    expect(() => rlx.sparse.spsolve(numeric.withValues(numeric.valuesTensor().on(device)), rlx.ones([2]).on(device)).toArray()).toThrow(rlx.sparse.SingularMatrixError);
  });

  it('non-SPD cholesky → NotPositiveDefiniteError (factor and spsolve)', () => {
    const indefinite = rlx.sparse.fromTriplets([0, 0, 1, 1], [0, 1, 0, 1], [1, 2, 2, 1], [2, 2]);
    const negdiag = rlx.sparse.diags([[1, -2, 3]], [0]);
    for (const A of [indefinite, negdiag]) {
      expect(() => factor('cholesky', A, device)).toThrow(rlx.linalg.NotPositiveDefiniteError);
      expect(() => rlx.sparse.spsolve(A.withValues(A.valuesTensor().on(device)), rlx.ones([A.shape[0]]).on(device), { method: 'cholesky' }).toArray()).toThrow(rlx.sparse.NotPositiveDefiniteError);
    }
    // still alive and working
    const F = factor('cholesky', rlx.sparse.poisson2d(2), device);
    expect(vals(F.solve(rlx.ones([4])))).toBeAllclose([0.5, 0.5, 0.5, 0.5], { rtol: 1e-12, atol: 1e-14 });
    F.dispose();
  });

  it('empty right-hand sides: b [n, 0] and n = 0 give empty solutions (spsolve, every method; factor objects)', () => {
    const A = rlx.sparse.poisson1d(3);
    const Ap = A.withValues(A.valuesTensor().on(device));
    const Z = rlx.sparse.csr({ indptr: [0], indices: [], data: new Float64Array(0), shape: [0, 0] });
    const Zp = Z.withValues(Z.valuesTensor().on(device));
    for (const method of ['lu', 'cholesky', 'cg', 'gmres', 'bicgstab', 'minres'] as const) {
      const x = rlx.sparse.spsolve(Ap, rlx.zeros([3, 0]).on(device), { method });
      expect(x.shape).toEqual([3, 0]);
      expect(x.toArray()).toHaveLength(0);
      expect(rlx.sparse.spsolve(Zp, rlx.zeros([0]).on(device), { method }).toArray()).toHaveLength(0);
    }
    for (const kind of ['splu', 'klu', 'cholesky'] as const) {
      const F = factor(kind, A, device);
      const x = F.solve(rlx.zeros([3, 0]));
      expect(x.shape).toEqual([3, 0]);
      F.dispose();
      expect(() => F.solve(rlx.zeros([3, 0]))).toThrow(rlx.ValueError);
    }
  });

  for (const dtype of SDTYPES)
    it(`spsolve ${dtype}: every method, CSR/CSC, trans 0/1/2, b [n] and [n, k] vs dense elimination`, () => {
      const r = prng(40 + SDTYPES.indexOf(dtype));
      const n = 9;
      const G = randomNonsym(r, n, dtype, 0.3),
        S = randomSpd(r, n, dtype, 0.3);
      const single = isSingle(dtype);
      for (const method of ['lu', 'cholesky', 'cg', 'gmres', 'bicgstab', 'minres'] as const) {
        const T = method === 'lu' || method === 'gmres' || method === 'bicgstab' ? G : S;
        for (const format of ['csr', 'csc'] as const)
          for (const trans of [0, 1, 2] as const)
            for (const shape of [[n], [n, 2]]) {
              const C = build(T, format) as unknown as { withValues(v: Tensor): rlx.sparse.SparseMatrix; valuesTensor(): Tensor };
              const b = randTensor(r, shape, dtype, device);
              const x = rlx.sparse.spsolve(C.withValues(C.valuesTensor().on(device)), b.t, { method, trans: TRANS[trans], rtol: single ? 1e-6 : 1e-12, maxiter: 200 });
              expect(x.dtype).toBe(dtype);
              expect(x.shape).toEqual(shape);
              const t = single ? { rtol: 1e-4, atol: 1e-5 } : method === 'lu' || method === 'cholesky' ? tol(dtype) : { rtol: 1e-9, atol: 1e-10 };
              expectPlanesClose(planes(x), refSolve(T.dense, b.p, shape[1] ?? 1, (['N', 'T', 'H'] as const)[trans]), t, `${method} ${format} trans ${trans} ${JSON.stringify(shape)}`);
            }
      }
    });

  it('spsolve promotes mixed dtypes and solves in the promoted precision', () => {
    const r = prng(41);
    for (const [ad, bd, want] of [
      ['float32', 'float64', 'float64'],
      ['float32', 'complex128', 'complex128'],
      ['complex64', 'float64', 'complex128'],
      ['float64', 'complex64', 'complex128'],
    ] as const) {
      const T = randomNonsym(r, 8, ad, 0.3);
      const C = build(T, 'csc') as unknown as { withValues(v: Tensor): rlx.sparse.SparseMatrix; valuesTensor(): Tensor };
      const b = randTensor(r, [8], bd, device);
      for (const method of ['lu', 'gmres'] as const) {
        const x = rlx.sparse.spsolve(C.withValues(C.valuesTensor().on(device)), b.t, { method, rtol: 1e-13 });
        expect(x.dtype, `${ad} \\ ${bd}`).toBe(want);
        // float32 values are exact in double: a double solve matches the double reference to ~1e-12
        expectPlanesClose(planes(x), refSolve(T.dense, b.p, 1), { rtol: 1e-10, atol: 1e-11 }, `${method} ${ad} \\ ${bd}`);
      }
    }
  });

  it('spsolve is a lazy IR op on the pinned device (every method); the cholesky factor object reads the lower triangle too', () => {
    const A = rlx.sparse.poisson2d(4);
    const Ap = A.withValues(A.valuesTensor().on(device));
    const b = rlx.ones([16]).on(device);
    for (const method of ['lu', 'cholesky', 'cg', 'gmres'] as const) {
      const x = rlx.sparse.spsolve(Ap, b, { method, rtol: 1e-12 });
      expect(x.isRealized).toBe(false);
      const plan = rlx.explain(x, { print: false });
      expect(plan.device, method).toBe(device);
      expect(plan.kernels.some((k) => k.kind === 'registered'), plan.toString()).toBe(true);
      expect(x.device).toBe(device);
      expect(vals(Ap.matvec(x))).toBeAllclose(new Float64Array(16).fill(1), { rtol: 1e-10, atol: 1e-10 });
    }
    const r = prng(14);
    const T = randomSpd(r, 7, 'complex128', 0.5);
    const keep = T.ri.map((i, e) => i >= T.ci[e]!);
    const low = { ...T, ri: T.ri.filter((_, e) => keep[e]), ci: T.ci.filter((_, e) => keep[e]), data: T.data.filter((_, e) => keep[Math.floor(e / 2)]) };
    const rhs = randTensor(r, [7], 'complex128');
    for (const format of ['csr', 'csc', 'coo'] as const) {
      const F = factor('cholesky', build(low, format), device);
      expectPlanesClose(planes(F.solve(rhs.t)), refSolve(T.dense, rhs.p, 1), tol('complex128'), `cholesky object, lower-only ${format}`);
      F.dispose();
    }
  });

  it("spsolve 'cholesky' reads the lower triangle for CSR and CSC, full or lower-only storage", () => {
    const r = prng(13);
    for (const dtype of ['float64', 'complex128'] as const) {
      const T = randomSpd(r, 6, dtype, 0.5);
      const keep = T.ri.map((i, e) => i >= T.ci[e]!);
      const low = { ...T, ri: T.ri.filter((_, e) => keep[e]), ci: T.ci.filter((_, e) => keep[e]), data: T.data.filter((_, e) => keep[Math.floor(e / (isCplx(dtype) ? 2 : 1))]) };
      const b = randTensor(r, [6, 2], dtype, device);
      for (const trans of [0, 1, 2] as const)
        for (const S of [T, low])
          for (const format of ['csr', 'csc'] as const) {
            const A = build(S, format);
            const C = A as unknown as { withValues(v: Tensor): rlx.sparse.SparseMatrix; valuesTensor(): Tensor };
            const M = C.withValues(C.valuesTensor().on(device));
            const x = rlx.sparse.spsolve(M, b.t, { method: 'cholesky', trans: TRANS[trans] });
            expectPlanesClose(planes(x), refSolve(T.dense, b.p, 2, (['N', 'T', 'H'] as const)[trans]), tol(dtype), `${dtype} ${S === T ? 'full' : 'lower'} ${format} trans ${trans}`);
          }
    }
  });
});

function vals(t: Tensor): Float64Array {
  return Float64Array.from(t.toArray() as ArrayLike<number>);
}

describe('native and js factorizations agree', () => {
  it.skipIf(!FACTOR_DEVICES.includes('native'))('splu / klu / cholesky solutions and log-determinants', () => {
    const r = prng(99);
    for (const dtype of SDTYPES)
      for (const kind of ['splu', 'klu', 'cholesky'] as const) {
        const T = kind === 'cholesky' ? randomSpd(r, 15, dtype, 0.2) : randomNonsym(r, 15, dtype, 0.2);
        const A = build(T, 'csr');
        const Fn = factor(kind, A, 'native'),
          Fj = factor(kind, A, 'js');
        const b = randTensor(r, [15, 2], dtype);
        for (const trans of ['N', 'T', 'H'] as const) expectPlanesClose(planes(Fn.solve(b.t, { trans })), planes(Fj.solve(b.t, { trans })), tol(dtype), `${kind} ${dtype} ${trans}`);
        expect(Fn.logDet().logabsdet).toBeCloseTo(Fj.logDet().logabsdet, isSingle(dtype) ? 3 : 10);
        const [sn, sj] = [Fn.logDet().sign, Fj.logDet().sign];
        if (typeof sn === 'number') expect(sn).toBe(sj);
        else expect(sn).toBeAllclose(sj as [number, number], { rtol: 1e-4, atol: 1e-5 });
        Fn.dispose();
        Fj.dispose();
      }
  });
});
