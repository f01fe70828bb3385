// integrate.solveIvp: adaptive integration of y' = f(t, y) shaped like
// scipy.integrate.solve_ivp (SciPy 1.10): the same methods — explicit
// Runge–Kutta RK45, RK23, DOP853 (solve-ivp-step.ts) and the implicit, stiff
// Radau and BDF (solve-ivp-radau.ts, solve-ivp-bdf.ts on the shared
// solve-ivp-implicit.ts) — with SciPy's step-size control and error norms,
// dense output (solve-ivp-dense.ts) and events (solve-ivp-events.ts), so step
// counts and results can be compared with SciPy's. This file is the driver
// (ivp.py's solve_ivp): options, the loop over accepted steps, tEval, the
// result.
//
// y may have any shape (SciPy's is 1-D) and is real or complex; the result's
// y is [len(t), ...y0.shape] (SciPy's is its transpose [n, len(t)]).

import { Tensor } from '../tensor/tensor.js';
import { fromStorage, tensor, type TensorData } from '../tensor/create.js';
import { DTypeError, ShapeError, TransformError, ValueError } from '../tensor/errors.js';
import { DTYPE_INFO, isComplex, type DType } from '../tensor/dtype.js';
import { fmtShape, shapesEqual } from '../tensor/shape.js';
import { checkFiniteState, stateArg } from './march.js';
import { TABLEAUS, type Tableau } from './solve-ivp-tableaus.js';
import { RkStepper, type IvpStepper, type Rhs, type Tolerances } from './solve-ivp-step.js';
import { HostSystem, type JacOption } from './solve-ivp-implicit.js';
import { RadauStepper } from './solve-ivp-radau.js';
import { BdfStepper } from './solve-ivp-bdf.js';
import { PiecewiseSolution, type Interpolant } from './solve-ivp-dense.js';
import { findActiveEvents, handleEvents, prepareEvents, type Event, type EventFunction } from './solve-ivp-events.js';
import { barFor, progressOption, type ProgressOption } from '../progress.js';

export type { EventFunction } from './solve-ivp-events.js';

const OP = 'integrate.solveIvp';
const EPS = 2 ** -52;
const MESSAGES = { 0: 'The solver successfully reached the end of the integration interval.', 1: 'A termination event occurred.' } as const;

/** The methods of SciPy's solve_ivp (LSODA aside): explicit Runge–Kutta, and Radau and BDF (implicit, for stiff problems). */
export type IvpMethod = 'RK45' | 'RK23' | 'DOP853' | 'Radau' | 'BDF';

export interface SolveIvpOptions {
  /**
   * 'RK45' (default, Dormand–Prince 5(4)), 'RK23' (Bogacki–Shampine 3(2)), 'DOP853' (Hairer's 8(5,3));
   * for stiff problems 'Radau' (implicit Runge–Kutta Radau IIA, order 5) or 'BDF' (variable-order NDF/BDF, orders 1–5).
   */
  method?: IvpMethod;
  /** Relative tolerance (default 1e-3); values below 100·EPS are raised to 100·EPS, as SciPy does (it also warns). */
  rtol?: number;
  /** Absolute tolerance (default 1e-6): a number or a real array/tensor of y0's shape, ≥ 0. */
  atol?: number | Tensor | TensorData;
  /** Times at which to store the solution (within tSpan, sorted in the direction of integration); default: every accepted step. */
  tEval?: readonly number[] | Float64Array | Tensor;
  /** Return `sol`, the piecewise interpolant of all steps (default false). */
  denseOutput?: boolean;
  /** Largest step size (default Infinity). */
  maxStep?: number;
  /** First step size (default: SciPy's select_initial_step); positive, at most |t1 − t0|. */
  firstStep?: number;
  /** Event functions e(t, y), each with optional `terminal` and `direction` properties. */
  events?: EventFunction | readonly EventFunction[];
  /**
   * Radau and BDF: the Jacobian ∂f/∂y as a function jac(t, y) returning an [n, n] tensor (n = y0.size) or a
   * sparse matrix, or a constant matrix (tensor, nested array or sparse). Default: jacfwd of f (exact, one
   * forward-mode pass). A sparse Jacobian makes the Newton matrices sparse (factored by sparse.splu).
   * Ignored by the explicit methods, as in SciPy.
   */
  jac?: JacOption;
  /** Accepted for SciPy's signature and ignored: f always receives y of y0's shape. */
  vectorized?: boolean;
  /**
   * A progress bar on stderr while integrating (default off): true, or {label, stream, enabled, intervalMs}.
   * It shows the fraction of tSpan covered, updated at every accepted step (with t and the step count), and
   * ends with the outcome. Drawn only when the stream is a TTY; at most one redraw per 100 ms.
   */
  progress?: ProgressOption;
}

