// The per-call path of a small cached expression (capture -> cache hit ->
// run), which was trimmed for speed (compiler/graph.ts capture keyed without
// Maps, ir.ts walks marked on the nodes, Executable.run's buffer binding
// precomputed, small outputs from a shared slab): building and realizing
// the same expression afresh must hit the cache (no recompiles) and give the
// same values every time, on every device, and structurally different
// graphs must still get different keys.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { capture } from '../../src/compiler/graph.js';
import { cacheGet, cachePut } from '../../src/compiler/cache.js';
import { config } from '../../src/compiler/config.js';
import type { Executable } from '../../src/compiler/executable.js';
import { DEVICES } from '../harness/devices.js';

const ramp = (n: number, k: number) => Float64Array.from({ length: n }, (_, i) => ((i * k) % 1009) / 1009 - 0.5);

describe('cached small expressions', () => {
  for (const dev of DEVICES) {
    it(`${dev}: abs(exp(x*2+1)-y) rebuilt 2000 times compiles once and gives the same values`, () => {
      const x = rlx.tensor(ramp(100, 1)).on(dev).realize(),
        y = rlx.tensor(ramp(100, 3)).on(dev).realize();
      const expr = () => x.mul(2).add(1).exp().sub(y).abs();
      const want = Float64Array.from(ramp(100, 1), (v, i) => Math.abs(Math.exp(v * 2 + 1) - ramp(100, 3)[i]!));
      const first = expr().toArray();
      for (let i = 0; i < 100; i++) expect(Math.abs(first[i]! - want[i]!)).toBeLessThanOrEqual(1e-15 * Math.abs(want[i]!) + 1e-300);
      const before = rlx.cacheStats();
      const outs: (Float64Array | Float32Array | Int32Array | Int8Array | Uint8Array)[] = [];
      for (let k = 0; k < 2000; k++) {
        const t = expr().realize();
        if (k % 97 === 0) outs.push(t.toArray());
      }
      const after = rlx.cacheStats();
      expect(after.compiles - before.compiles).toBe(0);
      expect(after.hits - before.hits).toBeGreaterThanOrEqual(2000);
      for (const o of outs) expect(Array.from(o)).toEqual(Array.from(first));
      // Outputs are distinct storage: writing one does not change another.
      const a = expr().realize(),
        b = expr().realize();
      (a.node.data as Float64Array)[0] = 123;
      expect((b.node.data as Float64Array)[0]).toBe(first[0]);
    });
  }

  it('keys tell apart structure, literals, dtypes, shapes, leaf sharing and root order', () => {
    const x = rlx.tensor(ramp(6, 1)).realize(),
      y = rlx.tensor(ramp(6, 3)).realize();
    const key = (...ts: rlx.Tensor[]) => capture(ts.map((t) => t.node), 'd').key;
    const keys = [
      key(x.mul(2).add(1)),
      key(x.mul(3).add(1)),
      key(x.add(1).mul(2)),
      key(x.mul(2).add(y)),
      key(x.mul(2).add(x)),
      key(x.astype('float32').mul(2).add(1)),
      key(x.reshape([2, 3]).mul(2).add(1)),
      key(x.mul(y), x.add(y)),
      key(x.add(y), x.mul(y)),
      key(x.sum()),
      key(x.max()),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    // Same structure over other leaves of the same type: same key.
    expect(key(y.mul(2).add(x))).toBe(key(x.mul(2).add(y)));
    // A graph walked again (node marks reused) keys the same.
    const e = x.mul(2).sub(y).abs();
    expect(key(e)).toBe(key(e));
  });

  it('the cache: equal hashes with different keys stay apart; least recently used evicted first', () => {
    const fake = (n: number) => ({ n }) as unknown as Executable;
    const h = 0x1234abcd;
    cachePut('test-key-a', h, fake(1));
    cachePut('test-key-b', h, fake(2)); // same hash (a collision): both kept
    expect(cacheGet('test-key-a', h)).toEqual({ n: 1 });
    expect(cacheGet('test-key-b', h)).toEqual({ n: 2 });
    expect(cacheGet('test-key-c', h)).toBeUndefined();
    expect(cacheGet('test-key-a', h + 1)).toBeUndefined();
    cachePut('test-key-a', h, fake(3)); // replaced, not duplicated
    expect(cacheGet('test-key-a', h)).toEqual({ n: 3 });

    const size0 = config.cacheSize;
    try {
      rlx.clearCache();
      config.cacheSize = 3;
      const x = rlx.tensor(ramp(8, 1)).realize();
      const exprs = [() => x.add(1), () => x.mul(2), () => x.sub(3), () => x.abs()];
      exprs[0]!().realize();
      exprs[1]!().realize();
      exprs[2]!().realize();
      exprs[0]!().realize(); // touch 0: 1 is now the least recently used
      exprs[3]!().realize(); // evicts 1
      expect(rlx.cacheStats().size).toBe(3);
      const c0 = rlx.cacheStats().compiles;
      exprs[0]!().realize();
      exprs[2]!().realize();
      exprs[3]!().realize();
      expect(rlx.cacheStats().compiles).toBe(c0);
      exprs[1]!().realize();
      expect(rlx.cacheStats().compiles).toBe(c0 + 1);
      expect(rlx.cacheStats().size).toBe(3);
      expect(Array.from(exprs[1]!().toArray())).toEqual(Array.from(ramp(8, 1), (v) => v * 2));
    } finally {
      config.cacheSize = size0;
      rlx.clearCache();
    }
  });
});
