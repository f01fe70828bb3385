// An addon without UMFPACK (GPL; built with RLX_NO_UMFPACK=1 or RLX_NO_GPL=1),
// simulated on the loaded addon by hideUmfpackForTests(true): the default LU
// paths (splu, spsolve's 'lu', its Async realization, a factor's logDet,
// eigsh's shift-invert) factor with KLU and give the solutions UMFPACK gives
// (and the independent js sparse LU gives), to the accuracy the problem's
// conditioning allows; explicit UMFPACK requests (umfpackFactor, splu with a
// UMFPACK control) are DeviceErrors naming the op, that UMFPACK was left out
// (GPL) and how to get it; `rlx info` says UMFPACK is left out. In a build that really left UMFPACK out the same
// checks run against the js sparse LU alone.

import { afterEach, expect, it, vi } from 'vitest';
import * as rlx from '../../../src/index.js';
import { nativeAddon } from '../../../src/backends/native/addon.js';
import { hasUmfpack, hideUmfpackForTests, kluFactor, umfpackFactor, umfpackFactorAsync } from '../../../src/sparse/kernels/native-direct.js';
import type { CompressedArrays } from '../../../src/sparse/contract.js';
import { DeviceError, ValueError } from '../../../src/tensor/errors.js';
import { formatInfo, infoReport } from '../../../src/cli/info.js';
import { describeNative, UMFPACK_SKIP } from './util.js';

const EPS = 2 ** -52;

/** A non-symmetric convection–diffusion matrix (n = 144), its CSR arrays, a right-hand side and κ∞(A) (linalg.cond of the dense matrix). */
function problem() {
  const A = rlx.sparse.convectionDiffusion2d(12, { peclet: 30, wind: [1, -0.5] });
  const n = A.shape[0];
  const b = Float64Array.from({ length: n }, (_, i) => Math.sin(0.7 * i) + 0.25);
  const dense = A.toDense().on('js');
  const kappa = rlx.linalg.cond(dense, Infinity).item() as number;
  const arrays: CompressedArrays = { shape: [n, n], dtype: 'float64', indptr: A.indptr, indices: A.indices, data: A.data as Float64Array };
  return { A, n, b, kappa, arrays };
}

const relDiff = (x: ArrayLike<number>, y: ArrayLike<number>) => {
  let d = 0,
    m = 0;
  for (let i = 0; i < x.length; i++) (d = Math.max(d, Math.abs(x[i]! - y[i]!))), (m = Math.max(m, Math.abs(y[i]!)));
  return d / m;
};

/** The solutions the UMFPACK-less paths are compared with: UMFPACK's (when this addon has it) and the js sparse LU's. */
function references(A: rlx.sparse.CsrMatrix, b: Float64Array): { name: string; x: Float64Array }[] {
  const refs = [{ name: 'js-lu', x: rlx.sparse.splu(A, { device: 'js' }).solveRaw(b) }];
  if (hasUmfpack()) refs.push({ name: 'umfpack', x: rlx.sparse.splu(A).solveRaw(b) });
  return refs;
}

