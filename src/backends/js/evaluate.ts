// Evaluating one elementwise op on literals with the js kernels themselves,
// so that constant folding agrees bit for bit with running the graph.
//
// The literals are arguments of the generated kernel (its constant vector C),
// not part of its source: one kernel per (op, attrs, dtypes) serves every
// value, and the folding of a compiled graph's parameters can be redone at
// each run (compiler/const-params.ts) without generating code.

import { type DType, allocStorage, DTYPE_INFO } from '../../tensor/dtype.js';
import { attrsKey, type Attrs } from '../../compiler/ir.js';
import type { ElementwiseKernel, Instr } from '../../compiler/kernel.js';
import type { ElementwiseOp } from '../../compiler/primitives.js';
import { genElementwise } from './codegen-loops.js';
import { makeKernel } from './runtime.js';
import { decodeStorage } from '../../tensor/storage.js';

/** A literal value: a number, or [re, im] for complex dtypes. */
export type ScalarValue = number | number[];

type Evaluator = (args: readonly ScalarValue[]) => ScalarValue;

/**
 * Evaluators kept, by (op, attrs, dtypes), least recently used dropped first:
 * a program uses a few dozen, so this bound is never reached in practice, and
 * it keeps a stream of distinct attrs from growing memory.
 */
export const MAX_EVALUATORS = 256;
const cache = new Map<string, Evaluator>();

/** Number of cached evaluators (for tests of the bound). */
export function evaluatorCacheSize(): number {
  return cache.size;
}

/** op over literal arguments of dtypes `argDTypes`, as a function of their values (the kernel is generated once). */
export function scalarEvaluator(op: ElementwiseOp, attrs: Attrs, argDTypes: readonly DType[], outDType: DType): Evaluator {
  const key = `${op}|${attrsKey(attrs)}|${argDTypes.join(',')}|${outDType}`;
  let ev = cache.get(key);
  if (ev) {
    cache.delete(key);
  } else {
    ev = makeEvaluator(op, attrs, argDTypes, outDType);
    if (cache.size >= MAX_EVALUATORS) cache.delete(cache.keys().next().value!);
  }
  cache.set(key, ev); // most recently used last
  return ev;
}

function makeEvaluator(op: ElementwiseOp, attrs: Attrs, argDTypes: readonly DType[], outDType: DType): Evaluator {
  let width = 0;
  const instrs: Instr[] = argDTypes.map((d) => {
    const ins: Instr = { op: 'const', value: 0, dtype: d, param: width };
    width += DTYPE_INFO[d].lanes;
    return ins;
  });
  instrs.push({ op, args: argDTypes.map((_, i) => i), dtype: outDType, attrs } as Instr);
  const k: ElementwiseKernel = { kind: 'elementwise', out: 0, outDType, outShape: [], fused: [op], expr: { instrs, loads: [] } };
  const g = genElementwise(k, [[]]);
  const fn = makeKernel(g.source);
  const P = g.params(new Map());
  const lanes = DTYPE_INFO[outDType].lanes;
  return (args) => {
    const C = new Float64Array(width);
    let o = 0;
    for (const a of args) {
      if (typeof a === 'number') C[o++] = a;
      else (C[o++] = a[0]!), (C[o++] = a[1]!);
    }
    const out = allocStorage(outDType, 1);
    fn([out], P, C);
    const v = decodeStorage(out, outDType); // float16/bfloat16 storage holds bits
    return lanes === 2 ? [v[0]!, v[1]!] : v[0]!;
  };
}

