// integrate.odeint: JAX's odeint contract (jax.experimental.ode.odeint):
// adaptive Dormand–Prince integration of y' = f(y, t, ...params) whose
// reverse-mode derivative with respect to y0 and the params comes from the
// adjoint method (odeint-solve.ts), so memory does not grow with the number
// of steps. This file is the API: arguments, checks, and the custom node that
// ties the host solves to grad/vjp.
//
// The solves are host loops (steps chosen from values), so odeint runs on
// concrete tensors only: under jit or vmap it throws a TransformError, and so
// does jvp (only reverse mode is offered) and a second derivative — never a
// silent zero.

import { Tensor } from '../tensor/tensor.js';
import { tensor, type TensorData } from '../tensor/create.js';
import { DTypeError, ShapeError, TransformError, ValueError } from '../tensor/errors.js';
import { isComplex, isInexact } from '../tensor/dtype.js';
import { fmtShape, shapesEqual } from '../tensor/shape.js';
import { customCall } from '../tensor/ops/custom-call.js';
import { checkFiniteState, stateArg } from './march.js';
import type { Rhs } from './solve-ivp-step.js';
import { adjointSolve, detach, forwardSolve, type OdeFn, type OdeintStats, type SolveSettings } from './odeint-solve.js';
import { progressOption, type ProgressOption } from '../progress.js';

export type { OdeFn, OdeintStats } from './odeint-solve.js';

const OP = 'integrate.odeint';
const EPS = 2 ** -52;
const NOT_TRACEABLE = `${OP} cannot run inside jit or vmap (an adaptive host loop whose steps depend on the values); call it outside, or use a fixed-step integrator (integrate.rk4)`;
const REVERSE_ONLY = `${OP} offers reverse mode only (grad/vjp, by the adjoint method); jvp and forward-mode transforms (jacfwd, hessian) are not supported`;
const NO_SECOND_ORDER = `${OP}: the adjoint gradient is computed on the host and is not itself differentiable (second derivatives are not offered)`;

export interface OdeintOptions {
  /** Relative tolerance (JAX's default 1.4e-8; raised to 100·EPS at least). */
  rtol?: number;
  /** Absolute tolerance (JAX's default 1.4e-8). */
  atol?: number;
  /** Most steps between two consecutive output times, forward and backward (default Infinity, as JAX); exceeding it is a ValueError. */
  mxstep?: number;
  /** Filled with the step counts of this call (the backward ones when a gradient is taken). */
  stats?: OdeintStats;
  /**
   * Progress bars on stderr (default off): true, or {label, stream, enabled, intervalMs}. One for the
   * forward solve ('odeint', the fraction of [ts[0], ts[-1]] covered per accepted step) and, when a
   * gradient is taken, one for the adjoint solve ('odeint adjoint', covering it backwards). Drawn only
   * when the stream is a TTY; at most one redraw per 100 ms.
   */
  progress?: ProgressOption;
}

const KNOWN = new Set(['rtol', 'atol', 'mxstep', 'stats', 'progress']);

function describe(r: unknown): string {
  if (r instanceof Tensor) return `a ${r.dtype} tensor of shape ${fmtShape(r.shape)}`;
  return r === null ? 'null' : Array.isArray(r) ? 'an array' : typeof r;
}

function tolerance(name: string, v: unknown, dflt: number): number {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !(v >= 0 && v < Infinity)) throw new ValueError(`${OP}: ${name} must be a finite number ≥ 0, got ${String(v)}`);
  return v;
}

function options(o: OdeintOptions): { rtol: number; atol: number; mxstep: number; stats: OdeintStats; progress: ProgressOption | undefined } {
  for (const k of Object.keys(o)) if (!KNOWN.has(k)) throw new ValueError(`${OP}: unknown option '${k}'; expected one of ${[...KNOWN].join(', ')}`);
  const mxstep = o.mxstep ?? Infinity;
  if (typeof mxstep !== 'number' || !(mxstep >= 1)) throw new ValueError(`${OP}: mxstep must be a number ≥ 1, got ${String(mxstep)}`);
  const stats = o.stats ?? { forwardSteps: 0, backwardSteps: 0, nfev: 0, stateDepth: 0 };
  Object.assign(stats, { forwardSteps: 0, backwardSteps: 0, nfev: 0, stateDepth: 0 });
  return { rtol: Math.max(tolerance('rtol', o.rtol, 1.4e-8), 100 * EPS), atol: tolerance('atol', o.atol, 1.4e-8), mxstep, stats, progress: progressOption(OP, o.progress) };
}