describeNative('an addon without UMFPACK (hideUmfpackForTests)', () => {
  afterEach(() => {
    hideUmfpackForTests(false);
    vi.restoreAllMocks();
  });

  it('the conditioning that sets the tolerance is moderate (so the check below means something)', () => {
    const { kappa } = problem();
    expect(kappa).toBeGreaterThan(10);
    expect(kappa).toBeLessThan(1e5);
  });

  it('hasUmfpack() follows the addon and the test switch', () => {
    expect(hasUmfpack()).toBe(UMFPACK_SKIP === undefined);
    // The addon's own record (native/src/info.cc, RLX_HAVE_UMFPACK) agrees (undefined: an addon older than the record).
    const record = nativeAddon()!.blasInfo().umfpack;
    if (record !== undefined) expect(record).toBe(hasUmfpack());
    hideUmfpackForTests(true);
    expect(hasUmfpack()).toBe(false);
    hideUmfpackForTests(false);
    expect(hasUmfpack()).toBe(UMFPACK_SKIP === undefined);
  });

  it('splu factors with KLU (method klu) and solves as UMFPACK and the js LU do, N/T, and the same log-determinant', () => {
    const { A, b, kappa } = problem();
    const refs = references(A, b);
    const refsT = [{ name: 'js-lu', x: rlx.sparse.splu(A, { device: 'js' }).solveRaw(b, 'T') }];
    const ldRef = rlx.sparse.splu(A, { device: 'js' }).logDet();
    hideUmfpackForTests(true);
    const native = nativeAddon()!;
    const klu = vi.spyOn(native, 'kluFactor');
    const F = rlx.sparse.splu(A);
    expect(F.method).toBe('klu');
    expect(klu).toHaveBeenCalledTimes(1);
    // Both solutions have a backward error of a few ε, so they differ by at most ~κ∞·ε each way.
    const tol = 10 * kappa * EPS;
    for (const r of refs) expect(relDiff(F.solveRaw(b), r.x), r.name).toBeLessThan(tol);
    for (const r of refsT) expect(relDiff(F.solveRaw(b, 'T'), r.x), `${r.name} T`).toBeLessThan(tol);
    const ld = F.logDet();
    expect(ld.sign).toBe(ldRef.sign);
    expect(Math.abs(ld.logabsdet - ldRef.logabsdet)).toBeLessThan(1e-10 * Math.abs(ldRef.logabsdet));
    // A Tensor solve (the factor's op) gives the same numbers.
    expect(relDiff(F.solve(rlx.tensor(b)).toArray() as Float64Array, refs[0]!.x)).toBeLessThan(tol);
    // Like UMFPACK's splu factor, this one has no refactor (code written against one build runs on the other).
    expect(() => F.refactor(A)).toThrow(ValueError);
    expect(() => F.refactor(A)).toThrow('sparse.klu: refactor() is only available on factorizations made by sparse.klu');
    F.dispose();
  });

  it("spsolve's default 'lu' (sync and awaited) and eigsh's shift-invert run on KLU with the same results", async () => {
    const { A, b, kappa } = problem();
    const refs = references(A, b);
    const poisson = rlx.sparse.poisson2d(10);
    const eigRef = rlx.sparse.eigsh(poisson, 3, { sigma: 0.1, which: 'LM' }).eigenvalues.toArray() as Float64Array;
    hideUmfpackForTests(true);
    const native = nativeAddon()!;
    const umf = native.umfpackFactor ? vi.spyOn(native as Required<typeof native>, 'umfpackFactor') : undefined;
    const umfAsync = native.umfpackFactorAsync ? vi.spyOn(native as Required<typeof native>, 'umfpackFactorAsync') : undefined;
    const klu = vi.spyOn(native, 'kluFactor');
    const kluAsync = vi.spyOn(native, 'kluFactorAsync');
    const tol = 10 * kappa * EPS;
    const x = rlx.sparse.spsolve(A, rlx.tensor(b)).toArray() as Float64Array;
    for (const r of refs) expect(relDiff(x, r.x), r.name).toBeLessThan(tol);
    // a lazy b: the solve is a graph op realized by the native kernel (its Async twin when awaited)
    const xa = (await rlx.sparse.spsolve(A, rlx.tensor(b).mul(2)).data()) as Float64Array;
    for (const r of refs) expect(relDiff(xa, r.x.map((v) => 2 * v)), `${r.name} async`).toBeLessThan(tol);
    expect(klu.mock.calls.length + kluAsync.mock.calls.length).toBeGreaterThanOrEqual(2);
    const ev = rlx.sparse.eigsh(poisson, 3, { sigma: 0.1, which: 'LM' }).eigenvalues.toArray() as Float64Array;
    expect(relDiff(ev, eigRef)).toBeLessThan(1e-10);
    expect(umf?.mock.calls.length ?? 0).toBe(0);
    expect(umfAsync?.mock.calls.length ?? 0).toBe(0);
  });

  it('explicit UMFPACK requests are DeviceErrors naming the op, that UMFPACK was left out (GPL) and how to get it', async () => {
    const { A, arrays, b } = problem();
    hideUmfpackForTests(true);
    const message = (f: () => unknown): string => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(DeviceError);
        return (e as Error).message;
      }
      throw new Error('did not throw');
    };
    const m = message(() => umfpackFactor(arrays));
    expect(m).toMatch(/^umfpackFactor: this build of the native addon left UMFPACK out \(it is GPL; built with RLX_NO_UMFPACK=1 or RLX_NO_GPL=1\)/);
    expect(m).toMatch(/npm run build:native/);
    await expect(umfpackFactorAsync(arrays)).rejects.toThrow(DeviceError);
    // UMFPACK-only options are never silently ignored: each one (even at its default value) asks for UMFPACK.
    for (const opts of [{ refine: 2 }, { strategy: 'auto' as const }, { ordering: 'nd' as const }, { strategy: 'symmetric' as const, ordering: 'amd' as const }]) {
      const s = message(() => rlx.sparse.splu(A, opts));
      expect(s).toMatch(/^sparse\.splu: this build of the native addon left UMFPACK out \(it is GPL/);
      expect(s).toMatch(new RegExp(`${Object.keys(opts).join(', ')} (is a UMFPACK control|are UMFPACK controls)`));
      expect(s).toMatch(/npm run build:native/);
    }
    // Invalid values are still ValueErrors (checked first), and the js LU still ignores the controls.
    expect(() => rlx.sparse.splu(A, { refine: -1 })).toThrow(rlx.ValueError);
    const x = rlx.sparse.splu(A, { device: 'js', refine: 0 }).solveRaw(b);
    expect(relDiff(x, kluFactor(arrays).solve(b))).toBeLessThan(1e-10);
  });

  it('rlx info says UMFPACK was left out (text and --json), and lists it when it is there', () => {
    hideUmfpackForTests(true);
    const r = infoReport();
    expect(r.suitesparse.umfpack).toEqual({ available: false, reason: expect.stringMatching(/^left out of this build \(GPL; RLX_NO_UMFPACK=1 or RLX_NO_GPL=1\): splu and spsolve factor with KLU$/) });
    expect(formatInfo(r)).toMatch(/^SuiteSparse: .*\(CHOLMOD, KLU; UMFPACK left out of this build \(GPL; /m);
    hideUmfpackForTests(false);
    const real = infoReport();
    expect(real.suitesparse.umfpack?.available).toBe(UMFPACK_SKIP === undefined);
    if (UMFPACK_SKIP === undefined) expect(formatInfo(real)).toMatch(/^SuiteSparse: .*\(UMFPACK, CHOLMOD, KLU\)/m);
  });
});
