// Step-size control of integrate.solveIvp's explicit Runge–Kutta methods: one
// accepted step at a time, exactly as SciPy 1.10's RungeKutta._step_impl
// (scipy/integrate/_ivp/rk.py) and select_initial_step (common.py), so that
// step sequences, nfev and failures agree with SciPy's.
//
// The loop is host-driven: whether a step is accepted depends on its error
// norm, so each attempt computes the new state, the stages (for FSAL and the
// dense output) and the error sums together and reads the sums back (one host
// sync per attempt). The attempt is jit-compiled as a function of (t, h, y,
// f(t, y)): one cached executable call per attempt (measured: 135 µs per RK45
// attempt for a 3-dim problem, against ~1 ms for the same graph captured
// eagerly each time); an f that cannot be traced runs eagerly. The stages are
// outputs only when an interpolant will be built (dense output, tEval,
// events); otherwise the attempt hands out y_new, the sums and the FSAL stage
// alone: the other stages' buffers are reused within the executable (RK45 on
// a 1000-dim linear f, fastest of 600 attempts on a loaded 2-core VM:
// 512-561 µs → 453-458 µs, six 1000x1000 gemv calls alone 401-471 µs).

import type { Tensor } from '../tensor/tensor.js';
import { fromStorage } from '../tensor/create.js';
import { jit, type Jitted } from '../compiler/transforms/jit.js';
import { stack } from '../tensor/ops/movement.js';
import { realize } from '../compiler/realize.js';
import type { SparseRow, Tableau } from './solve-ivp-tableaus.js';
import { Interpolant } from './solve-ivp-dense.js';

/** SciPy's step-size factors (rk.py). */
export const SAFETY = 0.9;
export const MIN_FACTOR = 0.2;
export const MAX_FACTOR = 10;
/** SciPy's message when the step size falls below 10 ulps of t (OdeSolver.TOO_SMALL_STEP). */
export const TOO_SMALL_STEP = 'Required step size is less than spacing between numbers.';

/** The right-hand side at time t (a host number, or a scalar tensor inside the jitted step), its result checked. */
export interface Rhs {
  (t: number | Tensor, y: Tensor): Tensor;
}

/** Σ_j c_j k_j over the row's nonzero coefficients, in column order (undefined for an empty row). */
export function lincomb(ks: readonly Tensor[], row: SparseRow): Tensor | undefined {
  let acc: Tensor | undefined;
  for (const [j, c] of row) {
    const term = ks[j]!.mul(c);
    acc = acc === undefined ? term : acc.add(term);
  }
  return acc;
}

/** Python's max(a, b): b only when b > a, so a NaN b gives a (SciPy's max(MIN_FACTOR, NaN) is MIN_FACTOR). */
export const pyMax = (a: number, b: number): number => (b > a ? b : a);
/** Python's min(a, b): b only when b < a. */
export const pyMin = (a: number, b: number): number => (b < a ? b : a);

const f64 = new Float64Array(1);
const i64 = new BigInt64Array(f64.buffer);
/** numpy.nextafter(x, ±inf): the neighbouring double of a finite x in direction dir. */
export function nextAfter(x: number, dir: number): number {
  if (x === 0) return dir > 0 ? Number.MIN_VALUE : -Number.MIN_VALUE;
  f64[0] = x;
  i64[0]! += (x > 0) === dir > 0 ? 1n : -1n;
  return f64[0]!;
}

/** A float64 scalar tensor on the default device (tensor(x) without its data conversion: one per attempt for t and for h). */
const scalar = (x: number): Tensor => fromStorage(Float64Array.of(x), [], 'float64');

/** Σ|x|² of a tensor (real or complex) as a scalar float64 tensor. */
const sumSquares = (x: Tensor): Tensor => x.abs().square().sum();

/** The tolerances as the controller uses them: scale = atol + max(|y|, |y_new|)·rtol. */
export interface Tolerances {
  rtol: number;
  /** A number or a real tensor of y's shape. */
  atol: number | Tensor;
}

const tolScale = (tol: Tolerances, mag: Tensor): Tensor => mag.mul(tol.rtol).add(tol.atol);

