// The IR verifier: states what valid IR is. Every node's inputs come before it,
// its shape and dtype are what its primitive's rule says, and leaves are leaves.

import { fmtShape, shapesEqual } from '../../tensor/shape.js';
import type { Graph } from '../graph.js';
import { PRIMITIVES, kindOf } from '../primitives.js';

/** Throws an Error describing the first invalid node; returns g for chaining. */
export function verify(g: Graph): Graph {
  const seen = new Set(g.inputs);
  for (const n of g.nodes) {
    for (const x of n.inputs) {
      if (!seen.has(x) && x.op !== 'const') throw new Error(`verify: node #${n.id} (${n.op}) uses #${x.id} (${x.op}) before it is defined`);
    }
    seen.add(n);
    if (kindOf(n.op) === 'leaf') {
      if (n.inputs.length) throw new Error(`verify: leaf #${n.id} (${n.op}) has inputs`);
      continue;
    }
    const want = PRIMITIVES[n.op].infer(n.inputs, n.attrs);
    if (!shapesEqual(want.shape, n.shape) || want.dtype !== n.dtype) {
      throw new Error(`verify: node #${n.id} (${n.op}) has ${fmtShape(n.shape)} ${n.dtype}, its rule says ${fmtShape(want.shape)} ${want.dtype}`);
    }
  }
  for (const o of g.outputs) if (!seen.has(o)) throw new Error(`verify: output #${o.id} (${o.op}) is not in the graph`);
  return g;
}
