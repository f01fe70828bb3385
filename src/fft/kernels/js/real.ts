// The real transforms of the js FFT kernels: r2c and c2r over rows.
//
// Even n = 2h runs one complex FFT of length h (half the work of a c2c of the
// real row): the row read as h complex values z_j = x_{2j} + i·x_{2j+1} has
// Z = FFT_h(z) = E + i·O, with E and O the transforms of the even and odd
// samples, and since those are real,
//   E_k = (Z_k + conj Z_{h−k})/2,  O_k = −i(Z_k − conj Z_{h−k})/2,
//   X_k = E_k + w^k O_k  (w = e^{−2πi/n}, k = 0..h, Z_h = Z_0).
// c2r inverts those steps: 2Z_k = (X_k + conj X_{h−k}) + i·conj(w^k)(X_k − conj X_{h−k}),
// whose unnormalized inverse FFT of length h is n·z. Odd n runs the complex
// transform of length n (r2c: a zero imaginary part; c2r: the Hermitian
// spectrum rebuilt in full).
//
// As NumPy's irfft, c2r reads no imaginary part of X_0 nor, for even n, of
// X_{n/2}: a real signal's spectrum has none, and any there is dropped.

import type { FloatArray } from '../contract.js';
import { PLANS, buildComplexPlan, complexPlan, copyIn, type ComplexPlan } from './complex.js';
import { rootTable } from './plan.js';

/** The plan of an even length n: the complex plan of n/2 and e^{−2πik/n} for k ≤ n/2. */
class HalfPlan {
  declare readonly n: number;
  declare readonly inner: ComplexPlan;
  declare readonly tw: Float64Array;
  declare readonly bytes: number;

  constructor(n: number) {
    this.n = n;
    this.inner = buildComplexPlan(n / 2);
    this.tw = rootTable(n).slice(0, n + 2);
    this.bytes = this.inner.bytes + this.tw.byteLength;
  }
}

function halfPlan(n: number): HalfPlan {
  return PLANS.get(`r${n}`, () => new HalfPlan(n)) as HalfPlan;
}

/** The r2c kernel: batch rows of n reals to rows of ⌊n/2⌋ + 1 complex values. */
export function r2cRows(batch: number, n: number, x: FloatArray, out: FloatArray): void {
  if (n % 2 === 1) return r2cOdd(batch, n, x, out);
  const { inner, tw } = halfPlan(n);
  const h = n / 2,
    a = inner.a;
  for (let b = 0; b < batch; b++) {
    const xo = n * b,
      oo = (n + 2) * b;
    copyIn(x, xo, a, n);
    const z = inner.forward();
    // k = 0 and h: E_0, O_0 are real (Re, Im Z_0) and w^0 = 1, w^h = −1.
    out[oo] = z[0]! + z[1]!;
    out[oo + 1] = 0;
    out[oo + n] = z[0]! - z[1]!;
    out[oo + n + 1] = 0;
    for (let k = 1; k < h; k++) {
      const i = 2 * k,
        j = 2 * (h - k);
      const zr = z[i]!,
        zi = z[i + 1]!,
        cr = z[j]!,
        ci = -z[j + 1]!; // conj Z_{h−k}
      const er = 0.5 * (zr + cr),
        ei = 0.5 * (zi + ci),
        // O = −i(Z − conj Z_{h−k})/2
        or = 0.5 * (zi - ci),
        oi = -0.5 * (zr - cr);
      const wr = tw[2 * k]!,
        wi = tw[2 * k + 1]!;
      out[oo + 2 * k] = er + (or * wr - oi * wi);
      out[oo + 2 * k + 1] = ei + (or * wi + oi * wr);
    }
    if (hasNaN(out, oo, n + 2) && !hasNaN(x, xo, n)) r2cDirect(n, x, xo, out, oo);
  }
}

/** Whether a[off, off + len) holds a NaN. */
function hasNaN(a: FloatArray, off: number, len: number): boolean {
  for (let i = off; i < off + len; i++) if (a[i] !== a[i]) return true;
  return false;
}

/**
 * One row's r2c as the complex transform of length n (zero imaginary
 * parts). For a row with an infinite sample: the half-length split computes
 * E_k and O_k as differences of infinite values (∞ − ∞ = NaN) where the
 * transform itself is ±∞, and NumPy's pocketfft, whose real passes do no
 * such split, gives ±∞ there; the complex passes do the sums as NumPy's do.
 * Only rows whose split made a NaN from a NaN-free input come here.
 */