/** ts as host numbers: 1-D, real, finite, strictly increasing, at least one time. */
function times(ts: unknown): number[] {
  let v: number[];
  if (ts instanceof Tensor) {
    if (ts.node.symbolic) throw new TransformError(`${NOT_TRACEABLE}: ts is a traced value`);
    if (ts.node.tracked) throw new TransformError(`${OP}: derivatives with respect to ts are not offered; differentiate with respect to y0 or the params`);
    if (ts.ndim !== 1) throw new ShapeError(`${OP}: ts must be 1-dimensional, got shape ${fmtShape(ts.shape)}`);
    if (isComplex(ts.dtype)) throw new DTypeError(`${OP}: ts must be real, got ${ts.dtype}`);
    v = Array.from(ts.toArray() as ArrayLike<number>);
  } else if (Array.isArray(ts) || ts instanceof Float64Array) v = Array.from(ts as ArrayLike<number>);
  else throw new ValueError(`${OP}: ts must be a 1-D array or tensor of times, got ${describe(ts)}`);
  if (v.length === 0) throw new ValueError(`${OP}: ts must hold at least one time, got an empty array`);
  v.forEach((x, i) => {
    if (typeof x !== 'number' || !Number.isFinite(x)) throw new ValueError(`${OP}: ts must hold finite numbers, got ${String(x)} at index ${i}`);
    if (i > 0 && !(x > v[i - 1]!)) throw new ValueError(`${OP}: ts must be strictly increasing, got ts[${i - 1}] = ${v[i - 1]}, ts[${i}] = ${x}`);
  });
  return v;
}

function param(p: unknown, i: number): Tensor {
  let t: Tensor;
  if (p instanceof Tensor) t = p;
  else if (typeof p === 'number') t = tensor(p);
  else throw new ValueError(`${OP}: params must be Tensors or numbers, got ${describe(p)} as param ${i}`);
  if (t.node.symbolic) throw new TransformError(`${NOT_TRACEABLE}: param ${i} is a traced value`);
  if (!isInexact(t.dtype) || isComplex(t.dtype)) throw new DTypeError(`${OP}: params must be real floating tensors, got ${t.dtype} as param ${i}`);
  return t;
}

/** f's result checked: a Tensor of y's shape, real (cast to y's dtype). */
function checkResult(r: unknown, y: Tensor): Tensor {
  if (!(r instanceof Tensor)) throw new DTypeError(`${OP}: f(y, t, ...params) must return a Tensor of y0's shape ${fmtShape(y.shape)}, got ${describe(r)}`);
  if (!shapesEqual(r.shape, y.shape)) throw new ShapeError(`${OP}: f(y, t, ...params) returned shape ${fmtShape(r.shape)}, but y0 has shape ${fmtShape(y.shape)}; the right-hand side must have y0's shape`);
  if (isComplex(r.dtype)) throw new DTypeError(`${OP}: f(y, t, ...params) returned ${r.dtype}; complex states are not supported yet`);
  return r.dtype === y.dtype ? r : r.cast(y.dtype);
}

/**
 * The forward right-hand side over detached params. A tracked result here can
 * only come from f's closure (y and the params are detached leaves, or jit's
 * traced inputs): its derivative would be lost, so it is an error.
 */
function forwardRhs(f: OdeFn, params: readonly Tensor[]): Rhs {
  return (t, y) => {
    const tt = typeof t === 'number' ? (y.device === undefined ? tensor(t) : tensor(t).on(y.device)) : t;
    const r = checkResult(f(y, tt, ...params), y);
    if (r.node.tracked) throw new TransformError(`${OP}: f closes over a value being differentiated; pass it as a param (odeint(f, y0, ts, ...params)) so that its gradient is computed`);
    if (r.node.symbolic && !y.node.symbolic) throw new TransformError(`${NOT_TRACEABLE}: f closes over a traced value`);
    return r;
  };
}

