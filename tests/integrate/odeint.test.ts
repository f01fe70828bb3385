// integrate.odeint (JAX's odeint contract): values against closed forms,
// adjoint gradients against analytic derivatives, central differences of the
// forward solve, and reverse mode through the unrolled fixed-step solver
// (integrate.rk4 with a small dt); memory independent of the step count; the
// typed errors (bad inputs, jit/vmap, jvp, second derivatives, a closure over
// a differentiated value).

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import type { Node } from '../../src/compiler/ir.js';
import { expectAllclose } from '../harness/allclose.js';
import type { OdeintStats } from '../../src/integrate/odeint.js';

const { integrate } = rlx;
type T = rlx.Tensor;
const arr = (t: T): number[] => Array.from(t.toArray() as ArrayLike<number>);
const c = (y: T, i: number): T => y.select(0, i);
const newStats = (): OdeintStats => ({ forwardSteps: 0, backwardSteps: 0, nfev: 0, stateDepth: 0 });

const decay = (y: T, _t: T, k: T): T => y.mul(k).neg();
const TS = [0, 0.3, 1, 2.5];

// Lotka–Volterra with 4 params: x' = αx − βxy, y' = δxy − γy.
const lotka = (y: T, _t: T, a: T, b: T, g: T, d: T): T => {
  const x = c(y, 0), p = c(y, 1);
  return rlx.stack([x.mul(a).sub(x.mul(p).mul(b)), x.mul(p).mul(d).sub(p.mul(g))]);
};
const LV_Y0 = [1.2, 0.8];
const LV_P = [1.1, 0.6, 0.9, 0.5];
const LV_TS = [0, 0.5, 1.5, 3];
const LV_W = rlx.tensor([[0.3, -0.7], [1.1, 0.4], [-0.5, 0.9], [0.8, 0.2]]);
const lvLoss = (ys: T): T => ys.square().mul(LV_W).sum();

/** Central difference of a scalar function of a vector, component i. */
function central(fn: (v: number[]) => number, v: number[], i: number, h: number): number {
  const up = [...v], dn = [...v];
  up[i]! += h;
  dn[i]! -= h;
  return (fn(up) - fn(dn)) / (2 * h);
}

/** Nodes reachable from t's node (inputs, and the history a realized tracked node keeps). */
function graphSize(t: T): number {
  const seen = new Set<Node>();
  const todo: Node[] = [t.node];
  while (todo.length) {
    const n = todo.pop()!;
    if (seen.has(n)) continue;
    seen.add(n);
    todo.push(...n.inputs, ...(n.history?.inputs ?? []));
  }
  return seen.size;
}

describe('integrate.odeint values', () => {
  it("y' = −k y of any shape vs exp(−k t), with JAX's default tolerances", () => {
    const y0 = [[1, -2, 0.5], [3, 0.25, -1]];
    const k = 0.8;
    const ys = integrate.odeint(decay, rlx.tensor(y0), TS, rlx.tensor(k));
    expect(ys.shape).toEqual([4, 2, 3]);
    expect(ys.dtype).toBe('float64');
    const want = TS.flatMap((t) => y0.flat().map((v) => v * Math.exp(-k * t)));
    expectAllclose(arr(ys), want, { rtol: 1e-7, atol: 0 });
    // ys[0] is y0 exactly; ts as a tensor gives the same result.
    expect(arr(ys).slice(0, 6)).toEqual(y0.flat());
    expect(arr(integrate.odeint(decay, rlx.tensor(y0), rlx.tensor(TS), rlx.tensor(k)))).toEqual(arr(ys));
  });

  it('time-dependent f, a single time, numbers as params', () => {
    // y' = cos(ω t) → y = y0 + sin(ω t)/ω. t = 0.7 falls inside a step: the value comes from the
    // quartic dense output, whose error the step control does not bound (measured 7.9e-8 here, as in
    // JAX's odeint, which interpolates the same way); t = 2 is a step's end.
    const ys = integrate.odeint((_y: T, t: T, w: T) => t.mul(w).cos().mul(rlx.tensor([1, 1])), rlx.tensor([0.5, -1]), [0, 0.7, 2], 3);
    expectAllclose(arr(ys), [0.5, -1, ...[0.7, 2].flatMap((t) => [0.5 + Math.sin(3 * t) / 3, -1 + Math.sin(3 * t) / 3])], { rtol: 1e-7, atol: 2e-7 });
    expect(arr(integrate.odeint(decay, rlx.tensor([2]), [1], rlx.tensor(1)))).toEqual([2]);
  });
});

