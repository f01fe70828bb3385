// SVD by one-sided Jacobi (Hestenes). The columns of a (rows of the working
// array, so every dot product and rotation is unit-stride) are rotated
// pairwise until all are mutually orthogonal; then s_j = ‖a_j‖, u_j = a_j / s_j
// and v accumulates the rotations. One-sided Jacobi is backward stable and
// computes small singular values to high relative accuracy, at the price of a
// few more flops than bidiagonalization. m < n is done on aᴴ (its columns are
// the conjugated rows of a). Columns that vanish (rank deficiency), columns
// left as rounding noise by exactly rank-deficient input (NEGLIGIBLE) and the
// extra columns of the full u / vh are filled with an orthonormal complement.

import type { FloatArray, LinalgDType } from '../contract.js';
import { norm2 } from './complex.js';
import { allFinite, checkArgs, checkLength, fillNaN, isComplexDType, load, slots, storeReal, zeros, type CMat } from './io.js';

/** Sweeps before reporting non-convergence; well-conditioned input needs < 15. */
const MAX_SWEEPS = 80;

/**
 * Squared column norm (the input scaled to max |a_ij| ~ 1) below which a column
 * that is still not orthogonal to another takes no more rotations and counts as
 * a zero singular value: 2^-900, so the column norm (< 2^-450 ~ 3e-136 times
 * ‖A‖) and every product in the convergence test stay normal doubles. A column
 * that small and orthogonal to the rest keeps its norm (diag(1, 1e-200) is
 * exact), and graded input above it keeps the relative accuracy of Jacobi.
 */
const NEGLIGIBLE = 2 ** -900;

/** 2^round(log2(x)) for finite x > 0, clamped to the normal range: scaling by it is exact. */
function powerOfTwoNear(x: number): number {
  const e = Math.max(-1000, Math.min(1000, Math.round(Math.log2(x))));
  return 2 ** e;
}

export interface SvdResult {
  /** p singular values, descending. */
  s: Float64Array;
  /** rows = left singular vectors (length len); rows >= p or flagged in `valid` need completion. */
  u: CMat;
  valid: Uint8Array;
  /** p x p, row j = right singular vector j (column j of v). */
  vt: CMat;
  info: number;
}

/**
 * Hestenes SVD of the len x p matrix whose columns are the rows of `cols`
 * (destroyed). `rowsOut` rows are allocated for u (p, or len for a full basis).
 */
export function jacobiSvd(cols: CMat, p: number, len: number, cplx: boolean, rowsOut: number): SvdResult {
  const { re, im } = cols;
  // Scale by a power of two (exact) so the largest entry is about 1: the squared
  // norms then neither overflow nor underflow, and NEGLIGIBLE below is relative to A.
  let big = 0;
  for (let i = 0; i < p * len; i++) big = Math.max(big, Math.abs(re[i]!), Math.abs(im[i]!));
  const scale = big > 0 && Number.isFinite(big) ? powerOfTwoNear(1 / big) : 1;
  if (scale !== 1) {
    for (let i = 0; i < p * len; i++) {
      re[i] *= scale;
      im[i] *= scale;
    }
  }
  const vt = zeros(p * p);
  for (let i = 0; i < p; i++) vt.re[i * p + i] = 1;
  const nrm = new Float64Array(p);
  const noise = new Uint8Array(p);
  const tol = Math.max(len, 1) * 2 ** -53;
  let info = 1;
  for (let j = 0; j < p; j++) nrm[j] = sqNorm(re, im, j * len, len, cplx);
  for (let sweep = 0; sweep < MAX_SWEEPS; sweep++) {
    let rotated = false;
    for (let a = 0; a < p - 1; a++) {
      for (let b = a + 1; b < p; b++) {
        const alpha = nrm[a]!,
          beta = nrm[b]!;
        const oa = a * len,
          ob = b * len;
        let gr = 0,
          gi = 0;
        // gamma = a_aᴴ a_b
        if (cplx) {
          for (let i = 0; i < len; i++) {
            const xr = re[oa + i]!,
              xi = im[oa + i]!,
              yr = re[ob + i]!,
              yi = im[ob + i]!;
            gr += xr * yr + xi * yi;
            gi += xr * yi - xi * yr;
          }
        } else {
          for (let i = 0; i < len; i++) gr += re[oa + i]! * re[ob + i]!;
        }
        const g = cplx ? Math.hypot(gr, gi) : Math.abs(gr);
        if (g <= tol * Math.sqrt(alpha) * Math.sqrt(beta)) continue;
        // A column of exactly rank-deficient input (repeated rows keep every
        // rotation inside the same span) is left as rounding noise that each
        // rotation shrinks by only another factor eps, down into the
        // subnormals, where the test above can never be met. Far below A's
        // scale such a column is noise: it takes no more rotations and counts
        // as a zero singular value (an error below 2^-450 ‖A‖).
        if (alpha < NEGLIGIBLE || beta < NEGLIGIBLE) {
          noise[alpha < beta ? a : b] = 1;
          continue;
        }
        rotated = true;
        const zeta = (beta - alpha) / (2 * g);
        const t = (zeta >= 0 ? 1 : -1) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
        const c = 1 / Math.sqrt(1 + t * t),
          s = c * t;
        // Column pair times diag(1, conj(phase)) [[c, s], [-s, c]], phase = gamma / |gamma|.
        const er = gr / g,
          ei = gi / g;
        // The squared norms come fused out of the rotation: the cheap update
        // alpha - t g cancels catastrophically once a column is reduced to
        // rounding noise (rank deficiency) and then stalls convergence.
        rotate(re, im, oa, ob, len, c, s, er, ei, cplx, nrm, a, b);
        rotate(vt.re, vt.im, a * p, b * p, p, c, s, er, ei, cplx, null, 0, 0);
      }
    }
    if (!rotated) {
      info = 0;
      break;
    }
  }
  // Singular values and their descending order.
  const sv = new Float64Array(p);
  for (let j = 0; j < p; j++) sv[j] = noise[j] ? 0 : norm2(re, im, j * len, len, 1);
  const order = Array.from({ length: p }, (_, j) => j).sort((x, y) => sv[y]! - sv[x]! || x - y);
  const s = new Float64Array(p);
  const u = zeros(rowsOut * len);
  const valid = new Uint8Array(rowsOut);
  const vs = zeros(p * p);
  order.forEach((src, j) => {
    const sj = sv[src]!;
    s[j] = sj / scale;
    vs.re.set(vt.re.subarray(src * p, src * p + p), j * p);
    vs.im.set(vt.im.subarray(src * p, src * p + p), j * p);
    const inv = 1 / sj;
    if (sj > 0 && Number.isFinite(inv)) {
      valid[j] = 1;
      for (let i = 0; i < len; i++) {
        u.re[j * len + i] = re[src * len + i]! * inv;
        u.im[j * len + i] = im[src * len + i]! * inv;
      }
    }
  });
  return { s, u, valid, vt: vs, info };
}

