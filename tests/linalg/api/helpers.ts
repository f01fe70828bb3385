// Host-side references for the linalg API tests: batched complex float64
// matrices ({shape, re, im}; real dtypes have im = 0) with their own matmul,
// conjugate transpose and norms, so identities are checked by arithmetic that
// is independent of rlx's matmul, casts and kernels. Plus seeded random
// matrices with a controlled condition number and the tolerance rules.

import { expect } from 'vitest';
import * as rlx from '../../../src/index.js';
export { mulberry32 as rng } from '../../harness/prng.js';

export type LDT = 'float32' | 'float64' | 'complex64' | 'complex128';
export const LDTYPES: readonly LDT[] = ['float32', 'float64', 'complex64', 'complex128'];
export const cplx = (d: string) => d === 'complex64' || d === 'complex128';
export const single = (d: string) => d === 'float32' || d === 'complex64';
/** Unit roundoff of the dtype's real part. */
export const eps = (d: string) => (single(d) ? 2 ** -24 : 2 ** -53);

/**
 * Tolerances. A backward-stable factorization reconstructs a to ‖Δa‖ ≤ c·n·u·‖a‖
 * with a modest c; we allow c = 200 (headroom for blocked LAPACK vs the js
 * kernels and for float32 products accumulated in float32):
 *   float32: 200·n·6e-8 ≈ 1.2e-5·n (≈1e-4 at n = 8); float64: 200·n·1.1e-16 ≈ 2.2e-14·n.
 * Forward errors (x of a solve, an inverse) get an extra factor cond(a).
 * A real bug (wrong pivot order, wrong conjugation, wrong triangle) gives O(1).
 */
export const backTol = (d: string, n: number) => 200 * Math.max(n, 1) * eps(d);
export const fwdTol = (d: string, n: number, cond: number) => backTol(d, n) * Math.max(cond, 1);

export interface H {
  shape: number[];
  re: Float64Array;
  im: Float64Array;
}

const size = (s: readonly number[]) => s.reduce((a, b) => a * b, 1);
export const hzeros = (shape: number[]): H => ({ shape: [...shape], re: new Float64Array(size(shape)), im: new Float64Array(size(shape)) });

/** A tensor's values on the host (realizes it). */
export function host(t: rlx.Tensor): H {
  const a = t.toArray() as ArrayLike<number>;
  const n = size(t.shape);
  const h = hzeros(t.shape as number[]);
  if (cplx(t.dtype)) for (let i = 0; i < n; i++) (h.re[i] = a[2 * i]!), (h.im[i] = a[2 * i + 1]!);
  else for (let i = 0; i < n; i++) h.re[i] = Number(a[i]!);
  return h;
}

/** A tensor of dtype d pinned to device holding h (imaginary parts dropped for real d). */
export function dev(h: H, d: string, device: string): rlx.Tensor {
  const n = size(h.shape);
  if (cplx(d)) {
    const v = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) (v[2 * i] = h.re[i]!), (v[2 * i + 1] = h.im[i]!);
    return rlx.tensor(v, { shape: h.shape, dtype: d as rlx.DType }).on(device);
  }
  return rlx.tensor(Float64Array.from(h.re), { shape: h.shape, dtype: d as rlx.DType }).on(device);
}

/** h rounded to dtype d (what the device really sees), so references use the same input. */
export function rounded(h: H, d: string): H {
  const f = single(d) ? Math.fround : (x: number) => x;
  return { shape: [...h.shape], re: h.re.map(f), im: cplx(d) ? h.im.map(f) : new Float64Array(h.im.length) };
}

const dims = (h: H) => {
  const r = h.shape.length;
  return { lead: h.shape.slice(0, r - 2), m: h.shape[r - 2]!, n: h.shape[r - 1]! };
};

/** Batched matmul over the last two axes with broadcasting of equal or absent leads. */
export function mm(a: H, b: H): H {
  const A = dims(a),
    B = dims(b);
  if (A.n !== B.m) throw new Error(`mm: ${a.shape} @ ${b.shape}`);
  const lead = A.lead.length >= B.lead.length ? A.lead : B.lead;
  const nb = size(lead),
    na = size(A.lead),
    nbb = size(B.lead);
  const c = hzeros([...lead, A.m, B.n]);
  for (let t = 0; t < nb; t++) {
    const oa = (na === 1 ? 0 : t) * A.m * A.n,
      ob = (nbb === 1 ? 0 : t) * B.m * B.n,
      oc = t * A.m * B.n;
    for (let i = 0; i < A.m; i++)
      for (let k = 0; k < A.n; k++) {
        const ar = a.re[oa + i * A.n + k]!,
          ai = a.im[oa + i * A.n + k]!;
        for (let j = 0; j < B.n; j++) {
          const br = b.re[ob + k * B.n + j]!,
            bi = b.im[ob + k * B.n + j]!;
          c.re[oc + i * B.n + j]! += ar * br - ai * bi;
          c.im[oc + i * B.n + j]! += ar * bi + ai * br;
        }
      }
  }
  return c;
}