describe('integrate.odeint gradients (adjoint)', () => {
  it("y' = −k y: grad w.r.t. y0 and k vs the analytic derivative and central differences", () => {
    const y0 = [1, -2, 0.5];
    const w = rlx.tensor([[0.2, 1, -1], [0.5, -0.3, 2], [1, 1, 1], [-0.7, 0.4, 0.9]]);
    const loss = (yy: T, kk: T): T => integrate.odeint(decay, yy, TS, kk).mul(w).sum();
    const k = 0.8;
    const [gy, gk] = rlx.grad(loss, { argnums: [0, 1] })(rlx.tensor(y0), rlx.tensor(k)) as [T, T];
    const W = w.toArray() as Float64Array;
    // loss = Σ_i Σ_j w_ij y0_j e^{−k t_i}
    const dy = y0.map((_, j) => TS.reduce((s, t, i) => s + W[3 * i + j]! * Math.exp(-k * t), 0));
    const dk = TS.reduce((s, t, i) => s + y0.reduce((a, v, j) => a - W[3 * i + j]! * v * t * Math.exp(-k * t), 0), 0);
    expectAllclose(arr(gy), dy, { rtol: 1e-7, atol: 0 });
    expect(gk.shape).toEqual([]);
    expect(gk.item() as number).toBeCloseTo(dk, 7);
    const at = (yy: number[], kk: number): number => loss(rlx.tensor(yy), rlx.tensor(kk)).item() as number;
    y0.forEach((_, j) => expect(arr(gy)[j]!).toBeCloseTo(central((v) => at(v, k), y0, j, 1e-4), 6));
    expect(gk.item() as number).toBeCloseTo(central((v) => at(y0, v[0]!), [k], 0, 1e-4), 6);
  });

  it('no params, float32 y0: grad w.r.t. y0 in y0\'s dtype', () => {
    // y' = −y: ys = y0 e^{−t}, so d Σ ys / d y0 = Σ_i e^{−t_i} for every component.
    const g = rlx.grad((y: T) => integrate.odeint((v: T) => v.neg(), y, TS).sum())(rlx.tensor([1, 2], { dtype: 'float32' })) as T;
    expect(g.dtype).toBe('float32');
    const want = TS.reduce((a, t) => a + Math.exp(-t), 0);
    expectAllclose(arr(g), [want, want], { rtol: 1e-6, atol: 0 });
  });

  it('Lotka–Volterra, 4 params: grads vs central differences and vs grad through integrate.rk4 (dt = 1e-3)', () => {
    const P = LV_P.map((v) => rlx.tensor(v));
    const grads = rlx.grad((y: T, ...ps: T[]) => lvLoss(integrate.odeint(lotka, y, LV_TS, ...ps, { rtol: 1e-10, atol: 1e-10 })), { argnums: [0, 1, 2, 3, 4] })(rlx.tensor(LV_Y0), ...P) as T[];
    const g = [...arr(grads[0]!), ...grads.slice(1).map((t) => t.item() as number)];
    // Central differences of the forward solve (tight tolerances: its error, 1e-10-ish, over h = 1e-4, stays below 1e-6).
    const at = (v: number[]): number => lvLoss(integrate.odeint(lotka, rlx.tensor(v.slice(0, 2)), LV_TS, ...v.slice(2).map((x) => rlx.tensor(x)), { rtol: 1e-12, atol: 1e-12 })).item() as number;
    const v0 = [...LV_Y0, ...LV_P];
    const fd = v0.map((_, i) => central(at, v0, i, 1e-4));
    expectAllclose(g, fd, { rtol: 1e-6, atol: 1e-6 });
    // Reverse mode through the unrolled RK4 (3000 steps of 1e-3, saving at 0.5, 1.5, 3): its error is O(dt⁴) ~ 1e-11.
    const rkLoss = (y: T, ...ps: T[]): T => {
      const r = integrate.rk4((t, yy) => lotka(yy, t, ...(ps as [T, T, T, T])), y, { dt: 1e-3, steps: 3000, saveEvery: 500 }).y;
      return lvLoss(rlx.stack([0, 1, 3, 6].map((i) => c(r, i))));
    };
    const gr = rlx.grad(rkLoss, { argnums: [0, 1, 2, 3, 4] })(rlx.tensor(LV_Y0), ...P) as T[];
    expectAllclose(g, [...arr(gr[0]!), ...gr.slice(1).map((t) => t.item() as number)], { rtol: 1e-7, atol: 1e-8 });
  });

  it('vjp with a cotangent on every output time; params of several shapes', () => {
    // y' = A y + b (A 2×2, b 2-vector): the cotangent of y0 is Σ_i ct_i e^{A t_i} (b does not matter for it).
    const A = rlx.tensor([[-0.5, 1], [-1, -0.5]]);
    const b = rlx.tensor([0.3, -0.2]);
    const f = (y: T, _t: T, a: T, bb: T): T => rlx.matmul(a, y).add(bb);
    const ct = rlx.tensor([[1, 0], [0.5, 2], [-1, 1], [0.3, 0.3]]);
    const [, back] = rlx.vjp((y: T, a: T, bb: T) => integrate.odeint(f, y, TS, a, bb), rlx.tensor([1, 0.5]), A, b);
    const [gy, gA, gb] = back(ct) as [T, T, T];
    expect(gA.shape).toEqual([2, 2]);
    expect(gb.shape).toEqual([2]);
    // e^{A t} for A = [[−½, 1], [−1, −½]] is e^{−t/2} [[cos t, sin t], [−sin t, cos t]].
    const C = ct.toArray() as Float64Array;
    const want = [0, 1].map((j) => TS.reduce((s, t, i) => {
      const e = Math.exp(-t / 2), co = Math.cos(t), si = Math.sin(t);
      const M = [[co, si], [-si, co]];
      return s + e * (C[2 * i]! * M[0]![j]! + C[2 * i + 1]! * M[1]![j]!);
    }, 0));
    expectAllclose(arr(gy), want, { rtol: 1e-7, atol: 1e-9 });
    // gb vs central differences of Σ ct·ys.
    const at = (bv: number[]): number => integrate.odeint(f, rlx.tensor([1, 0.5]), TS, A, rlx.tensor(bv)).mul(ct).sum().item() as number;
    [0, 1].forEach((j) => expect(arr(gb)[j]!).toBeCloseTo(central(at, [0.3, -0.2], j, 1e-4), 6));
  });
});

