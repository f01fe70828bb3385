// Intermediates kept between runs of one compiled graph (src/compiler/scratch.ts):
// results equal fresh buffers' and an independent loop reference, run after run,
// with outputs of earlier runs untouched; reductions (which need zeroed buffers)
// among the intermediates; awaited runs in flight together; the memory bounds.

import { afterEach, describe, expect, it, vi } from 'vitest';
import * as rlx from '../../src/index.js';
import { config } from '../../src/compiler/config.js';
import { Scratch, SCRATCH_MAX_BYTES, SCRATCH_TOTAL_BYTES, scratchBytesKept } from '../../src/compiler/scratch.js';
import { DEVICES } from '../harness/devices.js';
import { expectAllclose } from '../harness/allclose.js';

const CPU = DEVICES.filter((d) => d !== 'webgpu');

/** Deterministic values in [-1, 1). */
const vals = (n: number, seed: number) => Float64Array.from({ length: n }, (_, i) => (((i * 7919 + seed * 104729) % 2003) / 2003) * 2 - 1);

// Large enough that the native GEMM runs off the main thread when awaited.
const M = 256,
  K = 192,
  N = 160;

/**
 * The graph: h = relu(x·w + b) (matmul, then elementwise), s = row sums of h
 * (a reduction into an intermediate), out = h / (1 + s²) and its total.
 */
function model(x: rlx.Tensor, w: rlx.Tensor, b: rlx.Tensor): [rlx.Tensor, rlx.Tensor] {
  const h = x.matmul(w).add(b).relu();
  const s = h.sum(-1, true);
  const out = h.div(s.mul(s).add(1));
  return [out, out.sum()];
}

/** The same in plain loops. */
function reference(x: Float64Array, w: Float64Array, b: Float64Array): [Float64Array, number] {
  const out = new Float64Array(M * N);
  let total = 0;
  for (let i = 0; i < M; i++) {
    const h = new Float64Array(N);
    let s = 0;
    for (let j = 0; j < N; j++) {
      let acc = b[j]!;
      for (let k = 0; k < K; k++) acc += x[i * K + k]! * w[k * N + j]!;
      h[j] = Math.max(acc, 0);
      s += h[j]!;
    }
    for (let j = 0; j < N; j++) {
      out[i * N + j] = h[j]! / (1 + s * s);
      total += out[i * N + j]!;
    }
  }
  return [out, total];
}

const inputs = (device: string, seed: number) => {
  const x = vals(M * K, seed),
    w = vals(K * N, seed + 1),
    b = vals(N, seed + 2);
  const t = (a: Float64Array, shape: number[]) => rlx.tensor(a, { dtype: 'float64', device }).reshape(shape).realize();
  return { raw: [x, w, b] as const, tensors: [t(x, [M, K]), t(w, [K, N]), t(b, [N])] as const };
};

afterEach(() => {
  config.keepScratch = true;
});

