// The Krylov solvers' `progress` option (issue 16): a bar on a TTY stream that
// follows the residual to the target and ends with the outcome; nothing at all
// off a TTY; no iterate formed for it (GMRES); and no measurable cost per
// iteration (measured on CG for the 1-D Poisson matrix, ~10⁴ iterations).
//
// A fake stream stands for the terminal (progress.ts takes any {isTTY, write}),
// with intervalMs 0 and a frozen clock so that every update is drawn and the
// drawn lines can be checked against the residuals the solver's `callback`
// reports independently.

import { describe, expect, it } from 'vitest';
import { bicgstab, cg, gmres, minres, type SolveOptions, type SolveResult } from '../../src/sparse/solvers/index.js';
import * as sparse from '../../src/sparse/index.js';
import { tensor } from '../../src/tensor/create.js';
import { ValueError } from '../../src/tensor/errors.js';
import type { ProgressStream } from '../../src/progress.js';
import { poisson1d } from './solvers/util.js';
import { krylovBar } from '../../src/sparse/solvers/progress-bar.js';
import { compareCpuCost } from '../harness/cpu-cost.js';

function sink(isTTY: boolean): ProgressStream & { out: string[] } {
  const out: string[] = [];
  return { isTTY, columns: 200, out, write: (s: string) => (out.push(s), true) };
}
/** The visible text of every drawn line (redraws start with \r and end with ESC[K). */
const lines = (s: { out: string[] }): string[] => s.out.filter((w) => w.startsWith('\r') && w.length > 4).map((w) => w.slice(1, -3));
const pct = (line: string): number => Number(/\]\s+(\d+)%/.exec(line)![1]);

const ones = (n: number): Float64Array => new Float64Array(n).fill(1);
type Raw = (A: never, b: Float64Array, o: SolveOptions) => SolveResult;
const SOLVERS: [string, Raw][] = [
  ['cg', cg as Raw],
  ['bicgstab', bicgstab as Raw],
  ['gmres', gmres as Raw],
  ['minres', minres as Raw],
];