/** Conjugate transpose (conj = false: plain transpose) of the last two axes. */
export function ct(a: H, conj = true): H {
  const { lead, m, n } = dims(a);
  const c = hzeros([...lead, n, m]);
  const s = conj ? -1 : 1;
  for (let t = 0; t < size(lead); t++)
    for (let i = 0; i < m; i++)
      for (let j = 0; j < n; j++) {
        c.re[t * m * n + j * m + i] = a.re[t * m * n + i * n + j]!;
        c.im[t * m * n + j * m + i] = s * a.im[t * m * n + i * n + j]!;
      }
  return c;
}

export function sub(a: H, b: H): H {
  expect(a.shape, 'shapes').toEqual(b.shape);
  return { shape: [...a.shape], re: a.re.map((x, i) => x - b.re[i]!), im: a.im.map((x, i) => x - b.im[i]!) };
}
export const scale = (a: H, s: number): H => ({ shape: [...a.shape], re: a.re.map((x) => x * s), im: a.im.map((x) => x * s) });

/** Largest entry modulus. */
export function maxAbs(a: H): number {
  let m = 0;
  for (let i = 0; i < a.re.length; i++) m = Math.max(m, Math.hypot(a.re[i]!, a.im[i]!));
  return m;
}

/** Identity [...lead, n, n]. */
export function heye(n: number, lead: number[] = [], m = n): H {
  const h = hzeros([...lead, n, m]);
  for (let t = 0; t < size(lead); t++) for (let i = 0; i < Math.min(n, m); i++) h.re[t * n * m + i * m + i] = 1;
  return h;
}

/** [..., k] -> [..., k, k] diagonal (or [..., m, n] with v on the leading diagonal). */
export function hdiag(v: H, m?: number, n?: number): H {
  const k = v.shape[v.shape.length - 1]!;
  const lead = v.shape.slice(0, -1);
  const M = m ?? k,
    N = n ?? k;
  const h = hzeros([...lead, M, N]);
  for (let t = 0; t < size(lead); t++)
    for (let i = 0; i < k; i++) (h.re[t * M * N + i * N + i] = v.re[t * k + i]!), (h.im[t * M * N + i * N + i] = v.im[t * k + i]!);
  return h;
}

/** Asserts max|got - want| ≤ tol · scaleRef (scaleRef defaults to max(1, max|want|)). */
export function expectNear(got: H, want: H, tol: number, what: string, scaleRef?: number): void {
  expect(got.shape, `${what}: shape`).toEqual(want.shape);
  const err = maxAbs(sub(got, want));
  const sc = scaleRef ?? Math.max(1, maxAbs(want));
  if (!(err <= tol * sc)) throw new Error(`${what}: max error ${err.toExponential(3)} > ${tol.toExponential(2)} · ${sc.toExponential(3)}`);
}

// ---- seeded random matrices --------------------------------------------------

/** Entries uniform in [-1, 1] (imaginary parts too when complex). */
export function hrand(r: () => number, shape: number[], complex: boolean): H {
  const h = hzeros(shape);
  for (let i = 0; i < h.re.length; i++) (h.re[i] = 2 * r() - 1), (h.im[i] = complex ? 2 * r() - 1 : 0);
  return h;
}

/** Orthonormal columns by modified Gram–Schmidt (twice, for float64 orthogonality) of a random [..., n, n]. */
export function hunitary(r: () => number, n: number, lead: number[], complex: boolean): H {
  const q = hrand(r, [...lead, n, n], complex);
  for (let t = 0; t < size(lead); t++) {
    const o = t * n * n;
    for (let pass = 0; pass < 2; pass++)
      for (let j = 0; j < n; j++) {
        for (let k = 0; k < j; k++) {
          let dr = 0,
            di = 0; // <q_k, q_j> = Σ conj(q_k) q_j
          for (let i = 0; i < n; i++) {
            const kr = q.re[o + i * n + k]!,
              ki = q.im[o + i * n + k]!,
              jr = q.re[o + i * n + j]!,
              ji = q.im[o + i * n + j]!;
            dr += kr * jr + ki * ji;
            di += kr * ji - ki * jr;
          }
          for (let i = 0; i < n; i++) {
            const kr = q.re[o + i * n + k]!,
              ki = q.im[o + i * n + k]!;
            q.re[o + i * n + j]! -= dr * kr - di * ki;
            q.im[o + i * n + j]! -= dr * ki + di * kr;
          }
        }
        let nn = 0;
        for (let i = 0; i < n; i++) nn += q.re[o + i * n + j]! ** 2 + q.im[o + i * n + j]! ** 2;
        nn = Math.sqrt(nn);
        for (let i = 0; i < n; i++) (q.re[o + i * n + j]! /= nn), (q.im[o + i * n + j]! /= nn);
      }
  }
  return q;
}

/** q diag(σ) wᴴ with σ log-spaced from 1 down to 1/cond: a general matrix of 2-norm condition `cond`. */
export function hcond(r: () => number, m: number, n: number, lead: number[], complex: boolean, cond: number): H {
  const k = Math.min(m, n);
  const q = hunitary(r, m, lead, complex),
    w = hunitary(r, n, lead, complex);
  const s = hzeros([...lead, k]);
  for (let t = 0; t < size(lead); t++) for (let i = 0; i < k; i++) s.re[t * k + i] = k === 1 ? 1 : cond ** (-i / (k - 1));
  return mm(mm(q, hdiag(s, m, n)), ct(w));
}