describe.each(CPU)('kept intermediates on %s', (device) => {
  it('give the fresh-buffer results and the loop reference run after run, and leave earlier outputs alone', () => {
    rlx.clearCache();
    const f = rlx.jit(model);
    const before = scratchBytesKept();
    const results: { out: Float64Array; total: number; copy: Float64Array; seed: number }[] = [];
    for (let seed = 1; seed <= 6; seed++) {
      const { raw, tensors } = inputs(device, seed);
      const [o, t] = f(...tensors);
      const out = Float64Array.from(o.toArray() as Float64Array);
      results.push({ out: o.realize().node.data as Float64Array, total: t.item() as number, copy: out, seed });
      const [ro, rt] = reference(...raw);
      expectAllclose(out, ro, { rtol: 1e-12, atol: 1e-14 });
      expect(t.item()).toBeCloseTo(rt, 10);
      // The graph has intermediates: kept from its second run on (a graph run once keeps nothing).
      if (seed === 1) expect(scratchBytesKept()).toBe(before);
      if (seed === 2) expect(scratchBytesKept()).toBeGreaterThan(before);
    }
    // Every earlier output still holds its own values (no run wrote into another's outputs).
    for (const r of results) expect(Array.from(r.out)).toEqual(Array.from(r.copy));
    // The same graph with fresh buffers every run: bit for bit the same.
    config.keepScratch = false;
    rlx.clearCache();
    const g = rlx.jit(model);
    for (const r of results) {
      const [o, t] = g(...inputs(device, r.seed).tensors);
      expect(Array.from(o.toArray() as Float64Array)).toEqual(Array.from(r.copy));
      expect(t.item()).toBe(r.total);
    }
  });

  it('awaited runs of one graph in flight together each get their own buffers', async () => {
    rlx.clearCache();
    // Lazy graphs realized by data(): each an awaited run of the one cached executable.
    const lazy = (s: number) => model(...inputs(device, s).tensors);
    await lazy(9)[1].data(); // compiled
    await lazy(10)[1].data(); // a set kept (from the second run on)
    const take = vi.spyOn(Scratch.prototype, 'take');
    try {
      const seeds = [11, 12, 13, 14];
      const got = await Promise.all(seeds.map((s) => lazy(s)[0].data()));
      seeds.forEach((s, i) => expectAllclose(got[i] as Float64Array, reference(...inputs(device, s).raw)[0], { rtol: 1e-12, atol: 1e-14 }));
      expect(take).toHaveBeenCalledTimes(seeds.length);
      // Where a run awaits a kernel (a large GEMM on native), the next one starts meanwhile and finds the set in use.
      if (device === 'native') expect(take.mock.results.some((r) => r.value === undefined)).toBe(true);
    } finally {
      take.mockRestore();
    }
  });
});

describe('Scratch bounds', () => {
  it('clearCache lets the kept sets go', () => {
    rlx.clearCache();
    const f = rlx.jit(model);
    const before = scratchBytesKept();
    f(...inputs('js', 3).tensors)[1].item();
    f(...inputs('js', 4).tensors)[1].item();
    expect(scratchBytesKept()).toBeGreaterThan(before);
    rlx.clearCache();
    expect(scratchBytesKept()).toBe(before);
  });

  it('zeroes the buffers a fresh one would have zeroed, and only those', () => {
    const s = new Scratch([0, 1], [true, false], 64);
    const set = [new Float64Array(4).fill(7), new Float64Array(4).fill(9)];
    s.give([new Float64Array(4), new Float64Array(4)]); // the first run's set is not kept
    expect(s.take()).toBeUndefined();
    s.give(set);
    const again = s.take()!;
    expect(again[0]).toBe(set[0]);
    expect(Array.from(again[0]!)).toEqual([0, 0, 0, 0]);
    expect(Array.from(again[1]!)).toEqual([9, 9, 9, 9]);
    expect(s.take()).toBeUndefined(); // one set, and it is in use
    s.release();
  });

  it('keeps nothing past SCRATCH_MAX_BYTES per executable or SCRATCH_TOTAL_BYTES in all', () => {
    const big = new Scratch([0], [false], SCRATCH_MAX_BYTES + 1);
    big.give([new Float64Array(1)]);
    big.give([new Float64Array(1)]);
    expect(big.take()).toBeUndefined();
    const base = scratchBytesKept();
    const parts: Scratch[] = [];
    let refused = false;
    for (let i = 0; i < SCRATCH_TOTAL_BYTES / SCRATCH_MAX_BYTES + 1; i++) {
      const s = new Scratch([0], [false], SCRATCH_MAX_BYTES);
      s.give([new Float64Array(1)]); // a first run: not kept
      s.give([new Float64Array(1)]);
      if (s.take() === undefined) refused = true;
      else s.give([new Float64Array(1)]);
      parts.push(s);
    }
    expect(refused).toBe(true);
    expect(scratchBytesKept()).toBeLessThanOrEqual(SCRATCH_TOTAL_BYTES);
    for (const s of parts) s.release();
    expect(scratchBytesKept()).toBe(base);
  });
});
