// integrate.solveIvp's 'BDF' method: SciPy 1.10's scipy/integrate/_ivp/bdf.py
// ported step for step (variable order 1–5, quasi-constant step size, the
// NDF modification of Shampine & Reichelt with SciPy's kappa, the simplified
// Newton iteration with its convergence-rate test, the Jacobian refresh policy
// and the counters nfev/njev/nlu), so that given the same Jacobian the
// accepted steps agree with SciPy's up to rounding.
//
// Everything runs on host Float64Arrays (HostSystem, solve-ivp-implicit.ts):
// the only tensor work per step is the user's f (and jac) evaluations; the
// difference array D, the predictor, the Newton updates and the norms are
// O(n·order) loops here. A complex state is interleaved (re, im); every
// coefficient BDF applies to D, d and f is real, so the arithmetic below treats
// a complex vector as a real one of twice the length and only the norms (in
// HostSystem) see complex moduli.

import type { Tensor } from '../tensor/tensor.js';
import { Interpolant } from './solve-ivp-dense.js';
import { MAX_FACTOR, MIN_FACTOR, nextAfter, odeSolverStep, pyMax, pyMin, type IvpStepper } from './solve-ivp-step.js';
import { selectInitialStepHost, type Factored, type HostSystem, type Jacobian } from './solve-ivp-implicit.js';

const MAX_ORDER = 5;
const NEWTON_MAXITER = 4;
const EPS = 2 ** -52;

// The NDF coefficients (bdf.py's __init__): kappa per order, gamma_k = Σ_{j≤k} 1/j,
// alpha = (1 − kappa)·gamma, error_const = kappa·gamma + 1/(k + 1).
const KAPPA = [0, -0.185, -1 / 9, -0.0823, -0.0415, 0];
const GAMMA = [0];
for (let k = 1; k <= MAX_ORDER; k++) GAMMA.push(GAMMA[k - 1]! + 1 / k);
const ALPHA = KAPPA.map((k, i) => (1 - k) * GAMMA[i]!);
const ERROR_CONST = KAPPA.map((k, i) => k * GAMMA[i]! + 1 / (i + 1));

/** bdf.py's compute_R: the (order+1)² matrix, row-major, that re-expresses differences for a step ratio `factor`. */
function computeR(order: number, factor: number): Float64Array {
  const m = order + 1;
  const R = new Float64Array(m * m);
  R.fill(1, 0, m); // M[0] = 1; column 0 of the rows below is 0
  for (let i = 1; i < m; i++) for (let j = 1; j < m; j++) R[i * m + j] = R[(i - 1) * m + j]! * ((i - 1 - factor * j) / i);
  return R;
}

/**
 * The driver's view of one BDF integration (SciPy's BDF solver object).
 * D holds MAX_ORDER + 3 rows of length `len` (the backward differences of the
 * interpolating polynomial, scaled to the current step size).
 */
