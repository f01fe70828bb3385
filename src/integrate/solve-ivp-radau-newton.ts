// The Radau IIA (order 5) collocation system of integrate.solveIvp's 'Radau'
// method: SciPy 1.10's constants and solve_collocation_system
// (scipy/integrate/_ivp/radau.py), on flat host vectors.
//
// The three stages Z (y at t + h·C_i minus y) are found by a simplified Newton
// iteration in the coordinates W = T⁻¹·Z that diagonalize the Runge–Kutta
// matrix A: one real eigenvalue (system (μ_r/h)·I − J) and a complex pair
// (system (μ_c/h)·I − J, complex). For a real state the pair's two real
// components W1, W2 travel as one complex vector W1 + i·W2, as in SciPy.
//
// A complex state (which SciPy's Radau refuses) makes J, and so W1 and W2,
// complex: W1 + i·W2 no longer carries both. The pair's 2×2 block [[a, −b],
// [b, a]] (μ_c = a + ib) is diagonalized instead: U = W1 + i·W2 solves
// ((μ_c/h)·I − J)·ΔU = r1 + i·r2 and V = W1 − i·W2 solves ((μ̄_c/h)·I − J)·ΔV =
// r1 − i·r2, then ΔW1 = (ΔU + ΔV)/2, ΔW2 = (ΔU − ΔV)/(2i). For a real J, ΔV is
// conj(ΔU) and this is SciPy's iteration; it costs a third LU per refresh.

import type { Factored, HostSystem } from './solve-ivp-implicit.js';

const S6 = 6 ** 0.5;
/** The nodes of Radau IIA: c = ((4 − √6)/10, (4 + √6)/10, 1). */
export const C = [(4 - S6) / 10, (4 + S6) / 10, 1] as const;
/** The embedded error formula's weights. */
export const E = [(-13 - 7 * S6) / 3, (-13 + 7 * S6) / 3, -1 / 3] as const;
/** The eigenvalues of A⁻¹: one real, a complex pair (MU_COMPLEX and its conjugate). */
export const MU_REAL = 3 + 3 ** (2 / 3) - 3 ** (1 / 3);
export const MU_COMPLEX: readonly [number, number] = [3 + 0.5 * (3 ** (1 / 3) - 3 ** (2 / 3)), -0.5 * (3 ** (5 / 6) + 3 ** (7 / 6))];
/** A = T·Λ·T⁻¹ (SciPy's transformation matrices, to its digits). */
export const T = [
  [0.09443876248897524, -0.14125529502095421, 0.03002919410514742],
  [0.25021312296533332, 0.20412935229379994, -0.38294211275726192],
  [1, 1, 0],
] as const;
export const TI = [
  [4.17871859155190428, 0.32768282076106237, 0.52337644549944951],
  [-4.17871859155190428, -0.32768282076106237, 0.47662355450055044],
  [0.50287263494578682, -2.57192694985560522, 0.59603920482822492],
] as const;
/** The dense output's coefficients: Q = Zᵀ·P, y(t_old + x·h) = y_old + Q·(x, x², x³). */
export const P = [
  [13 / 3 + (7 * S6) / 3, -23 / 3 - (22 * S6) / 3, 10 / 3 + 5 * S6],
  [13 / 3 - (7 * S6) / 3, -23 / 3 + (22 * S6) / 3, 10 / 3 - 5 * S6],
  [1 / 3, -8 / 3, 10 / 3],
] as const;
export const NEWTON_MAXITER = 6;

/** The LUs of one step size h: real μ, complex μ and (complex state only) conjugate μ. */
export interface RadauLU {
  real: Factored;
  complex: Factored;
  conj: Factored | undefined;
}

export interface Collocation {
  converged: boolean;
  nIter: number;
  Z: Float64Array[];
  /** The contraction rate of the last two iterations (undefined after fewer than two). */
  rate: number | undefined;
}

/** Σ_j m[i][j]·v_j for the rows i of a 3×3 real matrix (elementwise: works on interleaved complex vectors too). */
export function mix3(m: readonly (readonly number[])[], v: readonly Float64Array[]): Float64Array[] {
  const L = v[0]!.length;
  return m.map((row) => {
    const out = new Float64Array(L);
    for (let k = 0; k < L; k++) out[k] = row[0]! * v[0]![k]! + row[1]! * v[1]![k]! + row[2]! * v[2]![k]!;
    return out;
  });
}

/** SciPy's norm(dW / scale) of the 3 stacked vectors: the RMS of |dW_ik| / scale_k over all 3n entries. */
function norm3(dW: readonly Float64Array[], scale: Float64Array, complex: boolean): number {
  const n = scale.length;
  let s = 0;
  for (const d of dW) {
    if (complex)
      for (let k = 0; k < n; k++) {
        const re = d[2 * k]! / scale[k]!,
          im = d[2 * k + 1]! / scale[k]!;
        s += re * re + im * im;
      }
    else
      for (let k = 0; k < n; k++) {
        const v = d[k]! / scale[k]!;
        s += v * v;
      }
  }
  return Math.sqrt(s) / Math.sqrt(3 * n);
}

/**
 * SciPy's solve_collocation_system: the simplified Newton iteration from the
 * guess Z0 (3 vectors) with the LUs of step h, to the tolerance `tol` on the
 * scaled norm of the update. Stops unconverged when f is not finite, when the
 * iteration diverges (rate ≥ 1) or when it cannot converge in the iterations left.
 */
