// The mixed-radix complex FFT: a Stockham (self-sorting) decimation-in-
// frequency transform with radix-4, 2, 3 and 5 butterflies and a generic
// odd-prime one, over float64 interleaved (re, im) arrays.
//
// Why Stockham: each pass reads one array and writes the other in sorted
// order, so there is no bit-reversal permutation and every pass streams
// through memory with unit stride in its inner loop. Why these radices:
// radix-4 does a power of two in half the passes of radix-2 with fewer
// multiplications; 3 and 5 are common in practice (1000 = 2³·5³); any other
// prime factor p runs the generic O(p) per element butterfly, and lengths
// whose largest prime makes that too slow go through Bluestein (bluestein.ts).
//
// One pass of radix r over a sub-length L = r·m with stride s (the product of
// the earlier radices) computes, for p < m and q < s,
//   y[q + s(rp + j)] = w_L^{jp} · Σ_k x[q + s(p + km)] · w_r^{jk}
// with w_N = e^{−2πi/N}; the next pass runs on length m with stride s·r.
// The twiddles of p = 0 are 1 and are not multiplied (fewer operations, and
// an infinite input stays infinite instead of meeting 0·∞ = NaN: the last
// pass, m = 1, multiplies nothing). Only the forward sign is implemented: the inverse is conj∘forward∘conj,
// folded into the copies in and out of the work arrays (complex.ts).

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

function radix2(x: Float64Array, y: Float64Array, s: number, m: number, tw: Float64Array): void {
  const di = 2 * s * m,
    s2 = 2 * s;
  for (let p = 0; p < m; p++) {
    const wr = tw[2 * p]!,
      wi = tw[2 * p + 1]!;
    let i = 2 * s * p,
      o = 4 * s * p;
    const end = i + s2;
    for (; i < end; i += 2, o += 2) {
      const ar = x[i]!,
        ai = x[i + 1]!,
        br = x[i + di]!,
        bi = x[i + di + 1]!;
      y[o] = ar + br;
      y[o + 1] = ai + bi;
      const dr = ar - br,
        dd = ai - bi;
      if (p === 0) {
        y[o + s2] = dr;
        y[o + s2 + 1] = dd;
      } else {
        y[o + s2] = dr * wr - dd * wi;
        y[o + s2 + 1] = dr * wi + dd * wr;
      }
    }
  }
}

function radix4(x: Float64Array, y: Float64Array, s: number, m: number, tw: Float64Array): void {
  const di = 2 * s * m,
    s2 = 2 * s;
  for (let p = 0; p < m; p++) {
    const t = 6 * p;
    const w1r = tw[t]!,
      w1i = tw[t + 1]!,
      w2r = tw[t + 2]!,
      w2i = tw[t + 3]!,
      w3r = tw[t + 4]!,
      w3i = tw[t + 5]!;
    let i = 2 * s * p,
      o = 8 * s * p;
    const end = i + s2;
    for (; i < end; i += 2, o += 2) {
      const i1 = i + di,
        i2 = i1 + di,
        i3 = i2 + di;
      const a0r = x[i]!,
        a0i = x[i + 1]!,
        a1r = x[i1]!,
        a1i = x[i1 + 1]!,
        a2r = x[i2]!,
        a2i = x[i2 + 1]!,
        a3r = x[i3]!,
        a3i = x[i3 + 1]!;
      const t0r = a0r + a2r,
        t0i = a0i + a2i,
        t1r = a0r - a2r,
        t1i = a0i - a2i,
        t2r = a1r + a3r,
        t2i = a1i + a3i,
        // −i·(a1 − a3)
        t3r = a1i - a3i,
        t3i = a3r - a1r;
      y[o] = t0r + t2r;
      y[o + 1] = t0i + t2i;
      const y1r = t1r + t3r,
        y1i = t1i + t3i,
        y2r = t0r - t2r,
        y2i = t0i - t2i,
        y3r = t1r - t3r,
        y3i = t1i - t3i;
      const o1 = o + s2,
        o2 = o1 + s2,
        o3 = o2 + s2;
      if (p === 0) {
        y[o1] = y1r;
        y[o1 + 1] = y1i;
        y[o2] = y2r;
        y[o2 + 1] = y2i;
        y[o3] = y3r;
        y[o3 + 1] = y3i;
      } else {
        y[o1] = y1r * w1r - y1i * w1i;
        y[o1 + 1] = y1r * w1i + y1i * w1r;
        y[o2] = y2r * w2r - y2i * w2i;
        y[o2 + 1] = y2r * w2i + y2i * w2r;
        y[o3] = y3r * w3r - y3i * w3i;
        y[o3 + 1] = y3r * w3i + y3i * w3r;
      }
    }
  }
}

