// The small dense symmetric eigenproblem inside Lanczos: Householder reduction
// to tridiagonal form (tred2) and the implicit QL algorithm with Wilkinson-type
// shifts (tql2), after EISPACK / JAMA (public domain). No external library.
//
// The thick-restart Lanczos matrix is "arrowhead + tridiagonal", not tridiagonal,
// hence the tred2 pass; for a plain tridiagonal input it is an exact no-op up to
// rounding (the Householder vectors vanish). m is small (ncv ≲ 100), O(m³) is nothing.

import { RlxError } from '../../tensor/errors.js';

/**
 * Eigen-decomposition of the symmetric tridiagonal (d, e), e[i] coupling i and i+1
 * (e has length m, last entry ignored), accumulating rotations into Z (row-major
 * m×m, starting as the basis that produced (d, e)). On return d holds the eigenvalues
 * ascending and Z's columns the eigenvectors. Implicit QL, as EISPACK tql2.
 */
export function tql2(m: number, d: Float64Array, e: Float64Array, Z: Float64Array): void {
  const EPS = 2 ** -52;
  let f = 0,
    tst1 = 0;
  e[m - 1] = 0;
  for (let l = 0; l < m; l++) {
    tst1 = Math.max(tst1, Math.abs(d[l]!) + Math.abs(e[l]!));
    let mm = l;
    while (mm < m - 1 && Math.abs(e[mm]!) > EPS * tst1) mm++;
    if (mm > l) {
      let iter = 0;
      do {
        if (++iter > 60) throw new RlxError(`tql2: the QL iteration did not converge for eigenvalue ${l} of a ${m}×${m} tridiagonal`);
        // Implicit shift from the trailing 2×2 of the unreduced block's top.
        let g = d[l]!;
        let p = (d[l + 1]! - g) / (2 * e[l]!);
        let r = Math.hypot(p, 1);
        if (p < 0) r = -r;
        d[l] = e[l]! / (p + r);
        d[l + 1] = e[l]! * (p + r);
        const dl1 = d[l + 1]!;
        let h = g - d[l]!;
        for (let i = l + 2; i < m; i++) d[i]! -= h;
        f += h;
        // QL sweep of plane rotations from the bottom of the block up.
        p = d[mm]!;
        let c = 1,
          c2 = c,
          c3 = c,
          s = 0,
          s2 = 0;
        const el1 = e[l + 1]!;
        for (let i = mm - 1; i >= l; i--) {
          c3 = c2;
          c2 = c;
          s2 = s;
          g = c * e[i]!;
          h = c * p;
          r = Math.hypot(p, e[i]!);
          e[i + 1] = s * r;
          s = e[i]! / r;
          c = p / r;
          p = c * d[i]! - s * g;
          d[i + 1] = h + s * (c * g + s * d[i]!);
          for (let k = 0; k < m; k++) {
            const zk1 = Z[k * m + i + 1]!,
              zk = Z[k * m + i]!;
            Z[k * m + i + 1] = s * zk + c * zk1;
            Z[k * m + i] = c * zk - s * zk1;
          }
        }
        p = (-s * s2 * c3 * el1 * e[l]!) / dl1;
        e[l] = s * p;
        d[l] = c * p;
      } while (Math.abs(e[l]!) > EPS * tst1);
    }
    d[l]! += f;
    e[l] = 0;
  }
  // Sort ascending (selection sort: m is small), permuting Z's columns.
  for (let i = 0; i < m - 1; i++) {
    let k = i;
    for (let j = i + 1; j < m; j++) if (d[j]! < d[k]!) k = j;
    if (k !== i) {
      const t = d[i]!;
      d[i] = d[k]!;
      d[k] = t;
      for (let r = 0; r < m; r++) {
        const z = Z[r * m + i]!;
        Z[r * m + i] = Z[r * m + k]!;
        Z[r * m + k] = z;
      }
    }
  }
}

