// Re-applying a traced sub-graph to new inputs (substitution), used by the
// transform rules of control flow.

import { type Node, topoSort } from '../ir.js';
import { bind } from '../primitives.js';
import { Tensor } from '../../tensor/tensor.js';
import type { Body } from '../bodies.js';

/** The graph from `inputs` to `outputs`, rebuilt with `args` in place of the inputs. */
export function inline(inputs: readonly Node[], outputs: readonly Node[], args: readonly Tensor[]): Tensor[] {
  const map = new Map<Node, Node>(inputs.map((n, i) => [n, args[i]!.node]));
  for (const n of topoSort(outputs)) {
    if (map.has(n) || n.isLeaf) continue;
    const ins = n.inputs.map((x) => map.get(x) ?? x);
    if (ins.every((x, i) => x === n.inputs[i])) continue;
    map.set(n, bind(n.op, ins, n.attrs));
  }
  return outputs.map((o) => new Tensor(map.get(o) ?? o));
}

/** A body applied to [consts..., carry/operands...]. */
export function applyBody(b: Body, args: readonly Tensor[]): Tensor[] {
  return inline(b.inputs, b.outputs, args);
}
