// The host loops of integrate.odeint (odeint.ts): the forward solve, which
// reads y at the requested times off the Dormand–Prince dense output, and the
// adjoint (backward) solve, which integrates the augmented state
// [y, ȳ, p̄] from ts[-1] back to ts[0] (JAX's jax/experimental/ode.py design).
//
// Both reuse solveIvp's RK45 stepper (solve-ivp-step.ts: SciPy's tableau, step
// control and jitted attempt): only the current state and the stages of the
// current step are alive at any time, so memory does not grow with the number
// of steps (the price is the backward re-integration of y, as in JAX).

import { Tensor } from '../tensor/tensor.js';
import { fromStorage, tensor } from '../tensor/create.js';
import { cat } from '../tensor/ops/movement.js';
import { ValueError } from '../tensor/errors.js';
import { vjp } from '../compiler/transforms/grad.js';
import { rg, s } from '../tensor/slicing.js';
import { TABLEAUS } from './solve-ivp-tableaus.js';
import { RkStepper, type Rhs, type Tolerances } from './solve-ivp-step.js';
import { barFor, type ProgressOption } from '../progress.js';

/** The user's right-hand side with JAX's argument order: f(y, t, ...params). */
export type OdeFn = (y: Tensor, t: Tensor, ...params: Tensor[]) => Tensor;

/** Step counts of one odeint call, filled in as the solves run (opts.stats). */
export interface OdeintStats {
  /** Accepted steps of the forward solve. */
  forwardSteps: number;
  /** Accepted steps of the adjoint solve (0 until a gradient is taken). */
  backwardSteps: number;
  /** Evaluations of f (forward) and of f with its VJP (backward). */
  nfev: number;
  /**
   * The deepest graph behind the state the stepper carries between steps
   * (its y and FSAL stage): it stays put as the step count grows when no
   * step's tensors are chained into the next (a diagnostic of the memory claim).
   */
  stateDepth: number;
}

export interface SolveSettings {
  op: string;
  tol: Tolerances;
  /** Most accepted steps between two consecutive output times. */
  mxstep: number;
  stats: OdeintStats;
  /** The checked `progress` option: a bar per solve (forward, adjoint). */
  progress?: ProgressOption | undefined;
}

/** A host copy of x's value: a leaf outside every transform (x is concrete: not symbolic). */
export const detach = (x: Tensor): Tensor => fromStorage(x.toArray() as Float64Array, x.shape, x.dtype, x.device);

/** Time as f receives it: a float64 scalar tensor (on y's device). */
const timeTensor = (t: number | Tensor, like: Tensor): Tensor => {
  if (typeof t !== 'number') return t;
  const tt = tensor(t);
  return like.device === undefined ? tt : tt.on(like.device);
};

/** A solve's progress bar: the fraction of [from, to] covered, per accepted step; null when nothing is drawn (no hook then). */
function solveBar(set: SolveSettings, label: string, from: number, to: number): { step(t: number): void; finish(): void; abort(): void } | null {
  const bar = barFor(set.progress, label, 1);
  if (bar === null) return null;
  const span = to - from; // ts is strictly increasing: ≠ 0 whenever there is a step
  let steps = 0,
    last = from;
  const detail = (): string => `t = ${last.toPrecision(6)}, ${steps} steps`; // formatted only when drawn
  return {
    step(t) {
      steps++;
      last = t;
      bar.update((t - from) / span, detail);
    },
    finish() {
      bar.update(1);
      bar.done(`${steps} steps`);
    },
    abort() {
      bar.done(undefined, { clear: true });
    },
  };
}

/** Runs `solve` with `bar` (when drawn): ended on success, cleared when an error leaves. */
function withBar<T>(bar: ReturnType<typeof solveBar>, solve: () => T): T {
  if (bar === null) return solve();
  try {
    const r = solve();
    bar.finish();
    return r;
  } catch (e) {
    bar.abort();
    throw e;
  }
}

/**
 * Integrates with RK45 from times[0] (state y) through times[1..], returning
 * the states at times[1..] (the dense output inside a step; the step's own end
 * state at the last time, which the stepper hits exactly). `which` names the
 * solve in errors; `onStep` (the progress bar's hook) gets t after every accepted step.
 */