/**
 * Householder tridiagonalization of a dense symmetric A (row-major m×m, only read):
 * returns V (orthogonal, row-major) with Vᵀ A V = tridiag(d, e), e[i] coupling i, i+1.
 * JAMA's tred2 (from EISPACK), which stores the off-diagonal shifted by one; we
 * unshift so the result feeds tql2 directly.
 */
export function tred2(m: number, A: Float64Array): { V: Float64Array; d: Float64Array; e: Float64Array } {
  const V = Float64Array.from(A);
  const d = new Float64Array(m),
    e = new Float64Array(m);
  const at = (i: number, j: number) => i * m + j;
  for (let j = 0; j < m; j++) d[j] = V[at(m - 1, j)]!;
  for (let i = m - 1; i > 0; i--) {
    let scale = 0,
      h = 0;
    for (let k = 0; k < i; k++) scale += Math.abs(d[k]!);
    if (scale === 0) {
      e[i] = d[i - 1]!;
      for (let j = 0; j < i; j++) {
        d[j] = V[at(i - 1, j)]!;
        V[at(i, j)] = 0;
        V[at(j, i)] = 0;
      }
    } else {
      for (let k = 0; k < i; k++) {
        d[k]! /= scale;
        h += d[k]! * d[k]!;
      }
      let f = d[i - 1]!;
      let g = Math.sqrt(h);
      if (f > 0) g = -g;
      e[i] = scale * g;
      h -= f * g;
      d[i - 1] = f - g;
      for (let j = 0; j < i; j++) e[j] = 0;
      for (let j = 0; j < i; j++) {
        f = d[j]!;
        V[at(j, i)] = f;
        g = e[j]! + V[at(j, j)]! * f;
        for (let k = j + 1; k <= i - 1; k++) {
          g += V[at(k, j)]! * d[k]!;
          e[k]! += V[at(k, j)]! * f;
        }
        e[j] = g;
      }
      f = 0;
      for (let j = 0; j < i; j++) {
        e[j]! /= h;
        f += e[j]! * d[j]!;
      }
      const hh = f / (h + h);
      for (let j = 0; j < i; j++) e[j]! -= hh * d[j]!;
      for (let j = 0; j < i; j++) {
        f = d[j]!;
        g = e[j]!;
        for (let k = j; k <= i - 1; k++) V[at(k, j)]! -= f * e[k]! + g * d[k]!;
        d[j] = V[at(i - 1, j)]!;
        V[at(i, j)] = 0;
      }
    }
    d[i] = h;
  }
  for (let i = 0; i < m - 1; i++) {
    V[at(m - 1, i)] = V[at(i, i)]!;
    V[at(i, i)] = 1;
    const h = d[i + 1]!;
    if (h !== 0) {
      for (let k = 0; k <= i; k++) d[k] = V[at(k, i + 1)]! / h;
      for (let j = 0; j <= i; j++) {
        let g = 0;
        for (let k = 0; k <= i; k++) g += V[at(k, i + 1)]! * V[at(k, j)]!;
        for (let k = 0; k <= i; k++) V[at(k, j)]! -= g * d[k]!;
      }
    }
    for (let k = 0; k <= i; k++) V[at(k, i + 1)] = 0;
  }
  for (let j = 0; j < m; j++) {
    d[j] = V[at(m - 1, j)]!;
    V[at(m - 1, j)] = 0;
  }
  V[at(m - 1, m - 1)] = 1;
  // JAMA: e[i] couples i−1 and i (e[0] unused); shift to e[i] coupling i and i+1.
  for (let i = 1; i < m; i++) e[i - 1] = e[i]!;
  e[m - 1] = 0;
  return { V, d, e };
}

/** Symmetric eigen-decomposition of a dense row-major m×m A: ascending w, Z's columns the vectors. */
export function symEig(m: number, A: Float64Array): { w: Float64Array; Z: Float64Array } {
  if (m === 0) return { w: new Float64Array(0), Z: new Float64Array(0) };
  const { V, d, e } = tred2(m, A);
  tql2(m, d, e, V);
  return { w: d, Z: V };
}
