// integrate.solveIvp's 'Radau' method: the implicit Runge–Kutta method Radau
// IIA of order 5, a faithful port of SciPy 1.10's Radau
// (scipy/integrate/_ivp/radau.py): the same step-size control (predict_factor,
// Gustafsson's two-step predictor), the same Jacobian refresh policy (a fresh
// Jacobian only when the Newton iteration converges slowly or fails with a
// stale one; LUs reused while the step size is kept), the same counters (nfev,
// njev, nlu counting each LU) and the same dense output, so that with the same
// Jacobian the step sequence is SciPy's up to rounding.
//
// Everything runs on flat host vectors (HostSystem, solve-ivp-implicit.ts):
// f and the Jacobian are the user's tensor functions, the factorizations go to
// getrf / sparse.splu, and the Newton iteration (solve-ivp-radau-newton.ts)
// is host arithmetic. A complex state is integrated in the complex domain
// (SciPy refuses it): see the Newton file's header for the third LU it needs.

import type { Tensor } from '../tensor/tensor.js';
import { Interpolant } from './solve-ivp-dense.js';
import { MAX_FACTOR, MIN_FACTOR, nextAfter, odeSolverStep, pyMax, pyMin, type IvpStepper } from './solve-ivp-step.js';
import { selectInitialStepHost, type HostSystem, type Jacobian } from './solve-ivp-implicit.js';
import { C, E, MU_COMPLEX, MU_REAL, NEWTON_MAXITER, P, solveCollocation, type RadauLU } from './solve-ivp-radau-newton.js';

const EPS = 2 ** -52;


/** SciPy's predict_factor (Hairer & Wanner IV.8): the step-size factor from this error norm and, when known, the previous step's. */
export function predictFactor(hAbs: number, hAbsOld: number | undefined, errorNorm: number, errorNormOld: number | undefined): number {
  const multiplier = errorNormOld === undefined || hAbsOld === undefined || errorNorm === 0 ? 1 : (hAbs / hAbsOld) * (errorNormOld / errorNorm) ** 0.25;
  return pyMin(1, multiplier) * errorNorm ** -0.25;
}

/** The cubic collocation polynomial of the last accepted step, on host vectors (SciPy's RadauDenseOutput). */
interface HostDense {
  tOld: number;
  h: number;
  yOld: Float64Array;
  /** Q's columns: y(t_old + x·h) = y_old + Q0·x + Q1·x² + Q2·x³. */
  Q: Float64Array[];
}

export class RadauStepper implements IvpStepper {
  readonly direction: number;
  status: 'running' | 'finished' | 'failed' = 'running';
  t: number;
  tOld: number | undefined;
  nlu = 0;
  private yv: Float64Array;
  private yOld: Float64Array | undefined;
  private f: Float64Array;
  private hAbs: number;
  private hAbsOld: number | undefined;
  private errorNormOld: number | undefined;
  private readonly newtonTol: number;
  private J: Jacobian | undefined;
  private lu: RadauLU | undefined;
  private currentJac = true;
  private sol: HostDense | undefined;
  private interpolant: Interpolant | undefined;
  private yTensor: Tensor | undefined;

  constructor(
    private readonly sys: HostSystem,
    t0: number,
    y0: Float64Array,
    readonly tBound: number,
    private readonly maxStep: number,
    firstStep: number | undefined,
  ) {
    this.t = t0;
    this.yv = y0;
    this.direction = tBound !== t0 ? Math.sign(tBound - t0) : 1;
    this.f = sys.fun(t0, y0);
    // The initial step assumes the order of the error estimate (3), as SciPy's does.
    this.hAbs = firstStep ?? selectInitialStepHost(sys, t0, y0, this.f, this.direction, 3);
    this.newtonTol = Math.max((10 * EPS) / sys.rtol, Math.min(0.03, sys.rtol ** 0.5));
    if (sys.n > 0) this.J = sys.jacobian(t0, y0);
  }

