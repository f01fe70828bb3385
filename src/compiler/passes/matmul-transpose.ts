// Transposed products: a matmul whose every consumer reads it through the
// same transpose of its last two axes (a weight gradient: the VJP of x @ Wᵀ
// with respect to W is (xᵀ @ g)ᵀ) is computed transposed instead, as
// Bᵀ @ Aᵀ. The transposed operands are views the matmul kernel folds into
// BLAS flags, and the consumers then read the product contiguously instead of
// with a stride of its row length (an Adam update of a 256 × 784 weight read
// its gradient column by column: about half of that kernel's time).
//
// Each element is the same dot product over k in the same order (the js
// backend's sums are bit-identical; BLAS may block differently for the
// swapped shape and round differently).

import { Node } from '../ir.js';
import { bind } from '../primitives.js';
import { type Graph, consumersOf, rewriteGraph } from '../graph.js';
import { dce } from './dce.js';

/** True when `perm` swaps the last two axes and keeps the others in place. */
function swapsLastTwo(perm: readonly number[]): boolean {
  const r = perm.length;
  if (r < 2 || perm[r - 1] !== r - 2 || perm[r - 2] !== r - 1) return false;
  for (let i = 0; i < r - 2; i++) if (perm[i] !== i) return false;
  return true;
}

/** x with its last two axes swapped (a permute of a permute composed, an identity dropped). */
function transposed(x: Node): Node {
  const r = x.shape.length;
  const swap = Array.from({ length: r }, (_, i) => (i === r - 2 ? r - 1 : i === r - 1 ? r - 2 : i));
  if (x.op === 'permute') {
    const p1 = x.attrs['perm'] as number[];
    const p = swap.map((i) => p1[i]!);
    if (p.every((v, i) => v === i)) return x.inputs[0]!;
    return bind('permute', [x.inputs[0]!], { perm: p });
  }
  return bind('permute', [x], { perm: swap });
}

/** Rewrites transpose(A @ B) as Bᵀ @ Aᵀ where nothing else reads A @ B; returns how many products were turned. */
export function matmulTranspose(g: Graph): { graph: Graph; turned: number } {
  const consumers = consumersOf(g.nodes);
  const outputs = new Set(g.outputs);
  const turnable = new Set<Node>();
  for (const n of g.nodes) {
    if (n.op !== 'matmul' || outputs.has(n)) continue;
    const cs = consumers.get(n);
    if (cs !== undefined && cs.length > 0 && cs.every((c) => c.op === 'permute' && swapsLastTwo(c.attrs['perm'] as number[]))) turnable.add(n);
  }
  if (turnable.size === 0) return { graph: g, turned: 0 };
  const turned = new Map<Node, Node>();
  const r = rewriteGraph(g, (n, ins) => {
    if (n.op !== 'permute' || !turnable.has(n.inputs[0]!)) return undefined;
    const m = n.inputs[0]!;
    let t = turned.get(m);
    if (t === undefined) {
      // ins[0]: the matmul as rewritten (a clone when one of its inputs was).
      const [a, b] = ins[0]!.inputs;
      t = bind('matmul', [transposed(b!), transposed(a!)]);
      t.device = m.device;
      turned.set(m, t);
    }
    return t;
  });
  return { graph: dce(r).graph, turned: turned.size };
}