/** The piecewise interpolant of the solution (SciPy's OdeSolution). */
export interface DenseSolution {
  /** y at time t (y0's shape), or at each of several times ([len, ...y0.shape]). Outside the interval the first/last step extrapolates. */
  (t: number | readonly number[] | Float64Array | Tensor): Tensor;
  /** The step boundaries, in the direction of integration. */
  readonly ts: readonly number[];
}

export interface SolveIvpResult {
  /** Times of the stored states, float64 [len]. */
  t: Tensor;
  /** The states, [len(t), ...y0.shape], float64 or complex128. */
  y: Tensor;
  /** Evaluations of f. */
  nfev: number;
  /** Evaluations of the Jacobian (0 for the explicit methods). */
  njev: number;
  /** LU factorizations (0 for the explicit methods). */
  nlu: number;
  /** 0: reached the end of tSpan; 1: a terminal event occurred; -1: the step size collapsed (see message). */
  status: -1 | 0 | 1;
  message: string;
  success: boolean;
  /** With denseOutput: the interpolant over the whole integration. */
  sol?: DenseSolution;
  /** With events: per event function, the times of its zeros (float64 [k]). */
  tEvents?: Tensor[];
  /** With events: per event function, the states at its zeros ([k, ...y0.shape]). */
  yEvents?: Tensor[];
}

const KNOWN = new Set(['method', 'rtol', 'atol', 'tEval', 'denseOutput', 'maxStep', 'firstStep', 'events', 'jac', 'vectorized', 'progress']);
const show = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : Array.isArray(v) ? `[${v.map(show).join(', ')}]` : String(v));

function methodOf(method: unknown): Tableau | 'Radau' | 'BDF' {
  if (method === 'Radau' || method === 'BDF') return method;
  if (typeof method !== 'string' || !Object.prototype.hasOwnProperty.call(TABLEAUS, method)) throw new ValueError(`${OP}: method must be one of 'RK45', 'RK23', 'DOP853', 'Radau', 'BDF', got ${show(method)}`);
  return TABLEAUS[method as Tableau['name']];
}

/** SciPy's validate_tol: rtol raised to 100·EPS at least; atol ≥ 0, a number or of y0's shape. */
function tolerances(rtol: unknown, atol: unknown, y: Tensor): Tolerances {
  if (typeof rtol !== 'number' || Number.isNaN(rtol) || rtol < 0 || rtol === Infinity) throw new ValueError(`${OP}: rtol must be a finite number ≥ 0, got ${show(rtol)}`);
  if (typeof atol === 'number') {
    if (Number.isNaN(atol) || atol < 0 || atol === Infinity) throw new ValueError(`${OP}: atol must be a finite number ≥ 0 (or an array of y0's shape), got ${atol}`);
    return { rtol: Math.max(rtol, 100 * EPS), atol };
  }
  let a: Tensor;
  try {
    a = atol instanceof Tensor ? atol : tensor(atol as TensorData);
  } catch (e) {
    throw new ValueError(`${OP}: atol must be a number or an array of y0's shape, got ${show(atol)} (${(e as Error).message})`);
  }
  if (isComplex(a.dtype)) throw new DTypeError(`${OP}: atol must be real, got ${a.dtype}`);
  if (!shapesEqual(a.shape, y.shape)) throw new ShapeError(`${OP}: atol has shape ${fmtShape(a.shape)}, but y0 has shape ${fmtShape(y.shape)}; give a number or an array of y0's shape`);
  const v = a.toArray() as ArrayLike<number>;
  for (let i = 0; i < v.length; i++) if (!(v[i]! >= 0 && v[i]! < Infinity)) throw new ValueError(`${OP}: atol must be finite and ≥ 0, got ${v[i]} at flat index ${i}`);
  return { rtol: Math.max(rtol, 100 * EPS), atol: a.cast('float64').realize() };
}

