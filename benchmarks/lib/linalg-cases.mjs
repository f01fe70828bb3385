// Inputs and rlx sides of benchmarks/suites/linalg.mjs, shared with the `rlx-js`
// JS peer (benchmarks/js-peers/peer.mjs), which runs the same code on the js
// device; the plain-array inputs also feed the other JS peers. The Python
// peers (benchmarks/peers/linalg.py) build the same matrices bit for bit.
//
// Matrices (n×n, entries k/4096 with k = lcgInts(...) integers in [-2048, 2048),
// so every input below is exact in float64 on both sides):
//   general(n, dtype, scale)  A = scale · K₁/4096 (+ i · scale · K₂/4096); scale is a power
//                             of two (from the row's args) that keeps det(A) finite
//                             (a product of n entries of size ~√n·0.29 overflows at n = 1024)
//   rhs(n, dtype)             b = K₃/4096 (+ i K₄/4096), a vector [n]
//   hpd(n, dtype)             H = B Bᴴ + n·I with B = K₅/4096 (+ i K₆/4096): the Gram
//                             product of integers is exact whatever the GEMM's order,
//                             the 2⁻²⁴ scaling too, so only "+ n" rounds (identically)
//
// A case returns { fn, result }: fn() is the timed call and realizes every
// output part that the SciPy call also computes; result(last) (untimed) gives
// the array that is checksummed, a quantity that does not depend on sign or
// phase conventions: x, L, inv, det, the eigenvalues, the singular values, or
// R with each row scaled by the conjugate phase of its diagonal entry.

import { lcgInts } from './inputs.mjs';

const isC = (dtype) => dtype === 'complex128' || dtype === 'complex64';
const scaled = (k, f) => {
  const a = new Float64Array(k.length);
  for (let i = 0; i < k.length; i++) a[i] = k[i] * f;
  return a;
};

/** { re, im? } of the general matrix A (row-major n×n). */
export function general(n, dtype, scale) {
  const f = scale / 4096;
  return { re: scaled(lcgInts(n * n, 1), f), im: isC(dtype) ? scaled(lcgInts(n * n, 2), f) : undefined };
}

/** { re, im? } of the right-hand side b (length n). */
export function rhs(n, dtype) {
  return { re: scaled(lcgInts(n, 3), 1 / 4096), im: isC(dtype) ? scaled(lcgInts(n, 4), 1 / 4096) : undefined };
}

/** The integer factors of hpd(): K₅ (and K₆). */
function hpdFactors(n, dtype) {
  return { kr: lcgInts(n * n, 5), ki: isC(dtype) ? lcgInts(n * n, 6) : undefined };
}

/** Gram G = K Kᴴ of integer matrices in plain JS (exact), G_re and G_im. */
function gramJs(n, kr, ki) {
  const re = new Float64Array(n * n), im = ki ? new Float64Array(n * n) : undefined;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let sr = 0, si = 0;
      for (let t = 0; t < n; t++) {
        const ar = kr[i * n + t], br = kr[j * n + t];
        if (ki) {
          const ai = ki[i * n + t], bi = ki[j * n + t];
          sr += ar * br + ai * bi;
          si += ai * br - ar * bi;
        } else sr += ar * br;
      }
      re[i * n + j] = re[j * n + i] = sr;
      if (im) (im[i * n + j] = si), (im[j * n + i] = -si);
    }
  }
  return { re, im };
}

/** H = G · 2⁻²⁴ + n·I from the exact Gram parts. */
function finishHpd(n, g) {
  const re = scaled(g.re, 2 ** -24), im = g.im ? scaled(g.im, 2 ** -24) : undefined;
  for (let i = 0; i < n; i++) re[i * n + i] += n;
  return { re, im };
}

/** { re, im? } of the Hermitian positive-definite H; `gram` (optional) computes K Kᴴ faster. */
export function hpd(n, dtype, gram = gramJs) {
  const { kr, ki } = hpdFactors(n, dtype);
  return finishHpd(n, gram(n, kr, ki));
}

