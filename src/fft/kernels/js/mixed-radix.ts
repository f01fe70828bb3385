// The mixed-radix complex FFT: a Stockham (self-sorting) decimation-in-
// frequency transform with radix-4, 2, 3 and 5 butterflies and a generic
// odd-prime one (butterflies-pow2.ts, butterflies-odd.ts), over float64
// interleaved (re, im) arrays.
//
// Why Stockham: each pass reads one array and writes the other in sorted
// order, so there is no bit-reversal permutation and every pass streams
// through memory with unit stride in its inner loop. Why these radices:
// radix 4 does a power of two in half the passes of radix 2 with fewer
// multiplications; 3 and 5 are common in practice (1000 = 2³·5³);
// any other prime factor p runs the generic O(p) per element butterfly, and
// lengths whose largest prime makes that too slow go through Bluestein
// (bluestein.ts).
//
// One pass of radix r over a sub-length L = r·m with stride s (the product of
// the earlier radices) computes, for p < m and q < s,
//   y[q + s(rp + j)] = w_L^{jp} · Σ_k x[q + s(p + km)] · w_r^{jk}
// with w_N = e^{−2πi/N}; the next pass runs on length m with stride s·r.
// The twiddles of p = 0 are 1 and are not multiplied (fewer operations, and
// an infinite input stays infinite instead of meeting 0·∞ = NaN: the last
// pass, m = 1, multiplies nothing). Only the forward sign is implemented:
// the inverse is conj∘forward∘conj, folded into the copies in and out of the
// work arrays (complex.ts).

import { radix3, radix5, radixOdd } from './butterflies-odd.js';
import { radix2, radix4 } from './butterflies-pow2.js';
import { factorize, rootTable } from './plan.js';

/** One pass: radix r over sub-length r·m at stride s; tw[2((r−1)p + j − 1)] = w_{rm}^{jp}. */
interface Pass {
  readonly r: number;
  readonly m: number;
  readonly s: number;
  readonly tw: Float64Array;
}

/** A mixed-radix plan for length n: its passes and two work arrays of n complex values. */
export class MixedPlan {
  declare readonly n: number;
  declare readonly passes: readonly Pass[];
  /** The work arrays: the input goes in a, forward() returns the one holding the result. */
  declare readonly a: Float64Array;
  declare readonly b: Float64Array;
  /** cos, sin of 2πt/p for the generic radices, and scratch for their butterfly. */
  private declare readonly roots: Map<number, Float64Array>;
  private declare readonly scratch: Float64Array;
  declare readonly bytes: number;

  constructor(n: number) {
    this.n = n;
    const radices = factorize(n);
    const base = n > 1 ? rootTable(n) : new Float64Array(2);
    const passes: Pass[] = [];
    let s = 1,
      bytes = 0;
    for (const r of radices) {
      const L = n / s,
        m = L / r,
        step = s; // w_L^{jp} = w_n^{jp·s}, and jp·s < n
      const tw = new Float64Array(2 * (r - 1) * m);
      for (let p = 0; p < m; p++)
        for (let j = 1; j < r; j++) {
          const t = 2 * ((r - 1) * p + j - 1),
            k = 2 * j * p * step;
          tw[t] = base[k]!;
          tw[t + 1] = base[k + 1]!;
        }
      passes.push({ r, m, s, tw });
      bytes += tw.byteLength;
      s *= r;
    }
    this.passes = passes;
    this.roots = new Map();
    let maxGeneric = 0;
    for (const r of radices)
      if (r > 5 && !this.roots.has(r)) {
        const t = new Float64Array(2 * r);
        for (let k = 0; k < r; k++) {
          t[2 * k] = base[2 * k * (n / r)]!; // cos 2πk/r
          t[2 * k + 1] = -base[2 * k * (n / r) + 1]!; // sin 2πk/r
        }
        this.roots.set(r, t);
        maxGeneric = Math.max(maxGeneric, r);
      }
    this.scratch = new Float64Array(4 * maxGeneric);
    this.a = new Float64Array(2 * n);
    this.b = new Float64Array(2 * n);
    this.bytes = bytes + 2 * this.a.byteLength + this.scratch.byteLength;
  }

  /** The forward transform of the n values in a; returns a or b, whichever holds the result. */
  forward(): Float64Array {
    return this.run(this.a, this.b);
  }

  /** The forward transform of x (2n values, clobbered); x and y are any two arrays of ≥ 2n; returns x or y. */
  run(x: Float64Array, y: Float64Array): Float64Array {
    for (const ps of this.passes) {
      switch (ps.r) {
        case 4:
          radix4(x, y, ps.s, ps.m, ps.tw);
          break;
        case 2:
          radix2(x, y, ps.s, ps.m, ps.tw);
          break;
        case 3:
          radix3(x, y, ps.s, ps.m, ps.tw);
          break;
        case 5:
          radix5(x, y, ps.s, ps.m, ps.tw);
          break;
        default:
          radixOdd(x, y, ps.s, ps.m, ps.r, ps.tw, this.roots.get(ps.r)!, this.scratch);
      }
      const t = x;
      x = y;
      y = t;
    }
    return x;
  }
}
