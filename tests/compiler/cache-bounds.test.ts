// Every cache the compiler keeps is bounded (issue 13): the compile cache
// (config.cacheSize, LRU), the js scalar evaluators of constant folding
// (MAX_EVALUATORS, LRU), a jitted function's signatures (MAX_JIT_SIGNATURES,
// LRU), and the custom-rule registry (held by the rules' nodes only).

import { afterEach, describe, expect, it } from 'vitest';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import * as rlx from '../../src/index.js';
import { MAX_EVALUATORS, evaluatorCacheSize, scalarEvaluator } from '../../src/backends/js/evaluate.js';
import { MAX_JIT_SIGNATURES } from '../../src/compiler/transforms/jit.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const tick = () => new Promise<void>((r) => setTimeout(r, 0));

describe('cache bounds', () => {
  const size0 = rlx.config.cacheSize;
  afterEach(() => {
    rlx.config.cacheSize = size0;
  });

  it('the compile cache keeps at most config.cacheSize executables, dropping the least recently used', () => {
    rlx.config.cacheSize = 8;
    const mk = (n: number) => rlx.arange(n).add(0.5).exp();
    for (let n = 1; n <= 20; n++) mk(n).toArray();
    expect(rlx.cacheStats().size).toBe(8);
    const c0 = rlx.cacheStats().compiles;
    mk(20).toArray(); // recent: a hit
    expect(rlx.cacheStats().compiles).toBe(c0);
    mk(1).toArray(); // dropped: compiled again
    expect(rlx.cacheStats().compiles).toBe(c0 + 1);
    expect(rlx.cacheStats().size).toBe(8);
  });

  it('the scalar evaluators of constant folding are bounded', () => {
    for (let i = 0; i < MAX_EVALUATORS + 50; i++) {
      // Distinct attrs: a distinct evaluator each (add ignores them).
      expect(scalarEvaluator('add', { tag: i }, ['float64', 'float64'], 'float64')([i, 0.5])).toBe(i + 0.5);
    }
    expect(evaluatorCacheSize()).toBeLessThanOrEqual(MAX_EVALUATORS);
  });

  it('a jitted function keeps at most MAX_JIT_SIGNATURES signatures, least recently used dropped', () => {
    const f = rlx.jit((x: rlx.Tensor, k: number) => x.mul(k + 0.25), { staticArgnums: [1] });
    const x = rlx.tensor([1, 2]);
    for (let k = 0; k <= MAX_JIT_SIGNATURES; k++) expect(Array.from((f(x, k) as rlx.Tensor).toArray())).toEqual([k + 0.25, 2 * (k + 0.25)]);
    expect(f.compiles).toBe(MAX_JIT_SIGNATURES + 1);
    f(x, MAX_JIT_SIGNATURES); // the newest: kept
    expect(f.compiles).toBe(MAX_JIT_SIGNATURES + 1);
    f(x, 0); // the oldest: dropped, traced again
    expect(f.compiles).toBe(MAX_JIT_SIGNATURES + 2);
  });

  it('custom rules do not outlive their customCall and its nodes (checkpoint per call leaves nothing)', async () => {
    let ref: WeakRef<object> | undefined;
    (() => {
      const vjp = (_p: rlx.Tensor[], _o: rlx.Tensor, ct: rlx.Tensor) => [ct.mul(3)];
      ref = new WeakRef(vjp);
      const g = rlx.customVjp((x: rlx.Tensor) => x.mul(2), vjp);
      const dx = rlx.grad((x: rlx.Tensor) => g(x).sum())(rlx.tensor([1, 2])) as rlx.Tensor;
      expect(Array.from(dx.toArray())).toEqual([3, 3]);
    })();
    await tick();
    gc();
    await tick();
    gc();
    expect(ref!.deref()).toBeUndefined();
  });
});
