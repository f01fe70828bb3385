// What every fixed-step integrator shares: reading the step options, checking
// the initial state, and marching a one-step map as ONE scan node (so that an
// integration is jit-able, differentiable through scan's rules and vmappable)
// while keeping only the states a user asked to save.
//
// The saved states are y0 and then every `saveEvery` steps: an outer scan of
// ⌊steps/saveEvery⌋ iterations whose body is an inner scan of saveEvery steps
// (a plain step when saveEvery = 1), so a 10⁵-step run saving 100 frames stores
// 100 frames, not 10⁵. Steps left over (steps mod saveEvery) run after the
// last frame; the final state is always returned.
//
// Time is not accumulated (t += dt drifts by n·ε): the carry holds a float64
// step counter n and the body computes t = t0 + n·dt.

import { Tensor } from '../tensor/tensor.js';
import { tensor, type TensorData } from '../tensor/create.js';
import { cat } from '../tensor/ops/movement.js';
import { DTypeError, ShapeError, ValueError } from '../tensor/errors.js';
import { DTYPE_INFO, isInexact, realDType, type DType } from '../tensor/dtype.js';
import { fmtShape, shapesEqual } from '../tensor/shape.js';
import { NonFiniteError } from '../tensor/errors-linalg.js';
import { scan } from '../compiler/control/scan.js';
import type { PyTree } from '../compiler/transforms/pytree.js';

/** The step options every fixed-step integrator takes. */
export interface FixedStepOptions {
  /** The step (finite, nonzero; negative integrates backwards in time). */
  dt: number;
  /** Number of steps (a non-negative integer). */
  steps: number;
  /** Initial time (default 0): the right-hand side sees t = t0 + n·dt. */
  t0?: number;
  /** Save the state every this many steps (default 1: every step); y0 is always saved first. */
  saveEvery?: number;
}

/** The validated schedule. */
export interface Schedule {
  dt: number;
  steps: number;
  t0: number;
  saveEvery: number;
}

const show = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : String(v));

/** Reads and checks {dt, steps, t0, saveEvery}; a ValueError naming `op` and the option otherwise. */
export function schedule(op: string, opts: FixedStepOptions | undefined): Schedule {
  if (opts === null || typeof opts !== 'object') throw new ValueError(`${op}: options {dt, steps} are required, got ${show(opts)}`);
  const { dt, steps, t0 = 0, saveEvery = 1 } = opts;
  if (typeof dt !== 'number' || !Number.isFinite(dt) || dt === 0) throw new ValueError(`${op}: dt must be a finite nonzero number, got ${show(dt)}`);
  if (typeof steps !== 'number' || !Number.isSafeInteger(steps) || steps < 0) throw new ValueError(`${op}: steps must be a non-negative integer, got ${show(steps)}`);
  if (typeof t0 !== 'number' || !Number.isFinite(t0)) throw new ValueError(`${op}: t0 must be a finite number, got ${show(t0)}`);
  if (typeof saveEvery !== 'number' || !Number.isSafeInteger(saveEvery) || saveEvery < 1) throw new ValueError(`${op}: saveEvery must be a positive integer, got ${show(saveEvery)}`);
  return { dt, steps, t0, saveEvery };
}

/**
 * An initial state as a floating tensor: integers and booleans become float64
 * (as NumPy/SciPy integrate them), float and complex dtypes are kept.
 */
export function stateArg(op: string, name: string, x: Tensor | TensorData): Tensor {
  let t: Tensor;
  try {
    t = x instanceof Tensor ? x : tensor(x);
  } catch (e) {
    throw new DTypeError(`${op}: ${name} must be a Tensor or array data, got ${describe(x)} (${(e as Error).message})`);
  }
  return isInexact(t.dtype) ? t : t.cast('float64');
}

/**
 * NaN/±Inf in an initial state is a NonFiniteError (a ValueError) naming the
 * integrator, the argument and the position. This reads the values: one host
 * sync per call. A symbolic input (under jit/vmap) has no values yet and is not checked.
 */
