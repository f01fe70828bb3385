// View folding: composes chains of movement ops (reshape∘reshape, permute∘permute,
// expand∘expand, slice∘slice) and drops identity views, so that each chain
// becomes a single strided view at lowering time.

import { shapesEqual, type Dim } from '../../tensor/shape.js';
import { Node } from '../ir.js';
import { bind } from '../primitives.js';
import { type Graph, rewriteGraph } from '../graph.js';

function isIdentity(n: Node, x: Node): boolean {
  switch (n.op) {
    case 'reshape':
    case 'expand':
      return shapesEqual(n.shape, x.shape);
    case 'permute':
      return (n.attrs['perm'] as number[]).every((p, i) => p === i);
    case 'slice':
      return shapesEqual(n.shape, x.shape) && (n.attrs['step'] as number[]).every((s) => s === 1) && (n.attrs['start'] as number[]).every((s) => s === 0);
    default:
      return false;
  }
}

function foldNode(n: Node, ins: Node[]): Node | undefined {
  const x = ins[0]!;
  if (!['reshape', 'permute', 'expand', 'slice'].includes(n.op)) return undefined;
  if (isIdentity(n, x)) return x;
  // A view of a literal is the literal at the new shape.
  if (x.op === 'const') return new Node('const', [], x.attrs, n.shape, x.dtype);
  if (x.op !== n.op) return undefined;
  const inner = x.inputs[0]!;
  switch (n.op) {
    case 'reshape':
      return shapesEqual(n.shape, inner.shape) ? inner : bind('reshape', [inner], { shape: [...n.shape] });
    case 'expand':
      return bind('expand', [inner], { shape: [...n.shape] });
    case 'permute': {
      const p1 = x.attrs['perm'] as number[],
        p2 = n.attrs['perm'] as number[];
      const p = p2.map((i) => p1[i]!);
      return p.every((v, i) => v === i) ? inner : bind('permute', [inner], { perm: p });
    }
    case 'slice': {
      const s1 = x.attrs['start'] as number[],
        st1 = x.attrs['step'] as number[];
      const s2 = n.attrs['start'] as number[],
        st2 = n.attrs['step'] as number[];
      return bind('slice', [inner], {
        start: s1.map((s, i) => s + st1[i]! * s2[i]!),
        step: st1.map((s, i) => s * st2[i]!),
        size: [...(n.attrs['size'] as Dim[])],
      });
    }
  }
  return undefined;
}

/** Composes adjacent movement ops of one kind and removes identity views. */
export function viewFold(g: Graph): Graph {
  return rewriteGraph(g, foldNode);
}