  get nfev(): number {
    return this.sys.nfev;
  }
  get njev(): number {
    return this.sys.njev;
  }
  get y(): Tensor {
    return (this.yTensor ??= this.sys.tensorOf(this.yv));
  }

  /** SciPy's OdeSolver.step: one accepted step; TOO_SMALL_STEP (status 'failed') when the step size collapses. */
  step(): string | undefined {
    return odeSolverStep(this, this.sys.n === 0, () => this.stepImpl(), () => {
      this.yOld = this.yv;
      this.sol = undefined;
      this.interpolant = undefined;
    });
  }

  /** The LUs of (μ/h)·I − J for the step h (two, or three for a complex state), counted in nlu. */
  private factor(J: Jacobian, h: number): RadauLU {
    const sys = this.sys;
    const mc: [number, number] = [MU_COMPLEX[0] / h, MU_COMPLEX[1] / h];
    const lu: RadauLU = { real: sys.factor(J, MU_REAL / h, -1), complex: sys.factor(J, mc, -1), conj: undefined };
    this.nlu += 2;
    if (sys.complex) {
      lu.conj = sys.factor(J, [mc[0], -mc[1]], -1);
      this.nlu++;
    }
    return lu;
  }

  /** SciPy's Radau._step_impl. */
  private stepImpl(): boolean {
    const sys = this.sys,
      t = this.t,
      y = this.yv,
      f = this.f,
      L = y.length;
    const minStep = 10 * Math.abs(nextAfter(t, this.direction) - t);
    let hAbs: number, hAbsOld: number | undefined, errorNormOld: number | undefined;
    if (this.hAbs > this.maxStep) hAbs = this.maxStep;
    else if (this.hAbs < minStep) hAbs = minStep;
    else ((hAbs = this.hAbs), (hAbsOld = this.hAbsOld), (errorNormOld = this.errorNormOld));

    let J = this.J!;
    let lu = this.lu;
    let currentJac = this.currentJac;
    let rejected = false;
    let h = 0,
      tNew = t,
      nIter = 0,
      rate: number | undefined,
      errorNorm = 0,
      safety = 0;
    let Z: Float64Array[] = [];
    let yNew = y;
    for (;;) {
      if (hAbs < minStep) return false;
      h = hAbs * this.direction;
      tNew = t + h;
      if (this.direction * (tNew - this.tBound) > 0) tNew = this.tBound;
      h = tNew - t;
      hAbs = Math.abs(h);

      const Z0 = this.predict(t, h, y);
      let scale = sys.scale(y);
      let converged = false;
      while (!converged) {
        lu ??= this.factor(J, h);
        ({ converged, nIter, Z, rate } = solveCollocation(sys, t, y, h, Z0, scale, this.newtonTol, lu));
        if (!converged) {
          if (currentJac) break;
          J = sys.jacobian(t, y);
          currentJac = true;
          lu = undefined;
        }
      }
      if (!converged) {
        hAbs *= 0.5;
        lu = undefined;
        continue;
      }

      yNew = new Float64Array(L);
      const Z2 = Z[2]!;
      for (let q = 0; q < L; q++) yNew[q] = y[q]! + Z2[q]!;
      // ZE = Zᵀ·E / h; error = LU_real⁻¹·(f + ZE).
      const ZE = new Float64Array(L);
      for (let q = 0; q < L; q++) ZE[q] = (Z[0]![q]! * E[0] + Z[1]![q]! * E[1] + Z2[q]! * E[2]) / h;
      const fZE = new Float64Array(L);
      for (let q = 0; q < L; q++) fZE[q] = f[q]! + ZE[q]!;
      let error = lu!.real.solve(fZE);
      scale = sys.scale(y, yNew);
      errorNorm = sys.norm(error, scale);
      safety = (0.9 * (2 * NEWTON_MAXITER + 1)) / (2 * NEWTON_MAXITER + nIter);
      if (rejected && errorNorm > 1) {
        const ye = new Float64Array(L);
        for (let q = 0; q < L; q++) ye[q] = y[q]! + error[q]!;
        const fe = sys.fun(t, ye);
        for (let q = 0; q < L; q++) fe[q] += ZE[q]!;
        error = lu!.real.solve(fe);
        errorNorm = sys.norm(error, scale);
      }
      if (errorNorm > 1) {
        const factor = predictFactor(hAbs, hAbsOld, errorNorm, errorNormOld);
        hAbs *= pyMax(MIN_FACTOR, safety * factor);
        lu = undefined;
        rejected = true;
      } else break;
    }

    const recomputeJac = !sys.constantJac && nIter > 2 && rate! > 1e-3;
    let factor = predictFactor(hAbs, hAbsOld, errorNorm, errorNormOld);
    factor = pyMin(MAX_FACTOR, safety * factor);
    if (!recomputeJac && factor < 1.2) factor = 1;
    else lu = undefined;

    const fNew = sys.fun(tNew, yNew);
    if (recomputeJac) {
      J = sys.jacobian(tNew, yNew);
      currentJac = true;
    } else if (!sys.constantJac) currentJac = false;

    // SciPy keeps the step size proposed before this step (self.h_abs), not the one taken.
    this.hAbsOld = this.hAbs;
    this.errorNormOld = errorNorm;
    this.hAbs = hAbs * factor;
    this.yOld = y;
    this.t = tNew;
    this.yv = yNew;
    this.yTensor = undefined;
    this.f = fNew;
    this.lu = lu;
    this.currentJac = currentJac;
    this.J = J;
    this.tOld = t;
    this.sol = { tOld: t, h, yOld: y, Q: qOf(Z) };
    this.interpolant = undefined;
    return true;
  }