/** y0 as integrated: float64 or complex128 (SciPy casts every state to float or complex, float32 included). */
// The adaptive loop picks its steps from the values (a host loop), so it can be
// neither traced (jit, vmap) nor differentiated: it says so instead of returning
// a zero derivative or an unrelated error.
const NOT_DIFFERENTIABLE = `${OP} is not differentiable (an adaptive host loop whose steps depend on the values); differentiate a fixed-step integrator (integrate.rk4, velocityVerlet) instead`;
const NOT_TRACEABLE = `${OP} cannot run inside jit or vmap (an adaptive host loop whose steps depend on the values); call it outside, or use a fixed-step integrator (integrate.rk4)`;

function initialState(y0: Tensor | TensorData): Tensor {
  let y = stateArg(OP, 'y0', y0);
  if (y.node.symbolic) throw new TransformError(`${NOT_TRACEABLE}: y0 is a traced value`);
  if (y.node.tracked) throw new TransformError(`${NOT_DIFFERENTIABLE}: y0 is being differentiated`);
  if (!isComplex(y.dtype) && y.dtype !== 'float64') y = y.cast('float64');
  else if (y.dtype === 'complex64') y = y.cast('complex128');
  checkFiniteState(OP, 'y0', y);
  return y.realize();
}

function describe(r: unknown): string {
  if (r instanceof Tensor) return `a ${r.dtype} tensor of shape ${fmtShape(r.shape)}`;
  return r === null ? 'null' : Array.isArray(r) ? 'an array' : typeof r;
}

/** f wrapped: t as a float64 scalar tensor, the result checked (shape) and cast to y's dtype. */
function checked(f: (t: Tensor, y: Tensor) => Tensor, like: Tensor): Rhs {
  const device = like.device;
  return (t, y) => {
    const tt = typeof t === 'number' ? tensor(t) : t;
    const r: unknown = f(device === undefined || typeof t !== 'number' ? tt : tt.on(device), y);
    if (!(r instanceof Tensor)) throw new DTypeError(`${OP}: f(t, y) must return a Tensor of y0's shape ${fmtShape(like.shape)}, got ${describe(r)}`);
    // y is symbolic only while the step is traced for jit; otherwise a symbolic or tracked result comes from f's closure.
    if (r.node.tracked) throw new TransformError(`${NOT_DIFFERENTIABLE}: f closes over a value being differentiated`);
    if (r.node.symbolic && !y.node.symbolic) throw new TransformError(`${NOT_TRACEABLE}: f closes over a traced value`);
    if (!shapesEqual(r.shape, like.shape)) throw new ShapeError(`${OP}: f(t, y) returned shape ${fmtShape(r.shape)}, but y0 has shape ${fmtShape(like.shape)}; the right-hand side must have y0's shape`);
    if (r.dtype === like.dtype) return r;
    if (isComplex(r.dtype) && !isComplex(like.dtype)) throw new DTypeError(`${OP}: f(t, y) returned ${r.dtype} for a real y0 (${like.dtype}); give a complex y0 to integrate in the complex domain`);
    return r.cast(like.dtype);
  };
}

function finite(name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ValueError(`${OP}: ${name} must be a finite number, got ${show(v)}`);
  return v;
}

