// Dense output of integrate.solveIvp: the interpolant of one accepted step
// (SciPy's RkDenseOutput, Dop853DenseOutput and ConstantDenseOutput in
// scipy/integrate/_ivp/rk.py and base.py) and the piecewise solution over all
// steps (OdeSolution in common.py), with SciPy's choice of segment at step
// boundaries and outside the interval (the first or last step extrapolates).
//
// Each interpolant is y(t_old + x·h) = y_old + Σ_k w_k(x)·R_k with rows R_k of
// y's shape: evaluating m times is one [m, K] × [K, n] product with the
// weights computed on the host in float64.

import { Tensor } from '../tensor/tensor.js';
import { fromStorage, tensor } from '../tensor/create.js';
import { stack } from '../tensor/ops/movement.js';
import { DTYPE_INFO } from '../tensor/dtype.js';

/** The weights w_k(x) of an interpolant's rows at x = (t − t_old)/h, h = t_new − t_old. */
export type Weights = (x: number, h: number) => number[];

/** Weights of the power form: y_old + h Σ_j Q_j x^(j+1) (RK23's Hermite cubic, RK45's quartic). */
const powerWeights =
  (k: number): Weights =>
  (x, h) => {
    const w = new Array<number>(k);
    let p = x;
    for (let j = 0; j < k; j++, p *= x) w[j] = h * p;
    return w;
  };

/**
 * Weights of DOP853's 7 rows F_0..F_6: SciPy evaluates the nested form
 * ((((F6·x + F5)(1−x) + F4)·x + F3)(1−x) + ...)·x, the factor after adding F_k
 * being x for even k and 1−x for odd k, so F_k's weight is the product of the
 * factors of F_k, F_(k−1), ..., F_0: x, x(1−x), x²(1−x), x²(1−x)², ...
 */
const dop853Weights: Weights = (x) => {
  const w = new Array<number>(7);
  let prod = 1;
  for (let k = 0; k < 7; k++) {
    prod *= k % 2 === 0 ? x : 1 - x;
    w[k] = prod;
  }
  return w;
};

/** The interpolant of one step from t_old to t. */
export class Interpolant {
  private R: Tensor | undefined;
  private constructor(
    readonly tOld: number,
    readonly t: number,
    private readonly yOld: Tensor,
    private readonly rows: readonly Tensor[],
    private readonly weights: Weights | undefined,
  ) {}

  static power(tOld: number, t: number, yOld: Tensor, Q: readonly Tensor[]): Interpolant {
    return new Interpolant(tOld, t, yOld, Q, powerWeights(Q.length));
  }
  static dop853(tOld: number, t: number, yOld: Tensor, F: readonly Tensor[]): Interpolant {
    return new Interpolant(tOld, t, yOld, F, dop853Weights);
  }
  /** base + Σ_k w_k(x)·rows_k with the method's own weights (the implicit methods' interpolants). */
  static weighted(tOld: number, t: number, base: Tensor, rows: readonly Tensor[], weights: Weights): Interpolant {
    return new Interpolant(tOld, t, base, rows, weights);
  }
  /** A zero-length step (t_old = t) or an empty state: the value everywhere. */
  static constant(tOld: number, t: number, y: Tensor): Interpolant {
    return new Interpolant(tOld, t, y, [], undefined);
  }

  /** The states at times ts: [ts.length, ...y.shape], realized. */
  at(ts: readonly number[]): Tensor {
    const shape = this.yOld.shape,
      m = ts.length;
    const n = this.yOld.size;
    if (this.weights === undefined) return this.yOld.reshape([1, ...shape]).broadcastTo([m, ...shape]).realize();
    // The coefficient rows are computed once, at the first evaluation.
    const R = (this.R ??= stack(this.rows).reshape([this.rows.length, n]).realize());
    const h = this.t - this.tOld,
      k = this.rows.length;
    const W = new Float64Array(m * k);
    for (let i = 0; i < m; i++) W.set(this.weights((ts[i]! - this.tOld) / h, h), i * k);
    const dev = this.yOld.device;
    const w = tensor(W, { shape: [m, k] });
    const y = (dev === undefined ? w : w.on(dev)).matmul(R).add(this.yOld.reshape([1, n]));
    return y.reshape([m, ...shape]).realize();
  }
}

/**
 * The piecewise solution over the steps ts[0] → ts[1] → ... (SciPy's
 * OdeSolution): a time on a step boundary takes the earlier step's
 * interpolant; times outside the interval extrapolate the first/last step.
 */
export class PiecewiseSolution {
  private readonly ascending: boolean;
  constructor(
    readonly ts: readonly number[],
    private readonly interpolants: readonly Interpolant[],
  ) {
    this.ascending = ts[ts.length - 1]! >= ts[0]!;
  }

  /** The segment of time t: SciPy's searchsorted(side='left'/'right') and clamping. */
  segment(t: number): number {
    const nSeg = this.interpolants.length,
      ts = this.ts;
    // Number of boundaries strictly before t in the direction of integration (ascending: ts < t; descending: ts > t).
    let lo = 0,
      hi = ts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ascending ? ts[mid]! < t : ts[mid]! > t) lo = mid + 1;
      else hi = mid;
    }
    return Math.min(Math.max(lo - 1, 0), nSeg - 1);
  }

  /** The states at `times` (in any order): [times.length, ...y.shape]. */
  at(times: readonly number[], like: Tensor): Tensor {
    const groups = new Map<number, number[]>();
    times.forEach((t, i) => {
      const s = this.segment(t);
      const g = groups.get(s);
      if (g === undefined) groups.set(s, [i]);
      else g.push(i);
    });
    if (groups.size === 1) {
      const [s] = groups.keys();
      return this.interpolants[s!]!.at(times);
    }
    // Several segments: evaluate each group and write its rows into place.
    const row = like.size * DTYPE_INFO[like.dtype].lanes;
    const out = new Float64Array(times.length * row);
    for (const [s, idx] of groups) {
      const v = this.interpolants[s]!.at(idx.map((i) => times[i]!)).toArray() as Float64Array;
      idx.forEach((i, r) => out.set(v.subarray(r * row, (r + 1) * row), i * row));
    }
    return fromStorage(out, [times.length, ...like.shape], like.dtype, like.device);
  }
}
