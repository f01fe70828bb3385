// Common subexpression elimination by hash-consing (op, dtype, shape, attrs, inputs).

import { attrsKey, Node } from '../ir.js';
import { type Graph, rewriteGraph } from '../graph.js';

/** Merges structurally identical nodes; returns the graph and how many merged. */
export function cse(g: Graph): { graph: Graph; merged: number } {
  const table = new Map<string, Node>();
  let merged = 0;
  const graph = rewriteGraph(g, (n, ins) => {
    const key = `${n.op}|${n.dtype}|${n.shape.join(',')}|${attrsKey(n.attrs)}|${ins.map((x) => x.id).join(',')}`;
    const hit = table.get(key);
    if (hit) {
      merged++;
      return hit;
    }
    let r = n;
    if (!ins.every((x, i) => x === n.inputs[i])) {
      r = new Node(n.op, ins, n.attrs, n.shape, n.dtype);
      r.device = n.device;
    }
    table.set(key, r);
    return r;
  });
  return { graph, merged };
}