export function solveCollocation(sys: HostSystem, t: number, y: Float64Array, h: number, Z0: Float64Array[], scale: Float64Array, tol: number, lu: RadauLU): Collocation {
  const cplx = sys.complex,
    n = sys.n,
    L = y.length;
  const mr = MU_REAL / h,
    ma = MU_COMPLEX[0] / h,
    mb = MU_COMPLEX[1] / h;
  const W = mix3(TI, Z0);
  let Z = Z0;
  const F: Float64Array[] = [];
  const ch = C.map((c) => h * c);
  let dWNormOld: number | undefined;
  let rate: number | undefined;
  let converged = false;
  let k = 0;
  const yz = new Float64Array(L);
  for (; k < NEWTON_MAXITER; k++) {
    for (let i = 0; i < 3; i++) {
      const z = Z[i]!;
      for (let q = 0; q < L; q++) yz[q] = y[q]! + z[q]!;
      F[i] = sys.fun(t + ch[i]!, yz);
    }
    if (!F.every((v) => v.every(Number.isFinite))) break;
    const [F0, F1, F2] = F as [Float64Array, Float64Array, Float64Array];
    const [W0, W1, W2] = W as [Float64Array, Float64Array, Float64Array];
    const fReal = new Float64Array(L);
    for (let q = 0; q < L; q++) fReal[q] = F0[q]! * TI[0][0] + F1[q]! * TI[0][1] + F2[q]! * TI[0][2] - mr * W0[q]!;
    const dW0 = lu.real.solve(fReal);
    const dW1 = new Float64Array(L),
      dW2 = new Float64Array(L);
    if (!cplx) {
      // (M_c·I − J)·(dW1 + i·dW2) = Fᵀ·(TI1 + i·TI2) − M_c·(W1 + i·W2), interleaved.
      const fc = new Float64Array(2 * n);
      for (let q = 0; q < n; q++) {
        const fr = F0[q]! * TI[1][0] + F1[q]! * TI[1][1] + F2[q]! * TI[1][2];
        const fi = F0[q]! * TI[2][0] + F1[q]! * TI[2][1] + F2[q]! * TI[2][2];
        fc[2 * q] = fr - (ma * W1[q]! - mb * W2[q]!);
        fc[2 * q + 1] = fi - (ma * W2[q]! + mb * W1[q]!);
      }
      const d = lu.complex.solve(fc);
      for (let q = 0; q < n; q++) ((dW1[q] = d[2 * q]!), (dW2[q] = d[2 * q + 1]!));
    } else {
      // U = W1 + i·W2 with μ_c, V = W1 − i·W2 with conj(μ_c) (see the header).
      const fU = new Float64Array(L),
        fV = new Float64Array(L);
      for (let q = 0; q < n; q++) {
        const re = 2 * q,
          im = re + 1;
        // r1 = Fᵀ·TI1 − (a·W1 − b·W2), r2 = Fᵀ·TI2 − (b·W1 + a·W2): complex vectors.
        const r1re = F0[re]! * TI[1][0] + F1[re]! * TI[1][1] + F2[re]! * TI[1][2] - (ma * W1[re]! - mb * W2[re]!);
        const r1im = F0[im]! * TI[1][0] + F1[im]! * TI[1][1] + F2[im]! * TI[1][2] - (ma * W1[im]! - mb * W2[im]!);
        const r2re = F0[re]! * TI[2][0] + F1[re]! * TI[2][1] + F2[re]! * TI[2][2] - (mb * W1[re]! + ma * W2[re]!);
        const r2im = F0[im]! * TI[2][0] + F1[im]! * TI[2][1] + F2[im]! * TI[2][2] - (mb * W1[im]! + ma * W2[im]!);
        // r1 ± i·r2
        fU[re] = r1re - r2im;
        fU[im] = r1im + r2re;
        fV[re] = r1re + r2im;
        fV[im] = r1im - r2re;
      }
      const dU = lu.complex.solve(fU),
        dV = lu.conj!.solve(fV);
      for (let q = 0; q < n; q++) {
        const re = 2 * q,
          im = re + 1;
        dW1[re] = (dU[re]! + dV[re]!) / 2;
        dW1[im] = (dU[im]! + dV[im]!) / 2;
        // (dU − dV)/(2i) = −i·(dU − dV)/2
        dW2[re] = (dU[im]! - dV[im]!) / 2;
        dW2[im] = -(dU[re]! - dV[re]!) / 2;
      }
    }
    const dW = [dW0, dW1, dW2];
    const dWNorm = norm3(dW, scale, cplx);
    if (dWNormOld !== undefined) rate = dWNorm / dWNormOld;
    // Python's comparisons: a NaN rate or norm compares false, as here.
    if (rate !== undefined && (rate >= 1 || (rate ** (NEWTON_MAXITER - k) / (1 - rate)) * dWNorm > tol)) break;
    for (let i = 0; i < 3; i++) {
      const w = W[i]!,
        d = dW[i]!;
      for (let q = 0; q < L; q++) w[q] += d[q]!;
    }
    Z = mix3(T, W);
    if (dWNorm === 0 || (rate !== undefined && (rate / (1 - rate)) * dWNorm < tol)) {
      converged = true;
      break;
    }
    dWNormOld = dWNorm;
  }
  return { converged, nIter: Math.min(k, NEWTON_MAXITER - 1) + 1, Z, rate };
}
