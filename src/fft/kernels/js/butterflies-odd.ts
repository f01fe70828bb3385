// The odd-radix butterfly passes of the mixed-radix FFT (mixed-radix.ts says
// what a pass computes): radix 3 and 5 with their constants written out, and
// the generic odd prime radix. Forward sign, float64 interleaved; the
// twiddles of p = 0 are 1 and are not multiplied.

const S3 = Math.sqrt(3) / 2; // sin 2π/3

export function radix3(x: Float64Array, y: Float64Array, s: number, m: number, tw: Float64Array): void {
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

export function radix5(x: Float64Array, y: Float64Array, s: number, m: number, tw: Float64Array): void {
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
export function radixOdd(x: Float64Array, y: Float64Array, s: number, m: number, r: number, tw: Float64Array, cs: Float64Array, scratch: Float64Array): void {
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
