// The Async twins added through the binding helper (native/src/binding/kernel.h)
// after the first set (async-kernels.test.ts): the sparse SpMM, SpMV-H and
// SpMV-dot products, KLU's refactor and the direct solvers' log-determinant.
// Each gives the same result as its sync twin (the same C++ on copies of the
// same inputs) and rejects with the typed error (class and message) the sync
// call throws. Also: gemmAsync into a strided output writes back only the
// view's elements (binding/pins.h, Pins::Scatter), not the span between them.

import { expect, it } from 'vitest';
import { requireNativeAddon } from '../../src/backends/native/addon.js';
import { gemmAsync, type GemmSpec } from '../../src/backends/native/gemm.js';
import { spmm, spmmAsync, spmvDot, spmvDotAsync, spmvH, spmvHAsync } from '../../src/sparse/kernels/native-products.js';
import { cholmodFactor, kluFactor, umfpackFactor } from '../../src/sparse/kernels/native-direct.js';
import { UMFPACK_SKIP } from '../sparse/native/util.js';
import { nativeSparseGraphKernels } from '../../src/sparse/kernels/native-graph.js';
import type { CompressedArrays } from '../../src/sparse/contract.js';
import { SingularMatrixError } from '../../src/tensor/errors-linalg.js';
import { ValueError } from '../../src/tensor/errors.js';
import { poisson2d } from '../sparse/solvers/util.js';
import { describeNative, randomArray, rejection } from './native-harness.js';
function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}
/** The sync call throws, the async one rejects, with the same class, message and rlxKind. */
async function sameError(s: () => unknown, a: () => Promise<unknown>): Promise<void> {
  const es = thrown(s);
  const ea = await rejection(a);
  expect(es).toBeInstanceOf(Error);
  expect(ea).toBeInstanceOf((es as object).constructor);
  expect((ea as Error).message).toBe((es as Error).message);
  expect((ea as { rlxKind?: string }).rlxKind).toBe((es as { rlxKind?: string }).rlxKind);
}

/** poisson2d(12) and a complex Hermitian positive definite variant (± 0.1i off the diagonal, diagonal + 1). */
function cases(): [string, CompressedArrays][] {
  const p = poisson2d(12);
  const data = new Float64Array(2 * p.indices.length);
  for (let r = 0; r < p.shape[0]; r++)
    for (let q = p.indptr[r]!; q < p.indptr[r + 1]!; q++) {
      const c = p.indices[q]!;
      data[2 * q] = p.data[q]! + (r === c ? 1 : 0);
      data[2 * q + 1] = r === c ? 0 : r < c ? 0.1 : -0.1;
    }
  return [
    ['float64', p],
    ['complex128', { ...p, dtype: 'complex128', data }],
  ];
}

