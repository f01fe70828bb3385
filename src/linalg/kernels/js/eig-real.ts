// Real-input post-processing of the complex eig path. The complex QR algorithm
// treats a real matrix like any other, so its conjugate eigenvalue pairs agree
// only to rounding and its real eigenvalues carry noise-level imaginary parts.
// dgeev's output has exact structure: real eigenvalues with real vectors, and
// each complex pair adjacent, positive imaginary part first, with conjugate
// eigenvectors. Since (conj λ, conj v) is an exact eigenpair of a real matrix
// whenever (λ, v) is one, we rebuild that structure from the computed pairs.

import type { CMat } from './io.js';

/**
 * Reorders/symmetrizes (wr, wi, v) of a real n x n matrix in place. `anorm`
 * is its Frobenius norm: imaginary parts below 8 n eps anorm are noise.
 */
export function realEigenStructure(wr: Float64Array, wi: Float64Array, v: CMat | null, n: number, anorm: number): void {
  const noise = 8 * n * 2 ** -52 * anorm;
  const order: number[] = [];
  const conj: boolean[] = [];
  const used = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (used[i]) continue;
    used[i] = 1;
    if (Math.abs(wi[i]!) <= noise) {
      order.push(i);
      conj.push(false);
      wi[i] = 0;
      if (v) for (let r = 0; r < n; r++) v.im[r * n + i] = 0;
      continue;
    }
    // Partner: the nearest unused eigenvalue to conj(λ_i), accepted only when
    // clearly closer to it than λ_i is to the real axis (no ambiguous pairing).
    let best = -1,
      bd = Infinity;
    for (let j = i + 1; j < n; j++) {
      if (used[j]) continue;
      const d = Math.hypot(wr[j]! - wr[i]!, wi[j]! + wi[i]!);
      if (d < bd) [bd, best] = [d, j];
    }
    if (best < 0 || !(bd < 0.5 * Math.abs(wi[i]!))) {
      order.push(i);
      conj.push(false);
      continue;
    }
    used[best] = 1;
    const pos = wi[i]! > 0 ? i : best;
    order.push(pos, pos);
    conj.push(false, true);
  }
  const nr = Float64Array.from(order, (k) => wr[k]!);
  const ni = Float64Array.from(order, (k, j) => (conj[j] ? -wi[k]! : wi[k]!));
  wr.set(nr);
  wi.set(ni);
  if (!v) return;
  const re = new Float64Array(v.re),
    im = new Float64Array(v.im);
  for (let j = 0; j < n; j++) {
    const k = order[j]!,
      sg = conj[j] ? -1 : 1;
    for (let r = 0; r < n; r++) {
      v.re[r * n + j] = re[r * n + k]!;
      v.im[r * n + j] = sg * im[r * n + k]!;
    }
  }
}