/** SciPy's t_eval checks: 1-D, within tSpan, strictly sorted in the direction of integration. */
function timesToEval(tEval: unknown, t0: number, t1: number): number[] {
  let v: number[];
  if (tEval instanceof Tensor) {
    if (tEval.ndim !== 1) throw new ShapeError(`${OP}: tEval must be 1-dimensional, got shape ${fmtShape(tEval.shape)}`);
    if (isComplex(tEval.dtype)) throw new DTypeError(`${OP}: tEval must be real, got ${tEval.dtype}`);
    v = Array.from(tEval.toArray() as ArrayLike<number>);
  } else if (Array.isArray(tEval) || tEval instanceof Float64Array) {
    v = Array.from(tEval as ArrayLike<unknown>, (x, i) => {
      if (typeof x !== 'number') throw new ValueError(`${OP}: tEval must be a 1-D array of numbers, got ${show(x)} at index ${i}`);
      return x;
    });
  } else throw new ValueError(`${OP}: tEval must be a 1-D array of times, got ${describe(tEval)}`);
  const lo = Math.min(t0, t1),
    hi = Math.max(t0, t1);
  v.forEach((x, i) => {
    if (!(x >= lo && x <= hi)) throw new ValueError(`${OP}: values in tEval are not within tSpan [${t0}, ${t1}]: tEval[${i}] = ${x}`);
  });
  for (let i = 1; i < v.length; i++) {
    const d = v[i]! - v[i - 1]!;
    if ((t1 > t0 && d <= 0) || (t1 < t0 && d >= 0)) throw new ValueError(`${OP}: values in tEval are not properly sorted (strictly ${t1 > t0 ? 'increasing' : 'decreasing'} for tSpan [${t0}, ${t1}]): tEval[${i - 1}] = ${v[i - 1]}, tEval[${i}] = ${v[i]}`);
  }
  return v;
}

/** Stacked states on the host: rows of y's storage (complex interleaved) collected, one tensor at the end. */
class Rows {
  private readonly chunks: ArrayLike<number>[] = [];
  count = 0;
  constructor(private readonly like: Tensor) {}
  push(x: Tensor, rows = 1): void {
    this.chunks.push(x.toArray() as ArrayLike<number>);
    this.count += rows;
  }
  tensor(): Tensor {
    const row = this.like.size * DTYPE_INFO[this.like.dtype].lanes;
    const out = new Float64Array(this.count * row);
    let at = 0;
    for (const c of this.chunks) (out.set(c, at), (at += c.length));
    return fromStorage(out, [this.count, ...this.like.shape], this.like.dtype as DType, this.like.device);
  }
}

const times = (v: readonly number[], device: string | undefined): Tensor => fromStorage(Float64Array.from(v), [v.length], 'float64', device);

/**
 * Solves the initial value problem y' = f(t, y), y(t0) = y0 over tSpan = [t0, t1]
 * (t1 < t0 integrates backwards) with an adaptive explicit Runge–Kutta method
 * or, for stiff problems, the implicit Radau or BDF method, as
 * scipy.integrate.solve_ivp does (same step-size control, error norms and
 * Jacobian/LU reuse: the same steps up to rounding; Radau and BDF factor their
 * Newton matrices with LAPACK, or sparse.splu when `jac` is sparse).
 *
 * f(t, y) receives t as a float64 scalar tensor and y as a tensor of y0's
 * shape, and returns a tensor of that shape (a ShapeError otherwise; another
 * real dtype is cast to y's). y0 may be real or complex; integer and float32
 * states are integrated in float64 (complex64 in complex128), as SciPy casts.
 * The loop runs on the host: each step evaluates f on tensors and reads the
 * error norm back. A step size falling below 10 ulps of t (a solution blowing
 * up, or f returning NaN) ends the integration with status -1 and SciPy's
 * message, as SciPy reports it (no exception).
 *
 * Errors: ValueError for a bad tSpan, method, tolerances or tEval; NonFiniteError (a ValueError) for
 * NaN/±Inf in y0; ShapeError/DTypeError for f returning the wrong shape or a
 * complex value for a real state. t0 = t1 is allowed, as in SciPy: the result
 * holds y0 twice.
 * @example
 * ```ts
 * // y' = -y/2, y(0) = 2: y(t) = 2 exp(-t/2)
 * const r = integrate.solveIvp((t, y) => y.mul(-0.5), [0, 2], tensor([2]), { tEval: [0, 1, 2], rtol: 1e-8, atol: 1e-10 });
 * r.status;          // 0  (reached t = 2)
 * r.y.tolist();      // ≈ [[2], [1.21306], [0.73576]]  (2e^-0.5, 2e^-1; scipy.integrate.solve_ivp)
 * ```
 */
