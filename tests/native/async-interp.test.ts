// Interpreted (fused elementwise / reduce) kernels off the main thread:
// `await t.data()` runs a large kernel through interpRunAsync on libuv's pool,
// so timers keep firing, with the same bits as the synchronous path; small
// runs stay synchronous (no promise at all); arguments are still checked
// before anything runs.

import { afterEach, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import type { ElementwiseKernel } from '../../src/compiler/kernel.js';
import { encodeElementwise } from '../../src/backends/native/program.js';
import { describeInterp } from './interp-harness.js';

// out[i] = a[i] * 3 + 1 over n float64 elements: slots a = 0, out = 1.
const kernel = (n: number): ElementwiseKernel => ({
  kind: 'elementwise',
  out: 1,
  outDType: 'float64',
  outShape: [n],
  fused: ['mul', 'add'],
  expr: {
    loads: [{ slot: 0, dtype: 'float64', chain: [] }],
    instrs: [
      { op: 'load', load: 0, dtype: 'float64' },
      { op: 'const', value: 3, dtype: 'float64' },
      { op: 'mul', args: [0, 1], dtype: 'float64', attrs: {} },
      { op: 'const', value: 1, dtype: 'float64' },
      { op: 'add', args: [2, 3], dtype: 'float64', attrs: {} },
    ],
  },
});

describeInterp('interpreted kernels off the main thread', (addon) => {
  const defaultThreshold = addon ? addon.interpGetAsyncThreshold() : 0;
  afterEach(() => addon.interpSetAsyncThreshold(defaultThreshold));

  it('a timer keeps firing while a long fused computation is awaited; same values as the sync path', async () => {
    const n = 1 << 21;
    const x = rlx.random.uniform(rlx.random.key(7), [n]).on('native').realize();
    // One reduce kernel with a long transcendental prologue (~40 libm calls per element).
    const build = () => {
      let y = x;
      for (let i = 0; i < 20; i++) y = y.sin().add(y.mul(0.5).exp().mul(0.1));
      return rlx.stack([y.sum(), y.max()]);
    };
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const t0 = performance.now();
    const got = await build().data();
    const ms = performance.now() - t0;
    clearInterval(timer);
    expect(ms).toBeGreaterThan(50); // long enough for the check to mean something
    expect(ticks).toBeGreaterThanOrEqual(Math.floor(ms / 5 / 4));
    const want = build().toArray();
    expect(Array.from(got)).toEqual(Array.from(want));
  }, 60_000);

  it('elementwise and reduce results through data() equal toArray() bit for bit (async threshold 0)', async () => {
    addon.interpSetAsyncThreshold(0);
    const a = rlx.random.normal(rlx.random.key(8), [300, 257]).on('native').realize();
    const b = rlx.random.normal(rlx.random.key(9), [257]).on('native').realize();
    const graphs = [
      () => a.mul(b).add(1).tanh(),
      () => a.sub(b).abs().sum(1),
      () => a.mul(a).mean(0).sqrt(),
      () => a.cast('float32').mul(1.5).argmax(1),
      () => a.gt(0).cast('int32').sum(),
    ];
    for (const g of graphs) {
      const got = await g().data();
      expect(Array.from(got)).toEqual(Array.from(g().toArray()));
    }
  });

  it('small runs stay synchronous: interpRunAsync returns undefined and has already written', () => {
    const enc = encodeElementwise(kernel(8), [[8], [8]]);
    const prepared = addon.interpPrepare(enc.program, enc.consts);
    const a = Float64Array.from({ length: 8 }, (_, i) => i);
    const out = new Float64Array(8);
    expect(addon.interpRunAsync(prepared, enc.loop(new Map()), [a, out])).toBeUndefined();
    expect(Array.from(out)).toEqual(Array.from(a, (v) => v * 3 + 1));
  });

  it('large runs return a promise; the output is written when it settles; the arrays may be dropped meanwhile', async () => {
    const n = 1 << 16;
    const enc = encodeElementwise(kernel(n), [[n], [n]]);
    const prepared = addon.interpPrepare(enc.program, enc.consts);
    addon.interpSetAsyncThreshold(1000);
    const out = new Float64Array(n);
    // The input exists only in the call's argument list: the addon must keep it alive.
    const p = addon.interpRunAsync(prepared, enc.loop(new Map()), [Float64Array.from({ length: n }, (_, i) => i - 7), out]);
    expect(p).toBeInstanceOf(Promise);
    (globalThis as { gc?: () => void }).gc?.();
    await p;
    for (let i = 0; i < n; i += 997) expect(out[i]).toBe((i - 7) * 3 + 1);
  });

  it('bad arguments throw before anything runs or is queued', () => {
    const enc = encodeElementwise(kernel(8), [[8], [8]]);
    const prepared = addon.interpPrepare(enc.program, enc.consts);
    addon.interpSetAsyncThreshold(0);
    const loop = enc.loop(new Map());
    expect(() => addon.interpRunAsync(prepared, loop, [new Float64Array(8), new Float64Array(7)])).toThrow(/output: 8 elements do not fit its buffer of 7/);
    expect(() => addon.interpRunAsync(prepared, loop, [new Float32Array(8), new Float64Array(8)])).toThrow(/rlx interpreter: load 0: slot 0 must be the float64 storage/);
    expect(() => addon.interpRunAsync({}, loop, [])).toThrow(/not a program from interpPrepare/);
    expect(() => addon.interpRunAsync(prepared, new Float64Array(3), [new Float64Array(8), new Float64Array(8)])).toThrow(/loop has 3 numbers/);
    expect(() => addon.interpSetAsyncThreshold(-1)).toThrow(/must be >= 0/);
  });
});