const S3 = Math.sqrt(3) / 2; // sin 2π/3

function radix3(x: Float64Array, y: Float64Array, s: number, m: number, tw: Float64Array): void {
  const di = 2 * s * m,
    s2 = 2 * s;
  for (let p = 0; p < m; p++) {
    const t = 4 * p;
    const w1r = tw[t]!,
      w1i = tw[t + 1]!,
      w2r = tw[t + 2]!,
      w2i = tw[t + 3]!;
    let i = 2 * s * p,
      o = 6 * s * p;
    const end = i + s2;
    for (; i < end; i += 2, o += 2) {
      const a0r = x[i]!,
        a0i = x[i + 1]!,
        a1r = x[i + di]!,
        a1i = x[i + di + 1]!,
        a2r = x[i + 2 * di]!,
        a2i = x[i + 2 * di + 1]!;
      const sr = a1r + a2r,
        si = a1i + a2i,
        er = a0r - 0.5 * sr,
        ei = a0i - 0.5 * si,
        fr = S3 * (a1r - a2r),
        fi = S3 * (a1i - a2i);
      y[o] = a0r + sr;
      y[o + 1] = a0i + si;
      // y1 = e − i·f, y2 = e + i·f
      const y1r = er + fi,
        y1i = ei - fr,
        y2r = er - fi,
        y2i = ei + fr;
      const o1 = o + s2,
        o2 = o1 + s2;
      if (p === 0) {
        y[o1] = y1r;
        y[o1 + 1] = y1i;
        y[o2] = y2r;
        y[o2 + 1] = y2i;
      } else {
        y[o1] = y1r * w1r - y1i * w1i;
        y[o1 + 1] = y1r * w1i + y1i * w1r;
        y[o2] = y2r * w2r - y2i * w2i;
        y[o2 + 1] = y2r * w2i + y2i * w2r;
      }
    }
  }
}

const C51 = Math.cos((2 * Math.PI) / 5),
  C52 = Math.cos((4 * Math.PI) / 5),
  S51 = Math.sin((2 * Math.PI) / 5),
  S52 = Math.sin((4 * Math.PI) / 5);

function radix5(x: Float64Array, y: Float64Array, s: number, m: number, tw: Float64Array): void {
  const di = 2 * s * m,
    s2 = 2 * s;
  for (let p = 0; p < m; p++) {
    const t = 8 * p;
    const w1r = tw[t]!,
      w1i = tw[t + 1]!,
      w2r = tw[t + 2]!,
      w2i = tw[t + 3]!,
      w3r = tw[t + 4]!,
      w3i = tw[t + 5]!,
      w4r = tw[t + 6]!,
      w4i = tw[t + 7]!;
    let i = 2 * s * p,
      o = 10 * s * p;
    const end = i + s2;
    for (; i < end; i += 2, o += 2) {
      const a0r = x[i]!,
        a0i = x[i + 1]!,
        a1r = x[i + di]!,
        a1i = x[i + di + 1]!,
        a2r = x[i + 2 * di]!,
        a2i = x[i + 2 * di + 1]!,
        a3r = x[i + 3 * di]!,
        a3i = x[i + 3 * di + 1]!,
        a4r = x[i + 4 * di]!,
        a4i = x[i + 4 * di + 1]!;
      const s1r = a1r + a4r,
        s1i = a1i + a4i,
        d1r = a1r - a4r,
        d1i = a1i - a4i,
        s2r = a2r + a3r,
        s2i = a2i + a3i,
        d2r = a2r - a3r,
        d2i = a2i - a3i;
      y[o] = a0r + s1r + s2r;
      y[o + 1] = a0i + s1i + s2i;
      // y1,4 = e1 ∓ i·f1; y2,3 = e2 ∓ i·f2
      const e1r = a0r + C51 * s1r + C52 * s2r,
        e1i = a0i + C51 * s1i + C52 * s2i,
        f1r = S51 * d1r + S52 * d2r,
        f1i = S51 * d1i + S52 * d2i,
        e2r = a0r + C52 * s1r + C51 * s2r,
        e2i = a0i + C52 * s1i + C51 * s2i,
        f2r = S52 * d1r - S51 * d2r,
        f2i = S52 * d1i - S51 * d2i;
      const y1r = e1r + f1i,
        y1i = e1i - f1r,
        y4r = e1r - f1i,
        y4i = e1i + f1r,
        y2r = e2r + f2i,
        y2i = e2i - f2r,
        y3r = e2r - f2i,
        y3i = e2i + f2r;
      const o1 = o + s2,
        o2 = o1 + s2,
        o3 = o2 + s2,
        o4 = o3 + s2;
      if (p === 0) {
        y[o1] = y1r;
        y[o1 + 1] = y1i;
        y[o2] = y2r;
        y[o2 + 1] = y2i;
        y[o3] = y3r;
        y[o3 + 1] = y3i;
        y[o4] = y4r;
        y[o4 + 1] = y4i;
      } else {
        y[o1] = y1r * w1r - y1i * w1i;
        y[o1 + 1] = y1r * w1i + y1i * w1r;
        y[o2] = y2r * w2r - y2i * w2i;
        y[o2 + 1] = y2r * w2i + y2i * w2r;
        y[o3] = y3r * w3r - y3i * w3i;
        y[o3 + 1] = y3r * w3i + y3i * w3r;
        y[o4] = y4r * w4r - y4i * w4i;
        y[o4 + 1] = y4r * w4i + y4i * w4r;
      }
    }
  }
}