/**
 * SciPy's select_initial_step: h from the norms of y0, f0 and a difference
 * quotient of f (one extra evaluation of f). `order` is the error estimator's.
 */
export function selectInitialStep(rhs: Rhs, t0: number, y0: Tensor, f0: Tensor, direction: number, order: number, tol: Tolerances): number {
  const n = y0.size;
  if (n === 0) return Infinity;
  const scale = tolScale(tol, y0.abs());
  const sums = stack([sumSquares(y0.div(scale)), sumSquares(f0.div(scale))]).toArray() as Float64Array;
  const d0 = Math.sqrt(sums[0]!) / Math.sqrt(n),
    d1 = Math.sqrt(sums[1]!) / Math.sqrt(n);
  const h0 = d0 < 1e-5 || d1 < 1e-5 ? 1e-6 : (0.01 * d0) / d1;
  const y1 = y0.add(f0.mul(h0 * direction));
  const f1 = rhs(t0 + h0 * direction, y1);
  const d2 = Math.sqrt((sumSquares(f1.sub(f0).div(scale)).toArray() as Float64Array)[0]!) / Math.sqrt(n) / h0;
  const h1 = d1 <= 1e-15 && d2 <= 1e-15 ? pyMax(1e-6, h0 * 1e-3) : (0.01 / pyMax(d1, d2)) ** (1 / (order + 1));
  return pyMin(100 * h0, h1);
}

/** One integration as the driver (solve-ivp.ts) steps it: SciPy's OdeSolver interface. */
export interface IvpStepper {
  readonly direction: number;
  status: 'running' | 'finished' | 'failed';
  /** The current time and state (y0's shape, float64 or complex128). */
  t: number;
  readonly y: Tensor;
  /** The time before the last step (undefined before the first). */
  tOld: number | undefined;
  /** SciPy's counters: evaluations of f and of the Jacobian, LU factorizations. */
  readonly nfev: number;
  readonly njev: number;
  readonly nlu: number;
  /** One accepted step; returns SciPy's message when the integration failed (status 'failed'). */
  step(): string | undefined;
  /** The interpolant of the last accepted step. */
  denseOutput(): Interpolant;
}

/** What SciPy's OdeSolver.step reads and writes of a solver. */
interface SteppedSolver {
  t: number;
  tOld: number | undefined;
  readonly tBound: number;
  readonly direction: number;
  status: 'running' | 'finished' | 'failed';
}

/**
 * SciPy's OdeSolver.step around a method's _step_impl, shared by every
 * method: an empty state or a zero-length interval finishes at once
 * (`onTrivial` resets what the method keeps of the last step), a step size
 * that collapsed gives TOO_SMALL_STEP (status 'failed').
 */
export function odeSolverStep(s: SteppedSolver, empty: boolean, stepImpl: () => boolean, onTrivial: () => void): string | undefined {
  if (empty || s.t === s.tBound) {
    s.tOld = s.t;
    s.t = s.tBound;
    onTrivial();
    s.status = 'finished';
    return undefined;
  }
  const t = s.t;
  if (!stepImpl()) {
    s.status = 'failed';
    return TOO_SMALL_STEP;
  }
  s.tOld = t;
  if (s.direction * (s.t - s.tBound) >= 0) s.status = 'finished';
  return undefined;
}

/** The state of one integration: SciPy's RungeKutta solver object. */
export class RkStepper implements IvpStepper {
  t: number;
  y: Tensor;
  /** f(t, y) of the current state (the FSAL stage). */
  f: Tensor;
  hAbs: number;
  readonly direction: number;
  status: 'running' | 'finished' | 'failed' = 'running';
  tOld: number | undefined;
  yOld: Tensor | undefined;
  /** The stages of the last accepted step, nStages + 1 of them (the last is f at its end); only the last without keepStages. */
  K: Tensor[] = [];
  hPrevious = 0;
  /** Evaluations of f so far (SciPy's nfev): counted here, since the jitted step calls f only when traced. */
  nfev = 0;
  /** The explicit methods use no Jacobian and factor nothing. */
  readonly njev = 0;
  readonly nlu = 0;
  private readonly n: number;
  /** One attempt as a jitted function of (t, h, y, f(t, y)); null once it failed to trace (then every attempt runs eagerly). */
  private jitted: Jitted | null;
  private readonly exponent: number;

