// Dense-vector triangular solves with CSC factors, in place on x. Shared by the
// LU and the Cholesky so both store their factors alike:
//   L: lower triangular, CSC, the diagonal entry FIRST in each column
//      (LU: unit diagonal stored as 1; Cholesky: the positive real pivot);
//   U: upper triangular, CSC, the diagonal entry LAST in each column.
// Column-oriented solves (L x = b, U x = b) are "axpy" sweeps; the transposed
// ones (Lᵀ, Lᴴ, Uᵀ, Uᴴ) are dot products over the same columns, so no transposed
// copy of a factor is ever built. Complex vectors are interleaved (re, im);
// `conj` selects the conjugate transpose.

export interface TriFactor {
  colptr: Int32Array;
  rowind: Int32Array;
  values: Float64Array;
}

/** x ← L⁻¹ x */
export function lsolve(n: number, L: TriFactor, x: Float64Array): void {
  const { colptr: Lp, rowind: Li, values: Lx } = L;
  for (let j = 0; j < n; j++) {
    const xj = (x[j] /= Lx[Lp[j]]);
    if (xj === 0) continue;
    for (let p = Lp[j] + 1; p < Lp[j + 1]; p++) x[Li[p]] -= Lx[p] * xj;
  }
}

/** x ← L⁻ᵀ x */
export function ltsolve(n: number, L: TriFactor, x: Float64Array): void {
  const { colptr: Lp, rowind: Li, values: Lx } = L;
  for (let j = n - 1; j >= 0; j--) {
    let s = x[j];
    for (let p = Lp[j] + 1; p < Lp[j + 1]; p++) s -= Lx[p] * x[Li[p]];
    x[j] = s / Lx[Lp[j]];
  }
}

/** x ← U⁻¹ x */
export function usolve(n: number, U: TriFactor, x: Float64Array): void {
  const { colptr: Up, rowind: Ui, values: Ux } = U;
  for (let j = n - 1; j >= 0; j--) {
    const xj = (x[j] /= Ux[Up[j + 1] - 1]);
    if (xj === 0) continue;
    for (let p = Up[j]; p < Up[j + 1] - 1; p++) x[Ui[p]] -= Ux[p] * xj;
  }
}

/** x ← U⁻ᵀ x */
export function utsolve(n: number, U: TriFactor, x: Float64Array): void {
  const { colptr: Up, rowind: Ui, values: Ux } = U;
  for (let j = 0; j < n; j++) {
    let s = x[j];
    for (let p = Up[j]; p < Up[j + 1] - 1; p++) s -= Ux[p] * x[Ui[p]];
    x[j] = s / Ux[Up[j + 1] - 1];
  }
}

/** (re, im) ← (re, im) / (dr, di) written into x at 2j. */
function divInto(x: Float64Array, j: number, dr: number, di: number): void {
  const ar = x[2 * j],
    ai = x[2 * j + 1];
  // Smith's algorithm: avoids overflow in |d|² for large pivots.
  if (Math.abs(dr) >= Math.abs(di)) {
    const r = di / dr,
      den = dr + di * r;
    x[2 * j] = (ar + ai * r) / den;
    x[2 * j + 1] = (ai - ar * r) / den;
  } else {
    const r = dr / di,
      den = dr * r + di;
    x[2 * j] = (ar * r + ai) / den;
    x[2 * j + 1] = (ai * r - ar) / den;
  }
}

/** x ← L⁻¹ x, complex */
export function lsolveZ(n: number, L: TriFactor, x: Float64Array): void {
  const { colptr: Lp, rowind: Li, values: Lx } = L;
  for (let j = 0; j < n; j++) {
    const d = Lp[j];
    divInto(x, j, Lx[2 * d], Lx[2 * d + 1]);
    const xr = x[2 * j],
      xi = x[2 * j + 1];
    if (xr === 0 && xi === 0) continue;
    for (let p = d + 1; p < Lp[j + 1]; p++) {
      const i = 2 * Li[p],
        lr = Lx[2 * p],
        li = Lx[2 * p + 1];
      x[i] -= lr * xr - li * xi;
      x[i + 1] -= lr * xi + li * xr;
    }
  }
}

/** x ← L⁻ᵀ x (conj false) or L⁻ᴴ x (conj true), complex */
export function ltsolveZ(n: number, L: TriFactor, x: Float64Array, conj: boolean): void {
  const { colptr: Lp, rowind: Li, values: Lx } = L;
  const c = conj ? -1 : 1;
  for (let j = n - 1; j >= 0; j--) {
    let sr = x[2 * j],
      si = x[2 * j + 1];
    for (let p = Lp[j] + 1; p < Lp[j + 1]; p++) {
      const i = 2 * Li[p],
        lr = Lx[2 * p],
        li = c * Lx[2 * p + 1];
      sr -= lr * x[i] - li * x[i + 1];
      si -= lr * x[i + 1] + li * x[i];
    }
    x[2 * j] = sr;
    x[2 * j + 1] = si;
    const d = Lp[j];
    divInto(x, j, Lx[2 * d], c * Lx[2 * d + 1]);
  }
}

/** x ← U⁻¹ x, complex */
export function usolveZ(n: number, U: TriFactor, x: Float64Array): void {
  const { colptr: Up, rowind: Ui, values: Ux } = U;
  for (let j = n - 1; j >= 0; j--) {
    const d = Up[j + 1] - 1;
    divInto(x, j, Ux[2 * d], Ux[2 * d + 1]);
    const xr = x[2 * j],
      xi = x[2 * j + 1];
    if (xr === 0 && xi === 0) continue;
    for (let p = Up[j]; p < d; p++) {
      const i = 2 * Ui[p],
        ur = Ux[2 * p],
        ui = Ux[2 * p + 1];
      x[i] -= ur * xr - ui * xi;
      x[i + 1] -= ur * xi + ui * xr;
    }
  }
}

/** x ← U⁻ᵀ x (conj false) or U⁻ᴴ x (conj true), complex */
export function utsolveZ(n: number, U: TriFactor, x: Float64Array, conj: boolean): void {
  const { colptr: Up, rowind: Ui, values: Ux } = U;
  const c = conj ? -1 : 1;
  for (let j = 0; j < n; j++) {
    const d = Up[j + 1] - 1;
    let sr = x[2 * j],
      si = x[2 * j + 1];
    for (let p = Up[j]; p < d; p++) {
      const i = 2 * Ui[p],
        ur = Ux[2 * p],
        ui = c * Ux[2 * p + 1];
      sr -= ur * x[i] - ui * x[i + 1];
      si -= ur * x[i + 1] + ui * x[i];
    }
    x[2 * j] = sr;
    x[2 * j + 1] = si;
    divInto(x, j, Ux[2 * d], c * Ux[2 * d + 1]);
  }
}