/** A node whose value is v, depending on deps, that refuses to be differentiated (the adjoint's outputs). */
const terminal = customCall((...xs: Tensor[]) => xs[xs.length - 1]!, {
  jvp: () => {
    throw new TransformError(NO_SECOND_ORDER);
  },
  vjp: () => {
    throw new TransformError(NO_SECOND_ORDER);
  },
});

/**
 * Solves y' = f(y, t, ...params), y(ts[0]) = y0 and returns y at every time of
 * ts: [len(ts), ...y0.shape], float64 (JAX's odeint).
 *
 * RK45 (Dormand–Prince 5(4), SciPy's step control) with rtol = atol = 1.4e-8 by
 * default; values between steps come from its quartic dense output. y0 may
 * have any shape (integer and float32 states are integrated in float64; complex
 * states are not supported yet); ts is 1-D and strictly increasing; params are
 * real tensors (or numbers) passed on to f. The last argument may be an
 * options object {rtol, atol, mxstep, stats, progress}.
 *
 * grad/vjp with respect to y0 and the params use the adjoint method: one
 * backward solve of [y, ȳ, p̄], memory independent of the step count.
 * TransformError under jit/vmap, under jvp/jacfwd, for a second derivative,
 * and when f closes over a value being differentiated (pass it as a param).
 * @example
 * ```ts
 * // y' = -k y, y(0) = 1: y(t) = exp(-k t); k is a param, so it can be differentiated
 * const f = (y: Tensor, t: Tensor, k: Tensor) => y.mul(k).neg();
 * integrate.odeint(f, tensor([1]), [0, 1], tensor(2)).tolist();   // ≈ [[1], [0.135335]]  (exp(-2))
 * const dk = grad((k: Tensor) => integrate.odeint(f, tensor([1]), [0, 1], k).sum());
 * dk(tensor(2)).item();   // ≈ -0.135335  (d/dk (1 + exp(-k)) = -exp(-2), by the adjoint)
 * ```
 */
export function odeint(f: OdeFn, y0: Tensor | TensorData, ts: readonly number[] | Float64Array | Tensor, ...rest: (Tensor | number | OdeintOptions)[]): Tensor {
  if (typeof f !== 'function') throw new ValueError(`${OP}: f must be a function f(y, t, ...params), got ${typeof f}`);
  let opts: OdeintOptions = {};
  const lastArg = rest[rest.length - 1];
  if (lastArg !== undefined && !(lastArg instanceof Tensor) && typeof lastArg === 'object' && !Array.isArray(lastArg)) {
    opts = lastArg as OdeintOptions;
    rest = rest.slice(0, -1);
  }
  const o = options(opts);
  let y = stateArg(OP, 'y0', y0);
  if (y.node.symbolic) throw new TransformError(`${NOT_TRACEABLE}: y0 is a traced value`);
  if (isComplex(y.dtype)) throw new DTypeError(`${OP}: y0 is ${y.dtype}; complex states are not supported yet`);
  if (y.dtype !== 'float64') y = y.cast('float64');
  checkFiniteState(OP, 'y0', y);
  const tv = times(ts);
  const params = rest.map(param);
  const set: SolveSettings = { op: OP, tol: { rtol: o.rtol, atol: o.atol }, mxstep: o.mxstep, stats: o.stats, progress: o.progress };

  const node = customCall(
    (yIn: Tensor, ...ps: Tensor[]) => {
      const pd = ps.map(detach);
      return forwardSolve(forwardRhs(f, pd), detach(yIn), tv, set);
    },
    {
      jvp: () => {
        throw new TransformError(REVERSE_ONLY);
      },
      vjp: (xs, out, ct) => {
        if (ct.node.symbolic || out.node.symbolic) throw new TransformError(`${NOT_TRACEABLE}: its gradient was requested inside a traced function`);
        const pd = xs.slice(1).map(detach);
        const grads = adjointSolve(f, checkResult, detach(out), detach(ct.cast('float64')), pd, tv, set);
        // Tie each gradient to (inputs, ct) through a node that refuses differentiation: a second derivative throws.
        return grads.map((g) => terminal(...xs, ct, g));
      },
    },
  );
  return node(y, ...params);
}