function r2cDirect(n: number, x: FloatArray, xo: number, out: FloatArray, oo: number): void {
  const plan = complexPlan(n),
    a = plan.a;
  for (let i = 0; i < n; i++) {
    a[2 * i] = x[xo + i]!;
    a[2 * i + 1] = 0;
  }
  const z = plan.forward();
  for (let i = 0; i < n + 2; i++) out[oo + i] = z[i]!;
  // X_0 and X_{n/2} of a real row are real (Σ x_j, Σ (−1)^j x_j), as NumPy's real passes store them; the twiddle products may have made ∞·0 there.
  out[oo + 1] = 0;
  out[oo + n + 1] = 0;
}

function r2cOdd(batch: number, n: number, x: FloatArray, out: FloatArray): void {
  const plan = complexPlan(n),
    a = plan.a,
    half = (n - 1) / 2;
  for (let b = 0; b < batch; b++) {
    const xo = n * b,
      oo = 2 * (half + 1) * b;
    for (let i = 0; i < n; i++) {
      a[2 * i] = x[xo + i]!;
      a[2 * i + 1] = 0;
    }
    const z = plan.forward();
    for (let i = 0; i < 2 * (half + 1); i++) out[oo + i] = z[i]!;
    out[oo + 1] = 0; // X_0 = Σ x_j is real (an infinite sample times a twiddle's 0 would make ∞·0 = NaN)
  }
}

/** The c2r kernel: batch rows of ⌊n/2⌋ + 1 complex values (Hermitian half spectra) to rows of n reals, unnormalized. */
export function c2rRows(batch: number, n: number, x: FloatArray, out: FloatArray): void {
  if (n % 2 === 1) return c2rOdd(batch, n, x, out);
  const { inner, tw } = halfPlan(n);
  const h = n / 2,
    a = inner.a;
  for (let b = 0; b < batch; b++) {
    const xo = (n + 2) * b,
      oo = n * b;
    // k = 0: 2Z_0 = (X_0 + X_h) + i(X_0 − X_h), their imaginary parts not read; stored conjugated (below).
    a[0] = x[xo]! + x[xo + n]!;
    a[1] = -(x[xo]! - x[xo + n]!);
    for (let k = 1; k < h; k++) {
      const i = xo + 2 * k,
        j = xo + 2 * (h - k);
      const xr = x[i]!,
        xi = x[i + 1]!,
        cr = x[j]!,
        ci = -x[j + 1]!; // conj X_{h−k}
      const sr = xr + cr,
        si = xi + ci,
        dr = xr - cr,
        di = xi - ci;
      // i·conj(w^k)·d, with conj(w^k) = (wr, −wi)
      const wr = tw[2 * k]!,
        wi = -tw[2 * k + 1]!;
      const pr = dr * wr - di * wi,
        pi = dr * wi + di * wr;
      // 2Z_k = s + i·p, stored conjugated: the inverse as conj∘forward∘conj
      a[2 * k] = sr - pi;
      a[2 * k + 1] = -(si + pr);
    }
    const z = inner.forward();
    for (let j = 0; j < h; j++) {
      out[oo + 2 * j] = z[2 * j]!;
      out[oo + 2 * j + 1] = -z[2 * j + 1]!;
    }
  }
}

function c2rOdd(batch: number, n: number, x: FloatArray, out: FloatArray): void {
  const plan = complexPlan(n),
    a = plan.a,
    half = (n - 1) / 2;
  for (let b = 0; b < batch; b++) {
    const xo = 2 * (half + 1) * b,
      oo = n * b;
    // conj of the full Hermitian spectrum: conj X_k at k, X_k at n − k; Im X_0 dropped.
    a[0] = x[xo]!;
    a[1] = 0;
    for (let k = 1; k <= half; k++) {
      const re = x[xo + 2 * k]!,
        im = x[xo + 2 * k + 1]!;
      a[2 * k] = re;
      a[2 * k + 1] = -im;
      a[2 * (n - k)] = re;
      a[2 * (n - k) + 1] = im;
    }
    const z = plan.forward();
    for (let j = 0; j < n; j++) out[oo + j] = z[2 * j]!;
  }
}
