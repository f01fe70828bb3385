// The `progress` option of integrate.solveIvp and integrate.odeint (issue 16):
// on a TTY stream, a bar of the fraction of the interval covered, one update
// per accepted step, ended with the outcome (odeint: a second bar for the
// adjoint solve of a gradient); nothing off a TTY; no measurable cost (solveIvp
// RK45, ~10⁴ steps, measured).
//
// A fake stream stands for the terminal, with intervalMs 0 and a frozen clock
// so that every update is drawn: the lines are then checked against the times
// the result itself reports (result.t holds every accepted step without tEval).

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { integrate, type Tensor as T } from '../../src/index.js';
import { ValueError } from '../../src/tensor/errors.js';
import type { ProgressStream } from '../../src/progress.js';
import { compareCpuCost } from '../harness/cpu-cost.js';

function sink(isTTY: boolean): ProgressStream & { out: string[] } {
  const out: string[] = [];
  return { isTTY, columns: 200, out, write: (s: string) => (out.push(s), true) };
}
const lines = (s: { out: string[] }): string[] => s.out.filter((w) => w.startsWith('\r') && w.length > 4).map((w) => w.slice(1, -3));
const pct = (line: string): number => Number(/\]\s+(\d+)%/.exec(line)![1]);
const arr = (t: T): number[] => Array.from(t.toArray() as ArrayLike<number>);
const everyDraw = (s: ProgressStream) => ({ stream: s, intervalMs: 0, now: () => 0 });

const c = (y: T, i: number): T => y.select(0, i);
const rotation = (_t: T, y: T): T => rlx.stack([c(y, 1), c(y, 0).neg()]);
const decay = (_t: T, y: T): T => y.mul(-0.5);

describe('solveIvp progress', () => {
  it('one update per accepted step at the fraction of tSpan covered; ends at 100% with the step count', () => {
    const s = sink(true);
    const r = integrate.solveIvp(rotation, [0, 20], [1, 0], { progress: everyDraw(s) });
    const ts = arr(r.t).slice(1); // the accepted steps' ends
    const drawn = lines(s);
    expect(drawn.length).toBe(ts.length + 2); // every step, then the final state: update(1) and done()
    ts.forEach((t, k) => {
      expect(drawn[k]!.startsWith('solveIvp RK45 [')).toBe(true);
      expect(pct(drawn[k]!)).toBe(Math.floor((t / 20) * 100));
      expect(drawn[k]).toContain(`t = ${t.toPrecision(6)}, ${k + 1} steps`);
    });
    expect(pct(drawn.at(-1)!)).toBe(100);
    expect(drawn.at(-1)).toContain(`reached t = 20: ${ts.length} steps`);
    expect(s.out.at(-1)).toBe('\n');
  });

  it('backwards in time (t1 < t0) the fraction still grows from 0 to 100%', () => {
    const s = sink(true);
    const r = integrate.solveIvp(decay, [5, 1], [1], { method: 'DOP853', progress: everyDraw(s) });
    const ts = arr(r.t).slice(1);
    const drawn = lines(s);
    ts.forEach((t, k) => expect(pct(drawn[k]!)).toBe(Math.floor(((t - 5) / (1 - 5)) * 100)));
    expect(drawn.at(-1)!.startsWith('solveIvp DOP853 [')).toBe(true);
    expect(pct(drawn.at(-1)!)).toBe(100);
  });

  it('a terminal event ends the bar at the event time; tEval does not change what is counted (accepted steps)', () => {
    const s = sink(true);
    const hit = Object.assign((_t: T, y: T) => c(y, 0), { terminal: true, direction: -1 }); // cos t falls through 0 at π/2
    const r = integrate.solveIvp(rotation, [0, 10], [1, 0], { events: hit, tEval: [0, 1, 2], progress: everyDraw(s) });
    const tHit = arr(r.tEvents![0]!)[0]!;
    expect(tHit).toBeCloseTo(Math.PI / 2, 3);
    const last = lines(s).at(-1)!;
    expect(last).toContain(`terminal event at t = ${tHit.toPrecision(6)}`);
    expect(pct(last)).toBe(Math.floor((tHit / 10) * 100));
  });

  it('writes nothing when the stream is not a TTY; the result is the same', () => {
    const s = sink(false);
    const a = integrate.solveIvp(rotation, [0, 5], [1, 0], { progress: { stream: s } });
    const b = integrate.solveIvp(rotation, [0, 5], [1, 0]);
    expect(s.out).toEqual([]);
    expect(arr(a.y)).toEqual(arr(b.y));
  });

  it('an error mid-run (here from an event function) clears the line; a bad progress option is a ValueError; unknown options are still refused', () => {
    const s = sink(true);
    let calls = 0;
    const bad = (_t: T, y: T): T => {
      if (++calls > 20) throw new Error('event failed'); // f itself is traced once (jit), an event runs every step
      return c(y, 0).sub(5);
    };
    expect(() => integrate.solveIvp(decay, [0, 100], [1], { rtol: 1e-10, events: bad, progress: everyDraw(s) })).toThrow('event failed');
    expect(lines(s).length).toBeGreaterThan(0);
    expect(s.out.at(-1)).toBe('\r\x1b[K');
    expect(() => integrate.solveIvp(decay, [0, 1], [1], { progress: 1 as never })).toThrow(ValueError);
    expect(() => integrate.solveIvp(decay, [0, 1], [1], { progres: true } as never)).toThrow(/unknown option 'progres'.*progress/);
  });
});

