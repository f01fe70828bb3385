// Awaited native work leaves the event loop free; repeated materialization keeps RSS bounded.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';

const gcNow = (globalThis as { gc?: () => void }).gc;
const rssMB = () => {
  gcNow?.();
  return process.memoryUsage().rss / 2 ** 20;
};

describe.skipIf(!DEVICES.includes('native'))('async native work', () => {
  it('a timer keeps firing while a ~1 s matmul chain is awaited', async () => {
    const n = 1280;
    const a = rlx.random.normal(rlx.random.key(1), [n, n]).on('native').realize();
    const b = rlx.random.normal(rlx.random.key(2), [n, n]).on('native').realize();
    let y = a;
    for (let i = 0; i < 8; i++) y = y.matmul(b).mul(1 / n);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const t0 = performance.now();
    const data = await y.data();
    const ms = performance.now() - t0;
    clearInterval(timer);
    expect(data.length).toBe(n * n);
    // The main thread was free: the 5 ms timer ran for most of the wait.
    expect(ticks).toBeGreaterThanOrEqual(Math.floor(ms / 5 / 4));
    // Same values as the synchronous path.
    let z = a;
    for (let i = 0; i < 8; i++) z = z.matmul(b).mul(1 / n);
    expect(Array.from(z.toArray().subarray(0, 16))).toEqual(Array.from(data.subarray(0, 16)));
  }, 60_000);
});

describe.each(DEVICES)('memory on %s', (device) => {
  it('100k small and 1k large materializations keep RSS within a small bound', () => {
    const small = rlx.tensor([1, 2, 3]).on(device).realize();
    const large = rlx.random.uniform(rlx.random.key(3), [100_000]).on(device).realize();
    for (let i = 0; i < 2000; i++) small.mul(i).add(1).toArray();
    const base = rssMB();
    for (let i = 0; i < 100_000; i++) small.mul(i).add(1).toArray();
    for (let i = 0; i < 1000; i++) large.mul(i).sqrt().sum().item();
    const growth = rssMB() - base;
    expect(growth, `RSS grew ${growth.toFixed(1)} MB`).toBeLessThan(150);
  }, 120_000);
});

describe.skipIf(!DEVICES.includes('native'))('native threads', () => {
  it('setNumThreads sets BLAS and the kernel pool; results do not depend on it', () => {
    const x = rlx.random.normal(rlx.random.key(5), [600_000]).on('native').realize();
    const before = rlx.numThreads();
    // Above the pool's work threshold, so the elementwise kernel is split across threads when there are several.
    const f = () => Array.from(x.mul(x).add(1).sqrt().toArray().subarray(0, 1000)).concat(Array.from(x.mul(2).sum(0).toArray()));
    const a = f();
    expect(rlx.setNumThreads(1)).toBe(1);
    const b = f();
    rlx.setNumThreads(before);
    expect(b).toEqual(a);
    expect(() => rlx.setNumThreads(0)).toThrow(rlx.ValueError);
    expect(rlx.numThreads()).toBe(before);
  });
});