export function solveIvp(f: (t: Tensor, y: Tensor) => Tensor, tSpan: readonly [number, number] | readonly number[], y0: Tensor | TensorData, opts: SolveIvpOptions = {}): SolveIvpResult {
  if (typeof f !== 'function') throw new ValueError(`${OP}: f must be a function f(t, y), got ${typeof f}`);
  if (!Array.isArray(tSpan) || tSpan.length !== 2) throw new ValueError(`${OP}: tSpan must be [t0, t1], got ${show(tSpan)}`);
  const t0 = finite('tSpan[0]', tSpan[0]),
    t1 = finite('tSpan[1]', tSpan[1]);
  if (opts === null || typeof opts !== 'object') throw new ValueError(`${OP}: options must be an object, got ${show(opts)}`);
  for (const k of Object.keys(opts)) if (!KNOWN.has(k)) throw new ValueError(`${OP}: unknown option '${k}'; known: ${[...KNOWN].join(', ')}`);
  const tab = methodOf(opts.method ?? 'RK45');
  const y = initialState(y0);
  const tol = tolerances(opts.rtol ?? 1e-3, opts.atol ?? 1e-6, y);
  const maxStep = opts.maxStep ?? Infinity;
  if (typeof maxStep !== 'number' || !(maxStep > 0)) throw new ValueError(`${OP}: maxStep must be positive, got ${show(maxStep)}`);
  const firstStep = opts.firstStep;
  if (firstStep !== undefined) {
    if (typeof firstStep !== 'number' || !(firstStep > 0)) throw new ValueError(`${OP}: firstStep must be positive, got ${show(firstStep)}`);
    if (firstStep > Math.abs(t1 - t0)) throw new ValueError(`${OP}: firstStep ${firstStep} exceeds the interval's length ${Math.abs(t1 - t0)}`);
  }
  const dense = opts.denseOutput ?? false;
  if (typeof dense !== 'boolean') throw new ValueError(`${OP}: denseOutput must be a boolean, got ${show(dense)}`);
  let tEval = opts.tEval === undefined ? undefined : timesToEval(opts.tEval, t0, t1);
  const device = y.device;
  const events: Event[] | undefined = opts.events === undefined ? undefined : prepareEvents(OP, opts.events, device);
  const progress = progressOption(OP, opts.progress);

  const rhs = checked(f, y);
  let solver: IvpStepper;
  if (tab === 'Radau' || tab === 'BDF') {
    const sys = new HostSystem(rhs, f, y, tol, opts.jac);
    const Stepper = tab === 'Radau' ? RadauStepper : BdfStepper;
    solver = new Stepper(sys, t0, sys.vectorOf(y), t1, maxStep, firstStep);
  } else solver = new RkStepper(tab, rhs, t0, y, t1, tol, maxStep, firstStep, dense || events !== undefined || tEval !== undefined);

  // t_eval is walked in increasing order: reversed for backwards integration (as SciPy does).
  let tEvalI = 0;
  if (tEval !== undefined && t1 < t0) {
    tEval = tEval.slice().reverse();
    tEvalI = tEval.length;
  }
  const ts: number[] = [];
  const ys = new Rows(y);
  if (tEval === undefined) (ts.push(t0), ys.push(y));
  const ti: number[] = [t0];
  const interpolants: Interpolant[] = [];
  let g = events?.map((e) => e.value(t0, y));
  const tEvents = events?.map(() => [] as number[]);
  const yEvents = events?.map(() => new Rows(y));

  let status: -1 | 0 | 1 | undefined;
  let message: string | undefined;
  // The bar, when one is drawn (a TTY): a hook per accepted step, the fraction of tSpan covered.
  const bar = ivpBar(progress, `solveIvp ${opts.method ?? 'RK45'}`, t0, t1);
  try {
    while (status === undefined) {
      message = solver.step();
      if (solver.status === 'finished') status = 0;
      else if (solver.status === 'failed') {
        status = -1;
        break;
      }
      const tOld = solver.tOld!;
      let t = solver.t;
      let yt = solver.y;
      let sol: Interpolant | undefined;
      if (dense) interpolants.push((sol = solver.denseOutput()));
      if (events !== undefined) {
        const gNew = events.map((e) => e.value(t, yt));
        const active = findActiveEvents(events, g!, gNew);
        if (active.length > 0) {
          const s = (sol ??= solver.denseOutput());
          const at = (x: number): Tensor => s.at([x]).reshape(y.shape);
          const r = handleEvents(OP, at, events, active, tOld, t);
          r.active.forEach((e, k) => {
            tEvents![e]!.push(r.roots[k]!);
            yEvents![e]!.push(at(r.roots[k]!));
          });
          if (r.terminate) {
            status = 1;
            t = r.roots[r.roots.length - 1]!;
            yt = at(t);
          }
        }
        g = gNew;
      }
      bar?.step(t); // the step's end, or the terminal event's time
      if (tEval === undefined) {
        ts.push(t);
        ys.push(yt);
      } else {
        // The tEval points passed by this step (a point equal to t included): SciPy's searchsorted slices.
        let step: number[];
        if (solver.direction > 0) {
          let j = tEvalI;
          while (j < tEval.length && tEval[j]! <= t) j++;
          step = tEval.slice(tEvalI, j);
          tEvalI = j;
        } else {
          let j = tEvalI;
          while (j > 0 && tEval[j - 1]! >= t) j--;
          step = tEval.slice(j, tEvalI).reverse();
          tEvalI = j;
        }
        if (step.length > 0) {
          const s = (sol ??= solver.denseOutput());
          ts.push(...step);
          ys.push(s.at(step), step.length);
        }
        if (dense) ti.push(t);
      }
    }
  } catch (e) {
    bar?.abort();
    throw e;
  }
  bar?.finish(status, status === -1 ? message! : undefined);

  const result: SolveIvpResult = {
    t: times(ts, device),
    y: ys.tensor(),
    nfev: solver.nfev,
    njev: solver.njev,
    nlu: solver.nlu,
    status,
    message: status === -1 ? message! : MESSAGES[status],
    success: status >= 0,
  };
  if (events !== undefined) {
    result.tEvents = tEvents!.map((v) => times(v, device));
    result.yEvents = yEvents!.map((r) => r.tensor());
  }
  if (dense) result.sol = denseSolution(new PiecewiseSolution(tEval === undefined ? ts : ti, interpolants), y);
  return result;
}