function solveThrough(rhs: Rhs, y: Tensor, times: readonly number[], set: SolveSettings, which: 'forward' | 'backward', onStep?: (t: number) => void): Tensor[] {
  const last = times[times.length - 1]!;
  const stepper = new RkStepper(TABLEAUS.RK45, rhs, times[0]!, y, last, set.tol, Infinity, undefined);
  const out: Tensor[] = [];
  let i = 1,
    steps = 0;
  const dir = Math.sign(last - times[0]!) || 1;
  while (i < times.length) {
    if (stepper.status === 'finished') {
      out.push(stepper.y);
      i++;
      continue;
    }
    const msg = stepper.step();
    if (msg !== undefined) throw new ValueError(`${set.op}: the ${which} solve failed at t = ${stepper.t}: ${msg} (the solution may blow up, or the problem is stiff)`);
    steps++;
    onStep?.(stepper.t);
    set.stats.stateDepth = Math.max(set.stats.stateDepth, stepper.y.node.depth, stepper.f.node.depth);
    if (which === 'forward') set.stats.forwardSteps++;
    else set.stats.backwardSteps++;
    if (steps > set.mxstep) throw new ValueError(`${set.op}: the ${which} solve took more than mxstep = ${set.mxstep} steps between t = ${times[i - 1]} and t = ${times[i]} (stopped at t = ${stepper.t}); raise mxstep or loosen rtol/atol`);
    const inside: number[] = [];
    while (i + inside.length < times.length - 1 && dir * (times[i + inside.length]! - stepper.t) <= 0) inside.push(times[i + inside.length]!);
    if (inside.length > 0) {
      const rows = stepper.denseOutput().at(inside);
      for (let k = 0; k < inside.length; k++) out.push(rows.select(0, k).realize());
      i += inside.length;
      steps = 0;
    }
  }
  set.stats.nfev += stepper.nfev;
  return out;
}

/** The forward solve: ys [len(ts), ...y0.shape] as a host leaf. */
export function forwardSolve(rhs: Rhs, y0: Tensor, ts: readonly number[], set: SolveSettings): Tensor {
  const bar = solveBar(set, 'odeint', ts[0]!, ts[ts.length - 1]!);
  const rows = [y0, ...withBar(bar, () => solveThrough(rhs, y0, ts, set, 'forward', bar?.step))];
  return detach(cat(rows.map((r) => r.reshape([1, ...y0.shape]))).realize());
}

/**
 * The adjoint solve: given the forward states ys, the cotangent ct of ys and
 * the (detached) params, returns [ȳ0, ...p̄] (p̄ in each param's dtype).
 *
 * The augmented state a = [y, ȳ, p̄] (flattened, float64) obeys, backward in t,
 * y' = f, ȳ' = −ȳ·∂f/∂y, p̄' = −ȳ·∂f/∂p (one VJP of f per stage). Each
 * segment ts[i] → ts[i-1] restarts y from the forward ys[i] (as JAX does, so
 * the re-integrated y does not drift) and adds ct[i-1] to ȳ at its end.
 */
export function adjointSolve(f: OdeFn, check: (r: unknown, y: Tensor) => Tensor, ys: Tensor, ct: Tensor, params: readonly Tensor[], ts: readonly number[], set: SolveSettings): Tensor[] {
  const shape = ys.shape.slice(1);
  const n = shape.reduce((a, b) => a * b, 1);
  const sizes = params.map((p) => p.size);
  const rhs: Rhs = (t, a) => {
    const y = a.slice(s(rg(0, n))).reshape(shape);
    const yb = a.slice(s(rg(n, 2 * n))).reshape(shape);
    const tt = timeTensor(t, a);
    const [fy, back] = vjp((yy: Tensor, ...ps: Tensor[]) => check(f(yy, tt, ...ps), yy), y, ...params) as [Tensor, (c: Tensor) => Tensor[]];
    const cts = back(yb);
    const r = cat([fy.flatten(), ...cts.map((c) => c.neg().cast('float64').flatten())]);
    // Evaluated eagerly (the stepper's first f, or its eager fallback), r is
    // tracked (vjp's wrappers): as the stepper's FSAL stage it would make the
    // jitted attempt inline itself (jit does under a transform) and the graph
    // grow with every step. A host copy cuts it off.
    return a.node.symbolic ? r : detach(r.realize());
  };
  const row = (i: number): Tensor => ys.select(0, i).flatten();
  const ctRow = (i: number): Tensor => ct.select(0, i).flatten();
  let yb = ctRow(ts.length - 1);
  let pb = cat(params.map((p) => tensor(0).broadcastTo([p.size]).cast('float64')).concat([tensor([] as number[]).cast('float64')]));
  // The adjoint bar covers [ts[-1], ts[0]] backwards, across the segments.
  const bar = solveBar(set, 'odeint adjoint', ts[ts.length - 1]!, ts[0]!);
  withBar(bar, () => {
    for (let i = ts.length - 1; i >= 1; i--) {
      const a0 = cat([row(i), yb, pb]).realize();
      const [a1] = solveThrough(rhs, a0, [ts[i]!, ts[i - 1]!], set, 'backward', bar?.step) as [Tensor];
      yb = a1.slice(s(rg(n, 2 * n))).add(ctRow(i - 1)).realize();
      pb = a1.slice(s(rg(2 * n, undefined))).realize();
    }
  });
  const out: Tensor[] = [detach(yb.reshape(shape).realize())];
  let at = 0;
  params.forEach((p, k) => {
    out.push(detach(pb.slice(s(rg(at, at + sizes[k]!))).reshape(p.shape).cast(p.dtype).realize()));
    at += sizes[k]!;
  });
  return out;
}
