// Bluestein's chirp-z transform: the DFT of any length n as a circular
// convolution of length M (a power of two ≥ 2n − 1), done by power-of-two
// mixed-radix FFTs. For lengths whose largest prime factor is large (1009, a
// prime, would cost O(n²) in the generic radix), this is O(n log n).
//
// With jk = (j² + k² − (k − j)²)/2 and the chirp w_j = e^{−πij²/n},
//   X_k = w_k · Σ_j (x_j w_j) · conj(w_{k−j}),
// a convolution of a_j = x_j w_j with b_m = conj(w_m), m in (−n, n), wrapped
// to length M. The plan keeps the chirp and B = FFT_M(b)/M (the 1/M of the
// inverse FFT folded in), so a transform is two FFTs of length M, the
// inverse one as conj∘forward∘conj.

import { MixedPlan } from './mixed-radix.js';
import { unitRoot } from './plan.js';

export class BluesteinPlan {
  declare readonly n: number;
  declare readonly m: number;
  /** The input goes in a (n complex values); forward() returns a with the result. */
  declare readonly a: Float64Array;
  /** w_j = e^{−πij²/n} for j < n. */
  private declare readonly chirp: Float64Array;
  /** FFT_M of the wrapped conj(w), divided by M. */
  private declare readonly spectrum: Float64Array;
  /** The power-of-two plan; its work arrays hold the length-M sequences. */
  private declare readonly inner: MixedPlan;
  declare readonly bytes: number;

  constructor(n: number) {
    this.n = n;
    let m = 1;
    while (m < 2 * n - 1) m *= 2;
    this.m = m;
    const chirp = new Float64Array(2 * n);
    // j² mod 2n by the exact recurrence (j+1)² = j² + 2j + 1, so no j² overflows 2^53.
    for (let j = 0, sq = 0; j < n; j++) {
      unitRoot(sq, 2 * n, chirp, 2 * j);
      sq = (sq + 2 * j + 1) % (2 * n);
    }
    this.chirp = chirp;
    const inner = new MixedPlan(m);
    this.inner = inner;
    const b = inner.a;
    b.fill(0);
    for (let j = 0; j < n; j++) {
      const cr = chirp[2 * j]! / m,
        ci = -chirp[2 * j + 1]! / m;
      b[2 * j] = cr;
      b[2 * j + 1] = ci;
      if (j > 0) {
        b[2 * (m - j)] = cr;
        b[2 * (m - j) + 1] = ci;
      }
    }
    this.spectrum = inner.forward().slice(0, 2 * m);
    this.a = new Float64Array(2 * n);
    this.bytes = inner.bytes + chirp.byteLength + this.spectrum.byteLength + this.a.byteLength;
  }

  /** The forward transform of the n values in a, left in a (returned). */
  forward(): Float64Array {
    const { n, m, a, chirp, spectrum, inner } = this;
    const u = inner.a;
    for (let j = 0; j < 2 * n; j += 2) {
      const xr = a[j]!,
        xi = a[j + 1]!,
        wr = chirp[j]!,
        wi = chirp[j + 1]!;
      u[j] = xr * wr - xi * wi;
      u[j + 1] = xr * wi + xi * wr;
    }
    u.fill(0, 2 * n, 2 * m);
    const U = inner.forward();
    // conj(U·B): the inverse FFT as conj∘forward∘conj
    for (let k = 0; k < 2 * m; k += 2) {
      const ur = U[k]!,
        ui = U[k + 1]!,
        br = spectrum[k]!,
        bi = spectrum[k + 1]!;
      U[k] = ur * br - ui * bi;
      U[k + 1] = -(ur * bi + ui * br);
    }
    const c = inner.run(U, U === inner.a ? inner.b : inner.a);
    // X_k = w_k · conj(c_k)
    for (let k = 0; k < 2 * n; k += 2) {
      const cr = c[k]!,
        ci = -c[k + 1]!,
        wr = chirp[k]!,
        wi = chirp[k + 1]!;
      a[k] = cr * wr - ci * wi;
      a[k + 1] = cr * wi + ci * wr;
    }
    return a;
  }
}