describe('integrate.odeint memory', () => {
  it('10× more steps keep the same graph: no per-step tensors are kept', () => {
    // The harmonic oscillator y'' = −y over [0, T] and [0, 10 T]: the step count
    // grows ~10×, but the forward result and the adjoint gradient are the same
    // number of graph nodes (host leaves behind one custom node), so nothing of
    // the steps is retained by the values grad keeps or returns.
    const osc = (y: T, _t: T, w: T): T => rlx.stack([c(y, 1), c(y, 0).mul(w.square()).neg()]);
    const run = (tEnd: number) => {
      const stats = newStats();
      let ys: T | undefined;
      const g = rlx.grad((y0: T, w: T) => {
        ys = integrate.odeint(osc, y0, [0, tEnd / 2, tEnd], w, { stats });
        return ys.square().sum();
      }, { argnums: [0, 1] })(rlx.tensor([1, 0]), rlx.tensor(1.3)) as [T, T];
      return { stats, forward: graphSize(ys!), grads: g.map(graphSize), g };
    };
    const short = run(5), long = run(50);
    expect(long.stats.forwardSteps).toBeGreaterThanOrEqual(8 * short.stats.forwardSteps);
    expect(long.stats.backwardSteps).toBeGreaterThanOrEqual(8 * short.stats.backwardSteps);
    expect(short.stats.backwardSteps).toBeGreaterThan(0);
    // Inside the solves: the state carried from step to step is a realized value, not a graph
    // chaining the steps (depth ≤ a few nodes, the same for 10× the steps).
    expect(long.stats.stateDepth).toBe(short.stats.stateDepth);
    expect(short.stats.stateDepth).toBeLessThan(5);
    expect(long.forward).toBe(short.forward);
    expect(long.grads).toEqual(short.grads);
    expect(short.forward).toBeLessThan(20);
    // Energy-like check of the values: y(t) = cos(ω t), so Σ ys² is known: d/dy0[1] at y0 = (1, 0) vs central differences.
    const at = (v: number): number => integrate.odeint(osc, rlx.tensor([1, v]), [0, 25, 50], rlx.tensor(1.3)).square().sum().item() as number;
    expect(arr(long.g[0])[1]!).toBeCloseTo(central((x) => at(x[0]!), [0], 0, 1e-4), 5);
  });
});

