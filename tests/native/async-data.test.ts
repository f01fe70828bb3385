// Issue 14 §4 end to end: `await t.data()` keeps the event loop turning. A
// 10 ms setInterval keeps firing (largest gap < 50 ms) while the public API
// computes a large svd, eigh, a sparse direct solve and a long scan, awaited.
// The control realizes the same work with toArray() (synchronous) under the
// same timer and must starve it (> 150 ms; each case grows until it does), so
// the work is long enough for the test to prove something. Values of the
// awaited and the synchronous results are compared too.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import { describeNative, maxGap, rng } from './native-harness.js';

const randomMatrix = (n: number, seed: number): Tensor => {
  const r = rng(seed);
  return rlx.tensor(Float64Array.from({ length: n * n }, () => r() - 0.5)).reshape([n, n]).on('native').realize();
};

interface Case {
  name: string;
  /** A fresh lazy result each call (a realized tensor would not compute again). */
  make: () => Tensor;
}

describeNative('await t.data() keeps the event loop turning (issue 14 §4)', () => {
  const LIMIT = 50;
  const STARVED = 150;

  const makers: ((scale: number) => Case)[] = [
    (scale) => {
      const n = Math.round(700 * scale);
      const a = randomMatrix(n, 1);
      return { name: `linalg.svd ${n}x${n} (s)`, make: () => rlx.linalg.svd(a).s };
    },
    (scale) => {
      const n = Math.round(900 * scale);
      const a = randomMatrix(n, 2);
      const h = a.add(a.T).realize();
      return { name: `linalg.eigh ${n}x${n} (eigenvalues)`, make: () => rlx.linalg.eigh(h).eigenvalues };
    },
    (scale) => {
      const side = Math.round(300 * scale);
      const P = rlx.sparse.poisson2d(side);
      const b = rlx.ones([side * side], { dtype: 'float64', device: 'native' }).realize();
      return { name: `sparse.spsolve poisson2d(${side})`, make: () => rlx.sparse.spsolve(P, b) };
    },
    (scale) => {
      const steps = Math.round(40000 * scale);
      const xs = rlx.arange(0, steps, 1, { dtype: 'float64' }).on('native').mul(1e-4).realize();
      const init = rlx.zeros([64], { dtype: 'float64', device: 'native' }).realize();
      return {
        name: `scan of ${steps} steps`,
        make: () => rlx.scan((c: Tensor, x: Tensor) => [c.mul(0.999).add(x.sin()), null] as const, init, xs)[0],
      };
    },
  ];

  it('a 10 ms timer keeps firing during awaited svd, eigh, spsolve and a long scan; toArray() starves it (control); same values', async () => {
    const report: string[] = [];
    const failures: string[] = [];
    for (const make of makers) {
      let c = make(1);
      let want: Float64Array | undefined;
      let starved = await maxGap(() => (want = c.make().toArray() as Float64Array));
      for (let scale = 1.5; !(starved > STARVED) && scale < 8; scale *= 1.5) {
        c = make(scale);
        starved = await maxGap(() => (want = c.make().toArray() as Float64Array));
      }
      let got: Float64Array | undefined;
      // The awaited gap is the best of up to 3 tries (as in async-event-loop.test.ts): a data() that
      // blocks the main thread does so every time, while a loaded 2-core machine delays a timer now and then
      // (a full run with benchmarks beside it measured 53-126 ms once; alone 10-44 ms).
      const tries: number[] = [];
      while (tries.length < 3 && !(Math.min(...tries) < LIMIT)) tries.push(await maxGap(async () => (got = (await c.make().data()) as Float64Array)));
      const gap = Math.min(...tries);
      report.push(`${c.name}: toArray ${starved.toFixed(0)} ms, await data() ${tries.map((t) => t.toFixed(1)).join(' / ')} ms`);
      if (!(starved > STARVED)) failures.push(`${c.name}: toArray() starved the timer only ${starved.toFixed(0)} ms (the control needs > ${STARVED})`);
      if (!(gap < LIMIT)) failures.push(`${c.name}: max gap ${gap.toFixed(1)} ms while awaiting data() (limit ${LIMIT})`);
      if (!got || !want || got.length !== want.length || got.some((v, i) => Math.abs(v - want![i]!) > 1e-9 * Math.max(1, Math.abs(want![i]!)))) {
        failures.push(`${c.name}: awaited and synchronous results differ`);
      }
    }
    console.log(`largest timer gaps:\n  ${report.join('\n  ')}`);
    expect(failures).toEqual([]);
  }, 240_000);
});

describe('await t.data() of a long scan on js (the same stepping loop)', () => {
  it('keeps a 10 ms timer under 50 ms where toArray() starves it; same values', async () => {
    let steps = 3000,
      starved = 0,
      want: Float64Array | undefined;
    const make = (n: number) => {
      const xs = rlx.arange(0, n, 1, { dtype: 'float64' }).on('js').mul(1e-4).realize();
      const init = rlx.zeros([16], { dtype: 'float64', device: 'js' }).realize();
      return () => rlx.scan((c: Tensor, x: Tensor) => [c.mul(0.999).add(x.sin()), null] as const, init, xs)[0];
    };
    let f = make(steps);
    for (let i = 0; i < 8; i++) {
      starved = await maxGap(() => (want = f().toArray() as Float64Array));
      if (starved > 150) break;
      f = make((steps *= 2));
    }
    expect(starved).toBeGreaterThan(150);
    let got: Float64Array | undefined;
    const gap = await maxGap(async () => (got = (await f().data()) as Float64Array));
    expect(gap).toBeLessThan(50);
    expect(Array.from(got!)).toEqual(Array.from(want!));
  }, 120_000);
});
