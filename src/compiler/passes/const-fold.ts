// Constant folding: an elementwise op whose inputs are all literals becomes a
// literal, evaluated by the js reference backend so that folding and running
// agree bit for bit.

import type { Node } from '../ir.js';
import { constNode, kindOf, type ElementwiseOp } from '../primitives.js';
import { type Graph, rewriteGraph } from '../graph.js';
import { constValue } from './const-value.js';
import { evaluateScalar } from '../../backends/js/evaluate.js';

/** Folds elementwise ops over literals; returns the graph and how many folded. */
export function constFold(g: Graph): { graph: Graph; folded: number } {
  let folded = 0;
  const graph = rewriteGraph(g, (n, ins) => {
    if (kindOf(n.op) !== 'elementwise' || ins.length === 0) return undefined;
    const vals = ins.map(constValue);
    if (vals.some((v) => v === undefined)) return undefined;
    const value = evaluateScalar(n.op as ElementwiseOp, n.attrs, ins.map((x, i) => ({ value: vals[i]!, dtype: x.dtype })), n.dtype);
    folded++;
    return constNode(value as number | [number, number], n.dtype, n.shape);
  });
  return { graph, folded };
}