describe('Krylov progress bars', () => {
  for (const [name, solve] of SOLVERS) {
    it(`${name}: every iteration is drawn with its residual; the bar ends at 100% with the outcome`, () => {
      const n = 40;
      const A = poisson1d(n);
      const s = sink(true);
      const seen: { it: number; res: number }[] = [];
      const rtol = 1e-8;
      const r = solve(A as never, ones(n), { rtol, callback: (_x, it, res) => seen.push({ it, res }), progress: { stream: s, intervalMs: 0, now: () => 0 } });
      expect(r.converged).toBe(true);
      const drawn = lines(s);
      // One line per callback (intervalMs 0), then the final state; done() ends the line.
      expect(drawn.length).toBe(seen.length + 2);
      expect(s.out.at(-1)).toBe('\n');
      // The fraction: the way from r0 = ‖b‖ (x0 = 0) to rtol·‖b‖ on a log scale, or the budget used, never decreasing.
      const r0 = Math.sqrt(n),
        target = rtol * r0;
      let best = 0;
      seen.forEach(({ it, res }, k) => {
        best = Math.max(best, Math.log(r0 / res) / Math.log(r0 / target), it / (10 * n));
        const line = drawn[k]!;
        expect(line.startsWith(`${name} [`)).toBe(true);
        expect(line).toContain(`it ${it}, residual ${res.toExponential(2)} (target ${target.toExponential(2)})`);
        expect(pct(line)).toBe(Math.floor(Math.min(1, best) * 100));
      });
      const last = drawn.at(-1)!;
      expect(pct(last)).toBe(100);
      expect(last).toContain(`converged: ${r.iterations} it, residual ${r.residualNorm.toExponential(2)} (target ${target.toExponential(2)})`);
    });

    it(`${name}: nothing is written when the stream is not a TTY, and the result is the same bit for bit`, () => {
      const A = poisson1d(30);
      const s = sink(false);
      const a = solve(A as never, ones(30), { progress: { stream: s } });
      const b = solve(A as never, ones(30), {});
      expect(s.out).toEqual([]);
      expect(a.iterations).toBe(b.iterations);
      expect(Array.from(a.x)).toEqual(Array.from(b.x));
    });
  }

  it('runs out of iterations: the bar shows the budget used (100%) and says not converged', () => {
    const s = sink(true);
    const r = cg(poisson1d(100) as never, ones(100), { maxiter: 7, progress: { stream: s, intervalMs: 0, now: () => 0 } });
    expect(r.converged).toBe(false);
    const last = lines(s).at(-1)!;
    expect(pct(last)).toBe(100);
    expect(last).toContain('not converged: 7 it');
  });

  it('GMRES forms no iterate for the bar (a callback does: M is applied to V y at every step)', () => {
    const A = poisson1d(60);
    const count = (o: SolveOptions): number => {
      let applied = 0; // M = I, counting its applications
      const M = { shape: [60, 60] as [number, number], dtype: 'float64' as const, matvec: (x: Float64Array) => (applied++, x.slice()) };
      gmres(A as never, ones(60), { ...o, M: M as never, restart: 20, maxiter: 40 });
      return applied;
    };
    const plain = count({});
    expect(count({ callback: () => {} })).toBeGreaterThan(plain); // the check can tell
    expect(count({ progress: { stream: sink(true), intervalMs: 0, now: () => 0 } })).toBe(plain);
  });

  it('shows residuals in the caller’s units when b is solved scaled (|b| ~ 1e100)', () => {
    const s = sink(true);
    const b = ones(20).map(() => 1e100);
    const r = cg(poisson1d(20) as never, b, { progress: { stream: s, intervalMs: 0, now: () => 0 } });
    const target = 1e-5 * 1e100 * Math.sqrt(20);
    expect(lines(s).at(-1)!).toContain(`converged: ${r.iterations} it, residual ${r.residualNorm.toExponential(2)} (target ${target.toExponential(2)})`);
    expect(r.residualNorm).toBeGreaterThan(1e80); // unscaled
  });

  it('clears its line when the solve throws (the error then starts at column 0)', () => {
    const s = sink(true);
    const boom = (_x: Float64Array, it: number): void => {
      if (it === 3) throw new Error('stop');
    };
    expect(() => cg(poisson1d(20) as never, ones(20), { callback: boom, progress: { stream: s, intervalMs: 0, now: () => 0 } })).toThrow('stop');
    expect(s.out.at(-1)).toBe('\r\x1b[K');
  });

  it('sparse.cg (Tensor API) and sparse.raw.minres pass the option through; a label replaces the solver name', () => {
    const s = sink(true);
    const r = sparse.cg(poisson1d(25) as never, tensor(Array.from(ones(25))), { progress: { stream: s, label: 'heat', intervalMs: 0, now: () => 0 } });
    const last = lines(s).at(-1)!;
    expect(last.startsWith('heat [')).toBe(true);
    expect(last).toContain(`converged: ${r.iterations} it`);
    const s2 = sink(true);
    const r2 = sparse.raw.minres(poisson1d(25) as never, ones(25), { progress: { stream: s2, intervalMs: 0, now: () => 0 } });
    expect(lines(s2).at(-1)!).toContain(`converged: ${r2.iterations} it`);
  });

  it('progress: true draws on process.stderr only when it is a TTY (silent under vitest)', () => {
    const writes: unknown[] = [];
    const orig = process.stderr.write;
    process.stderr.write = ((s: unknown) => (writes.push(s), true)) as typeof process.stderr.write;
    try {
      cg(poisson1d(20) as never, ones(20), { progress: true });
    } finally {
      process.stderr.write = orig;
    }
    expect(process.stderr.isTTY === true ? writes.length > 0 : writes.length === 0).toBe(true);
  });

  it('a progress option that is neither a boolean nor options is a ValueError naming the solver', () => {
    expect(() => cg(poisson1d(5) as never, ones(5), { progress: 'yes' as never })).toThrow(ValueError);
    expect(() => gmres(poisson1d(5) as never, ones(5), { progress: 'yes' as never })).toThrow(/gmres: progress must be a boolean/);
    expect(() => cg(poisson1d(5) as never, ones(5), { progress: { stream: {} } as never })).toThrow(/progress.stream must have a write/);
  });

  it('the hook costs well under a microsecond per iteration on a TTY (measured; a CG iteration here is tens of µs)', () => {
    const p = { name: 'cg', target: 1e-10, maxiter: 1e7, scaleExp: 0, progress: { stream: { isTTY: true, columns: 120, write: () => true } } };
    const bar = krylovBar(p as never, 1)!;
    const N = 2_000_000;
    bar.step(1, 0.5); // warm up
    let best = Infinity;
    for (let rep = 0; rep < 3; rep++) {
      const t0 = performance.now();
      for (let i = 1; i <= N; i++) bar.step(i, 1 / i);
      best = Math.min(best, ((performance.now() - t0) / N) * 1e6);
    }
    console.log(`krylov progress hook: ${best.toFixed(1)} ns per iteration (TTY, 100 ms redraws)`);
    expect(best).toBeLessThan(1000);
  });

  it('CG on the 1-D Poisson matrix, ~10⁴ iterations: off / on without a TTY / on a TTY take the same time (measured, CPU time)', () => {
    const n = 10_000;
    const A = poisson1d(n);
    const b = Float64Array.from({ length: n }, (_, i) => Math.sin(0.37 * i * i)); // rough: CG needs ~n iterations
    const tty: ProgressStream = { isTTY: true, columns: 120, write: () => true };
    const cases: [string, SolveOptions][] = [
      ['off', {}],
      ['on, not a TTY', { progress: { stream: { isTTY: false, write: () => true } } }],
      ['on, TTY (drawn every 100 ms)', { progress: { stream: tty } }],
    ];
    let iterations = 0;
    // compareCpuCost: CPU time, rotated round robin, best of 5 after a warm-up, up to 3 measurements.
    const r = compareCpuCost(
      cases.map(([l]) => l),
      (c) => {
        iterations = cg(A as never, b, { rtol: 1e-10, maxiter: 10 * n, ...cases[c]![1] }).iterations;
      },
      // A loose bound (the machine is shared): the hook's share, measured above, is ~10⁻³ of an iteration.
      { ratio: 1.25, slackMs: 10 },
    );
    console.log(`cg, 1-D Poisson n=${n}, ${iterations} iterations: ${r.lines.join(' | ')}`);
    expect(iterations).toBeGreaterThan(5000);
    for (const t of r.ms.slice(1)) expect(t).toBeLessThan(r.ms[0]! * 1.25 + 10);
  });
});