describe('integrate.odeint errors', () => {
  const k = rlx.tensor(0.5);
  it('typed errors for bad inputs', () => {
    expect(() => integrate.odeint(decay, rlx.tensor([1, NaN]), TS, k)).toThrow(rlx.ValueError);
    expect(() => integrate.odeint(decay, rlx.tensor([1, NaN]), TS, k)).toThrow(/integrate\.odeint: y0.*NaN.*\[1\]/);
    expect(() => integrate.odeint(decay, rlx.tensor([1, 2]), [0, 2, 1], k)).toThrow(rlx.ValueError);
    expect(() => integrate.odeint(decay, rlx.tensor([1, 2]), [0, 2, 1], k)).toThrow(/strictly increasing.*ts\[1\] = 2, ts\[2\] = 1/);
    expect(() => integrate.odeint(decay, rlx.tensor([1, 2]), [], k)).toThrow(rlx.ValueError);
    expect(() => integrate.odeint(decay, rlx.tensor([1, 2]), [0, Infinity], k)).toThrow(/finite/);
    expect(() => integrate.odeint(decay, rlx.tensor([1, 2]), rlx.tensor([[0, 1]]), k)).toThrow(rlx.ShapeError);
    expect(() => integrate.odeint((y: T) => y.sum(), rlx.tensor([1, 2]), TS)).toThrow(rlx.ShapeError);
    expect(() => integrate.odeint((y: T) => y.sum(), rlx.tensor([1, 2]), TS)).toThrow(/returned shape \[\].*y0 has shape \[2\]/);
    expect(() => integrate.odeint((() => 3) as never, rlx.tensor([1, 2]), TS)).toThrow(rlx.DTypeError);
    expect(() => integrate.odeint(decay, rlx.tensor([1, 2]), TS, 'k' as never)).toThrow(rlx.ValueError);
    expect(() => integrate.odeint(decay, rlx.complex(rlx.tensor([1]), rlx.tensor([1])), TS, k)).toThrow(/complex states are not supported/);
    expect(() => integrate.odeint(decay, rlx.tensor([1, 2]), TS, k, { rtol: -1 })).toThrow(/rtol/);
    expect(() => integrate.odeint(decay, rlx.tensor([1, 2]), TS, k, { tol: 1 } as never)).toThrow(/unknown option 'tol'/);
    expect(() => integrate.odeint(decay, rlx.tensor([1, 2]), [0, 100], k, { mxstep: 3 })).toThrow(/mxstep = 3/);
  });

  it('jit and vmap: TransformError (a host loop)', () => {
    expect(() => rlx.jit((y: T) => integrate.odeint(decay, y, TS, k))(rlx.tensor([1, 2]))).toThrow(rlx.TransformError);
    expect(() => rlx.jit((kk: T) => integrate.odeint(decay, rlx.tensor([1, 2]), TS, kk))(k)).toThrow(/cannot run inside jit or vmap/);
    expect(() => rlx.vmap((y: T) => integrate.odeint(decay, y, TS, k))(rlx.tensor([[1, 2], [3, 4]]))).toThrow(rlx.TransformError);
  });

  it('jvp, second derivatives and closures over a differentiated value: TransformError, never a silent zero', () => {
    expect(() => rlx.jvp((y: T) => integrate.odeint(decay, y, TS, k), [rlx.tensor([1, 2])], [rlx.tensor([1, 0])])).toThrow(/reverse mode only/);
    expect(() => rlx.jvp((y: T) => integrate.odeint(decay, y, TS, k), [rlx.tensor([1, 2])], [rlx.tensor([1, 0])])).toThrow(rlx.TransformError);
    const gk = (kk: T): T => rlx.grad((q: T) => integrate.odeint(decay, rlx.tensor([1, 2]), TS, q).sum())(kk) as T;
    expect(() => rlx.grad(gk)(k)).toThrow(/not itself differentiable/);
    expect(() => rlx.grad((q: T) => integrate.odeint((y: T) => y.mul(q), rlx.tensor([1, 2]), TS).sum())(k)).toThrow(/pass it as a param/);
    expect(() => rlx.grad((ts: T) => integrate.odeint(decay, rlx.tensor([1, 2]), ts, k).sum())(rlx.tensor(TS))).toThrow(/with respect to ts/);
  });
});