  /** The Newton guess Z0: zero on the first step, else the last step's polynomial at t + h·C, minus y. */
  private predict(t: number, h: number, y: Float64Array): Float64Array[] {
    const L = y.length,
      s = this.sol;
    if (s === undefined) return [0, 1, 2].map(() => new Float64Array(L));
    const [Q0, Q1, Q2] = s.Q as [Float64Array, Float64Array, Float64Array];
    return C.map((c) => {
      const x = (t + h * c - s.tOld) / s.h;
      const x2 = x * x,
        x3 = x2 * x;
      const z = new Float64Array(L);
      for (let q = 0; q < L; q++) z[q] = Q0[q]! * x + Q1[q]! * x2 + Q2[q]! * x3 + s.yOld[q]! - y[q]!;
      return z;
    });
  }

  /** The interpolant of the last accepted step: y_old + Q·(x, x², x³), x = (t − t_old)/h (SciPy's RadauDenseOutput). */
  denseOutput(): Interpolant {
    if (this.interpolant !== undefined) return this.interpolant;
    const tOld = this.tOld!,
      s = this.sol;
    if (s === undefined || this.t === tOld) return (this.interpolant = Interpolant.constant(tOld, this.t, this.y));
    const sys = this.sys;
    const rows = s.Q.map((q) => sys.tensorOf(q));
    return (this.interpolant = Interpolant.weighted(tOld, this.t, sys.tensorOf(s.yOld), rows, (x) => {
      const x2 = x * x;
      return [x, x2, x2 * x];
    }));
  }
}

/** Q = Zᵀ·P as its three columns (each a vector like y). */
function qOf(Z: readonly Float64Array[]): Float64Array[] {
  const L = Z[0]!.length;
  return [0, 1, 2].map((j) => {
    const q = new Float64Array(L);
    for (let k = 0; k < L; k++) q[k] = Z[0]![k]! * P[0][j]! + Z[1]![k]! * P[1][j]! + Z[2]![k]! * P[2][j]!;
    return q;
  });
}
