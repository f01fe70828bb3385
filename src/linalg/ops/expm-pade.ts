// The numerical core of expm for one matrix: the scaling and squaring
// algorithm of Al-Mohy and Higham 2009 ("A new scaling and squaring algorithm
// for the matrix exponential", SIAM J. Matrix Anal. Appl. 31(3)), as SciPy's
// scipy.linalg.expm implements it. Against the 2005 algorithm (which picks the
// squarings from ‖A‖₁ alone) it
//   - bounds the Padé error by η = max(‖A^k‖^(1/k), ‖A^(k+2)‖^(1/(k+2))) instead
//     of ‖A‖, which is far smaller for non-normal matrices (Moler's example
//     needs no overscaling: 0.447, not 2.7e15, in its corner);
//   - adds ℓ squarings only where the rounding in evaluating the approximant at
//     2^-s A would matter, judged from ‖|A|^(2m+1)‖₁ (the backoff of eq. 5.1);
//   - for a triangular matrix recomputes during the squaring phase the diagonal
//     (exp of 2^-i diag A) and the first off-diagonal (Higham 2008, eq. 10.42)
//     exactly, which the squarings of a badly scaled triangular matrix ruin;
//   - returns exp of the diagonal for a diagonal matrix.
// The degree m ∈ {3, 5, 7, 9, 13} is chosen per matrix; single precision takes
// the same thetas with unit roundoff 2^-24 in ℓ, as SciPy does.

import type { FloatArray, LinalgDType, LinalgKernels } from '../kernels/contract.js';

const THETA = [1.495585217958292e-2, 2.539398330063230e-1, 9.504178996162932e-1, 2.097847961257068e0, 4.25];
/** |c_(2m+1)|⁻¹ of the Padé remainder for m = 3, 5, 7, 9, 13 (Higham 2005, eq. 2.2 / 2.6). */
const C_RECIP = [100800, 10059033600, 4487938430976000, 5914384781877411840000, 113250775606021113483283660800000000];
const PADE: Record<number, number[]> = {
  3: [120, 60, 12, 1],
  5: [30240, 15120, 3360, 420, 30, 1],
  7: [17297280, 8648640, 1995840, 277200, 25200, 1512, 56, 1],
  9: [17643225600, 8821612800, 2075673600, 302702400, 30270240, 2162160, 110880, 3960, 90, 1],
  13: [64764752532480000, 32382376266240000, 7771770303897600, 1187353796428800, 129060195264000, 10559470521600, 670442572800, 33522128640, 1323241920, 40840800, 960960, 16380, 182, 1],
};

/** One matrix: out = expm(a), both of the storage type (interleaved complex). Returns the solve's info (0 = ok). */
export function expmOne(k: LinalgKernels, d: LinalgDType, n: number, a: FloatArray, out: FloatArray): number {
  const cplx = d === 'complex64' || d === 'complex128';
  const L = cplx ? 2 : 1;
  const single = d === 'float32' || d === 'complex64';
  const make = () => (single ? new Float32Array(n * n * L) : new Float64Array(n * n * L));
  const abs = absMatrix(a, n, cplx);
  for (let i = 0; i < n * n; i++) if (!Number.isFinite(abs[i]!)) return (out.fill(NaN), 0);
  const { lower, upper } = structure(abs, n);
  if (lower && upper) return (expDiagonal(a, n, cplx, 1, out), 0);

  const mm = (p: FloatArray, q: FloatArray) => {
    const r = make();
    k.gemm(d, n, n, n, p, q, r);
    return r;
  };
  const norm1 = (m: FloatArray) => matNorm1(m, n, cplx);
  const u = single ? 2 ** -24 : 2 ** -53;
  const normA = norm1(a);
  // log2 ‖|A|^p‖₁ for the ℓ backoff; ℓ(m) = max(0, ⌈log2(‖|A|^(2m+1)‖ / (‖A‖ c u)) / 2m⌉).
  const logPow = absPowerLog2Norms(abs, n, [7, 11, 15, 19, 27]);
  const ell = (i: number, m: number, shift: number) => {
    const v = Math.ceil((logPow[i]! - (2 * m + 1) * shift - (Math.log2(normA) - shift) - Math.log2(C_RECIP[i]! * u)) / (2 * m));
    return Number.isFinite(v) ? Math.max(0, v) : 0;
  };

  const x2 = mm(a, a),
    x4 = mm(x2, x2),
    x6 = mm(x4, x2);
  const d4 = norm1(x4) ** (1 / 4),
    d6 = norm1(x6) ** (1 / 6);
  const eta1 = Math.max(d4, d6);
  let m = 0;
  let x8: FloatArray | null = null;
  if (eta1 < THETA[0]! && ell(0, 3, 0) === 0) m = 3;
  else if (eta1 < THETA[1]! && ell(1, 5, 0) === 0) m = 5;
  let eta3 = 0;
  if (m === 0) {
    x8 = mm(x4, x4);
    const d8 = norm1(x8) ** (1 / 8);
    eta3 = Math.max(d6, d8);
    if (eta3 < THETA[2]! && ell(2, 7, 0) === 0) m = 7;
    else if (eta3 < THETA[3]! && ell(3, 9, 0) === 0) m = 9;
    if (m === 0) {
      const d10 = norm1(mm(x4, x6)) ** (1 / 10);
      const eta5 = Math.min(eta3, Math.max(d8, d10));
      let s = eta5 === 0 ? 0 : Math.max(0, Math.ceil(Math.log2(eta5 / THETA[4]!)));
      s += ell(4, 13, s);
      return squareAndFinish(k, d, n, a, out, s, { lower, upper }, make, [a, x2, x4, x6]);
    }
  }
  const r = make();
  const info = padeSolve(k, d, n, m, [a, x2, x4, x6, x8], make, r);
  if (info !== 0) return info;
  out.set(r);
  return 0;
}

