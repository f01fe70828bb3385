// The chunked gather SpMV and the fused SpMV + dot (native/src/sparse/spmv_gather.cc)
// and the pooled vector kernels (vec.cc): bit-identical to the js loops where the
// order is the same, the same bits on any thread count, the index check in each
// mode (a user's output untouched by a failed call, scratch outputs may be
// partly written), and CG taking the fused pass agrees with the js solver.

import { afterAll, afterEach, expect, it } from 'vitest';
import * as rlx from '../../../src/index.js'; // creates the backends: the native one installs its kernels
import { nativeAddon } from '../../../src/backends/native/addon.js';
import { spmv, spmvDot } from '../../../src/sparse/kernels/native-products.js';
import { numThreads, setNumThreads } from '../../../src/backends/native/threads.js';
import type { CompressedArrays } from '../../../src/sparse/contract.js';
import { registerKernels, unregisterKernels } from '../../../src/compiler/kernel-registry.js';
import { gather, getSpmvKernel, SPMV_KERNELS } from '../../../src/sparse/spmv.js';
import { cgStep, getVecKernel, rdot, VEC_KERNELS } from '../../../src/sparse/solvers/vec.js';
import { cg } from '../../../src/sparse/solvers/cg.js';
import { describeNative, poisson2d, rng } from './util.js';

const vecOf = (n: number, seed: number) => {
  const r = rng(seed);
  return Float64Array.from({ length: n }, () => r());
};
/** y = A x by the js reference loop (same summation order as the native rows). */
const jsSpmv = (a: CompressedArrays, x: Float64Array) => {
  const y = new Float64Array(a.shape[0]);
  gather(a.shape[0], a.indptr, a.indices, a.data, false, false, x, y);
  return y;
};
const sameBits = (a: Float64Array, b: Float64Array) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

