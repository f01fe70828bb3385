// SuiteSparse direct solvers on the native addon: UMFPACK, KLU, CHOLMOD.
// Residuals on a 2D Poisson matrix, complex non-Hermitian systems with
// trans N/T/H against dense products, log-det against a dense LU, typed
// errors (singular, not positive definite), KLU refactor, dispose semantics,
// factor/dispose cycles with bounded RSS, and bad arguments. An addon built
// without UMFPACK on request (RLX_NO_UMFPACK=1 / RLX_NO_GPL=1, status.json's
// leftOut) runs the same checks on KLU alone (LU_MAKERS, UMFPACK_SKIP).

import { expect, it } from 'vitest';
import { cholmodFactor, kluFactor, umfpackFactor, type SparseFactor } from '../../../src/sparse/kernels/native-direct.js';
import { nativeAddon } from '../../../src/backends/native/addon.js';
import type { CompressedArrays, SparseDType } from '../../../src/sparse/contract.js';
import { NotPositiveDefiniteError, SingularMatrixError } from '../../../src/tensor/errors-linalg.js';
import { RlxError } from '../../../src/tensor/errors.js';
import { denseLogDet, denseMul, describeNative, fromDense, isCplx, itUmfpack, LU_MAKERS, maxAbs, maxDiff, per, poisson2d, rng, toC, toDense, UMFPACK_SKIP } from './util.js';

/** A random diagonally dominant (so nonsingular) non-symmetric matrix, sparse, dense form complex-interleaved. */
function randomGeneral(n: number, dtype: SparseDType, seed: number): { a: CompressedArrays; dense: Float64Array } {
  const r = rng(seed);
  const p = per(dtype);
  const d = new Float64Array(n * n * p);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i !== j && r() < 0.4) continue;
      for (let q = 0; q < p; q++) d[(i * n + j) * p + q] = r();
    }
    d[(i * n + i) * p] += i % 2 ? n : -n; // dominant, mixed signs
  }
  const a = fromDense(d, n, n, dtype);
  return { a, dense: toDense(a) };
}

function randB(n: number, k: number, dtype: SparseDType, seed: number): Float64Array {
  const r = rng(seed);
  return Float64Array.from({ length: n * k * per(dtype) }, () => r());
}

/** ‖op(A) x - b‖∞ / (‖A‖·‖x‖ + ‖b‖) with dense A (complex). */
function relResidual(dense: Float64Array, n: number, x: Float64Array, b: Float64Array, k: number, dtype: SparseDType, op: 'N' | 'T' | 'H' = 'N') {
  const Ax = denseMul(dense, n, n, toC(x, dtype), k, op);
  return maxDiff(Ax, toC(b, dtype)) / (maxAbs(dense) * maxAbs(x) * n + maxAbs(b));
}

/** Sparse residual for the big Poisson matrix: ‖A x - b‖∞ / ‖b‖∞ (real). */
function poissonResidual(a: CompressedArrays, x: Float64Array, b: Float64Array, k: number) {
  let m = 0;
  for (let i = 0; i < a.shape[0]; i++) {
    for (let c = 0; c < k; c++) {
      let s = 0;
      for (let q = a.indptr[i]!; q < a.indptr[i + 1]!; q++) s += a.data[q]! * x[a.indices[q]! * k + c]!;
      m = Math.max(m, Math.abs(s - b[i * k + c]!));
    }
  }
  return m / maxAbs(b);
}

const rssMB = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss / 2 ** 20;
};