  constructor(
    readonly tab: Tableau,
    readonly rhs: Rhs,
    t0: number,
    y0: Tensor,
    readonly tBound: number,
    readonly tol: Tolerances,
    readonly maxStep: number,
    firstStep: number | undefined,
    /**
     * Keep every stage of the last step (default true): denseOutput needs them. Without, the attempt
     * returns only the last stage (f at the new state, the FSAL stage) and the others stay
     * intermediates of the step's executable (their buffers reused within it, none handed out).
     */
    readonly keepStages = true,
  ) {
    this.t = t0;
    this.y = y0;
    this.n = y0.size;
    this.direction = tBound !== t0 ? Math.sign(tBound - t0) : 1;
    this.f = rhs(t0, y0).realize();
    this.nfev = 1;
    if (firstStep === undefined && this.n > 0) this.nfev++; // select_initial_step evaluates f once
    this.hAbs = firstStep ?? selectInitialStep(rhs, t0, y0, this.f, this.direction, tab.errorOrder, tol);
    this.exponent = -1 / (tab.errorOrder + 1);
    this.jitted = jit((t: Tensor, h: Tensor, y: Tensor, f0: Tensor) => {
      const { yNew, K, sums } = this.stages(t, h, y, f0);
      return keepStages ? [yNew, sums, ...K] : [yNew, sums, K[K.length - 1]!];
    });
  }

  /**
   * SciPy's OdeSolver.step: one accepted step (or none, for an empty state or
   * a zero-length interval). Returns TOO_SMALL_STEP when the step size falls
   * below 10 ulps of t (status 'failed').
   */
  step(): string | undefined {
    return odeSolverStep(this, this.n === 0, () => this.stepImpl(), () => (this.yOld = this.y));
  }

  private stepImpl(): boolean {
    const { t, y, tab } = this;
    const minStep = 10 * Math.abs(nextAfter(t, this.direction) - t);
    let hAbs = this.hAbs > this.maxStep ? this.maxStep : this.hAbs < minStep ? minStep : this.hAbs;
    let rejected = false;
    for (;;) {
      if (hAbs < minStep) return false;
      let h = hAbs * this.direction;
      let tNew = t + h;
      if (this.direction * (tNew - this.tBound) > 0) tNew = this.tBound;
      h = tNew - t;
      hAbs = Math.abs(h);
      const { yNew, K, errorNorm } = this.attempt(h);
      if (errorNorm < 1) {
        let factor = errorNorm === 0 ? MAX_FACTOR : pyMin(MAX_FACTOR, SAFETY * errorNorm ** this.exponent);
        if (rejected) factor = pyMin(1, factor);
        hAbs *= factor;
        this.hPrevious = h;
        this.yOld = y;
        this.t = tNew;
        this.y = yNew;
        this.hAbs = hAbs;
        this.f = K[K.length - 1]!;
        this.K = K;
        return true;
      }
      hAbs *= pyMax(MIN_FACTOR, SAFETY * errorNorm ** this.exponent);
      rejected = true;
    }
  }

