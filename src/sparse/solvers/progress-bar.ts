// The `progress` option of the Krylov solvers (SolveOptions.progress): the bar
// drive() (common.ts) runs while the cores iterate. Kept apart from the
// solvers because its only concern is the display.
//
// The cores report every iteration through Problem.onStep(iteration, residual
// estimate): the number they already have, never the iterate (GMRES forms x
// for a `callback` at O(k·n) per step; the bar must not). The hook stores two
// numbers, takes two logarithms and calls Progress.update (a clock read; the
// line is formatted only when redrawn, at most every 100 ms), and it is
// installed only when the bar draws at all (a TTY), so a solve pays one null
// check per iteration otherwise.
//
// The fraction shown is the larger of the way from the first residual r0 to
// the target on a log scale, log(r0/r)/log(r0/target), and the iteration
// budget used, k/maxiter: both reach 1 exactly when the driver stops
// (converged, or maxiter), and it never moves backwards (BiCGSTAB's residual
// is not monotone).

import { barFor } from '../../progress.js';
import type { Problem, SolveResult } from './common.js';
import { ldexp } from './vec.js';

export interface KrylovBar {
  /** Problem.onStep: iteration (1-based, across restarts) and the residual estimate in the cores' (scaled) units. */
  step(iteration: number, residualNorm: number): void;
  /** Draws the result's final state and ends the line. */
  finish(res: SolveResult): void;
  /** Clears the line (an exception is on its way out). */
  abort(): void;
}

const fmt = (v: number): string => v.toExponential(2);

/** The bar for p.progress from the first true residual r0 (> target), or null when nothing would be drawn. */
export function krylovBar(p: Problem, r0: number): KrylovBar | null {
  const bar = barFor(p.progress, p.name, 1);
  if (bar === null) return null;
  const logSpan = Math.log(r0 / p.target); // > 0; Infinity for target 0 (then only the budget counts)
  const unscale = (v: number): number => (p.scaleExp === 0 ? v : ldexp(v, -p.scaleExp));
  let best = 0,
    lastIt = 0,
    lastRes = r0;
  // One closure for every redraw: nothing is allocated per iteration.
  const detail = (): string => `it ${lastIt}, residual ${fmt(unscale(lastRes))} (target ${fmt(unscale(p.target))})`;
  return {
    step(it, rn) {
      lastIt = it;
      lastRes = rn;
      const f = Math.max(Math.log(r0 / rn) / logSpan, it / p.maxiter);
      if (f > best) best = f; // NaN (a NaN residual) leaves it as it was
      bar.update(best, detail);
    },
    finish(res) {
      const state = res.converged ? 'converged' : res.info > 0 ? 'not converged' : `breakdown (${res.breakdown ?? 'info -1'})`;
      bar.update(res.converged ? 1 : best);
      bar.done(`${state}: ${res.iterations} it, residual ${fmt(res.residualNorm)} (target ${fmt(unscale(p.target))})`);
    },
    abort() {
      bar.done(undefined, { clear: true });
    },
  };
}
