// Each pass run alone on a small hand-built graph.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { buildGraph, type Graph } from '../../src/compiler/graph.js';
import { simplify } from '../../src/compiler/passes/simplify.js';
import { cse } from '../../src/compiler/passes/cse.js';
import { dce } from '../../src/compiler/passes/dce.js';
import { viewFold } from '../../src/compiler/passes/view-fold.js';
import { constFold } from '../../src/compiler/passes/const-fold.js';
import { legalize, type DispatchRecord } from '../../src/compiler/passes/legalize.js';
import { fuse } from '../../src/compiler/passes/fusion.js';
import { planMemory } from '../../src/compiler/passes/memory-plan.js';
import { verify } from '../../src/compiler/passes/verify.js';
import { jsBackend } from '../../src/backends/js/index.js';
import { topoSort } from '../../src/compiler/ir.js';

const graphOf = (out: rlx.Tensor, ...leaves: rlx.Tensor[]): Graph => buildGraph([out.node], leaves.map((l) => l.node));
const ops = (g: Graph) => topoSort(g.outputs).map((n) => n.op).filter((o) => o !== 'input');

describe('passes, one at a time', () => {
  const x = rlx.tensor([1, 2, 3]);

  it('simplify drops x*1, x/1, x-0 and double negation, keeps x+0', () => {
    const g = verify(simplify(graphOf(x.mul(1).div(1).sub(0).neg().neg().add(0), x)));
    expect(ops(g)).toEqual(['const', 'add']);
  });

  it('cse merges identical subtrees', () => {
    const r = cse(graphOf(x.sin().add(x.sin()), x));
    expect(r.merged).toBe(1);
    expect(ops(r.graph).filter((o) => o === 'sin')).toHaveLength(1);
  });

  it('dce removes nodes no output reaches', () => {
    const g = graphOf(x.exp(), x);
    const dead = buildGraph([x.exp().node, x.cos().node], [x.node]);
    const r = dce({ ...dead, outputs: [dead.outputs[0]!] });
    expect(r.removed).toBe(1);
    expect(dce(g).removed).toBe(0);
  });

  it('view-fold composes permutes, slices and reshapes', () => {
    const a = rlx.arange(24).reshape(2, 3, 4);
    const v = a.transpose([1, 0, 2]).transpose([2, 1, 0]).slice(rlx.s(rlx.rg(1), rlx.rg(null, null, -1))).slice(rlx.s(rlx.rg(1)));
    const g = viewFold(graphOf(v.reshape(4, 3, 1).reshape(12), a));
    expect(ops(g)).toEqual(['permute', 'slice', 'reshape']);
  });

  it('constant-fold evaluates literal arithmetic with the js kernels (float16 included)', () => {
    const c = rlx.full([3], 1.5, { dtype: 'float16' }).mul(2);
    const r = constFold(graphOf(x.add(c.cast('float64'))));
    expect(r.folded).toBe(2);
    expect(x.add(c.cast('float64')).tolist()).toEqual([4, 5, 6]);
  });

  it('legalize rewrites float16 arithmetic to float32 and decomposes logsumexp', () => {
    const h = rlx.tensor([1, 2], { dtype: 'float16' });
    const rec: DispatchRecord[] = [];
    const g = verify(legalize(graphOf(h.add(h).logsumexp(), h), jsBackend, rec));
    expect(ops(g)).not.toContain('logsumexp');
    expect(topoSort(g.outputs).filter((n) => n.op === 'add').every((n) => n.dtype === 'float32')).toBe(true);
    expect(rec.map((r) => r.choice)).toEqual(expect.arrayContaining(['rewrite', 'decompose', 'native']));
  });

  it('fusion + memory plan: one kernel for an elementwise chain, one output buffer', () => {
    const prog = fuse(graphOf(x.exp().mul(2).add(x), x), { fusion: true });
    expect(prog.kernels).toHaveLength(1);
    const plan = planMemory(prog.kernels, prog.slots);
    expect(plan.buffers).toHaveLength(1);
    expect(plan.peakBytes).toBe(24);
  });
});

describe('random through the public API', () => {
  it('keys are explicit: same key same values, split keys differ, identical on every device', () => {
    const k = rlx.random.key(0);
    const a = rlx.random.uniform(k, [4]).toArray();
    expect(Array.from(rlx.random.uniform(rlx.random.key(0), [4]).toArray())).toEqual(Array.from(a));
    const ks = rlx.random.split(k); // [2, 2]: the keys stacked
    expect(Array.from(rlx.random.normal(ks.select(0, 0), [4]).toArray())).not.toEqual(Array.from(rlx.random.normal(ks.select(0, 1), [4]).toArray()));
    for (const d of rlx.backends().filter((b) => b.available).map((b) => b.name)) {
      expect(Array.from(rlx.random.uniform(k, [4]).on(d).add(0).toArray())).toEqual(Array.from(a));
    }
    // JAX's documented value: jax.random.uniform(jax.random.key(0)) == 0.947667 (float32).
    expect(rlx.random.uniform(k, [], { dtype: 'float32' }).item()).toBeCloseTo(0.947667, 6);
  });

  it('normal samples have mean 0 and variance 1 (5 standard errors)', () => {
    const n = 200_000;
    const z = rlx.random.normal(rlx.random.key(7), [n]);
    expect(Math.abs(z.mean().item() as number)).toBeLessThan(5 / Math.sqrt(n));
    expect(Math.abs((z.var().item() as number) - 1)).toBeLessThan(5 * Math.sqrt(2 / n));
  });

  it('x.where(cond, y) is where(cond, x, y)', () => {
    expect(x2().where(x2().gt(1), 0).tolist()).toEqual([0, 2, 3]);
  });
});

function x2() {
  return rlx.tensor([1, 2, 3]);
}
