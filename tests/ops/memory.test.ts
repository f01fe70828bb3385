// A user's time-stepping loop must run in bounded memory: every realization turns
// the lazy nodes into leaves (inputs dropped), so the graph above x and v never
// grows past the steps since the last toArray(), and the compile cache is hit
// instead of growing.
//
// The loop is symplectic Euler for x'' = -x, the shape of a typical simulation:
//   x = x + v·dt;  v = v - x·dt;  every k steps: read x and v (realize).
// The values are checked against the same recurrence in plain JS (float64, same
// operation order; rtol 1e-9 leaves room for a backend that contracts a·b + c into
// an FMA, whose rounding differences grow ~linearly over 1e5 stable steps).
//
// Heap: measured after a forced GC (exposed at run time through v8 flags, since
// the vitest config cannot pass --expose-gc), at 20k and at 100k steps; the
// growth must stay under 50 MB.

import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import '../harness/allclose.js'; // registers toBeAllclose
import { DEVICES } from '../harness/devices.js';

function getGc(): (() => void) | undefined {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) return g;
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}
const gc = getGc();

function heapMB(): number {
  if (gc) {
    gc();
    gc();
  }
  return process.memoryUsage().heapUsed / 2 ** 20;
}

const N = 32;
const DT = 1e-3;

/** The same loop in plain JS. */
function reference(steps: number, x0: Float64Array, v0: Float64Array): [Float64Array, Float64Array] {
  const x = Float64Array.from(x0),
    v = Float64Array.from(v0);
  for (let s = 0; s < steps; s++) {
    for (let i = 0; i < N; i++) x[i] = x[i]! + v[i]! * DT;
    for (let i = 0; i < N; i++) v[i] = v[i]! - x[i]! * DT;
  }
  return [x, v];
}

/** Longest path from n down to a leaf, following inputs; stops counting at cap (cheap when the graph is bounded). */
function graphDepth(t: rlx.Tensor, cap = 10_000): number {
  let d = 0;
  let frontier = [t.node];
  const seen = new Set(frontier);
  while (frontier.length > 0 && d < cap) {
    const next: (typeof frontier)[number][] = [];
    for (const n of frontier) for (const m of n.inputs) if (!seen.has(m)) seen.add(m), next.push(m);
    frontier = next;
    if (next.length > 0) d++;
  }
  return d;
}

describe.each(DEVICES)('bounded memory in a time-stepping loop on %s', (device) => {
  const x0 = Float64Array.from({ length: N }, (_, i) => Math.cos(i));
  const v0 = Float64Array.from({ length: N }, (_, i) => Math.sin(i));

  /**
   * Runs `steps` steps reading `read(x, v)` every k steps; after each read checks that
   * x is a leaf and that no live handle's graph is deeper than a few windows (so
   * the run fails early instead of going quadratic); heap at `probe` and at the end.
   */
  function simulate(steps: number, k: number, probe: number, read: (x: rlx.Tensor, v: rlx.Tensor) => void) {
    let x = rlx.tensor(x0).on(device);
    let v = rlx.tensor(v0).on(device);
    let heapAtProbe = 0,
      cacheAtProbe = 0;
    const t0 = performance.now();
    for (let i = 1; i <= steps; i++) {
      x = x.add(v.mul(DT));
      v = v.sub(x.mul(DT));
      if (i % k === 0) {
        read(x, v);
        if (x.node.inputs.length !== 0 || !x.isRealized) throw new Error(`step ${i}: x still has inputs after toArray()`);
        const dv = graphDepth(v, 4 * k + 20);
        if (dv > 2 * k + 10) throw new Error(`step ${i}: the lazy graph above v is ${dv} nodes deep (k = ${k}): it grows with the step count, so memory and compile time are unbounded`);
      }
      if (i === probe) {
        heapAtProbe = heapMB();
        cacheAtProbe = rlx.cacheStats().size;
      }
    }
    return { x, v, growthMB: heapMB() - heapAtProbe, cacheGrowth: rlx.cacheStats().size - cacheAtProbe, secs: (performance.now() - t0) / 1000, heapAtProbe };
  }

  function checkValues(x: rlx.Tensor, v: rlx.Tensor, steps: number) {
    const [xr, vr] = reference(steps, x0, v0);
    expect(x.toArray()).toBeAllclose(xr, { rtol: 1e-9, atol: 1e-12 });
    expect(v.toArray()).toBeAllclose(vr, { rtol: 1e-9, atol: 1e-12 });
  }

  it('the plain loop: 100k steps, x.toArray() every 100 steps (v never read): bounded graph, heap growth < 50 MB', () => {
    const r = simulate(100_000, 100, 20_000, (x) => x.toArray());
    expect(r.growthMB, `heap grew ${r.growthMB.toFixed(1)} MB from 20k to 100k steps (gc ${gc ? 'forced' : 'unavailable'}; ${r.secs.toFixed(1)} s)`).toBeLessThan(50);
    expect(r.cacheGrowth).toBeLessThanOrEqual(2);
    checkValues(r.x, r.v, 100_000);
  });

  it('100k steps reading x and v every 100 steps: leaves after each read, heap growth < 50 MB, cache not growing', () => {
    const r = simulate(100_000, 100, 20_000, (x, v) => {
      x.toArray();
      v.toArray();
    });
    expect(r.growthMB, `heap grew ${r.growthMB.toFixed(1)} MB from 20k to 100k steps (gc ${gc ? 'forced' : 'unavailable'}; ${r.secs.toFixed(1)} s)`).toBeLessThan(50);
    expect(r.cacheGrowth).toBeLessThanOrEqual(2);
    checkValues(r.x, r.v, 100_000);
  });

  it('20k steps reading x and v every step stay bounded too', () => {
    const r = simulate(20_000, 1, 4_000, (x, v) => {
      x.toArray();
      v.toArray();
    });
    expect(r.growthMB, `heap grew ${r.growthMB.toFixed(1)} MB from 4k to 20k steps (${r.secs.toFixed(1)} s)`).toBeLessThan(50);
    expect(r.cacheGrowth).toBeLessThanOrEqual(2);
    checkValues(r.x, r.v, 20_000);
  });

  it('a long lazy chain (5000 elementwise ops, never read in between) computes without overflowing the stack', () => {
    let x = rlx.tensor(new Float64Array([1, 2, 3])).on(device);
    for (let i = 0; i < 5000; i++) x = x.add(1);
    expect([...x.toArray()]).toEqual([5001, 5002, 5003]);
    let y = rlx.tensor(x0).on(device),
      w = rlx.tensor(v0).on(device);
    for (let i = 0; i < 3000; i++) {
      y = y.add(w.mul(DT));
      w = w.sub(y.mul(DT));
    }
    checkValues(y, w, 3000);
  });
});