/** solveIvp's progress bar: fraction of [t0, t1] covered, per accepted step; null when nothing is drawn (no hook then). */
function ivpBar(opt: ProgressOption | undefined, label: string, t0: number, t1: number): { step(t: number): void; finish(status: -1 | 0 | 1, message?: string): void; abort(): void } | null {
  const bar = barFor(opt, label, 1);
  if (bar === null) return null;
  const span = t1 - t0;
  let steps = 0,
    last = t0;
  const detail = (): string => `t = ${last.toPrecision(6)}, ${steps} steps`; // formatted only when drawn
  return {
    step(t) {
      steps++;
      last = t;
      bar.update(span === 0 ? 1 : (t - t0) / span, detail);
    },
    finish(status, message) {
      if (status === 0) bar.update(1);
      bar.done(status === 0 ? `reached t = ${t1}: ${steps} steps` : status === 1 ? `terminal event at t = ${last.toPrecision(6)}: ${steps} steps` : `failed after t = ${last.toPrecision(6)}, ${steps} steps: ${message}`);
    },
    abort() {
      bar.done(undefined, { clear: true });
    },
  };
}

function denseSolution(pw: PiecewiseSolution, like: Tensor): DenseSolution {
  const sol = (t: number | readonly number[] | Float64Array | Tensor): Tensor => {
    if (typeof t === 'number') return pw.at([t], like).reshape(like.shape);
    if (t instanceof Tensor) {
      if (t.ndim > 1) throw new ShapeError(`${OP}: sol(t): t must be a number or 1-D, got shape ${fmtShape(t.shape)}`);
      if (isComplex(t.dtype)) throw new DTypeError(`${OP}: sol(t): t must be real, got ${t.dtype}`);
      const v = Array.from(t.toArray() as ArrayLike<number>);
      return t.ndim === 0 ? pw.at(v, like).reshape(like.shape) : pw.at(v, like);
    }
    if (!Array.isArray(t) && !(t instanceof Float64Array)) throw new ValueError(`${OP}: sol(t): t must be a number, an array of numbers or a Tensor, got ${describe(t)}`);
    const v = Array.from(t as ArrayLike<unknown>, (x, i) => {
      if (typeof x !== 'number') throw new ValueError(`${OP}: sol(t): t[${i}] must be a number, got ${show(x)}`);
      return x;
    });
    return pw.at(v, like);
  };
  return Object.assign(sol, { ts: pw.ts });
}
