// solveIvp's explicit stepper keeps every Runge–Kutta stage of a step only
// when something reads them (denseOutput, tEval, events: the interpolant);
// otherwise each attempt returns just the new state, the error sums and the
// FSAL stage. Both forms compute the same operations in the same order, so the
// accepted steps and states must agree bit for bit, traced (jit) or eager (an
// f that reads values), and the stepper refuses an interpolant it cannot build.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { RkStepper } from '../../src/integrate/solve-ivp-step.js';
import { TABLEAUS } from '../../src/integrate/solve-ivp-tableaus.js';

const { integrate } = rlx;
type T = rlx.Tensor;
const bits = (t: T): number[] => Array.from(t.toArray() as ArrayLike<number>);

// A 12-dim linear system y' = M y (M with a decaying and a rotating part) and a nonlinear one.
const n = 12;
const M = rlx.tensor(Array.from({ length: n * n }, (_, k) => {
  const i = Math.floor(k / n), j = k % n;
  return (i === j ? -0.3 : 0) + Math.sin(1 + 3 * i + 7 * j) / 4;
})).reshape([n, n]).realize();
const linear = (_t: T, y: T): T => M.matmul(y);
const nonlinear = (t: T, y: T): T => y.mul(y).neg().add(t.mul(0.1).sin());
const y0 = Array.from({ length: n }, (_, i) => 1 + i / 7);

describe('solveIvp: stages kept only for the interpolant', () => {
  for (const method of ['RK45', 'RK23', 'DOP853'] as const) {
    it(`${method}: the same steps and states with and without denseOutput (traced and eager f)`, () => {
      for (const f of [linear, nonlinear]) {
        // An f that reads a value cannot be traced: every attempt runs eagerly.
        const eager = (t: T, y: T): T => {
          if (!(Number(t.item()) > -1)) throw new Error('unreachable');
          return f(t, y);
        };
        for (const g of [f, eager]) {
          const plain = integrate.solveIvp(g, [0, 6], y0, { method, rtol: 1e-7, atol: 1e-9 });
          const dense = integrate.solveIvp(g, [0, 6], y0, { method, rtol: 1e-7, atol: 1e-9, denseOutput: true });
          expect(plain.status).toBe(0);
          // DOP853's interpolant costs 3 more evaluations of f per step (as in SciPy); the steps are the same.
          const steps = plain.t.shape[0] - 1;
          expect(dense.nfev).toBe(plain.nfev + (method === 'DOP853' ? 3 * steps : 0));
          expect(bits(plain.t)).toEqual(bits(dense.t));
          expect(bits(plain.y)).toEqual(bits(dense.y));
          expect(plain.t.shape[0]).toBeGreaterThan(5);
        }
      }
    });
  }

  it('a stepper made without keepStages keeps only the FSAL stage and refuses denseOutput', () => {
    const y = rlx.tensor(y0).realize();
    const rhs = (_t: number | T, x: T): T => M.matmul(x); // the stepper's Rhs: t a number outside the trace
    const s = new RkStepper(TABLEAUS.RK45, rhs, 0, y, 6, { rtol: 1e-3, atol: 1e-6 }, Infinity, undefined, false);
    const k = new RkStepper(TABLEAUS.RK45, rhs, 0, y, 6, { rtol: 1e-3, atol: 1e-6 }, Infinity, undefined);
    s.step();
    k.step();
    expect(s.K.length).toBe(1);
    expect(k.K.length).toBe(TABLEAUS.RK45.nStages + 1);
    expect(bits(s.y)).toEqual(bits(k.y));
    expect(bits(s.f)).toEqual(bits(k.K[k.K.length - 1]!));
    expect(() => s.denseOutput()).toThrow(/keepStages/);
    expect(k.denseOutput()).toBeDefined();
  });
});