type Make = () => FloatArray;

/** r_13 at 2^-s A, then s squarings (with the triangular recomputation). */
function squareAndFinish(k: LinalgKernels, d: LinalgDType, n: number, a: FloatArray, out: FloatArray, s: number, tri: { lower: boolean; upper: boolean }, make: Make, pows: FloatArray[]): number {
  const scaled = pows.map((p, j) => {
    const f = 2 ** (-s * (j === 0 ? 1 : 2 * j)); // A, A², A⁴, A⁶ scale by 2^-s, 4^-s, 16^-s, 64^-s
    if (f === 1) return p;
    const q = make();
    for (let i = 0; i < p.length; i++) q[i] = p[i]! * f;
    return q;
  });
  let r = make();
  const info = padeSolve(k, d, n, 13, [...scaled, null], make, r);
  if (info !== 0) return info;
  const cplx = d === 'complex64' || d === 'complex128';
  const triangular = (tri.lower || tri.upper) && n > 1;
  if (triangular) fixTriangular(a, r, n, cplx, s, tri.upper);
  for (let i = s - 1; i >= 0; i--) {
    const q = make();
    k.gemm(d, n, n, n, r, r, q);
    r = q;
    if (triangular) fixTriangular(a, r, n, cplx, i, tri.upper);
  }
  if (triangular) {
    // Exact zeros in the other triangle (as SciPy), whatever the products rounded to there.
    const L = cplx ? 2 : 1;
    for (let row = 0; row < n; row++)
      for (let col = 0; col < n; col++) if (tri.upper ? col < row : col > row) r.fill(0, L * (row * n + col), L * (row * n + col + 1));
  }
  out.set(r);
  return 0;
}

