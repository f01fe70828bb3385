// Native vector kernels of the Krylov solvers and Lanczos (native/src/sparse/vec.cc,
// registered as the VEC_KERNELS family's 'native' kernels): each against the js loops of vec.ts, bad arguments
// throw, and cg / eigsh give the same answers with and without them.

import { afterEach, expect, it } from 'vitest';
import '../../../src/index.js'; // creates the backends: the native one installs its kernels
import { nativeAddon } from '../../../src/backends/native/addon.js';
import { registerKernels, unregisterKernels } from '../../../src/compiler/kernel-registry.js';
import { cgStep, gemmTN, gemv, getVecKernel, rdot, VEC_KERNEL_MIN, VEC_KERNELS, type VecKernel } from '../../../src/sparse/solvers/vec.js';
import { axpy, c, xpby } from '../../../src/sparse/solvers/vec.js';
import { cg } from '../../../src/sparse/solvers/cg.js';
import { eigsh } from '../../../src/sparse/solvers/eigsh.js';
import { describeNative, poisson2d, rng } from './util.js';

const vecOf = (n: number, seed: number) => {
  const r = rng(seed);
  return Float64Array.from({ length: n }, () => r());
};
const maxDiff = (a: Float64Array, b: Float64Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i]!)), 0);

describeNative('native vector kernels (sparse solvers)', () => {
  const saved = getVecKernel();
  afterEach(() => (saved ? registerKernels('native', VEC_KERNELS, saved) : unregisterKernels('native', VEC_KERNELS)));
  const native = (): VecKernel => {
    expect(saved?.name).toBe('native');
    return saved!;
  };
  /** Runs f with the native kernel and with the js loops; returns both results. */
  const both = <T>(f: () => T): [T, T] => {
    registerKernels('native', VEC_KERNELS, native());
    const a = f();
    unregisterKernels('native', VEC_KERNELS);
    return [a, f()];
  };

  // These compare against the kernels the native backend installs, which RLX_NATIVE=0 does not create.
  const installed = saved?.name === 'native';
  // In CI (RLX_REQUIRE_NATIVE=1, native on) they must run: a missing install fails here instead of skipping below.
  it.runIf(process.env['RLX_REQUIRE_NATIVE'] === '1' && process.env['RLX_NATIVE'] !== '0')('the native backend installed its kernels', () => {
    expect(installed).toBe(true);
  });

  it.skipIf(!installed)('dot, axpy, xpby, cgStep, gemv, gemmTN agree with the js loops', () => {
    for (const n of [VEC_KERNEL_MIN, 3 * VEC_KERNEL_MIN + 3]) {
      const x = vecOf(n, 1),
        y0 = vecOf(n, 2),
        q = vecOf(n, 3);
      const [d1, d2] = both(() => rdot(x, y0));
      expect(Math.abs(d1 - d2)).toBeLessThan(1e-12 * n);
      const [a1, a2] = both(() => {
        const y = y0.slice();
        axpy(false, c(0.7), x, y);
        xpby(false, x, c(-0.3), y);
        return y;
      });
      expect(maxDiff(a1, a2)).toBeLessThan(1e-14);
      const [s1, s2] = both(() => {
        const xx = x.slice(),
          r = y0.slice();
        return { rr: cgStep(0.25, q, x, xx, r), xx, r };
      });
      expect(Math.abs(s1.rr - s2.rr)).toBeLessThan(1e-12 * s2.rr);
      expect(maxDiff(s1.xx, s2.xx)).toBe(0);
      expect(maxDiff(s1.r, s2.r)).toBe(0);
      const rows = 5,
        cols = Math.floor(n / 4) + 1;
      const A = vecOf(rows * cols + 7, 4),
        v = vecOf(cols, 5),
        u = vecOf(rows, 6);
      const [g1, g2] = both(() => {
        const hN = vecOf(rows, 7),
          hT = vecOf(cols, 8);
        gemv(false, rows, cols, A, v, hN, 2, 0.5);
        gemv(true, rows, cols, A, u, hT, -1, 1);
        return [hN, hT];
      });
      expect(maxDiff(g1[0]!, g2[0]!)).toBeLessThan(1e-12 * cols);
      expect(maxDiff(g1[1]!, g2[1]!)).toBeLessThan(1e-12);
      const S = vecOf(rows * 3, 9);
      const [m1, m2] = both(() => {
        const C = vecOf(3 * cols, 10);
        gemmTN(rows, 3, cols, S, A, C, 1, 0);
        return C;
      });
      expect(maxDiff(m1, m2)).toBeLessThan(1e-12);
    }
  });

  it('bad lengths, types and overlapping outputs throw', () => {
    const a = nativeAddon()!;
    const x = new Float64Array(8),
      y = new Float64Array(9);
    expect(() => a.sparseVecDot!(x, y)).toThrow(/same length/);
    expect(() => a.sparseVecDot!(x, new Float32Array(8) as unknown as Float64Array)).toThrow(/Float64Array/);
    expect(() => a.sparseVecAxpy!(1, x, x)).toThrow(/overlap/);
    const buf = new Float64Array(16);
    expect(() => a.sparseVecCgStep!(1, buf.subarray(0, 8), x, buf.subarray(4, 12), new Float64Array(8))).toThrow(/overlap/);
    expect(() => a.sparseVecGemv!(false, 2, 4, x, new Float64Array(4), new Float64Array(3), 1, 0)).toThrow(/length 2/);
    expect(() => a.sparseVecGemv!(false, 3, 4, x, new Float64Array(4), new Float64Array(3), 1, 0)).toThrow(/at least 12/);
    expect(() => a.sparseVecGemv!(true, 2, 4, x, new Float64Array(2), x.subarray(4, 8), 1, 0)).toThrow(/overlap/);
    expect(() => a.sparseVecGemmTN!(2, 2, 4, x, x, new Float64Array(7), 1, 0)).toThrow(/at least 8/);
  });

  it.skipIf(!installed)('cg and eigsh (real and complex) agree with and without the kernels', () => {
    const A = poisson2d(40); // n = 1600 ≥ VEC_KERNEL_MIN
    const n = A.shape[0];
    const b = vecOf(n, 11);
    const [r1, r2] = both(() => cg(A, b, { rtol: 1e-10 }));
    expect(r1.converged && r2.converged).toBe(true);
    expect(Math.abs(r1.iterations - r2.iterations)).toBeLessThanOrEqual(2);
    expect(maxDiff(r1.x, r2.x)).toBeLessThan(1e-8);
    const exact = (k: number) => {
      const m = 40,
        l: number[] = [];
      for (let i = 1; i <= m; i++) for (let j = 1; j <= m; j++) l.push(4 - 2 * Math.cos((i * Math.PI) / (m + 1)) - 2 * Math.cos((j * Math.PI) / (m + 1)));
      return l.sort((p, q) => p - q).slice(0, k);
    };
    for (const Aop of [A, poisson2d(40, 'complex128')]) {
      const [e1, e2] = both(() => eigsh(Aop, 4, { which: 'SA' }));
      const want = exact(4);
      for (let i = 0; i < 4; i++) {
        expect(Math.abs(e1.eigenvalues[i]! - want[i]!)).toBeLessThan(1e-10);
        expect(Math.abs(e2.eigenvalues[i]! - want[i]!)).toBeLessThan(1e-10);
      }
    }
  });
});
