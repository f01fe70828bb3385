// The dispatch contract (native / decompose / rewrite, else LegalizationError) and the IR verifier.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { registerBackend } from '../../src/backends/registry.js';
import { jsBackend } from '../../src/backends/js/index.js';
import type { Backend } from '../../src/backends/backend.js';
import { Node } from '../../src/compiler/ir.js';
import { bind } from '../../src/compiler/primitives.js';
import { buildGraph } from '../../src/compiler/graph.js';
import { verify } from '../../src/compiler/passes/verify.js';

const quiet = { print: false };

describe('dispatch contract', () => {
  it('explain shows native, decomposed and rewritten nodes', () => {
    const h = rlx.tensor([1, 2, 3], { dtype: 'float16' });
    const plan = rlx.explain(h.mul(2).logsumexp(), quiet);
    const choices = new Map(plan.dispatch.map((d) => [`${d.op}:${d.dtype}`, d.choice]));
    expect(choices.get('logsumexp:float16')).toBe('decompose');
    expect(choices.get('mul:float16')).toBe('rewrite');
    expect([...choices.values()]).toContain('native');
    expect(String(plan)).toMatch(/dispatch:/);
  });

  it('a node no backend path can serve is a LegalizationError naming op, dtype and backend', () => {
    const limited: Backend = { ...jsBackend, name: 'no-tanh', dispatch: (n) => (n.op === 'tanh' ? undefined : jsBackend.dispatch(n)) };
    registerBackend(limited);
    const x = rlx.tensor([0.5, 1]);
    const y = x.add(1).tanh().on('no-tanh');
    expect(() => y.toArray()).toThrow(rlx.LegalizationError);
    expect(() => y.toArray()).toThrow(/op 'tanh' with dtype float64 on backend 'no-tanh'/);
    // Nothing was half-changed: the inputs and other graphs still compute.
    expect(x.add(1).tanh().tolist()).toEqual([Math.tanh(1.5), Math.tanh(2)]);
    expect(x.add(1).exp().on('no-tanh').tolist()).toEqual([Math.exp(1.5), Math.exp(2)]);
  });

  it('unknown devices are DeviceErrors listing what exists', () => {
    expect(() => rlx.tensor([1]).on('tpu')).toThrow(rlx.DeviceError);
    expect(() => rlx.tensor([1], { device: 'tpu' })).toThrow(/device 'tpu' is not available \(available: js/);
    expect(rlx.tensor([1], { device: 'js' }).add(1).tolist()).toEqual([2]);
    expect(rlx.backends().find((b) => b.name === 'js')!.available).toBe(true);
    const native = rlx.backends().find((b) => b.name === 'native')!;
    expect(native.available || /native/.test(native.reason ?? '')).toBe(true);
  });
});

describe('IR verifier', () => {
  it('accepts graphs built through bind and rejects a node whose shape contradicts its rule', () => {
    const x = rlx.tensor([[1, 2, 3]]);
    const good = x.add(1).sum(1);
    const g = buildGraph([good.node], [x.node]);
    expect(() => verify(g)).not.toThrow();
    const a = bind('exp', [x.node]);
    const bad = new Node('sum', [a], { axes: [1] }, [7], 'float64');
    expect(() => verify(buildGraph([bad], [x.node]))).toThrow(/rule says \[1\] float64/);
  });
});

describe('printing', () => {
  it('toString is NumPy str, inspect is repr with tensor(', async () => {
    const { inspect } = await import('node:util');
    const t = rlx.tensor([[1, 2.5], [-3, 4]], { dtype: 'float32' });
    expect(t.toString()).toBe('[[ 1.   2.5]\n [-3.   4. ]]');
    expect(inspect(t)).toBe('tensor([[ 1. ,  2.5],\n        [-3. ,  4. ]], dtype=float32)');
  });
});
