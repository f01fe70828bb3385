// integrate.rk4: the classical fourth-order Runge–Kutta method with a fixed
// step, for y' = f(t, y) with y a tensor of any shape (real or complex). The
// steps are one scan node (march.ts): jit-able, differentiable with respect to
// y0 and to anything f reads from the differentiated function's arguments,
// and vmappable.

import { Tensor } from '../tensor/tensor.js';
import type { TensorData } from '../tensor/create.js';
import { ValueError } from '../tensor/errors.js';
import { checkFiniteState, checkReturn, march, schedule, stateArg, timeAt, type FixedStepOptions } from './march.js';

/** rk4's result: the saved states and the final one. */
export interface Rk4Result {
  /** Times of the saved states, float64 [k]: t0, t0 + saveEvery·dt, ... */
  t: Tensor;
  /** The saved states [k, ...y0.shape]: y0 first, then every saveEvery steps. */
  y: Tensor;
  /** The state after all `steps` steps (also y's last row when saveEvery divides steps). */
  yFinal: Tensor;
}

const OP = 'integrate.rk4';

/**
 * Integrates y' = f(t, y) from y(t0) = y0 with `steps` classical RK4 steps of dt
 * (global error O(dt⁴)).
 *
 * f(t, y) receives t as a scalar tensor of y's real dtype (float64 for float64
 * and complex128 states) and y with y0's shape and dtype, and must return a
 * tensor of that shape and dtype (a ShapeError / DTypeError otherwise, raised
 * when f is traced). Integer y0 is integrated in float64. Non-finite values in
 * y0 are a NonFiniteError (a ValueError); checking reads y0 once (unless it is
 * a jit/vmap input). f is traced once: it must be written with tensor ops,
 * not branch on values.
 * @example
 * ```ts
 * // y' = -y, y(0) = 1, to t = 1 in 10 steps
 * const { t, y, yFinal } = integrate.rk4((t, y) => y.neg(), tensor([1]), { dt: 0.1, steps: 10 });
 * yFinal.tolist();   // [0.36787977...]  (exp(-1) = 0.36787944...)
 * y.shape;           // [11, 1]: y0 and every step
 * ```
 */
export function rk4(f: (t: Tensor, y: Tensor) => Tensor, y0: Tensor | TensorData, opts: FixedStepOptions): Rk4Result {
  const s = schedule(OP, opts);
  if (typeof f !== 'function') throw new ValueError(`${OP}: f must be a function f(t, y), got ${typeof f}`);
  const y = stateArg(OP, 'y0', y0);
  checkFiniteState(OP, 'y0', y);
  const h = s.dt;
  const rhs = (t: Tensor, v: Tensor) => checkReturn(OP, 'f(t, y)', f(t, v), v, 'y');
  const step = (n: Tensor, [v]: Tensor[]): Tensor[] => {
    const d = v!.dtype;
    const tn = timeAt(n, 0, s, d),
      tm = timeAt(n, 0.5, s, d),
      t1 = timeAt(n, 1, s, d);
    const k1 = rhs(tn, v!);
    const k2 = rhs(tm, v!.add(k1.mul(h / 2)));
    const k3 = rhs(tm, v!.add(k2.mul(h / 2)));
    const k4 = rhs(t1, v!.add(k3.mul(h)));
    return [v!.add(k1.add(k2.add(k3).mul(2)).add(k4).mul(h / 6))];
  };
  const r = march(step, [y], 1, s);
  return { t: r.t, y: r.saved[0]!, yFinal: r.final[0]! };
}