/** q diag(λ) qᴴ with λ given per batch entry: a Hermitian matrix with known eigenvalues. */
export function hherm(r: () => number, lambdas: number[], lead: number[], complex: boolean): H {
  const n = lambdas.length;
  const q = hunitary(r, n, lead, complex);
  const l = hzeros([...lead, n]);
  for (let t = 0; t < size(lead); t++) for (let i = 0; i < n; i++) l.re[t * n + i] = lambdas[i]!;
  const a = mm(mm(q, hdiag(l)), ct(q));
  // exact Hermitian symmetry (real diagonal, mirrored off-diagonal)
  const h = ct(a);
  return scale({ shape: a.shape, re: a.re.map((x, i) => x + h.re[i]!), im: a.im.map((x, i) => x + h.im[i]!) }, 0.5);
}

/** The device a result was computed on (undefined for unpinned). */
export const expectOn = (t: rlx.Tensor, device: string, what = '') => expect(t.device, `${what} pinned to ${device}`).toBe(device);

/** Host Gaussian elimination with partial pivoting (float64, complex): x with a x = b, and det(a), per batch entry. */
export function hsolveDet(a: H, b: H): { x: H; det: H } {
  const { lead, n } = dims(a);
  const k = b.shape[b.shape.length - 1]!;
  const nb = size(lead);
  const x = hzeros([...lead, n, k]);
  const det = hzeros(lead.length ? lead : [1]);
  for (let t = 0; t < nb; t++) {
    const ar = Array.from(a.re.subarray(t * n * n, (t + 1) * n * n)),
      ai = Array.from(a.im.subarray(t * n * n, (t + 1) * n * n));
    const bOff = (size(b.shape.slice(0, -2)) === 1 ? 0 : t) * n * k;
    const br = Array.from(b.re.subarray(bOff, bOff + n * k)),
      bi = Array.from(b.im.subarray(bOff, bOff + n * k));
    let dr = 1,
      di = 0;
    for (let c = 0; c < n; c++) {
      let p = c;
      for (let i = c + 1; i < n; i++) if (Math.hypot(ar[i * n + c]!, ai[i * n + c]!) > Math.hypot(ar[p * n + c]!, ai[p * n + c]!)) p = i;
      if (p !== c) {
        for (let j = 0; j < n; j++) [ar[c * n + j], ar[p * n + j], ai[c * n + j], ai[p * n + j]] = [ar[p * n + j]!, ar[c * n + j]!, ai[p * n + j]!, ai[c * n + j]!];
        for (let j = 0; j < k; j++) [br[c * k + j], br[p * k + j], bi[c * k + j], bi[p * k + j]] = [br[p * k + j]!, br[c * k + j]!, bi[p * k + j]!, bi[c * k + j]!];
        (dr = -dr), (di = -di);
      }
      const pr = ar[c * n + c]!,
        pi = ai[c * n + c]!;
      [dr, di] = [dr * pr - di * pi, dr * pi + di * pr];
      const den = pr * pr + pi * pi;
      for (let i = c + 1; i < n; i++) {
        // f = a[i][c] / pivot
        const fr = (ar[i * n + c]! * pr + ai[i * n + c]! * pi) / den,
          fi = (ai[i * n + c]! * pr - ar[i * n + c]! * pi) / den;
        for (let j = c; j < n; j++) {
          ar[i * n + j]! -= fr * ar[c * n + j]! - fi * ai[c * n + j]!;
          ai[i * n + j]! -= fr * ai[c * n + j]! + fi * ar[c * n + j]!;
        }
        for (let j = 0; j < k; j++) {
          br[i * k + j]! -= fr * br[c * k + j]! - fi * bi[c * k + j]!;
          bi[i * k + j]! -= fr * bi[c * k + j]! + fi * br[c * k + j]!;
        }
      }
    }
    for (let i = n - 1; i >= 0; i--) {
      const pr = ar[i * n + i]!,
        pi = ai[i * n + i]!,
        den = pr * pr + pi * pi;
      for (let j = 0; j < k; j++) {
        let sr = br[i * k + j]!,
          si = bi[i * k + j]!;
        for (let c = i + 1; c < n; c++) {
          const xr = x.re[t * n * k + c * k + j]!,
            xi = x.im[t * n * k + c * k + j]!;
          sr -= ar[i * n + c]! * xr - ai[i * n + c]! * xi;
          si -= ar[i * n + c]! * xi + ai[i * n + c]! * xr;
        }
        x.re[t * n * k + i * k + j] = (sr * pr + si * pi) / den;
        x.im[t * n * k + i * k + j] = (si * pr - sr * pi) / den;
      }
    }
    (det.re[t] = dr), (det.im[t] = di);
  }
  return { x, det };
}

/** Host inverse. */
export const hinv = (a: H): H => hsolveDet(a, heye(a.shape[a.shape.length - 1]!, a.shape.slice(0, -2))).x;