/** X = r_m(A) from the (already scaled) powers [A, A², A⁴, A⁶, A⁸]: solve (V − U) X = V + U. */
function padeSolve(k: LinalgKernels, d: LinalgDType, n: number, m: number, p: (FloatArray | null)[], make: Make, out: FloatArray): number {
  const L = d === 'complex64' || d === 'complex128' ? 2 : 1;
  const b = PADE[m]!;
  const mm = (x: FloatArray, y: FloatArray) => {
    const r = make();
    k.gemm(d, n, n, n, x, y, r);
    return r;
  };
  /** Σ c_i M_i + c_I I. */
  const comb = (terms: [number, FloatArray][], cI: number) => {
    const r = make();
    for (const [c, mt] of terms) for (let i = 0; i < r.length; i++) r[i] += c * mt[i]!;
    for (let i = 0; i < n; i++) r[(i * n + i) * L] += cI;
    return r;
  };
  const [x, x2, x4, x6, x8] = p as [FloatArray, FloatArray, FloatArray, FloatArray, FloatArray | null];
  let u: FloatArray, v: FloatArray;
  if (m === 3) {
    u = mm(x, comb([[b[3]!, x2]], b[1]!));
    v = comb([[b[2]!, x2]], b[0]!);
  } else if (m === 5) {
    u = mm(x, comb([[b[5]!, x4], [b[3]!, x2]], b[1]!));
    v = comb([[b[4]!, x4], [b[2]!, x2]], b[0]!);
  } else if (m === 7) {
    u = mm(x, comb([[b[7]!, x6], [b[5]!, x4], [b[3]!, x2]], b[1]!));
    v = comb([[b[6]!, x6], [b[4]!, x4], [b[2]!, x2]], b[0]!);
  } else if (m === 9) {
    u = mm(x, comb([[b[9]!, x8!], [b[7]!, x6], [b[5]!, x4], [b[3]!, x2]], b[1]!));
    v = comb([[b[8]!, x8!], [b[6]!, x6], [b[4]!, x4], [b[2]!, x2]], b[0]!);
  } else {
    u = mm(x, comb([[1, mm(x6, comb([[b[13]!, x6], [b[11]!, x4], [b[9]!, x2]], 0))], [b[7]!, x6], [b[5]!, x4], [b[3]!, x2]], b[1]!));
    v = comb([[1, mm(x6, comb([[b[12]!, x6], [b[10]!, x4], [b[8]!, x2]], 0))], [b[6]!, x6], [b[4]!, x4], [b[2]!, x2]], b[0]!);
  }
  const q = comb([[1, v], [-1, u]], 0),
    pp = comb([[1, v], [1, u]], 0);
  return k.solve(d, 1, n, n, q, pp, out)[0]!;
}

/** |a_ij| as float64, row-major. */
function absMatrix(a: FloatArray, n: number, cplx: boolean): Float64Array {
  const r = new Float64Array(n * n);
  for (let i = 0; i < n * n; i++) r[i] = cplx ? Math.hypot(a[2 * i]!, a[2 * i + 1]!) : Math.abs(a[i]!);
  return r;
}

function matNorm1(a: FloatArray, n: number, cplx: boolean): number {
  let norm = 0;
  for (let j = 0; j < n; j++) {
    let c = 0;
    for (let i = 0; i < n; i++) c += cplx ? Math.hypot(a[2 * (i * n + j)]!, a[2 * (i * n + j) + 1]!) : Math.abs(a[i * n + j]!);
    if (!(c <= norm)) norm = c;
  }
  return norm;
}

/** Which triangles hold the nonzeros: lower = nothing above the diagonal, upper = nothing below. */
function structure(abs: Float64Array, n: number): { lower: boolean; upper: boolean } {
  let lower = true,
    upper = true;
  for (let i = 0; i < n && (lower || upper); i++)
    for (let j = 0; j < n; j++) {
      if (abs[i * n + j] === 0) continue;
      if (j > i) lower = false;
      if (j < i) upper = false;
    }
  return { lower, upper };
}

/**
 * log2 ‖|A|^p‖₁ for the ascending powers ps: |A|^p ≥ 0, so its 1-norm is the
 * largest entry of (|A|ᵀ)^p 1, found by matrix-vector products renormalized as
 * they go (the powers of a large |A| overflow; the logs do not).
 */
function absPowerLog2Norms(abs: Float64Array, n: number, ps: number[]): number[] {
  let v = new Float64Array(n).fill(1);
  let logScale = 0;
  let done = 0;
  const out: number[] = [];
  for (const p of ps) {
    for (; done < p && logScale > -Infinity; done++) {
      const w = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const vi = v[i]!;
        if (vi === 0) continue;
        for (let j = 0; j < n; j++) w[j] += abs[i * n + j]! * vi; // w = |A|ᵀ v
      }
      let mx = 0;
      for (let j = 0; j < n; j++) if (w[j]! > mx) mx = w[j]!;
      logScale += Math.log2(mx); // -inf once |A|^p = 0 (nilpotent |A|): every later power is 0 too
      if (mx > 0) for (let j = 0; j < n; j++) w[j] /= mx;
      v = w;
    }
    out.push(logScale);
  }
  return out;
}

/** out = diag(exp(scale · diag a)) with zeros off the diagonal. */
function expDiagonal(a: FloatArray, n: number, cplx: boolean, scale: number, out: FloatArray): void {
  out.fill(0);
  for (let i = 0; i < n; i++) {
    const o = i * n + i;
    if (cplx) {
      const [er, ei] = cexp(scale * a[2 * o]!, scale * a[2 * o + 1]!);
      out[2 * o] = er;
      out[2 * o + 1] = ei;
    } else out[o] = Math.exp(scale * a[o]!);
  }
}