/** R with row i multiplied by conj(r_ii)/|r_ii| (unique for full-rank input); interleaved when complex. */
export function normalizeR(r, n, complex) {
  const out = Float64Array.from(r);
  for (let i = 0; i < n; i++) {
    if (!complex) {
      const sg = Math.sign(r[i * n + i]) || 1;
      for (let j = 0; j < n; j++) out[i * n + j] *= sg;
    } else {
      const dr = r[2 * (i * n + i)], di = r[2 * (i * n + i) + 1];
      const m = Math.hypot(dr, di) || 1;
      const pr = dr / m, pi = -di / m;
      for (let j = 0; j < n; j++) {
        const xr = r[2 * (i * n + j)], xi = r[2 * (i * n + j) + 1];
        out[2 * (i * n + j)] = xr * pr - xi * pi;
        out[2 * (i * n + j) + 1] = xr * pi + xi * pr;
      }
    }
  }
  return out;
}

/** Which matrix each op factors. */
export const INPUT_OF = { solve: 'general', cholesky: 'hpd', qr: 'general', eigh: 'hpd', svd: 'general', eig: 'general', inv: 'general', det: 'general', norm: 'general' };

export function rlxLinalgCase(rlx, device, op, args) {
  const { n, dtype, scale } = args;
  const mat = (p, shape) => {
    const re = rlx.tensor(p.re).reshape(shape).on(device);
    const t = p.im ? rlx.complex(re, rlx.tensor(p.im).reshape(shape).on(device)) : re;
    return t.on(device).realize();
  };
  // The Gram product on the benchmarked device (exact: integer entries).
  const gramRlx = (m, kr, ki) => {
    const K = (k) => rlx.tensor(k).reshape([m, m]).on(device).realize();
    const mm = (x, y) => x.matmul(y.swapaxes(0, 1)).realize().toArray();
    const Kr = K(kr);
    if (!ki) return { re: Float64Array.from(mm(Kr, Kr)) };
    const Ki = K(ki);
    const rr = mm(Kr, Kr), ii = mm(Ki, Ki), ir = mm(Ki, Kr), ri = mm(Kr, Ki);
    const re = new Float64Array(m * m), im = new Float64Array(m * m);
    for (let i = 0; i < m * m; i++) (re[i] = rr[i] + ii[i]), (im[i] = ir[i] - ri[i]);
    return { re, im };
  };
  const a = mat(INPUT_OF[op] === 'hpd' ? hpd(n, dtype, gramRlx) : general(n, dtype, scale), [n, n]);
  const la = rlx.linalg;
  const arr = (t) => t.toArray();
  switch (op) {
    case 'solve': {
      const b = mat(rhs(n, dtype), [n]);
      return { fn: () => la.solve(a, b).realize(), result: arr };
    }
    case 'cholesky':
      return { fn: () => la.cholesky(a).realize(), result: arr };
    case 'qr':
      return {
        fn: () => {
          const { q, r } = la.qr(a);
          q.realize();
          return r.realize();
        },
        result: (r) => normalizeR(r.toArray(), n, isC(dtype)),
      };
    case 'eigh':
      return {
        fn: () => {
          const { eigenvalues: w, eigenvectors: v } = la.eigh(a);
          v.realize();
          return w.realize();
        },
        result: arr,
      };
    case 'svd':
      return {
        fn: () => {
          const { u, s, vh } = la.svd(a);
          u.realize();
          vh.realize();
          return s.realize();
        },
        result: arr,
      };
    case 'eig':
      return {
        fn: () => {
          const { eigenvalues: w, eigenvectors: v } = la.eig(a);
          v.realize();
          return w.realize();
        },
        result: arr, // complex, interleaved; the checksum (sums) ignores the order
      };
    case 'inv':
      return { fn: () => la.inv(a).realize(), result: arr };
    case 'det':
      return { fn: () => la.det(a).realize(), result: arr };
    case 'norm':
      return { fn: () => la.norm(a).realize(), result: arr };
    default:
      throw new Error(`no rlx linalg case ${op}`);
  }
}