export function checkFiniteState(op: string, name: string, x: Tensor): void {
  if (x.node.symbolic) return;
  const data = x.toArray() as ArrayLike<number>;
  let s = 0;
  for (let i = 0; i < data.length; i++) s += data[i]! - data[i]!; // 0 unless a value is NaN/±Inf
  if (s === 0) return;
  const lanes = DTYPE_INFO[x.dtype].lanes;
  for (let i = 0; i < data.length; i++) {
    if (Number.isFinite(data[i]!)) continue;
    let flat = Math.floor(i / lanes);
    const pos: number[] = [];
    for (let a = x.ndim - 1; a >= 0; a--) {
      const d = x.shape[a]!;
      pos.unshift(flat % d);
      flat = Math.floor(flat / d);
    }
    throw new NonFiniteError(`${op}: ${name}`, pos, data[i]!);
  }
}

function describe(v: unknown): string {
  if (v instanceof Tensor) return `a ${v.dtype} tensor of shape ${fmtShape(v.node.shape)}`;
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? (v.constructor?.name ?? 'an object') : `${typeof v} ${show(v)}`;
}

/**
 * Checks what a user function returned at trace time: a Tensor of `like`'s shape
 * and dtype. `call` names the function as the user wrote it ("f(t, y)").
 */
export function checkReturn(op: string, call: string, r: unknown, like: Tensor, likeName: string): Tensor {
  if (!(r instanceof Tensor)) throw new DTypeError(`${op}: ${call} must return a Tensor of ${likeName}'s shape ${fmtShape(like.node.shape)} and dtype ${like.dtype}, got ${describe(r)}`);
  if (!shapesEqual(r.node.shape, like.node.shape))
    throw new ShapeError(`${op}: ${call} returned shape ${fmtShape(r.node.shape)}, but ${likeName} has shape ${fmtShape(like.node.shape)}; the right-hand side must have ${likeName}'s shape`);
  if (r.dtype !== like.dtype) throw new DTypeError(`${op}: ${call} returned dtype ${r.dtype}, but ${likeName} is ${like.dtype}; return ${likeName}'s dtype (cast inside the function if that is what you mean)`);
  return r;
}

/** t = t0 + n·dt as a scalar tensor of y's real dtype (a float64 t would promote a float32 state). */
export function timeAt(n: Tensor, offset: number, s: Schedule, like: DType): Tensor {
  const t = (offset === 0 ? n : n.add(offset)).mul(s.dt).add(s.t0);
  const rd = realDType(like);
  return rd === 'float64' ? t : t.cast(rd);
}

/** One step: the state after step n (n the float64 step counter of the state given). */
export type Step = (n: Tensor, state: Tensor[]) => Tensor[];

export interface Marched {
  /** Times of the saved states, float64 [k]. */
  t: Tensor;
  /** The first nSaved state entries, each stacked on a new leading axis of k saved states. */
  saved: Tensor[];
  /** The whole state after the last step. */
  final: Tensor[];
}

/** Runs `steps` steps from `init` as one scan, saving init[0..nSaved) at n = 0, saveEvery, 2·saveEvery, ... */
export function march(step: Step, init: Tensor[], nSaved: number, s: Schedule): Marched {
  // n counts steps exactly (float64 holds integers to 2⁵³); it lives on the state's device.
  const device = init[0]!.device;
  const n0 = tensor(0, { dtype: 'float64' });
  const advance = (carry: Tensor[], length: number): Tensor[] => {
    if (length === 0) return carry;
    const one = (c: Tensor[]): Tensor[] => [c[0]!.add(1), ...step(c[0]!, c.slice(1))];
    if (length === 1) return one(carry);
    const [c] = scan((c: PyTree) => [one(c as Tensor[]), null], carry, null, { length }) as [Tensor[], unknown];
    return c;
  };
  const chunks = Math.floor(s.steps / s.saveEvery);
  let carry = [device === undefined ? n0 : n0.on(device), ...init];
  let saved = init.slice(0, nSaved).map((x) => x.reshape([1, ...x.node.shape]));
  if (chunks > 0) {
    const [c, ys] = scan(
      (c: PyTree) => {
        const next = advance(c as Tensor[], s.saveEvery);
        return [next, next.slice(1, 1 + nSaved)];
      },
      carry,
      null,
      { length: chunks },
    ) as [Tensor[], Tensor[]];
    carry = c;
    saved = saved.map((first, i) => cat([first, ys[i]!]));
  }
  carry = advance(carry, s.steps - chunks * s.saveEvery);
  const times = Float64Array.from({ length: chunks + 1 }, (_, k) => s.t0 + k * s.saveEvery * s.dt);
  const t = tensor(times, { dtype: 'float64' });
  return { t: device === undefined ? t : t.on(device), saved, final: carry.slice(1) };
}
