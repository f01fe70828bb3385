// integrate.velocityVerlet and integrate.leapfrog: the two second-order
// symplectic splittings of a separable Hamiltonian H = |p|²/2m + V(q), given
// the force F(q) = −∇V(q). Symplectic maps conserve a shadow Hamiltonian
// H + O(dt²), so the energy error stays bounded over any number of steps
// instead of drifting (RK4's does drift). One force evaluation per step.
//
// - velocityVerlet is kick–drift–kick: p ← p + dt/2·F(q); q ← q + dt·p/m;
//   p ← p + dt/2·F(q). The force at the new q is carried to the next step's
//   first kick, so it is evaluated once per step.
// - leapfrog is drift–kick–drift (position Verlet): q ← q + dt/2·p/m;
//   p ← p + dt·F(q); q ← q + dt/2·p/m. (Velocity Verlet is the same leapfrog
//   in its kick–drift–kick form; both are exact for free motion and have the
//   same order, they differ in which variable is evaluated at half steps.)
// Both return q and p at the same (integer) steps.

import { Tensor } from '../tensor/tensor.js';
import type { TensorData } from '../tensor/create.js';
import { ShapeError, ValueError } from '../tensor/errors.js';
import { broadcastShapes, fmtShape, shapesEqual } from '../tensor/shape.js';
import { promoteTypes } from '../tensor/dtype.js';
import { checkFiniteState, checkReturn, march, schedule, stateArg, type FixedStepOptions } from './march.js';

export interface HamiltonianOptions extends FixedStepOptions {
  /** The mass: a positive number (default 1) or a tensor broadcastable to q's shape (per coordinate). */
  mass?: number | Tensor | TensorData;
}

/** The result of a symplectic integration: saved states and the final one. */
export interface HamiltonianResult {
  /** Times of the saved states, float64 [k]. */
  t: Tensor;
  /** Saved positions [k, ...q0.shape]: q0 first, then every saveEvery steps. */
  q: Tensor;
  /** Saved momenta [k, ...q0.shape], at the same times as q. */
  p: Tensor;
  /** Position after all steps. */
  qFinal: Tensor;
  /** Momentum after all steps. */
  pFinal: Tensor;
}

type Force = (q: Tensor) => Tensor;

interface Prepared {
  q: Tensor;
  p: Tensor;
  /** p/m as a function (a number mass folds into the step's scalar). */
  velocity: (p: Tensor, h: number) => Tensor;
  force: Force;
}

function prepare(op: string, force: Force, q0: Tensor | TensorData, p0: Tensor | TensorData, opts: HamiltonianOptions): Prepared {
  if (typeof force !== 'function') throw new ValueError(`${op}: force must be a function force(q) returning −∇V(q), got ${typeof force}`);
  let q = stateArg(op, 'q0', q0);
  let p = stateArg(op, 'p0', p0);
  if (!shapesEqual(q.node.shape, p.node.shape)) throw new ShapeError(`${op}: q0 ${fmtShape(q.node.shape)} and p0 ${fmtShape(p.node.shape)} must have the same shape`);
  const d = promoteTypes(q.dtype, p.dtype);
  if (q.dtype !== d) q = q.cast(d);
  if (p.dtype !== d) p = p.cast(d);
  checkFiniteState(op, 'q0', q);
  checkFiniteState(op, 'p0', p);
  const mass = opts.mass ?? 1;
  let velocity: Prepared['velocity'];
  if (typeof mass === 'number') {
    if (!Number.isFinite(mass) || mass <= 0) throw new ValueError(`${op}: mass must be a finite positive number, got ${mass}`);
    velocity = (v, h) => v.mul(h / mass);
  } else {
    let m = stateArg(op, 'mass', mass);
    const b = broadcastShapes(op, m.node.shape, q.node.shape);
    if (!shapesEqual(b, q.node.shape)) throw new ShapeError(`${op}: mass of shape ${fmtShape(m.node.shape)} does not broadcast to q0's shape ${fmtShape(q.node.shape)}`);
    if (m.dtype !== d) m = m.cast(d);
    if (!m.node.symbolic) {
      const bad = Array.from(m.toArray() as ArrayLike<number>).find((x) => !(x > 0 && Number.isFinite(x)));
      if (bad !== undefined) throw new ValueError(`${op}: mass must be finite and positive, found ${bad}`);
    }
    const mm = m;
    velocity = (v, h) => v.div(mm).mul(h);
  }
  const f: Force = (x) => checkReturn(op, 'force(q)', force(x), x, 'q');
  return { q, p, velocity, force: f };
}

