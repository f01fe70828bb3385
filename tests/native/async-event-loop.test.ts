// Issue 14 §4: an awaited native kernel must not block the event loop. A
// 10 ms setInterval keeps firing (largest gap < 50 ms) while large svd, eigh,
// and a sparse direct solve of a 2-D Poisson matrix run through
// the kernel sets' Async twins. The control runs each sync twin under the same
// timer and asserts that it starves it (gap > 150 ms, growing the problem until
// it does): it shows that the work is long enough for the test to prove something.
// A long cumsum, awaited through the public API, is the last case.

import { expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { requireNativeAddon } from '../../src/backends/native/addon.js';
import { nativeLinalgKernels } from '../../src/linalg/kernels/native.js';
import { nativeSparseGraphKernels } from '../../src/sparse/kernels/native-graph.js';
import { poisson2d } from '../sparse/solvers/util.js';
import { describeNative, maxGap, rng } from './native-harness.js';

const random = (len: number, seed: number): Float64Array => {
  const r = rng(seed);
  return Float64Array.from({ length: len }, () => r());
};

describeNative('awaited native kernels keep the event loop turning (issue 14 §4)', () => {
  const LIMIT = 50;
  const STARVED = 150;

  interface Case {
    name: string;
    sync: () => unknown;
    async: () => Promise<unknown>;
  }
  // Each case at a size scale; the test grows the scale until the sync call
  // starves the timer, so a faster machine (CI's OpenBLAS ran eigh 1000x1000
  // in 143 ms) still gets work long enough to prove something.
  const k = nativeLinalgKernels(requireNativeAddon());
  const makers: ((scale: number) => Case)[] = [
    (scale) => {
      const n = Math.round(800 * scale);
      const a = random(n * n, 1);
      const args = (): Parameters<typeof k.svd> => ['float64', 1, n, n, a, new Float64Array(n), new Float64Array(n * n), new Float64Array(n * n), false];
      return { name: `svd ${n}x${n}`, sync: () => k.svd(...args()), async: () => k.svdAsync(...args()) };
    },
    (scale) => {
      const n = Math.round(1000 * scale);
      const e = random(n * n, 2);
      const args = (): Parameters<typeof k.eigh> => ['float64', 1, n, e, new Float64Array(n), new Float64Array(n * n), true];
      return { name: `eigh ${n}x${n}`, sync: () => k.eigh(...args()), async: () => k.eighAsync(...args()) };
    },
    (scale) => {
      const side = Math.round(300 * scale);
      const P = poisson2d(side);
      const view = { rows: P.shape[0], cols: P.shape[1], indptr: P.indptr, indices: P.indices, data: P.data } as never;
      const b = random(P.shape[0], 3);
      const opts = { method: 'lu', trans: 0 } as Parameters<typeof nativeSparseGraphKernels.solve>[5];
      const xb = new Float64Array(b.length);
      return {
        name: `spsolve (UMFPACK) poisson2d(${side}), n = ${P.shape[0]}`,
        sync: () => nativeSparseGraphKernels.solve('float64', view, b, 1, xb, opts),
        async: () => nativeSparseGraphKernels.solveAsync('float64', view, b, 1, xb, opts),
      };
    },
  ];

  it('each sync call starves a 10 ms timer (control); its Async twin does not (max gap < 50 ms)', async () => {
    const report: string[] = [];
    const failures: string[] = [];
    for (const make of makers) {
      let c = make(1);
      let starved = await maxGap(async () => c.sync());
      for (let scale = 1.5; !(starved > STARVED) && scale < 4; scale *= 1.5) {
        c = make(scale);
        starved = await maxGap(async () => c.sync());
      }
      // The async gap is the best of up to 3 tries: a call that blocks the main thread does so on
      // every try (its work is the same), while a scheduler hiccup on this 2-core machine (the
      // kernel's own threads take both cores) does not repeat; every try is reported.
      const tries: number[] = [];
      while (tries.length < 3 && !(Math.min(...tries) < LIMIT)) tries.push(await maxGap(c.async));
      const gap = Math.min(...tries);
      report.push(`${c.name}: sync ${starved.toFixed(0)} ms, async ${tries.map((t) => t.toFixed(1)).join(' / ')} ms`);
      if (!(starved > STARVED)) failures.push(`${c.name}: the sync call starved the timer only ${starved.toFixed(0)} ms (the control needs > ${STARVED})`);
      if (!(gap < LIMIT)) failures.push(`${c.name}: max gap ${gap.toFixed(1)} ms while awaiting the Async twin (limit ${LIMIT})`);
    }
    console.log(`largest timer gaps:\n  ${report.join('\n  ')}`);
    expect(failures).toEqual([]);
  }, 180_000);

  // cumsum is memory bound: one opaqueCumsumAsync call's private copies (x in,
  // out back: pins.h) held the main thread about as long as the sync cumsum
  // (12e6 float64: sync 68 ms, async gap 78 ms). The compiled kernel's runAsync
  // (backends/native/opaque.ts) awaits it in 4 MiB pieces chained by `carry`,
  // so each copy is short and the event loop turns between them. The control:
  // the sync cumsum (toArray) holds the timer past twice the limit, growing
  // from 12e6 elements until it does.
  it('a long cumsum (opaqueCumsumAsync in pieces) keeps the timer under 50 ms; toArray() starves it; same values', async () => {
    const make = (len: number) => rlx.tensor(random(len, 4)).on('native').realize();
    let len = 12e6;
    let x = make(len);
    let starved = await maxGap(async () => x.cumsum(0).toArray());
    for (; !(starved > 2 * LIMIT) && len < 48e6; ) {
      len *= 2;
      x = make(len);
      starved = await maxGap(async () => x.cumsum(0).toArray());
    }
    let got: Float64Array | undefined;
    const gap = await maxGap(async () => {
      got = (await x.cumsum(0).data()) as Float64Array;
    });
    console.log(`cumsum of ${len} float64: toArray ${starved.toFixed(0)} ms, await data() ${gap.toFixed(1)} ms`);
    expect(starved, 'the control: the sync cumsum must hold the timer past twice the limit').toBeGreaterThan(2 * LIMIT);
    expect(gap).toBeLessThan(LIMIT);
    const want = x.cumsum(0).toArray() as Float64Array;
    expect(got!.length).toBe(len);
    let same = true;
    for (let i = 0; i < len && same; i++) same = Object.is(got![i], want[i]);
    expect(same, 'await data() and toArray() give the same bits').toBe(true);
  }, 180_000);
});
