// Evaluating one elementwise op on literals with the js kernels themselves,
// so that constant folding agrees bit for bit with running the graph.

import { type DType, allocStorage, DTYPE_INFO } from '../../tensor/dtype.js';
import type { Attrs } from '../../compiler/ir.js';
import type { ElementwiseKernel, Instr } from '../../compiler/kernel.js';
import type { ElementwiseOp } from '../../compiler/primitives.js';
import { genElementwise } from './codegen-loops.js';
import { makeKernel } from './runtime.js';
import { decodeStorage } from '../../tensor/storage.js';

const cache = new Map<string, (B: unknown[], P: number[]) => void>();

/** op(args) for scalar literals; complex values as [re, im]. */
export function evaluateScalar(op: ElementwiseOp, attrs: Attrs, args: { value: number | number[]; dtype: DType }[], outDType: DType): number | number[] {
  const instrs: Instr[] = args.map((a) => ({ op: 'const', value: a.value, dtype: a.dtype }) as Instr);
  instrs.push({ op, args: args.map((_, i) => i), dtype: outDType, attrs } as Instr);
  const k: ElementwiseKernel = { kind: 'elementwise', out: 0, outDType, outShape: [], fused: [op], expr: { instrs, loads: [] } };
  const g = genElementwise(k, [[]]);
  let fn = cache.get(g.source);
  if (!fn) cache.set(g.source, (fn = makeKernel(g.source)));
  const out = allocStorage(outDType, 1);
  fn([out], g.params(new Map()));
  const v = decodeStorage(out, outDType); // float16/bfloat16 storage holds bits
  return DTYPE_INFO[outDType].lanes === 2 ? [v[0]!, v[1]!] : v[0]!;
}