describe('odeint progress', () => {
  const k = (y: T, _t: T, w: T): T => y.mul(w).neg();
  const TS = [0, 0.5, 1.5, 3];

  it('the forward solve draws one bar, and a gradient draws a second (the adjoint), each ending at 100% with its step count', () => {
    const s = sink(true);
    const stats = { forwardSteps: 0, backwardSteps: 0, nfev: 0, stateDepth: 0 };
    const opts = { progress: everyDraw(s), stats };
    integrate.odeint(k, rlx.tensor([1, 2]), TS, rlx.tensor(0.7), opts);
    let drawn = lines(s);
    expect(drawn.length).toBe(stats.forwardSteps + 2);
    expect(drawn.at(-1)!.startsWith('odeint [')).toBe(true);
    expect(pct(drawn.at(-1)!)).toBe(100);
    expect(drawn.at(-1)).toContain(`${stats.forwardSteps} steps`);
    for (let i = 1; i < drawn.length; i++) expect(pct(drawn[i]!)).toBeGreaterThanOrEqual(pct(drawn[i - 1]!));

    s.out.length = 0;
    rlx.grad((w: T) => integrate.odeint(k, rlx.tensor([1, 2]), TS, w, opts).sum())(rlx.tensor(0.7));
    drawn = lines(s);
    const adjoint = drawn.filter((l) => l.startsWith('odeint adjoint ['));
    expect(adjoint.length).toBe(stats.backwardSteps + 2);
    expect(pct(adjoint.at(-1)!)).toBe(100);
    expect(adjoint.at(-1)).toContain(`${stats.backwardSteps} steps`);
    // The adjoint covers [ts[-1], ts[0]] backwards: its fraction is (3 − t)/3 at the t each line shows.
    for (const l of adjoint.slice(0, -1)) {
      const t = Number(/t = (\S+),/.exec(l)![1]);
      expect(pct(l)).toBe(Math.floor(((3 - t) / 3) * 100));
    }
  });

  it('nothing off a TTY; a bad progress option is a ValueError naming odeint; unknown options list progress', () => {
    const s = sink(false);
    integrate.odeint(k, rlx.tensor([1]), TS, rlx.tensor(0.7), { progress: { stream: s } });
    expect(s.out).toEqual([]);
    expect(() => integrate.odeint(k, rlx.tensor([1]), TS, rlx.tensor(0.7), { progress: 'on' as never })).toThrow(/integrate.odeint: progress must be a boolean/);
    expect(() => integrate.odeint(k, rlx.tensor([1]), TS, rlx.tensor(0.7), { verbose: true } as never)).toThrow(/unknown option 'verbose'.*progress/);
  });
});

describe('overhead', () => {
  it('solveIvp RK45, ~10⁴ steps: off / on without a TTY / on a TTY take the same time (measured, CPU time)', () => {
    const tty: ProgressStream = { isTTY: true, columns: 120, write: () => true };
    const cases: [string, object][] = [
      ['off', {}],
      ['on, not a TTY', { progress: { stream: { isTTY: false, write: () => true } } }],
      ['on, TTY (drawn every 100 ms)', { progress: { stream: tty } }],
    ];
    let steps = 0;
    // compareCpuCost: CPU time, rotated round robin, best of 3 after a warm-up, up to 3 measurements.
    const r = compareCpuCost(
      cases.map(([l]) => l),
      (c) => {
        steps = integrate.solveIvp(rotation, [0, 2000], [1, 0], { rtol: 1e-6, atol: 1e-9, ...cases[c]![1] }).t.shape[0]! - 1;
      },
      // Loose (the machine is shared): a step costs tens of µs, the bar's hook ~0.1 µs.
      { reps: 3, ratio: 1.25, slackMs: 20 },
    );
    console.log(`solveIvp RK45, rotation on [0, 2000], ${steps} steps: ${r.lines.join(' | ')}`);
    expect(steps).toBeGreaterThan(8000);
    for (const t of r.ms.slice(1)) expect(t).toBeLessThan(r.ms[0]! * 1.25 + 20);
  });
});