/**
 * The generic odd radix r: pairs k and r − k (sums and differences), so each
 * output pair j, r − j costs (r − 1)/2 complex multiply-adds by real cos and
 * sin. cs[2t], cs[2t+1] = cos, sin of 2πt/r; scratch holds 4·r values.
 */
function radixOdd(x: Float64Array, y: Float64Array, s: number, m: number, r: number, tw: Float64Array, cs: Float64Array, scratch: Float64Array): void {
  const di = 2 * s * m,
    s2 = 2 * s,
    half = (r - 1) / 2;
  for (let p = 0; p < m; p++) {
    const tb = 2 * (r - 1) * p;
    let i = 2 * s * p,
      o = 2 * r * s * p;
    const end = i + s2;
    for (; i < end; i += 2, o += 2) {
      const a0r = x[i]!,
        a0i = x[i + 1]!;
      let y0r = a0r,
        y0i = a0i;
      // scratch[4k..4k+3] = sum (re, im), difference (re, im) of inputs k and r − k
      for (let k = 1; k <= half; k++) {
        const ia = i + k * di,
          ib = i + (r - k) * di;
        const ar = x[ia]!,
          ai = x[ia + 1]!,
          br = x[ib]!,
          bi = x[ib + 1]!;
        scratch[4 * k] = ar + br;
        scratch[4 * k + 1] = ai + bi;
        scratch[4 * k + 2] = ar - br;
        scratch[4 * k + 3] = ai - bi;
        y0r += ar + br;
        y0i += ai + bi;
      }
      y[o] = y0r;
      y[o + 1] = y0i;
      for (let j = 1; j <= half; j++) {
        let er = a0r,
          ei = a0i,
          fr = 0,
          fi = 0,
          t = 0;
        for (let k = 1; k <= half; k++) {
          t += j;
          if (t >= r) t -= r; // t = jk mod r
          const c = cs[2 * t]!,
            sn = cs[2 * t + 1]!;
          er += c * scratch[4 * k]!;
          ei += c * scratch[4 * k + 1]!;
          fr += sn * scratch[4 * k + 2]!;
          fi += sn * scratch[4 * k + 3]!;
        }
        // y_j = e − i·f, y_{r−j} = e + i·f, then the twiddles w^{jp}, w^{(r−j)p}
        const yjr = er + fi,
          yji = ei - fr,
          ykr = er - fi,
          yki = ei + fr;
        const tj = tb + 2 * (j - 1),
          tk = tb + 2 * (r - j - 1);
        const oj = o + j * s2,
          ok = o + (r - j) * s2;
        if (p === 0) {
          y[oj] = yjr;
          y[oj + 1] = yji;
          y[ok] = ykr;
          y[ok + 1] = yki;
        } else {
          y[oj] = yjr * tw[tj]! - yji * tw[tj + 1]!;
          y[oj + 1] = yjr * tw[tj + 1]! + yji * tw[tj]!;
          y[ok] = ykr * tw[tk]! - yki * tw[tk + 1]!;
          y[ok + 1] = ykr * tw[tk + 1]! + yki * tw[tk]!;
        }
      }
    }
  }
}