const result = (r: ReturnType<typeof march>): HamiltonianResult => ({ t: r.t, q: r.saved[0]!, p: r.saved[1]!, qFinal: r.final[0]!, pFinal: r.final[1]! });

/**
 * Velocity Verlet (kick–drift–kick) for q' = p/m, p' = force(q), force(q) =
 * −∇V(q) a tensor of q's shape and dtype: symplectic and time-reversible,
 * global error O(dt²), energy error bounded (no drift) for a stable dt.
 * q0 and p0 are promoted to one dtype; non-finite values are a NonFiniteError
 * (checking reads them once, unless they are jit/vmap inputs).
 * @example
 * ```ts
 * // harmonic oscillator V(q) = q²/2 (force −q), q(0) = 1, p(0) = 0: q(t) = cos t, p(t) = −sin t
 * const r = integrate.velocityVerlet((q) => q.neg(), tensor([1]), tensor([0]), { dt: 0.01, steps: 100 });
 * r.qFinal.item();   // ≈ 0.54030  (cos 1 = 0.540302; O(dt²) error)
 * r.pFinal.item();   // ≈ -0.84146  (−sin 1 = -0.841471)
 * r.q.shape;         // [101, 1]: q0 and every step
 * ```
 */
export function velocityVerlet(force: Force, q0: Tensor | TensorData, p0: Tensor | TensorData, opts: HamiltonianOptions): HamiltonianResult {
  const op = 'integrate.velocityVerlet';
  const s = schedule(op, opts);
  const { q, p, velocity, force: F } = prepare(op, force, q0, p0, opts);
  const h = s.dt;
  // State [q, p, F(q)]: the force at the end of a step is the next step's first kick.
  const step = (_n: Tensor, [x, v, a]: Tensor[]): Tensor[] => {
    const vh = v!.add(a!.mul(h / 2));
    const x1 = x!.add(velocity(vh, h));
    const a1 = F(x1);
    return [x1, vh.add(a1.mul(h / 2)), a1];
  };
  return result(march(step, [q, p, F(q)], 2, s));
}

/**
 * Leapfrog in its drift–kick–drift form (position Verlet): q ← q + dt/2·p/m,
 * p ← p + dt·force(q), q ← q + dt/2·p/m. Symplectic, time-reversible, O(dt²),
 * one force evaluation per step; q and p are returned at integer steps. Same
 * arguments and checks as velocityVerlet (its kick–drift–kick twin).
 * @example
 * ```ts
 * // harmonic oscillator (force −q), q(0) = 1, p(0) = 0: q(t) = cos t, p(t) = −sin t
 * const r = integrate.leapfrog((q) => q.neg(), tensor([1]), tensor([0]), { dt: 0.01, steps: 100 });
 * r.qFinal.item();   // ≈ 0.54030  (cos 1 = 0.540302)
 * r.pFinal.item();   // ≈ -0.84148  (−sin 1 = -0.841471)
 * ```
 */
export function leapfrog(force: Force, q0: Tensor | TensorData, p0: Tensor | TensorData, opts: HamiltonianOptions): HamiltonianResult {
  const op = 'integrate.leapfrog';
  const s = schedule(op, opts);
  const { q, p, velocity, force: F } = prepare(op, force, q0, p0, opts);
  const h = s.dt;
  const step = (_n: Tensor, [x, v]: Tensor[]): Tensor[] => {
    const xh = x!.add(velocity(v!, h / 2));
    const v1 = v!.add(F(xh).mul(h));
    return [xh.add(velocity(v1, h / 2)), v1];
  };
  return result(march(step, [q, p], 2, s));
}