  /**
   * The graph of one Runge–Kutta step of size h from (t, y) (rk_step and the
   * error sums of _estimate_error_norm); t and h are numbers (eager) or scalar
   * tensors (traced by jit): the same operations in the same order either way.
   */
  private stages(t: number | Tensor, h: number | Tensor, y: Tensor, f0: Tensor): { yNew: Tensor; K: Tensor[]; sums: Tensor } {
    const { tab, rhs } = this;
    const at = (c: number): number | Tensor => (typeof t === 'number' ? t + c * (h as number) : t.add((h as Tensor).mul(c)));
    const K: Tensor[] = [f0];
    for (let s = 1; s < tab.nStages; s++) K.push(rhs(at(tab.C[s]!), y.add(lincomb(K, tab.A[s]!)!.mul(h))));
    const yNew = y.add(lincomb(K, tab.B)!.mul(h));
    K.push(rhs(typeof t === 'number' ? t + (h as number) : t.add(h), yNew));
    const scale = tolScale(this.tol, y.abs().maximum(yNew.abs()));
    // DOP853 (E3 present): |h|·‖e5‖² / sqrt((‖e5‖² + 0.01‖e3‖²)·n) of the 5th- and
    // 3rd-order estimates (from the two sums); the others: the RMS of h·Σ E_j k_j / scale.
    const sums = tab.E3 === undefined ? sumSquares(lincomb(K, tab.E)!.mul(h).div(scale)).reshape([1]) : stack([sumSquares(lincomb(K, tab.E)!.div(scale)), sumSquares(lincomb(K, tab.E3)!.div(scale))]);
    return { yNew, K, sums };
  }

  /**
   * One attempt: the new state, the stages and the error norm. Runs the jitted
   * step (one cached executable call); an f that cannot be traced (it reads
   * values, say) makes every attempt run eagerly instead, which also re-raises
   * any error of f's.
   */
  private attempt(h: number): { yNew: Tensor; K: Tensor[]; errorNorm: number } {
    const { t, y, tab } = this;
    this.nfev += tab.nStages;
    let yNew: Tensor | undefined, K: Tensor[] | undefined, sums: Tensor | undefined;
    if (this.jitted !== null) {
      try {
        const out = this.jitted(scalar(t), scalar(h), y, this.f) as Tensor[];
        [yNew, sums] = out as [Tensor, Tensor];
        K = out.slice(2);
      } catch {
        this.jitted = null;
      }
    }
    if (yNew === undefined || K === undefined || sums === undefined) {
      ({ yNew, K, sums } = this.stages(t, h, y, this.f));
      if (!this.keepStages) K = [K[K.length - 1]!];
      realize([yNew.node, sums.node, ...K.map((k) => k.node)]);
    }
    const s = sums.toArray() as Float64Array;
    let errorNorm: number;
    if (tab.E3 === undefined) errorNorm = Math.sqrt(s[0]!) / Math.sqrt(this.n);
    else if (s[0] === 0 && s[1] === 0) errorNorm = 0;
    else errorNorm = (Math.abs(h) * s[0]!) / Math.sqrt((s[0]! + 0.01 * s[1]!) * this.n);
    return { yNew, K, errorNorm };
  }

  /** The interpolant of the last accepted step (DOP853's costs 3 evaluations of f, as in SciPy). */
  denseOutput(): Interpolant {
    const tOld = this.tOld!,
      t = this.t,
      yOld = this.yOld!;
    if (this.n === 0 || t === tOld) return Interpolant.constant(tOld, t, this.y);
    if (!this.keepStages) throw new Error('RkStepper.denseOutput: the stepper was made without keepStages'); // an internal misuse
    const tab = this.tab,
      K = this.K;
    const h = this.hPrevious;
    if (tab.P !== undefined) {
      // Q = Kᵀ P: y(t_old + x·h) = y_old + h Σ_j Q_j x^(j+1).
      const Q = tab.P[0]!.map((_, j) => lincomb(K, tab.P!.flatMap((row, i) => (row[j] === 0 ? [] : [[i, row[j]!] as const])))!);
      return Interpolant.power(tOld, t, yOld, Q);
    }
    // DOP853: three more stages, then the 7 coefficient rows F of Hairer's interpolant.
    const Kx = K.slice();
    this.nfev += tab.extraA!.length;
    tab.extraA!.forEach((row, i) => Kx.push(this.rhs(tOld + tab.extraC![i]! * h, yOld.add(lincomb(Kx, row)!.mul(h)))));
    const fOld = K[0]!;
    const dy = this.y.sub(yOld);
    const F = [dy, fOld.mul(h).sub(dy), dy.mul(2).sub(this.f.add(fOld).mul(h)), ...tab.D!.map((row) => lincomb(Kx, row)!.mul(h))];
    return Interpolant.dop853(tOld, t, yOld, F);
  }
}