describeNative('chunked SpMV, fused SpMV + dot, pooled vector kernels', () => {
  const threads0 = numThreads();
  const spmvK = getSpmvKernel(),
    vecK = getVecKernel();
  afterEach(() => {
    setNumThreads(threads0);
    if (spmvK) registerKernels('native', SPMV_KERNELS, spmvK);
    else unregisterKernels('native', SPMV_KERNELS);
    if (vecK) registerKernels('native', VEC_KERNELS, vecK);
    else unregisterKernels('native', VEC_KERNELS);
  });
  afterAll(() => setNumThreads(threads0));

  // 256² rows: several chunks of the pool; 760²: ≥ 32 MiB of matrix, so y is stored non-temporally.
  it.each([3, 256, 760])('spmv in every check mode equals the js loop bit for bit, on 1, 2 and 3 threads (poisson2d(%i))', (m) => {
    const A = poisson2d(m);
    const n = A.shape[0];
    const x = vecOf(n, m);
    const want = jsSpmv(A, x);
    for (const t of [1, 2, 3]) {
      setNumThreads(t);
      for (const opts of [{}, { validated: true }, { outputScratch: true }]) expect(sameBits(spmv(A, x, new Float64Array(n), 1, 0, opts) as Float64Array, want)).toBe(true);
      expect(sameBits(spmv(A, x) as Float64Array, want)).toBe(true); // fresh y: checked in the loop
      // beta ≠ 0 (no streaming stores) and alpha
      const y0 = vecOf(n, 7);
      const y = spmv(A, x, y0.slice(), 2, 0.5) as Float64Array;
      expect(y.every((v, i) => v === 2 * want[i]! + 0.5 * y0[i]!)).toBe(true);
    }
  });

  it('float32: rows summed in double and rounded once, also with streaming stores (poisson2d(930): ≥ 32 MiB)', () => {
    for (const m of [40, 930]) {
      const A = poisson2d(m, 'float32');
      const n = A.shape[0];
      const x = Float32Array.from(vecOf(n, 8));
      const want = new Float32Array(n);
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let k = A.indptr[i]!; k < A.indptr[i + 1]!; k++) s += A.data[k]! * x[A.indices[k]!]!;
        want[i] = s;
      }
      for (const t of [1, 2]) {
        setNumThreads(t);
        const y = spmv(A, x, new Float32Array(n)) as Float32Array;
        expect(y.every((v, i) => Object.is(v, want[i]))).toBe(true);
      }
    }
  });

  it('spmvDot: y as spmv, xᵀy as a dot, the same bits on any thread count', () => {
    const A = poisson2d(300);
    const n = A.shape[0];
    const x = vecOf(n, 3);
    const want = jsSpmv(A, x);
    let ref = 0;
    for (let i = 0; i < n; i++) ref += x[i]! * want[i]!;
    const results: number[] = [];
    for (const t of [1, 2, 3]) {
      setNumThreads(t);
      const y = new Float64Array(n);
      results.push(spmvDot(A, x, y));
      expect(sameBits(y, want)).toBe(true);
    }
    expect(results[1]).toBe(results[0]);
    expect(results[2]).toBe(results[0]);
    expect(Math.abs(results[0]! - ref)).toBeLessThan(1e-12 * Math.abs(ref));
    // empty and tiny matrices
    expect(spmvDot(poisson2d(0), new Float64Array(0), new Float64Array(0))).toBe(0);
    const B = poisson2d(2);
    expect(spmvDot(B, Float64Array.of(1, 0, 0, 0), new Float64Array(4))).toBe(4);
  });

  it('dot and cgStep give the same bits on 1, 2 and 3 threads', () => {
    const n = 1_300_001; // above the length where they go to the pool
    const x = vecOf(n, 1),
      y = vecOf(n, 2);
    const runs = [1, 2, 3].map((t) => {
      setNumThreads(t);
      const xx = x.slice(),
        r = y.slice();
      return { d: rdot(x, y), rr: cgStep(0.3, x, y, xx, r), xx, r };
    });
    for (const o of runs.slice(1)) {
      expect(o.d).toBe(runs[0]!.d);
      expect(o.rr).toBe(runs[0]!.rr);
      expect(sameBits(o.xx, runs[0]!.xx) && sameBits(o.r, runs[0]!.r)).toBe(true);
    }
    let ref = 0;
    for (let i = 0; i < n; i++) ref += x[i]! * y[i]!;
    expect(Math.abs(runs[0]!.d - ref)).toBeLessThan(1e-10);
  });

  it('bad indices: typed errors in every mode; a user y untouched, never a read out of range', () => {
    const A = poisson2d(200);
    const n = A.shape[0];
    const x = vecOf(n, 5);
    const bad = { ...A, indices: A.indices.slice() };
    const at = bad.indices.length - 3; // late: the product has written most of y when the loop finds it
    bad.indices[at] = n + 7;
    for (const t of [1, 2]) {
      setNumThreads(t);
      const y = new Float64Array(n).fill(42);
      expect(() => spmv(bad, x, y)).toThrow(new RegExp(`indices\\[${at}\\] = ${n + 7}`));
      expect(y.every((v) => v === 42)).toBe(true); // before: nothing half-changed
      expect(() => spmv(bad, x, y, 1, 0, { outputScratch: true })).toThrow(new RegExp(`indices\\[${at}\\] = ${n + 7}`));
      expect(() => spmv(bad, x)).toThrow(/outside \[0, cols/);
      expect(() => spmvDot(bad, x, new Float64Array(n))).toThrow(new RegExp(`indices\\[${at}\\] = ${n + 7}`));
      bad.indices[at] = -1;
      expect(() => spmvDot(bad, x, new Float64Array(n))).toThrow(/= -1/);
      bad.indices[at] = n + 7;
    }
    // straight to the addon: mode 2 and booleans are accepted, anything else refused
    const a = nativeAddon()!;
    expect(() => a.sparseSpmv('float64', n, n, bad.indptr, bad.indices, bad.data, 2, x, new Float64Array(n), 1, 0, 0, 0)).toThrow(/outside/);
    expect(() => a.sparseSpmv('float64', n, n, A.indptr, A.indices, A.data, 3 as 2, x, new Float64Array(n), 1, 0, 0, 0)).toThrow(/check/);
  });

  it('spmvDot refuses bad arguments with typed errors', () => {
    const A = poisson2d(4);
    const n = A.shape[0];
    const x = new Float64Array(n);
    expect(() => spmvDot({ ...A, dtype: 'float32', data: Float32Array.from(A.data) }, x, new Float64Array(n))).toThrow(rlx.DTypeError);
    expect(() => spmvDot({ ...A, shape: [n, n + 1] }, new Float64Array(n + 1), new Float64Array(n))).toThrow(rlx.ShapeError);
    expect(() => spmvDot(A, new Float64Array(n - 1), new Float64Array(n))).toThrow(/x must have length 16/);
    expect(() => spmvDot(A, x, new Float64Array(n + 1))).toThrow(/y must have length 16/);
    const buf = new Float64Array(2 * n);
    expect(() => spmvDot(A, buf.subarray(0, n), buf.subarray(n / 2, n / 2 + n))).toThrow(/overlaps/);
    const a = nativeAddon()!;
    expect(() => a.sparseSpmvDot!('float64', n, n, A.indptr, A.indices, A.data as Float64Array, x, x)).toThrow(/overlaps/);
    expect(() => a.sparseSpmvDot!('complex128' as 'float64', n, n, A.indptr, A.indices, new Float64Array(2 * A.data.length), x, new Float64Array(n))).toThrow(/must be float64/);
    expect(() => (a.sparseSpmvDot as unknown as (...args: unknown[]) => number)('float64', n, n, A.indptr, A.indices, A.data, x)).toThrow(/expected/);
  });

  // The next two need the kernels the native backend installs (not under RLX_NATIVE=0).
  const installed = spmvK?.name === 'native' && vecK?.name === 'native';
  // In CI (RLX_REQUIRE_NATIVE=1, native on) they must run: a missing install fails here instead of skipping below.
  it.runIf(process.env['RLX_REQUIRE_NATIVE'] === '1' && process.env['RLX_NATIVE'] !== '0')('the native backend installed its kernels', () => {
    expect(installed).toBe(true);
  });

  it.skipIf(!installed)('sparse.raw.matvec: a user out is untouched by a failed check, a fresh one is not observable', () => {
    const A = rlx.sparse.poisson2d(200);
    const n = A.shape[0];
    const x = vecOf(n, 9);
    const want = jsSpmv(A as unknown as CompressedArrays, x);
    expect(sameBits(rlx.sparse.raw.matvec(A, x), want)).toBe(true);
    expect(sameBits(rlx.sparse.raw.matvec(A, x, new Float64Array(n)), want)).toBe(true);
    // Matrices are immutable; rewriting their (shared) index array is caught, not read out of range.
    const at = A.indices.length - 2,
      keep = A.indices[at]!;
    A.indices[at] = n;
    try {
      const out = new Float64Array(n).fill(-3);
      expect(() => rlx.sparse.raw.matvec(A, x, out)).toThrow(/outside/);
      expect(out.every((v) => v === -3)).toBe(true);
      expect(() => rlx.sparse.raw.matvec(A, x)).toThrow(/outside/);
    } finally {
      A.indices[at] = keep;
    }
  });

  it.skipIf(!installed)('cg on the fused pass (CsrMatrix and CSR arrays) agrees with the js kernels, on any thread count', () => {
    const A = rlx.sparse.poisson2d(64);
    const n = A.shape[0];
    const b = vecOf(n, 4);
    const arrays = { shape: A.shape, indptr: A.indptr, indices: A.indices, data: A.data as Float64Array };
    let calls = 0;
    registerKernels('native', SPMV_KERNELS, { ...spmvK!, name: 'counting', csrMatvecDot: (a, x, y) => (calls++, spmvK!.csrMatvecDot!(a, x, y)) });
    const native = [1, 2].map((t) => {
      setNumThreads(t);
      return [cg(A, b, { rtol: 1e-10 }), cg(arrays, b, { rtol: 1e-10 })];
    });
    expect(calls).toBeGreaterThan(4 * 50);
    for (const [r1, r2] of native) {
      expect(sameBits(r1!.x, native[0]![0]!.x) && sameBits(r2!.x, native[0]![0]!.x)).toBe(true);
      expect(r1!.iterations).toBe(native[0]![0]!.iterations);
    }
    unregisterKernels('native', SPMV_KERNELS);
    unregisterKernels('native', VEC_KERNELS);
    const js = cg(A, b, { rtol: 1e-10 });
    const r = native[0]![0]!;
    expect(r.converged && js.converged).toBe(true);
    expect(Math.abs(r.iterations - js.iterations)).toBeLessThanOrEqual(2);
    let d = 0;
    for (let i = 0; i < n; i++) d = Math.max(d, Math.abs(r.x[i]! - js.x[i]!));
    expect(d).toBeLessThan(1e-8);
  });
});
