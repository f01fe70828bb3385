// Shared pieces of the linalg derivative tests (tests/linalg/ad/*.test.ts).
//
// Inputs are built with a controlled spectrum, in plain JS (independent of the
// kernels under test): random unitary factors by Gram–Schmidt, so that
// matrices are well conditioned (singular values in [1, 3]) and eigen/singular
// values are distinct with gaps >= 0.3. That keeps the finite differences of
// ad-harness.ts accurate: the rounding error of a central difference is
// ≈ κ·eps·|f|/h with κ <= 10 here, i.e. ≈ 2e-9·|f| for h = 1e-6, and the
// truncation error h²|f'''|/6 is ≈ 1e-12 when |f'''| ~ 1/gap³ ~ 40; the
// harness's tolerance (rtol 1e-6, atol 1e-7·(1 + max|f|)) is ~50x above both
// and still far below the O(1)-relative error of a wrong rule.
//
// Each case runs both checks of ad-harness.ts: the JVP against a central
// finite difference, and the VJP against the JVP by the dot-product identity
// Re<u, J t> = Re<Jᵀ u, t>. Complex inputs are perturbed along the real axis
// and the imaginary axis separately (and both at once), since a rule that
// mishandles a conjugation is right along one of them only.

import fc from 'fast-check';
import { expect } from 'vitest';
import * as rlx from '../../../src/index.js';
import type { Tensor } from '../../../src/index.js';
import { checkJvpFd, checkVjpDot, directions, prng, toT, vals, type DirKind, type DT, type FdOpts, type Fn, type InSpec, type Sample } from '../../transforms/ad-harness.js';
import { adj, mul, randM, zerosM, type M } from '../kernels-js/helpers.js';

export { toT, vals, prng };
export type { DT, Fn, InSpec, Sample };

export const L = rlx.linalg;

/** Runs per (case, direction kind); LINALG_AD_RUNS scales them for a soak run. */
const envRuns = Number(process.env['LINALG_AD_RUNS']);
export const RUNS = Number.isFinite(envRuns) && envRuns > 0 ? envRuns : 3;

export const isCx = (d: DT) => d === 'complex128';

/** n orthonormal columns of length m (m >= n), by Gram–Schmidt (twice, for orthogonality to rounding). */
export function unitary(m: number, n: number, cplx: boolean, r: () => number): M {
  const x = randM(m, n, cplx, r);
  for (let pass = 0; pass < 2; pass++)
    for (let j = 0; j < n; j++) {
      for (let k = 0; k < j; k++) {
        // x_j -= (x_kᴴ x_j) x_k
        let pr = 0,
          pi = 0;
        for (let i = 0; i < m; i++) {
          const ar = x.re[i * n + k]!,
            ai = -x.im[i * n + k]!,
            br = x.re[i * n + j]!,
            bi = x.im[i * n + j]!;
          pr += ar * br - ai * bi;
          pi += ar * bi + ai * br;
        }
        for (let i = 0; i < m; i++) {
          const kr = x.re[i * n + k]!,
            ki = x.im[i * n + k]!;
          x.re[i * n + j] -= pr * kr - pi * ki;
          x.im[i * n + j] -= pr * ki + pi * kr;
        }
      }
      let nn = 0;
      for (let i = 0; i < m; i++) nn += x.re[i * n + j]! ** 2 + x.im[i * n + j]! ** 2;
      nn = Math.sqrt(nn);
      for (let i = 0; i < m; i++) (x.re[i * n + j] /= nn), (x.im[i * n + j] /= nn);
    }
  return x;
}

/** k distinct values in [lo, hi] with gaps >= gap (shuffled unless sorted). */
export function spectrum(k: number, r: () => number, lo = 1, hi = 3, gap = 0.3): number[] {
  for (;;) {
    const v = Array.from({ length: k }, () => lo + (hi - lo) * r()).sort((a, b) => a - b);
    if (v.every((x, i) => i === 0 || x - v[i - 1]! >= gap)) return v.sort(() => r() - 0.5);
  }
}

const scaleCols = (a: M, d: readonly number[]): M => {
  const o = zerosM(a.r, a.c);
  for (let i = 0; i < a.r; i++)
    for (let j = 0; j < a.c; j++) (o.re[i * a.c + j] = a.re[i * a.c + j]! * d[j]!), (o.im[i * a.c + j] = a.im[i * a.c + j]! * d[j]!);
  return o;
};

/** u diag(s) vᴴ, m x n, singular values distinct in [1, 3]. */
export function wellConditioned(m: number, n: number, cplx: boolean, r: () => number, s = spectrum(Math.min(m, n), r)): M {
  const k = Math.min(m, n);
  return mul(scaleCols(unitary(m, k, cplx, r), s), adj(unitary(n, k, cplx, r)));
}

/** v diag(w) vᴴ, exactly Hermitian in storage (real diagonal), eigenvalues w (default distinct in [-3, 3], gaps >= 0.3). */
export function hermitianWith(n: number, cplx: boolean, r: () => number, w = spectrum(n, r, -3, 3)): M {
  const v = unitary(n, n, cplx, r);
  const a = mul(scaleCols(v, w), adj(v));
  for (let i = 0; i < n; i++) {
    a.im[i * n + i] = 0;
    for (let j = 0; j < i; j++) (a.re[j * n + i] = a.re[i * n + j]!), (a.im[j * n + i] = -a.im[i * n + j]!);
  }
  return a;
}