export class BdfStepper implements IvpStepper {
  readonly direction: number;
  status: 'running' | 'finished' | 'failed' = 'running';
  t: number;
  tOld: number | undefined;
  nlu = 0;
  private yv: Float64Array;
  private hAbs: number;
  private readonly newtonTol: number;
  private J: Jacobian;
  private LU: Factored | null = null;
  private order = 1;
  private nEqualSteps = 0;
  /** Host numbers per state: n, or 2n for a complex one. */
  private readonly len: number;
  private readonly D: Float64Array[];

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
    this.len = y0.length;
    this.direction = tBound !== t0 ? Math.sign(tBound - t0) : 1;
    const f = sys.fun(t0, y0);
    this.hAbs = firstStep ?? selectInitialStepHost(sys, t0, y0, f, this.direction, 1);
    this.newtonTol = Math.max((10 * EPS) / sys.rtol, Math.min(0.03, sys.rtol ** 0.5));
    // SciPy evaluates the Jacobian once up front (a function or finite differences; a constant is just taken).
    this.J = sys.jacobian(t0, y0);
    this.D = Array.from({ length: MAX_ORDER + 3 }, () => new Float64Array(this.len));
    this.D[0]!.set(y0);
    const h = this.hAbs;
    for (let i = 0; i < this.len; i++) this.D[1]![i] = f[i]! * h * this.direction;
  }

  get nfev(): number {
    return this.sys.nfev;
  }
  /** SciPy counts calls of jac (HostSystem counts none for a constant Jacobian). */
  get njev(): number {
    return this.sys.njev;
  }
  get y(): Tensor {
    return this.sys.tensorOf(this.yv);
  }

  /** SciPy's OdeSolver.step: one accepted step; TOO_SMALL_STEP (status 'failed') when the step size collapses. */
  step(): string | undefined {
    return odeSolverStep(this, this.sys.n === 0, () => this.stepImpl(), () => {});
  }

  /** BDF._step_impl. */
  private stepImpl(): boolean {
    const { sys, D, len } = this;
    const t = this.t;
    const minStep = 10 * Math.abs(nextAfter(t, this.direction) - t);
    let hAbs: number;
    if (this.hAbs > this.maxStep) {
      hAbs = this.maxStep;
      this.changeD(this.order, this.maxStep / this.hAbs);
      this.nEqualSteps = 0;
    } else if (this.hAbs < minStep) {
      hAbs = minStep;
      this.changeD(this.order, minStep / this.hAbs);
      this.nEqualSteps = 0;
    } else hAbs = this.hAbs;

    const order = this.order;
    let J = this.J;
    let LU = this.LU;
    let currentJac = sys.constantJac;
    const alpha = ALPHA[order]!;
    let tNew: number, yNew: Float64Array, d: Float64Array, scale: Float64Array, nIter: number, errorNorm: number;
    for (;;) {
      if (hAbs < minStep) return false;
      let h = hAbs * this.direction;
      tNew = t + h;
      if (this.direction * (tNew - this.tBound) > 0) {
        tNew = this.tBound;
        this.changeD(order, Math.abs(tNew - t) / hAbs);
        this.nEqualSteps = 0;
        LU = null;
      }
      h = tNew - t;
      hAbs = Math.abs(h);

      const yPredict = new Float64Array(len);
      yPredict.set(D[0]!);
      for (let k = 1; k <= order; k++) {
        const Dk = D[k]!;
        for (let i = 0; i < len; i++) yPredict[i] += Dk[i]!;
      }
      scale = sys.scale(yPredict);
      const psi = new Float64Array(len);
      for (let k = 1; k <= order; k++) {
        const Dk = D[k]!,
          g = GAMMA[k]!;
        for (let i = 0; i < len; i++) psi[i] += Dk[i]! * g;
      }
      for (let i = 0; i < len; i++) psi[i] /= alpha;

      let converged = false;
      const c = h / alpha;
      let r: NewtonResult | undefined;
      while (!converged) {
        if (LU === null) {
          this.nlu++;
          LU = sys.factor(J, 1, -c);
        }
        r = this.solveBdfSystem(tNew, yPredict, c, psi, LU, scale);
        converged = r.converged;
        if (!converged) {
          if (currentJac) break;
          J = sys.jacobian(tNew, yPredict);
          LU = null;
          currentJac = true;
        }
      }
      if (!converged) {
        hAbs *= 0.5;
        this.changeD(order, 0.5);
        this.nEqualSteps = 0;
        LU = null;
        continue;
      }
      ({ y: yNew, d, nIter } = r!);
      const safety = (0.9 * (2 * NEWTON_MAXITER + 1)) / (2 * NEWTON_MAXITER + nIter);
      scale = sys.scale(yNew);
      errorNorm = this.scaledNorm(ERROR_CONST[order]!, d, scale);
      if (errorNorm > 1) {
        const factor = pyMax(MIN_FACTOR, safety * errorNorm ** (-1 / (order + 1)));
        hAbs *= factor;
        this.changeD(order, factor);
        this.nEqualSteps = 0;
        // Newton converged: the LU is kept, as SciPy does.
        continue;
      }
      this.nEqualSteps++;
      this.t = tNew;
      this.yv = yNew;
      this.hAbs = hAbs;
      this.J = J;
      this.LU = LU;

      // D^{j+1} y_n = D^j y_n − D^j y_{n−1}, with d = D^{k+1} y_n (SciPy's update).
      const Dp2 = D[order + 2]!,
        Dp1 = D[order + 1]!;
      for (let i = 0; i < len; i++) Dp2[i] = d[i]! - Dp1[i]!;
      Dp1.set(d);
      for (let k = order; k >= 0; k--) {
        const Dk = D[k]!,
          Dk1 = D[k + 1]!;
        for (let i = 0; i < len; i++) Dk[i] += Dk1[i]!;
      }
      if (this.nEqualSteps < order + 1) return true;

      // Order selection: the error estimates of orders k−1, k, k+1 and the step each allows.
      const errorM = order > 1 ? this.scaledNorm(ERROR_CONST[order - 1]!, D[order]!, scale) : Infinity;
      const errorP = order < MAX_ORDER ? this.scaledNorm(ERROR_CONST[order + 1]!, D[order + 2]!, scale) : Infinity;
      const factors = [errorM ** (-1 / order), errorNorm ** (-1 / (order + 1)), errorP ** (-1 / (order + 2))];
      let best = 0; // np.argmax: the first maximum, a NaN counting as the maximum
      for (let k = 0; k < 3; k++) {
        if (Number.isNaN(factors[k]!)) {
          best = k;
          break;
        }
        if (factors[k]! > factors[best]!) best = k;
      }
      const newOrder = order + best - 1;
      this.order = newOrder;
      const factor = pyMin(MAX_FACTOR, safety * factors[best]!);
      this.hAbs *= factor;
      this.changeD(newOrder, factor);
      this.nEqualSteps = 0;
      this.LU = null;
      return true;
    }
  }

  /** solve_bdf_system: the simplified Newton iteration for y_new (at most NEWTON_MAXITER solves). */
  private solveBdfSystem(tNew: number, yPredict: Float64Array, c: number, psi: Float64Array, LU: Factored, scale: Float64Array): NewtonResult {
    const { sys, len } = this;
    const d = new Float64Array(len);
    const y = Float64Array.from(yPredict);
    const rhs = new Float64Array(len);
    let dyNormOld: number | undefined;
    let converged = false;
    let k = 0;
    for (; k < NEWTON_MAXITER; k++) {
      const f = sys.fun(tNew, y);
      if (!allFinite(f)) break;
      for (let i = 0; i < len; i++) rhs[i] = c * f[i]! - psi[i]! - d[i]!;
      const dy = LU.solve(rhs);
      const dyNorm = sys.norm(dy, scale);
      const rate = dyNormOld === undefined ? undefined : dyNorm / dyNormOld;
      if (rate !== undefined && (rate >= 1 || (rate ** (NEWTON_MAXITER - k) / (1 - rate)) * dyNorm > this.newtonTol)) break;
      for (let i = 0; i < len; i++) {
        y[i] += dy[i]!;
        d[i] += dy[i]!;
      }
      if (dyNorm === 0 || (rate !== undefined && (rate / (1 - rate)) * dyNorm < this.newtonTol)) {
        converged = true;
        break;
      }
      dyNormOld = dyNorm;
    }
    // Python's loop variable stays at NEWTON_MAXITER − 1 when the loop runs out.
    return { converged, nIter: Math.min(k, NEWTON_MAXITER - 1) + 1, y, d };
  }

  /** norm(a·v / scale) without forming a·v. */
  private scaledNorm(a: number, v: Float64Array, scale: Float64Array): number {
    const n = this.sys.n;
    if (n === 0) return 0;
    let s = 0;
    if (this.sys.complex)
      for (let i = 0; i < n; i++) {
        const q = Math.hypot(a * v[2 * i]!, a * v[2 * i + 1]!) / scale[i]!;
        s += q * q;
      }
    else
      for (let i = 0; i < n; i++) {
        const q = Math.abs(a * v[i]!) / scale[i]!;
        s += q * q;
      }
    return Math.sqrt(s) / Math.sqrt(n);
  }

  /** change_D: D[:order+1] ← (R·U)ᵀ D[:order+1] for a step ratio `factor` (U = R at factor 1). */
  private changeD(order: number, factor: number): void {
    const m = order + 1,
      len = this.len,
      D = this.D;
    const R = computeR(order, factor),
      U = computeR(order, 1);
    const RU = new Float64Array(m * m);
    for (let i = 0; i < m; i++)
      for (let j = 0; j < m; j++) {
        let s = 0;
        for (let k = 0; k < m; k++) s += R[i * m + k]! * U[k * m + j]!;
        RU[i * m + j] = s;
      }
    const out = Array.from({ length: m }, () => new Float64Array(len));
    for (let i = 0; i < m; i++) {
      const o = out[i]!;
      for (let j = 0; j < m; j++) {
        const w = RU[j * m + i]!,
          Dj = D[j]!;
        for (let q = 0; q < len; q++) o[q] += w * Dj[q]!;
      }
    }
    for (let i = 0; i < m; i++) D[i]!.set(out[i]!);
  }

  /**
   * BdfDenseOutput of the last step: y(τ) = D_0 + Σ_{k=1}^{order} D_k Π_{i<k} (τ − (t − i·h)) / ((i + 1)·h),
   * with h the step size SciPy holds after the step (D is scaled to it).
   */
  denseOutput(): Interpolant {
    const tOld = this.tOld!,
      t = this.t;
    if (this.sys.n === 0 || t === tOld) return Interpolant.constant(tOld, t, this.y);
    const h = this.hAbs * this.direction,
      order = this.order;
    const rows = this.D.slice(1, order + 1).map((r) => this.sys.tensorOf(Float64Array.from(r)));
    const base = this.sys.tensorOf(Float64Array.from(this.D[0]!));
    const weights = (x: number, H: number): number[] => {
      // τ − t = (x − 1)·H for τ = t_old + x·H (H = t − t_old).
      const dt = (x - 1) * H;
      const w = new Array<number>(order);
      let p = 1;
      for (let i = 0; i < order; i++) w[i] = p *= (dt + h * i) / (h * (1 + i));
      return w;
    };
    return Interpolant.weighted(tOld, t, base, rows, weights);
  }
}

interface NewtonResult {
  converged: boolean;
  nIter: number;
  y: Float64Array;
  d: Float64Array;
}

function allFinite(v: Float64Array): boolean {
  for (let i = 0; i < v.length; i++) if (!Number.isFinite(v[i]!)) return false;
  return true;
}
