// Algebraic simplification: rewrites that are exact in IEEE arithmetic
// (x*1, x/1, x-0, x+(-0), x**1, --x, conj(conj x), casts to the same dtype,
// a float32 storage round-trip inserted by legalization).

import { isComplex, isFloat } from '../../tensor/dtype.js';
import type { Node } from '../ir.js';
import { bind } from '../primitives.js';
import { type Graph, rewriteGraph } from '../graph.js';
import { isConst } from './const-value.js';

function simplifyNode(n: Node, ins: Node[]): Node | undefined {
  const [a, b] = ins;
  const intLike = !isFloat(n.dtype) && !isComplex(n.dtype);
  switch (n.op) {
    case 'mul':
      if (isConst(b!, 1)) return a;
      if (isConst(a!, 1)) return b;
      return undefined;
    case 'div':
      return isConst(b!, 1) ? a : undefined;
    case 'add':
      if (isConst(b!, -0) || (intLike && isConst(b!, 0))) return a;
      if (isConst(a!, -0) || (intLike && isConst(a!, 0))) return b;
      return undefined;
    case 'sub':
      return isConst(b!, 0) ? a : undefined;
    case 'pow':
      if (isConst(b!, 1)) return a;
      if (isConst(b!, 2) && !isComplex(n.dtype)) return bind('mul', [a!, a!]);
      return undefined;
    case 'stopGradient':
      return a;
    case 'neg':
      return a!.op === 'neg' ? a!.inputs[0] : undefined;
    case 'conj':
      return a!.op === 'conj' ? a!.inputs[0] : undefined;
    case 'cast': {
      if (a!.dtype === n.dtype) return a;
      // A storage round trip float32 -> float16 -> float32 inserted by legalization.
      // Not int32 -> int8 -> int32: that round trip is the wrap to 8 bits.
      if (n.attrs['storage'] && a!.op === 'cast' && a!.attrs['storage'] && a!.inputs[0]!.dtype === n.dtype && isFloat(a!.dtype)) return a!.inputs[0];
      return undefined;
    }
    default:
      return undefined;
  }
}

/** Applies the exact algebraic rewrites until nothing changes. */
export function simplify(g: Graph): Graph {
  return rewriteGraph(g, simplifyNode);
}
