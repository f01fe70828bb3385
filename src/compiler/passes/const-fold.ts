// Constant folding: an elementwise op whose inputs are all literals becomes a
// literal, evaluated by the js reference backend so that folding and running
// agree bit for bit.
//
// When an input is a parameter (a literal whose value is an argument of the
// executable, compiler/const-params.ts) the result is a new parameter, and
// the fold is recorded as a step that the executable replays at each run.

import { Node } from '../ir.js';
import { DTYPE_INFO } from '../../tensor/dtype.js';
import { constNode, kindOf, type ElementwiseOp } from '../primitives.js';
import { type Graph, rewriteGraph } from '../graph.js';
import { constValue } from './const-value.js';
import { scalarEvaluator } from '../../backends/js/evaluate.js';
import type { ConstProgram, FoldArg, FoldStep } from '../const-params.js';

/** The parameter offset of a literal seen through broadcasts, if it is one. */
function paramOf(n: Node): number | undefined {
  let m = n;
  while (m.op === 'reshape' || m.op === 'expand') m = m.inputs[0]!;
  return m.attrs['param'] as number | undefined;
}

/**
 * Folds elementwise ops over literals; returns the graph, how many folded,
 * and the constant program (captured: the graph's parameter entries).
 */
export function constFold(g: Graph, captured = 0): { graph: Graph; folded: number; consts: ConstProgram } {
  let folded = 0;
  let length = captured;
  const steps: FoldStep[] = [];
  const graph = rewriteGraph(g, (n, ins) => {
    if (kindOf(n.op) !== 'elementwise' || ins.length === 0) return undefined;
    const vals = ins.map(constValue);
    if (vals.some((v) => v === undefined)) return undefined;
    const evaluate = scalarEvaluator(
      n.op as ElementwiseOp,
      n.attrs,
      ins.map((x) => x.dtype),
      n.dtype,
    );
    const value = evaluate(vals as (number | number[])[]);
    folded++;
    const params = ins.map(paramOf);
    if (params.every((p) => p === undefined)) return constNode(value as number | [number, number], n.dtype, n.shape);
    const args = ins.map((x, i): FoldArg => (params[i] === undefined ? { value: vals[i]! } : { param: params[i]!, lanes: DTYPE_INFO[x.dtype].lanes as 1 | 2 }));
    steps.push({ eval: evaluate, args, out: length });
    const c = new Node('const', [], { value, param: length }, n.shape, n.dtype);
    length += DTYPE_INFO[n.dtype].lanes;
    return c;
  });
  return { graph, folded, consts: { captured, length, steps } };
}
