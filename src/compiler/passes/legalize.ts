// Legalization under the dispatch contract: each node is run natively by the
// backend, decomposed into primitives, or rewritten (storage types computed in
// their compute dtype: float16/bfloat16 in float32, int8/uint8 in int32).
// Anything else is a LegalizationError naming op, dtype and backend.

import { LegalizationError } from '../../tensor/errors.js';
import { DTYPE_INFO, type DType } from '../../tensor/dtype.js';
import type { Backend, DispatchChoice } from '../../backends/backend.js';
import { Node } from '../ir.js';
import { bind } from '../primitives.js';
import { type Graph, rewriteGraph } from '../graph.js';
import { decompositionOf } from '../decompose.js';
import { whyNotServed } from '../op-registry.js';

export interface DispatchRecord {
  op: string;
  dtype: DType;
  choice: DispatchChoice;
}

const storageCast = (x: Node, d: DType): Node => (x.dtype === d ? x : bind('cast', [x], { dtype: d, storage: true }));

/**
 * Storage-type compute: cast storage inputs to their compute dtype (f16/bf16 →
 * float32, int8/uint8 → int32), run, cast the result back. For the small ints
 * the cast back wraps modulo 256 after every op, which is NumPy's int8/uint8
 * arithmetic (127 + 1 = -128) also inside fused kernels.
 */
function computeInComputeDType(n: Node, ins: Node[]): Node {
  const up = (x: Node) => (DTYPE_INFO[x.dtype].compute !== x.dtype ? storageCast(x, DTYPE_INFO[x.dtype].compute) : x);
  const r = bind(n.op, ins.map(up), n.attrs);
  return r.dtype === n.dtype ? r : storageCast(r, n.dtype);
}

/** Legalizes g for backend; fills `records` with each node's dispatch choice. */
export function legalize(g: Graph, backend: Backend, records: DispatchRecord[] = []): Graph {
  let cur = g;
  const seen = new Set<Node>();
  for (let round = 0; round < 4; round++) {
    let changed = false;
    cur = rewriteGraph(cur, (n, ins) => {
      if (n.isLeaf || n.attrs['legal'] === true) return undefined;
      const choice = backend.dispatch(n);
      if (!seen.has(n)) records.push({ op: n.op, dtype: n.dtype, choice: choice ?? 'native' });
      seen.add(n);
      if (choice === undefined) {
        const dtype = n.inputs[0]?.dtype ?? n.dtype;
        const own = backend.whyNot?.(n);
        if (n.op !== 'registered') throw new LegalizationError(n.op, dtype, backend.name, own);
        const why = whyNotServed(backend.name, n.attrs);
        throw new LegalizationError(why.op, dtype, backend.name, own ?? why.detail);
      }
      if (choice === 'native') return undefined;
      changed = true;
      if (choice === 'rewrite') return computeInComputeDType(n, ins);
      const dec = decompositionOf(n.op);
      if (!dec) throw new LegalizationError(n.op, n.dtype, backend.name, 'backend asked for a decomposition but none is registered');
      return dec(ins, n.attrs);
    });
    if (!changed) break;
  }
  return cur;
}