/** Hermitian positive definite, eigenvalues distinct in [1, 4]. */
export const spd = (n: number, cplx: boolean, r: () => number): M => hermitianWith(n, cplx, r, spectrum(n, r, 1, 4));

/**
 * A matrix whose `lower` (or upper) triangle is well-conditioned triangular
 * (|diagonal| in [1.5, 2.5], off-diagonal entries in [-0.4, 0.4]); the other
 * triangle holds unrelated values in [-2, 2], which the solve must ignore.
 */
export function triangularIn(n: number, cplx: boolean, lower: boolean, r: () => number): M {
  const a = randM(n, n, cplx, r);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const k = i * n + j;
      const inside = lower ? j <= i : j >= i;
      const s = i === j ? 0 : inside ? 0.4 : 2;
      a.re[k] = a.re[k]! * s;
      a.im[k] = a.im[k]! * s;
      if (i === j) a.re[k] = (r() < 0.5 ? -1 : 1) * (1.5 + r());
    }
  return a;
}

export const randMat = (m: number, n: number, cplx: boolean, r: () => number, scale = 1): M => {
  const a = randM(m, n, cplx, r);
  for (let i = 0; i < a.re.length; i++) (a.re[i] *= scale), (a.im[i] *= scale);
  return a;
};

/** Storage (float64 or interleaved complex128) of a batch of matrices. */
export function store(ms: M[], dt: DT): Float64Array {
  const cp = isCx(dt);
  const per = ms[0]!.re.length;
  const out = new Float64Array(ms.length * per * (cp ? 2 : 1));
  ms.forEach((m, e) => {
    for (let i = 0; i < per; i++) {
      if (cp) (out[2 * (e * per + i)] = m.re[i]!), (out[2 * (e * per + i) + 1] = m.im[i]!);
      else out[e * per + i] = m.re[i]!;
    }
  });
  return out;
}

/** One input of a case: the matrices (one, or a batch with a leading dim) and its dtype. */
export function input(ms: M | M[], dt: DT): { spec: InSpec; data: Float64Array } {
  const list = Array.isArray(ms) ? ms : [ms];
  const core = [list[0]!.r, list[0]!.c];
  return { spec: { shape: Array.isArray(ms) ? [list.length, ...core] : core, dtype: dt }, data: store(list, dt) };
}

export interface LCase {
  name: string;
  dt: DT;
  /** Inputs and the function for one random draw. */
  build: (r: () => number) => { ins: { spec: InSpec; data: Float64Array }[]; f: Fn };
  fd?: FdOpts;
  runs?: number;
}

/** The direction kinds a case is checked along: complex inputs get real, imaginary and mixed directions. */
export const kindsFor = (dt: DT): DirKind[] => (isCx(dt) ? ['real', 'imag', 'mixed'] : ['mixed']);

/** FD check of the JVP and the dot-product check of the VJP on `runs` draws per direction kind. */
export function checkLinalgCase(c: LCase, device: string): void {
  for (const kind of kindsFor(c.dt)) {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
        const r = prng(seed);
        const { ins, f } = c.build(r);
        const s: Sample = { specs: ins.map((i) => i.spec), data: ins.map((i) => i.data) };
        const v = directions(s.specs, r, kind);
        checkJvpFd(f, s, v, device, c.fd);
        checkVjpDot(f, s, v, r, device);
      }),
      { numRuns: c.runs ?? RUNS },
    );
  }
}

/** Flattens several outputs (possibly of mixed real/complex dtype) into one tensor the harness can compare. */
export function flatCat(...ts: Tensor[]): Tensor {
  const cx = ts.some((t) => t.dtype === 'complex128');
  return rlx.cat(ts.map((t) => (cx ? t.cast('complex128') : t).reshape([-1])), 0);
}

/** The jvp of f at xs along ts (one output). */
export function jvpOf(f: Fn, xs: Tensor[], ts: Tensor[]): Tensor {
  return (rlx.jvp(f, xs, ts) as [Tensor, Tensor])[1];
}

/** Expects every value of t to be exactly zero. */
export function expectZero(t: Tensor, what: string): void {
  const v = vals(t);
  const bad = v.findIndex((x) => x !== 0);
  expect(bad, `${what}: element ${bad} is ${v[bad]}`).toBe(-1);
}

/** A tangent confined to the strict upper (lower = true) or strict lower triangle of an n x n matrix: the triangle a lower/upper read ignores. */
export function ignoredTriangleDirection(n: number, dt: DT, lower: boolean, r: () => number): Float64Array {
  const m = randM(n, n, isCx(dt), r);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) if (lower ? j <= i : j >= i) (m.re[i * n + j] = 0), (m.im[i * n + j] = 0);
  return store([m], dt);
}

/** A tangent on the diagonal only, purely imaginary (what a Hermitian read of a complex matrix must ignore). */
export function imagDiagonalDirection(n: number, r: () => number): Float64Array {
  const m = zerosM(n, n);
  for (let i = 0; i < n; i++) m.im[i * n + i] = 2 * r() - 1;
  return store([m], 'complex128');
}