/**
 * For triangular T, sets the diagonal of x ≈ exp(2^-i T) to exp(2^-i t_kk) and
 * its first off-diagonal to the exact value (Higham 2008, eq. 10.42)
 * t12 (e^λ1 − e^λ2)/(λ1 − λ2), λ = 2^-i t_kk, written for close eigenvalues
 * as t12 exp((λ1 + λ2)/2) sinch((λ1 − λ2)/2), which avoids the cancellation.
 */
function fixTriangular(t: FloatArray, x: FloatArray, n: number, cplx: boolean, i: number, upper: boolean): void {
  const sc = 2 ** -i;
  const L = cplx ? 2 : 1;
  const at = (arr: FloatArray, r: number, c: number): [number, number] => (cplx ? [arr[2 * (r * n + c)]!, arr[2 * (r * n + c) + 1]!] : [arr[r * n + c]!, 0]);
  const put = (r: number, c: number, [re, im]: [number, number]) => {
    x[L * (r * n + c)] = re;
    if (cplx) x[L * (r * n + c) + 1] = im;
  };
  for (let kk = 0; kk < n; kk++) {
    const [lr, li] = at(t, kk, kk);
    put(kk, kk, cplx ? cexp(sc * lr, sc * li) : [Math.exp(sc * lr), 0]);
  }
  for (let kk = 0; kk < n - 1; kk++) {
    const [r, c] = upper ? [kk, kk + 1] : [kk + 1, kk];
    const [ar, ai] = at(t, kk, kk),
      [br, bi] = at(t, kk + 1, kk + 1),
      [tr, ti] = at(t, r, c);
    // All scaled by 2^-i. Far apart eigenvalues: the divided difference
    // directly (exp(mean) · sinch would be 0 · inf for λ = -1024, 0: gh-11839).
    const [dr, di] = [(sc * (ar - br)) / 2, (sc * (ai - bi)) / 2];
    let f: [number, number];
    if (Math.hypot(dr, di) >= 1) {
      const [e1r, e1i] = cexp(sc * ar, sc * ai),
        [e2r, e2i] = cexp(sc * br, sc * bi);
      f = cdiv(e1r - e2r, e1i - e2i, 2 * dr, 2 * di); // (e^λ1 − e^λ2) / (λ1 − λ2)
    } else f = cmul(...cexp((sc * (ar + br)) / 2, (sc * (ai + bi)) / 2), ...csinch(dr, di));
    put(r, c, cmul(sc * tr, sc * ti, f[0], f[1]));
  }
}

const cmul = (ar: number, ai: number, br: number, bi: number): [number, number] => [ar * br - ai * bi, ar * bi + ai * br];

function cdiv(ar: number, ai: number, br: number, bi: number): [number, number] {
  if (bi === 0) return [ar / br, ai / br];
  const den = br * br + bi * bi;
  return [(ar * br + ai * bi) / den, (ai * br - ar * bi) / den];
}

function cexp(re: number, im: number): [number, number] {
  const e = Math.exp(re);
  return im === 0 ? [e, 0] : [e * Math.cos(im), e * Math.sin(im)];
}

/** sinh(z)/z, by its series near 0 (SciPy's cutoff) where the quotient cancels. */
function csinch(re: number, im: number): [number, number] {
  if (Math.hypot(re, im) < 0.0135) {
    const [z2r, z2i] = cmul(re, im, re, im);
    // 1 + z²/6 (1 + z²/20 (1 + z²/42))
    let [sr, si] = [1 + z2r / 42, z2i / 42];
    [sr, si] = cmul(z2r / 20, z2i / 20, sr, si);
    [sr, si] = [1 + sr, si];
    [sr, si] = cmul(z2r / 6, z2i / 6, sr, si);
    return [1 + sr, si];
  }
  if (im === 0) return [Math.sinh(re) / re, 0];
  // sinh(x + iy) = sinh x cos y + i cosh x sin y, divided by z.
  const nr = Math.sinh(re) * Math.cos(im),
    ni = Math.cosh(re) * Math.sin(im);
  const den = re * re + im * im;
  return [(nr * re + ni * im) / den, (ni * re - nr * im) / den];
}
