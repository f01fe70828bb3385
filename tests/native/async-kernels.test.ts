// The Async twins of the native kernel sets (native/src/binding/kernel.h):
// each gives bit-identical results to its sync twin (the same LAPACK /
// SuiteSparse code on copies of the same inputs), and its errors reject with
// the typed error the sync call throws.

import { expect, it } from 'vitest';
import { requireNativeAddon } from '../../src/backends/native/addon.js';
import { nativeLinalgKernels } from '../../src/linalg/kernels/native.js';
import { spmv, spmvAsync } from '../../src/sparse/kernels/native-products.js';
import { cholmodFactor, cholmodFactorAsync, kluFactor, kluFactorAsync, umfpackFactor, umfpackFactorAsync } from '../../src/sparse/kernels/native-direct.js';
import { UMFPACK_SKIP } from '../sparse/native/util.js';
import { nativeSparseGraphKernels } from '../../src/sparse/kernels/native-graph.js';
import type { CompressedArrays } from '../../src/sparse/contract.js';
import { poisson2d } from '../sparse/solvers/util.js';
import { describeNative, randomArray, rejection } from './native-harness.js';
function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}

describeNative('native Async twins', () => {
  const K = () => nativeLinalgKernels(requireNativeAddon());

  for (const dtype of ['float64', 'complex128', 'float32'] as const) {
    const per = dtype === 'complex128' ? 2 : 1;
    const C = dtype === 'float32' ? Float32Array : Float64Array;
    it(`svd, eigh, lu, solve, qr, inv, det, cholesky, eig, lstsq, gemm: Async === sync (${dtype})`, async () => {
      const k = K();
      const n = 40,
        m = 30;
      const a = randomArray(n * n * per, 1, C);
      const am = randomArray(m * n * per, 2, C);
      const rhs = randomArray(n * 3 * per, 3, C);
      // A Hermitian positive definite matrix: a aᴴ + n I (built here; only the kernels' agreement is tested).
      const spd = new C(n * n * per);
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) {
          let re = 0,
            im = 0;
          for (let l = 0; l < n; l++) {
            const [ar, ai] = per === 2 ? [a[2 * (i * n + l)]!, a[2 * (i * n + l) + 1]!] : [a[i * n + l]!, 0];
            const [br, bi] = per === 2 ? [a[2 * (j * n + l)]!, -a[2 * (j * n + l) + 1]!] : [a[j * n + l]!, 0];
            re += ar * br - ai * bi;
            im += ar * bi + ai * br;
          }
          if (i === j) re += n;
          if (per === 2) (spd[2 * (i * n + j)] = re), (spd[2 * (i * n + j) + 1] = im);
          else spd[i * n + j] = re;
        }
      type Case = [string, () => unknown[]];
      const cases: Case[] = [
        ['svd', () => [dtype, 1, m, n, am, new C(m), new C(m * m * per), new C(m * n * per), false]],
        ['eigh', () => [dtype, 1, n, spd, new C(n), new C(n * n * per), true]],
        ['lu', () => [dtype, 1, n, n, a, new C(n * n * per), new Int32Array(n), new Int32Array(n)]],
        ['solve', () => [dtype, 1, n, 3, a, rhs, new C(n * 3 * per)]],
        ['qr', () => [dtype, 1, m, n, am, new C(m * m * per), new C(m * n * per), false]],
        ['inv', () => [dtype, 1, n, a, new C(n * n * per)]],
        ['det', () => [dtype, 1, n, a, new C(per), new C(1)]],
        ['cholesky', () => [dtype, 1, n, spd, new C(n * n * per), true]],
        ['triangularSolve', () => [dtype, 1, n, 3, spd, rhs, new C(n * 3 * per), true, 0, false]],
        ['eig', () => [dtype, 1, n, a, new C(2 * n), new C(2 * n * n)]],
        ['lstsq', () => [dtype, 1, m, n, 3, am, randomArray(m * 3 * per, 4, C), new C(n * 3 * per), new C(m), new Int32Array(1), -1]],
        ['gemm', () => [dtype, n, n, 3, a, rhs, new C(n * 3 * per)]],
      ];
      for (const [name, make] of cases) {
        const s = make(),
          as = make();
        const rs = (k as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!(...s);
        const ra = await (k as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[`${name}Async`]!(...as);
        expect(ra, name).toEqual(rs);
        for (let i = 0; i < s.length; i++) if (ArrayBuffer.isView(s[i])) expect(as[i], `${name} argument ${i}`).toEqual(s[i]);
      }
    });
  }

  it('errors reject with the typed error the sync call throws', async () => {
    const k = K();
    const a = randomArray(16, 5);
    const bad = (): Parameters<typeof k.svd> => ['float64', 1, 4, 4, a, new Float64Array(4), new Float64Array(16), null, false];
    const es = thrown(() => k.svd(...bad()));
    const ea = await rejection(() => k.svdAsync(...bad()));
    expect(ea).toBeInstanceOf((es as object).constructor);
    expect((ea as Error).message).toBe((es as Error).message);
    // A check only the addon makes (the TS fast path is bypassed by calling it raw): same class and message.
    const raw = requireNativeAddon();
    const rs = thrown(() => raw.linalgInv('float64', 1, 4, a, new Float32Array(16) as unknown as Float64Array));
    const ra = await rejection(() => raw.linalgInvAsync('float64', 1, 4, a, new Float32Array(16) as unknown as Float64Array));
    expect(ra).toBeInstanceOf((rs as object).constructor);
    expect((ra as Error).message).toBe((rs as Error).message);
    expect((ra as { rlxKind: string }).rlxKind).toBe('DTypeError');
  });

  it('an output transferred while the async kernel runs: rejects with a ValueError, nothing written', async () => {
    const raw = requireNativeAddon();
    const n = 300;
    const a = randomArray(n * n, 6);
    const out = new Float64Array(n * n);
    const p = raw.linalgInvAsync('float64', 1, n, a, out);
    structuredClone(out.buffer, { transfer: [out.buffer] });
    const e = await rejection(() => p);
    expect((e as { rlxKind: string }).rlxKind).toBe('ValueError');
    expect((e as Error).message).toMatch(/detached/);
  });

  const sparseCases = (): [string, CompressedArrays][] => {
    const p = poisson2d(12);
    // A complex Hermitian positive definite variant: diagonal + 1, ±0.1i off the diagonal (antisymmetric: Hermitian;
    // |perturbation| <= 0.4 < 1 + the smallest eigenvalue, so still positive definite).
    const nnz = p.indices.length;
    const data = new Float64Array(2 * nnz);
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
  };

  for (const [name, A] of sparseCases()) {
    it(`UMFPACK, KLU, CHOLMOD factor + solve, SpMV, graph solve: Async === sync (${name})`, async () => {
      const per = name === 'complex128' ? 2 : 1;
      const n = A.shape[0];
      const b = randomArray(n * 2 * per, 7);
      // UMFPACK only where this build has it (UMFPACK_SKIP: left out on request, RLX_NO_UMFPACK / RLX_NO_GPL).
      const factorPairs = [
        ...(UMFPACK_SKIP ? [] : [[umfpackFactor, umfpackFactorAsync] as const]),
        [kluFactor, kluFactorAsync] as const,
        [cholmodFactor, cholmodFactorAsync] as const,
      ];
      for (const [fs, fa] of factorPairs) {
        const s = fs(A);
        const as = await fa(A);
        expect(as.logDet()).toEqual(s.logDet());
        for (const trans of ['N', 'T', 'H'] as const) expect(await as.solveAsync(b, { trans }), trans).toEqual(s.solve(b, { trans }));
        s.dispose(), as.dispose();
      }
      const x = randomArray(n * per, 8);
      expect(await spmvAsync(A, x, undefined, 2, 0)).toEqual(spmv(A, x, undefined, 2, 0));
      const y0 = randomArray(n * per, 9),
        y1 = y0.slice();
      expect(await spmvAsync(A, x, y1, 1, 0.5)).toEqual(spmv(A, x, y0, 1, 0.5));
      const view = { rows: n, cols: n, indptr: A.indptr, indices: A.indices, data: A.data };
      for (const method of ['lu', 'cholesky'] as const) {
        const o1 = new Float64Array(n * 2 * per),
          o2 = new Float64Array(n * 2 * per);
        const opts = { method, trans: 0 } as Parameters<typeof nativeSparseGraphKernels.solve>[5];
        nativeSparseGraphKernels.solve(A.dtype, view as never, b, 2, o1, opts);
        await nativeSparseGraphKernels.solveAsync(A.dtype, view as never, b, 2, o2, opts);
        expect(o2, method).toEqual(o1);
      }
      const m1 = new Float64Array(n * per),
        m2 = new Float64Array(n * per);
      nativeSparseGraphKernels.csrMatmul(A.dtype, view as never, x, 1, m1, 0);
      await nativeSparseGraphKernels.csrMatmulAsync(A.dtype, view as never, x, 1, m2, 0);
      expect(m2).toEqual(m1);
    });
  }

  it('sparse errors reject with the typed error the sync call throws (singular, not positive definite, bad index)', async () => {
    const sing: CompressedArrays = { shape: [2, 2], dtype: 'float64', indptr: new Int32Array([0, 2, 4]), indices: new Int32Array([0, 1, 0, 1]), data: new Float64Array([1, 2, 2, 4]) };
    const notpd: CompressedArrays = { ...sing, data: new Float64Array([1, 2, 2, 1]) };
    const pairs: [() => unknown, () => Promise<unknown>][] = [
      ...(UMFPACK_SKIP ? [] : [[() => umfpackFactor(sing), () => umfpackFactorAsync(sing)] as [() => unknown, () => Promise<unknown>]]),
      [() => kluFactor(sing), () => kluFactorAsync(sing)],
      [() => cholmodFactor(notpd), () => cholmodFactorAsync(notpd)],
      [() => spmv(sing, new Float64Array(3)), () => spmvAsync(sing, new Float64Array(3))],
    ];
    const badIdx = { ...sing, indices: new Int32Array([0, 5, 0, 1]) };
    const raw = requireNativeAddon();
    const rawArgs = () => ['float64', 2, 2, badIdx.indptr, badIdx.indices, badIdx.data, 0, new Float64Array(2), new Float64Array(2), 1, 0, 0, 0] as const;
    for (const [s, a] of pairs) {
      const es = thrown(s);
      const ea = await rejection(a);
      expect(ea).toBeInstanceOf((es as object).constructor);
      expect((ea as Error).message).toBe((es as Error).message);
    }
    const es = thrown(() => raw.sparseSpmv(...rawArgs()));
    const ea = await rejection(() => raw.sparseSpmvAsync(...rawArgs()));
    expect((ea as Error).message).toBe((es as Error).message);
    expect((ea as { rlxKind: string }).rlxKind).toBe((es as { rlxKind: string }).rlxKind);
  });

  it('dispose() while a solveAsync runs: the solve completes, the factor refuses new calls', async () => {
    const A = poisson2d(120);
    const f = (UMFPACK_SKIP ? kluFactor : umfpackFactor)(A);
    const b = randomArray(A.shape[0], 10);
    const want = f.solve(b);
    const p = f.solveAsync(b);
    f.dispose();
    expect(f.disposed).toBe(true);
    expect(await p).toEqual(want);
    expect(() => f.solve(b)).toThrow(/disposed/);
  });

  it('opaqueCumsumAsync === opaqueCumsum (in place too)', async () => {
    const raw = requireNativeAddon() as unknown as Record<string, (...a: unknown[]) => unknown>;
    const x = randomArray(3 * 1000 * 4, 11);
    const o1 = new Float64Array(x.length),
      o2 = new Float64Array(x.length);
    raw['opaqueCumsum']!(x, o1, 3, 1000, 4);
    await raw['opaqueCumsumAsync']!(x, o2, 3, 1000, 4);
    expect(o2).toEqual(o1);
    const y = x.slice();
    await raw['opaqueCumsumAsync']!(y, y, 3, 1000, 4);
    expect(y).toEqual(o1);
  });
});