function sqNorm(re: Float64Array, im: Float64Array, o: number, len: number, cplx: boolean): number {
  let sum = 0;
  if (cplx) for (let i = 0; i < len; i++) sum += re[o + i]! * re[o + i]! + im[o + i]! * im[o + i]!;
  else for (let i = 0; i < len; i++) sum += re[o + i]! * re[o + i]!;
  return sum;
}

function rotate(
  re: Float64Array,
  im: Float64Array,
  oa: number,
  ob: number,
  len: number,
  c: number,
  s: number,
  er: number,
  ei: number,
  cplx: boolean,
  nrm: Float64Array | null,
  ia: number,
  ib: number,
): void {
  let na = 0,
    nb = 0;
  if (!cplx) {
    // Real case: the phase is ±1.
    const se = s * er,
      ce = c * er;
    for (let i = 0; i < len; i++) {
      const x = re[oa + i]!,
        y = re[ob + i]!;
      const xa = c * x - se * y,
        xb = s * x + ce * y;
      re[oa + i] = xa;
      re[ob + i] = xb;
      na += xa * xa;
      nb += xb * xb;
    }
    if (nrm) {
      nrm[ia] = na;
      nrm[ib] = nb;
    }
    return;
  }
  for (let i = 0; i < len; i++) {
    const xr = re[oa + i]!,
      xi = im[oa + i]!;
    // y~ = y conj(phase)
    const yr0 = re[ob + i]!,
      yi0 = im[ob + i]!;
    const yr = yr0 * er + yi0 * ei,
      yi = yi0 * er - yr0 * ei;
    const ar = c * xr - s * yr,
      ai = c * xi - s * yi,
      br = s * xr + c * yr,
      bi = s * xi + c * yi;
    re[oa + i] = ar;
    im[oa + i] = ai;
    re[ob + i] = br;
    im[ob + i] = bi;
    na += ar * ar + ai * ai;
    nb += br * br + bi * bi;
  }
  if (nrm) {
    nrm[ia] = na;
    nrm[ib] = nb;
  }
}

/**
 * Fills the rows of `rows` (count x len) not flagged valid with unit vectors
 * orthogonal to all others: each time the standard basis vector with the
 * largest residual against the current basis, orthogonalized twice (classical
 * Gram-Schmidt with one reorthogonalization is orthogonal to working precision).
 */
