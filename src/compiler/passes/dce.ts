// Dead code elimination: keeps the nodes that some output depends on.

import { topoSort } from '../ir.js';
import type { Graph } from '../graph.js';

/** Drops unreachable nodes; returns the graph and how many were removed. */
export function dce(g: Graph): { graph: Graph; removed: number } {
  const live = new Set(topoSort(g.outputs));
  for (const i of g.inputs) live.add(i);
  const nodes = g.nodes.filter((n) => live.has(n));
  return { graph: { inputs: g.inputs, outputs: g.outputs, nodes }, removed: g.nodes.length - nodes.length };
}