describeNative('SuiteSparse direct solvers', () => {
  it('UMFPACK, KLU and CHOLMOD solve a 2D Poisson system (n = 1600, 3 right-hand sides)', () => {
    const a = poisson2d(40);
    const n = a.shape[0];
    const b = randB(n, 3, 'float64', 1);
    const factors: SparseFactor[] = [...LU_MAKERS.map((make) => make(a)), cholmodFactor(a), cholmodFactor(a, { lower: false })];
    for (const f of factors) {
      const x = f.solve(b);
      expect(poissonResidual(a, x, b, 3)).toBeLessThan(1e-12);
      // one column at a time gives the same solution
      const b0 = Float64Array.from({ length: n }, (_, i) => b[i * 3]!);
      const x0 = f.solve(b0);
      expect(maxDiff(x0, Float64Array.from({ length: n }, (_, i) => x[i * 3]!))).toBeLessThan(1e-12);
      f.dispose();
    }
  });

  it('CHOLMOD reads one triangle: lower, upper and float32 input agree', () => {
    const full = poisson2d(12);
    const re = toDense(full).filter((_, i) => i % 2 === 0);
    const tri = (lower: boolean) => fromDense(re, 144, 144, 'float64', (i, j) => (lower ? j <= i : j >= i) && re[i * 144 + j] !== 0);
    const b = randB(144, 1, 'float64', 2);
    const xFull = cholmodFactor(full).solve(b);
    expect(maxDiff(cholmodFactor(tri(true), { lower: true }).solve(b), xFull)).toBeLessThan(1e-12);
    expect(maxDiff(cholmodFactor(tri(false), { lower: false }).solve(b), xFull)).toBeLessThan(1e-12);
    expect(maxDiff(cholmodFactor(poisson2d(12, 'float32')).solve(b), xFull)).toBeLessThan(1e-12);
  });

  for (const dtype of ['float64', 'complex128', 'complex64', 'float32'] as const) {
    it(`UMFPACK and KLU solve A x = b, Aᵀ x = b, Aᴴ x = b (${dtype}, non-symmetric)`, () => {
      for (const seed of [1, 2, 3]) {
        const n = 17;
        const { a, dense } = randomGeneral(n, dtype, seed);
        for (const make of LU_MAKERS) {
          const f = make(a);
          for (const trans of ['N', 'T', 'H'] as const) {
            const b = randB(n, 2, dtype, seed + 10);
            const x = f.solve(b, { trans });
            expect(relResidual(dense, n, x, b, 2, dtype, trans), `${make.name} ${trans}`).toBeLessThan(1e-14);
          }
          if (isCplx(dtype)) {
            // N, T and H differ on a complex non-Hermitian matrix
            const b = randB(n, 1, dtype, 5);
            const [xn, xt, xh] = (['N', 'T', 'H'] as const).map((t) => f.solve(b, { trans: t }));
            expect(maxDiff(xn!, xt!)).toBeGreaterThan(1e-3);
            expect(maxDiff(xt!, xh!)).toBeGreaterThan(1e-3);
          }
          f.dispose();
        }
      }
    });
  }

  it('unsorted and duplicate entries are summed before factoring', () => {
    const { a, dense } = randomGeneral(9, 'complex128', 4);
    // reverse every row and split each value into two duplicate halves
    const ip = [0];
    const ix: number[] = [];
    const d: number[] = [];
    for (let i = 0; i < 9; i++) {
      for (let q = a.indptr[i + 1]! - 1; q >= a.indptr[i]!; q--) {
        for (let h = 0; h < 2; h++) ix.push(a.indices[q]!), d.push(a.data[2 * q]! / 2, a.data[2 * q + 1]! / 2);
      }
      ip.push(ix.length);
    }
    const messy: CompressedArrays = { ...a, indptr: Int32Array.from(ip), indices: Int32Array.from(ix), data: Float64Array.from(d) };
    const b = randB(9, 1, 'complex128', 3);
    for (const make of LU_MAKERS) expect(relResidual(dense, 9, make(messy).solve(b), b, 1, 'complex128')).toBeLessThan(1e-14);
  });

  it('log-determinants match a dense LU (UMFPACK and KLU real and complex, CHOLMOD)', () => {
    for (const dtype of ['float64', 'complex128'] as const) {
      for (const seed of [1, 2, 3, 4]) {
        const { a, dense } = randomGeneral(15, dtype, seed);
        const want = denseLogDet(dense, 15);
        for (const make of LU_MAKERS) {
          const got = make(a).logDet();
          expect(got.logabsdet, make.name).toBeCloseTo(want.logabsdet, 10);
          expect(got.sign, make.name).toBeCloseTo(want.sign, 10);
          expect(got.signIm, make.name).toBeCloseTo(want.signIm, 10);
          if (dtype === 'float64') expect(Math.abs(got.sign)).toBe(1);
        }
      }
    }
    // CHOLMOD: simplicial (small) and supernodal (larger) factors
    const methods = new Set<string>();
    for (const m of [6, 100]) {
      const a = poisson2d(m);
      const native = nativeAddon()!;
      const h = native.cholmodFactor('float64', m * m, m * m, a.indptr, a.indices, a.data, true).handle;
      methods.add(native.directInfo(h).method);
      native.directDispose(h);
      const f = cholmodFactor(a);
      const u = LU_MAKERS[0]!(a);
      const ld = f.logDet();
      expect(ld.sign).toBe(1);
      expect(ld.logabsdet).toBeCloseTo(u.logDet().logabsdet, 8);
      if (m === 6) expect(ld.logabsdet).toBeCloseTo(denseLogDet(toDense(a), 36).logabsdet, 10);
    }
    expect([...methods].sort()).toEqual(["simplicial LL'", "supernodal LL'"]);
  });

  it('CHOLMOD factors a complex Hermitian positive definite matrix (solve and log-det)', () => {
    const n = 12;
    const r = rng(8);
    const B = Float64Array.from({ length: n * n * 2 }, () => r());
    // A = Bᴴ B + n I (dense, Hermitian PD), then keep it sparse-ish via a banded mask on B? keep dense.
    const A = denseMul(B, n, n, B, n, 'H'); // (Bᴴ)·B with X = B as [n, n]
    for (let i = 0; i < n; i++) A[2 * (i * n + i)] += n;
    const a = fromDense(A, n, n, 'complex128');
    const b = randB(n, 2, 'complex128', 9);
    for (const lower of [true, false]) {
      const f = cholmodFactor(a, { lower });
      for (const trans of ['N', 'T', 'H'] as const) expect(relResidual(A, n, f.solve(b, { trans }), b, 2, 'complex128', trans)).toBeLessThan(1e-14);
      expect(f.logDet().logabsdet).toBeCloseTo(denseLogDet(A, n).logabsdet, 10);
    }
  });

  it('a singular matrix throws SingularMatrixError with the row; allowSingular keeps it for logDet', () => {
    // row 3 is zero (structurally singular)
    const n = 6;
    const d = new Float64Array(n * n);
    for (let i = 0; i < n; i++) if (i !== 3) (d[i * n + i] = 2), (d[i * n + ((i + 1) % n)] = 1);
    const a = fromDense(d, n, n, 'float64');
    for (const make of LU_MAKERS) {
      let err: unknown;
      try {
        make(a);
      } catch (e) {
        err = e;
      }
      expect(err, make.name).toBeInstanceOf(SingularMatrixError);
      expect(err).toBeInstanceOf(RlxError);
      expect((err as SingularMatrixError).op).toBe(make.name);
      expect((err as SingularMatrixError).index, make.name).toBe(3);
    }
    // numerically singular: two equal rows
    const e = fromDense([1, 2, 0, 1, 2, 0, 0, 0, 5], 3, 3, 'float64');
    for (const make of LU_MAKERS) expect(() => make(e), make.name).toThrow(SingularMatrixError);
    if (UMFPACK_SKIP) return; // allowSingular is UMFPACK's
    const kept = umfpackFactor(e, { allowSingular: true });
    expect(kept.logDet()).toEqual({ sign: 0, signIm: 0, logabsdet: -Infinity });
    expect(() => kept.solve(new Float64Array(3))).toThrow(SingularMatrixError);
    kept.dispose();
  });

  it('a matrix that is not positive definite throws NotPositiveDefiniteError with the column', () => {
    const n = 10;
    const d = new Float64Array(n * n);
    for (let i = 0; i < n; i++) d[i * n + i] = i === 5 ? -1 : 2;
    for (let i = 0; i + 1 < n; i++) (d[i * n + i + 1] = 0.5), (d[(i + 1) * n + i] = 0.5);
    let err: unknown;
    try {
      cholmodFactor(fromDense(d, n, n, 'float64'));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(NotPositiveDefiniteError);
    expect((err as NotPositiveDefiniteError).row).toBe(5);
    expect((err as NotPositiveDefiniteError).op).toBe('cholmodFactor');
    // a large indefinite matrix (supernodal path from n = 10^4 on): Poisson shifted by -4.5 I
    const p = poisson2d(100);
    for (let i = 0; i < p.shape[0]; i++) for (let q = p.indptr[i]!; q < p.indptr[i + 1]!; q++) if (p.indices[q] === i) p.data[q] = p.data[q]! - 4.5;
    expect(() => cholmodFactor(p)).toThrow(NotPositiveDefiniteError);
    try {
      cholmodFactor(p);
    } catch (e) {
      const idx = (e as NotPositiveDefiniteError).row;
      expect(idx >= 0 && idx < p.shape[0]).toBe(true);
    }
  });

  it('KLU refactor with new values of the same pattern', () => {
    for (const dtype of ['float64', 'complex128'] as const) {
      const { a } = randomGeneral(20, dtype, 6);
      const f = kluFactor(a);
      const r = rng(1);
      const data2 = a.data.map((v) => v * (1 + 0.3 * r()));
      const a2: CompressedArrays = { ...a, data: data2 };
      f.refactor(data2);
      const b = randB(20, 2, dtype, 7);
      for (const trans of ['N', 'T', 'H'] as const) expect(relResidual(toDense(a2), 20, f.solve(b, { trans }), b, 2, dtype, trans)).toBeLessThan(1e-13);
      expect(() => f.refactor(data2.subarray(1))).toThrow(/length/);
      // singular new values -> typed error, then a good refactor recovers
      const zero = data2.map(() => 0);
      expect(() => f.refactor(zero)).toThrow(SingularMatrixError);
      expect(() => f.solve(b)).toThrow();
      f.refactor(a.data);
      expect(relResidual(toDense(a), 20, f.solve(b), b, 2, dtype)).toBeLessThan(1e-13);
      f.dispose();
    }
  });

  it('dispose frees at once; any use afterwards throws; dispose twice is fine', () => {
    const a = poisson2d(5);
    for (const f of [...LU_MAKERS.map((make) => make(a)), cholmodFactor(a)]) {
      const native = nativeAddon()!;
      f.dispose();
      expect(f.disposed).toBe(true);
      expect(() => f.solve(new Float64Array(25))).toThrow(/disposed/);
      f.dispose();
      if ('logDet' in f) expect(() => (f as { logDet(): unknown }).logDet()).toThrow(/disposed/);
      void native;
    }
    const k = kluFactor(a);
    k.dispose();
    expect(() => k.refactor(a.data)).toThrow(/disposed/);
    // the native layer refuses a disposed or foreign handle too
    const native = nativeAddon()!;
    const r = (UMFPACK_SKIP ? native.kluFactor : native.umfpackFactor!)('float64', 25, 25, a.indptr, a.indices, a.data);
    native.directDispose(r.handle);
    expect(native.directInfo(r.handle)).toMatchObject({ kind: UMFPACK_SKIP ? 'KLU' : 'UMFPACK', disposed: true, bytes: 0 });
    expect(() => native.directSolve(r.handle, new Float64Array(25), new Float64Array(25), 1, 0)).toThrow(/disposed/);
    expect(() => native.directSolve({} as never, new Float64Array(25), new Float64Array(25), 1, 0)).toThrow(/handle/);
    expect(() => native.kluRefactor(native.cholmodFactor('float64', 25, 25, a.indptr, a.indices, a.data, true).handle, a.data)).toThrow(/CHOLMOD handle/);
  });

  it('2000 factor/dispose cycles keep RSS bounded', () => {
    const a = poisson2d(12);
    const b = randB(144, 1, 'float64', 1);
    const makers = [...LU_MAKERS, cholmodFactor];
    const cycle = (i: number) => {
      const f = makers[i % makers.length]!(a);
      f.solve(b);
      f.dispose();
    };
    for (let i = 0; i < 300; i++) cycle(i);
    const before = rssMB();
    for (let i = 0; i < 2000; i++) cycle(i);
    const after = rssMB();
    expect(after - before).toBeLessThan(25);
  }, 60_000);

  itUmfpack('factors that are never disposed are freed by the garbage collector', async () => {
    // Each UMFPACK factor of poisson2d(30) holds ~0.25 MB of native memory, reported
    // to V8 as external memory: without finalizers 1500 of them would pin ~380 MB.
    // Node runs N-API finalizers from the event loop (after a GC), so a loop that
    // never yields keeps every forgotten factor: this one yields every 50.
    const a = poisson2d(30);
    const native = nativeAddon()!;
    const one = native.umfpackFactor!('float64', 900, 900, a.indptr, a.indices, a.data);
    const bytes = native.directInfo(one.handle).bytes;
    expect(bytes).toBeGreaterThan(100_000);
    const before = rssMB();
    for (let i = 0; i < 1500; i++) {
      umfpackFactor(a);
      if (i % 50 === 49) await new Promise((r) => setImmediate(r));
    }
    const grown = rssMB() - before;
    expect(grown).toBeLessThan((1500 * bytes) / 2 ** 20 / 2);
  }, 60_000);

  it('bad arguments throw and the process lives on', () => {
    const a = poisson2d(4);
    const lu = LU_MAKERS[0]!;
    expect(() => lu({ ...a, shape: [16, 15] })).toThrow(/square|outside/);
    const bad = { ...a, indices: a.indices.slice() };
    bad.indices[3] = 16;
    for (const make of [...LU_MAKERS, cholmodFactor]) expect(() => make(bad)).toThrow(/indices\[3\] = 16/);
    const native = nativeAddon()!;
    for (const fn of UMFPACK_SKIP ? (['kluFactor'] as const) : (['umfpackFactor', 'kluFactor'] as const)) {
      expect(() => native[fn]!('float64', 16, 16, a.indptr, bad.indices, a.data)).toThrow(/outside/);
      expect(() => native[fn]!('float64', 16, 16, a.indptr, a.indices, a.data.subarray(2))).toThrow(/data has length/);
      expect(() => native[fn]!('float64', 16, 15, a.indptr, a.indices, a.data)).toThrow(/square|outside/);
    }
    const f = lu(a);
    expect(() => f.solve(new Float64Array(15))).toThrow(/length/);
    expect(() => f.solve(new Float64Array(16), { trans: 'X' as 'N' })).toThrow(/trans/);
    expect(() => native.directSolve((UMFPACK_SKIP ? native.kluFactor : native.umfpackFactor!)('float64', 16, 16, a.indptr, a.indices, a.data).handle, new Float64Array(16), new Float64Array(15), 1, 0)).toThrow(/length/);
    // 0×0 works
    const e: CompressedArrays = { shape: [0, 0], dtype: 'float64', indptr: new Int32Array(1), indices: new Int32Array(0), data: new Float64Array(0) };
    for (const make of [...LU_MAKERS, cholmodFactor]) expect(make(e).solve(new Float64Array(0)).length).toBe(0);
    expect(lu(e).logDet()).toEqual({ sign: 1, signIm: 0, logabsdet: 0 });
    expect(f.solve(new Float64Array(16).fill(1)).length).toBe(16);
  });
});