export function completeBasis(rows: CMat, valid: Uint8Array, count: number, len: number): void {
  const { re, im } = rows;
  // colw[c] = Σ_valid |row_c|², so 1 - colw[c] is e_c's squared residual.
  const colw = new Float64Array(len);
  const addRow = (r: number): void => {
    for (let c = 0; c < len; c++) colw[c] += re[r * len + c]! ** 2 + im[r * len + c]! ** 2;
  };
  for (let r = 0; r < count; r++) if (valid[r]) addRow(r);
  for (let r = 0; r < count; r++) {
    if (valid[r]) continue;
    let best = 0;
    for (let c = 1; c < len; c++) if (colw[c]! < colw[best]!) best = c;
    const o = r * len;
    re.fill(0, o, o + len);
    im.fill(0, o, o + len);
    re[o + best] = 1;
    for (let pass = 0; pass < 2; pass++) {
      for (let q = 0; q < count; q++) {
        if (!valid[q]) continue;
        const oq = q * len;
        let dr = 0,
          di = 0;
        for (let i = 0; i < len; i++) {
          dr += re[oq + i]! * re[o + i]! + im[oq + i]! * im[o + i]!;
          di += re[oq + i]! * im[o + i]! - im[oq + i]! * re[o + i]!;
        }
        for (let i = 0; i < len; i++) {
          re[o + i] -= dr * re[oq + i]! - di * im[oq + i]!;
          im[o + i] -= dr * im[oq + i]! + di * re[oq + i]!;
        }
      }
    }
    const nv = norm2(re, im, o, len, 1);
    for (let i = 0; i < len; i++) {
      re[o + i] /= nv;
      im[o + i] /= nv;
    }
    valid[r] = 1;
    addRow(r);
  }
}

/** The SVD of one m x n matrix in the contract's layout: u (m x ucols), vh (vrows x n) as CMat. */
export function svdOne(a: CMat, m: number, n: number, cplx: boolean, wantVectors: boolean, full: boolean): { s: Float64Array; u: CMat | null; vh: CMat | null; info: number } {
  const tall = m >= n;
  const p = tall ? n : m,
    len = tall ? m : n;
  // Working columns: aᵀ's rows (tall) or conj(a)'s rows (wide, the columns of aᴴ).
  const cols = zeros(p * len);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      const dst = tall ? j * m + i : i * n + j;
      cols.re[dst] = a.re[i * n + j]!;
      cols.im[dst] = tall ? a.im[i * n + j]! : -a.im[i * n + j]!;
    }
  }
  const rowsOut = wantVectors && full ? len : p;
  const r = jacobiSvd(cols, p, len, cplx, rowsOut);
  if (!wantVectors) return { s: r.s, u: null, vh: null, info: r.info };
  completeBasis(r.u, r.valid, rowsOut, len);
  // Left factor from the u-rows (tall) or from vt (wide), right factor the other way round.
  const uc = tall ? rowsOut : p;
  const u = zeros(m * uc);
  const vr = tall ? p : rowsOut;
  const vh = zeros(vr * n);
  const [left, right] = tall ? [r.u, r.vt] : [r.vt, r.u];
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < uc; j++) {
      u.re[i * uc + j] = left.re[j * m + i]!;
      u.im[i * uc + j] = left.im[j * m + i]!;
    }
  }
  for (let j = 0; j < vr * n; j++) {
    vh.re[j] = right.re[j]!;
    vh.im[j] = -right.im[j]!;
  }
  return { s: r.s, u, vh, info: r.info };
}

export function svd(dtype: LinalgDType, b: number, m: number, n: number, a: FloatArray, s: FloatArray, u: FloatArray | null, vh: FloatArray | null, full: boolean): Int32Array {
  checkArgs('svd', dtype, { b, m, n });
  const kk = Math.min(m, n);
  const sz = slots(dtype);
  const uc = full ? m : kk,
    vr = full ? n : kk;
  const sizes = `b=${b}, m=${m}, n=${n}, full=${full}, dtype ${dtype}`;
  if ((u === null) !== (vh === null)) throw new Error(`linalg svd: u and vh must both be given or both be null (${sizes})`);
  checkLength('svd', 'a', a, b * m * n * sz, sizes);
  checkLength('svd', 's', s, b * kk, sizes);
  checkLength('svd', 'u', u, b * m * uc * sz, sizes);
  checkLength('svd', 'vh', vh, b * vr * n * sz, sizes);
  const cplx = isComplexDType(dtype);
  const info = new Int32Array(b);
  for (let e = 0; e < b; e++) {
    const am = load(dtype, a, e, m * n);
    if (!allFinite(am)) {
      info[e] = 1;
      fillNaN(s, e, kk);
      fillNaN(u, e, m * uc * sz);
      fillNaN(vh, e, vr * n * sz);
      continue;
    }
    const r = svdOne(am, m, n, cplx, u !== null, full);
    info[e] = r.info;
    storeReal(s, e, r.s);
    if (u && vh && r.u && r.vh) {
      writeMat(cplx, u, e, m * uc, r.u);
      writeMat(cplx, vh, e, vr * n, r.vh);
    }
  }
  return info;
}

function writeMat(cplx: boolean, dst: FloatArray, e: number, count: number, mtx: CMat): void {
  const off = e * count * (cplx ? 2 : 1);
  for (let i = 0; i < count; i++) {
    if (cplx) {
      dst[off + 2 * i] = mtx.re[i]!;
      dst[off + 2 * i + 1] = mtx.im[i]!;
    } else dst[off + i] = mtx.re[i]!;
  }
}