describeNative('native Async twins: SpMM, SpMV-H, SpMV-dot, KLU refactor, logDet', () => {
  for (const [name, A] of cases()) {
    const per = name === 'complex128' ? 2 : 1;
    const n = A.shape[0];

    it(`spmmAsync, spmvHAsync === spmm, spmvH; csrMatmulAsync === csrMatmul for every case (${name})`, async () => {
      const X = randomArray(n * 3 * per, 1);
      expect(await spmmAsync(A, X, 3, undefined, 2, 0)).toEqual(spmm(A, X, 3, undefined, 2, 0));
      const Y0 = randomArray(n * 3 * per, 2);
      const Y1 = Y0.slice();
      expect(await spmmAsync(A, X, 3, Y1, 1, 0.5)).toEqual(spmm(A, X, 3, Y0, 1, 0.5));
      const x = randomArray(n * per, 3);
      expect(await spmvHAsync(A, x, undefined, 2, 0)).toEqual(spmvH(A, x, undefined, 2, 0));
      const y0 = randomArray(n * per, 4);
      const y1 = y0.slice();
      expect(await spmvHAsync(A, x, y1, 1, 0.5)).toEqual(spmvH(A, x, y0, 1, 0.5));
      const view = { rows: n, cols: n, indptr: A.indptr, indices: A.indices, data: A.data };
      for (const [k, trans] of [[3, 0], [1, 1], [1, 2]] as const) {
        const o1 = new Float64Array(n * k * per);
        const o2 = new Float64Array(n * k * per);
        nativeSparseGraphKernels.csrMatmul(A.dtype, view as never, X.subarray(0, n * k * per), k, o1, trans);
        await nativeSparseGraphKernels.csrMatmulAsync(A.dtype, view as never, X.subarray(0, n * k * per), k, o2, trans);
        expect(o2, `k ${k} trans ${trans}`).toEqual(o1);
      }
    });

    it(`logDetAsync === logDet (UMFPACK, KLU, CHOLMOD), refactorAsync === refactor (${name})`, async () => {
      for (const f of [...(UMFPACK_SKIP ? [] : [umfpackFactor(A)]), kluFactor(A), cholmodFactor(A)]) {
        expect(await f.logDetAsync()).toEqual(f.logDet());
        f.dispose();
      }
      const s = kluFactor(A);
      const a = kluFactor(A);
      const data = A.data.map((v, i) => v * (1 + (i % 3) / 4)) as Float64Array;
      s.refactor(data);
      await a.refactorAsync(data);
      const b = randomArray(n * per, 5);
      expect(a.solve(b)).toEqual(s.solve(b));
      expect(await a.logDetAsync()).toEqual(s.logDet());
      s.dispose(), a.dispose();
    });
  }

  it('spmvDotAsync === spmvDot (the dot and y)', async () => {
    const A = poisson2d(40);
    const n = A.shape[0];
    const x = randomArray(n, 6);
    const y0 = new Float64Array(n);
    const y1 = new Float64Array(n);
    const d0 = spmvDot(A, x, y0);
    expect(await spmvDotAsync(A, x, y1)).toBe(d0);
    expect(y1).toEqual(y0);
  });

  it('errors reject with the typed error the sync call throws (TS checks, C++ checks, singular refactor, disposed)', async () => {
    const A = poisson2d(4);
    const n = A.shape[0];
    const short = new Float64Array(n - 1);
    await sameError(() => spmm(A, short, 1), () => spmmAsync(A, short, 1));
    await sameError(() => spmvH(A, short), () => spmvHAsync(A, short));
    await sameError(() => spmvDot(A, short, new Float64Array(n)), () => spmvDotAsync(A, short, new Float64Array(n)));
    // Checks only the addon makes (raw calls: the TS checks bypassed): a column index out of range.
    const raw = requireNativeAddon();
    const ip = new Int32Array([0, 2, 4]);
    const bad = new Int32Array([0, 5, 0, 1]);
    const v = new Float64Array([1, 2, 2, 4]);
    const X = () => new Float64Array(2);
    await sameError(
      () => raw.sparseSpmm('float64', 2, 2, ip, bad, v, false, X(), 1, X(), 1, 0, 0, 0),
      () => raw.sparseSpmmAsync('float64', 2, 2, ip, bad, v, false, X(), 1, X(), 1, 0, 0, 0),
    );
    await sameError(
      () => raw.sparseSpmvH('float64', 2, 2, ip, bad, v, false, X(), X(), 1, 0, 0, 0),
      () => raw.sparseSpmvHAsync('float64', 2, 2, ip, bad, v, false, X(), X(), 1, 0, 0, 0),
    );
    await sameError(
      () => raw.sparseSpmvDot!('float64', 2, 2, ip, bad, v, X(), X()),
      () => raw.sparseSpmvDotAsync!('float64', 2, 2, ip, bad, v, X(), X()),
    );
    await sameError(() => raw.directLogDet({} as never), () => raw.directLogDetAsync({} as never));
    // KLU refactor with values that make the matrix singular: SingularMatrixError both ways.
    const sing: CompressedArrays = { shape: [2, 2], dtype: 'float64', indptr: ip, indices: new Int32Array([0, 1, 0, 1]), data: new Float64Array([1, 2, 3, 4]) };
    const f = kluFactor(sing);
    const singular = new Float64Array([1, 2, 2, 4]);
    await sameError(() => f.refactor(singular), () => f.refactorAsync(singular));
    expect(await rejection(() => f.refactorAsync(singular))).toBeInstanceOf(SingularMatrixError);
    await sameError(() => f.refactor(new Float64Array(3)), () => f.refactorAsync(new Float64Array(3)));
    f.dispose();
    // Disposed: a ValueError naming the method called (as solve / solveAsync do).
    for (const [m, call] of [['logDetAsync', () => f.logDetAsync()], ['refactorAsync', () => f.refactorAsync(v)]] as const) {
      const e = await rejection(call);
      expect(e).toBeInstanceOf(ValueError);
      expect((e as Error).message).toBe(`kluFactor: ${m}() on a factorization that has been disposed`);
    }
  });

  it('dispose() while a refactorAsync / logDetAsync runs: both complete, the factor refuses new calls', async () => {
    const A = poisson2d(120);
    const s = kluFactor(A);
    const data = A.data.map((x) => 2 * x) as Float64Array;
    s.refactor(data);
    const want = s.logDet();
    s.dispose();
    const f = kluFactor(A);
    const p = f.refactorAsync(data);
    const q = f.logDetAsync();
    f.dispose();
    expect(f.disposed).toBe(true);
    await p;
    expect(await q).toEqual(want);
    expect(() => f.logDet()).toThrow(/disposed/);
  });

  it('Async calls on one factor take effect in call order: each logDetAsync sees the refactorAsync queued before it', async () => {
    const A = poisson2d(60);
    const f = kluFactor(A);
    const scaled = (c: number) => A.data.map((x) => c * x) as Float64Array;
    // logdet(cA) = n·log c + logdet(A): each query must see the scale refactored just before it
    const base = f.logDet().logabsdet;
    const n = A.shape[0];
    const queued: [number, Promise<{ logabsdet: number }>][] = [];
    for (let i = 0; i < 12; i++) {
      const c = 1 + (i % 4);
      void f.refactorAsync(scaled(c));
      queued.push([c, f.logDetAsync()]);
    }
    for (const [c, q] of queued) expect((await q).logabsdet).toBeCloseTo(base + n * Math.log(c), 8);
    f.dispose();
  });

  it('gemmAsync into a strided view of c writes back only the view: elements between them written meanwhile stay', async () => {
    const k = 64;
    const a = randomArray(k * k, 7);
    const b = randomArray(k * k, 8);
    // c: every other column of a [k, 2k] buffer.
    const c = new Float64Array(k * 2 * k);
    const op = (data: Float64Array) => ({ data, offset: 0, strides: [k, 1] });
    const spec: GemmSpec = { dtype: 'float64', batch: [], m: k, n: k, k, a: op(a), b: op(b), c: { data: c, offset: 0, strides: [2 * k, 2] } };
    const p = gemmAsync(spec);
    for (let i = 1; i < c.length; i += 2) c[i] = 7; // the columns between, owned by the caller meanwhile
    await p;
    for (let i = 0; i < k; i++)
      for (let j = 0; j < k; j++) {
        let s = 0;
        for (let l = 0; l < k; l++) s += a[i * k + l]! * b[l * k + j]!;
        expect(c[i * 2 * k + 2 * j + 1]).toBe(7);
        expect(Math.abs(c[i * 2 * k + 2 * j]! - s)).toBeLessThan(1e-12 * k);
      }
  });
});
