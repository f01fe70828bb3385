// matmul (NumPy semantics: 1-D promotion, broadcast batch dims), dot, outer.

import { bind } from '../../compiler/primitives.js';
import { promoteTypes } from '../dtype.js';
import { ShapeError } from '../errors.js';
import { broadcastShapes, fmtShape } from '../shape.js';
import { Tensor, type Operand } from '../tensor.js';
import { binary, broadcastNode, castNode } from './elementwise.js';
import { reshape } from './movement.js';
import { toOperand, toTensor } from './operand.js';
import { registerDecomposition } from '../../compiler/decompose.js';

// [..., m, k] @ [..., k, n] as a broadcast product summed over k: matmul on a backend without a GEMM for
// the dtype (integer matmul; legalize.ts).
registerDecomposition('matmul', ([a, b]) => new Tensor(a!).expandDims(-1).mul(new Tensor(b!).expandDims(-3)).sum(-2).node);

/**
 * a @ b: [..., m, k] @ [..., k, n] → [..., m, n]; 1-D operands get a unit dim added and removed.
 * @example
 * ```ts
 * matmul(tensor([[1, 2], [3, 4]]), tensor([[5], [6]])).tolist();   // [[17], [39]]
 * // also a.matmul(b)
 * ```
 */
export function matmul(aIn: Operand, bIn: Operand): Tensor {
  const a = toTensor('matmul', aIn, 'first operand'),
    b = toTensor('matmul', bIn, 'second operand');
  if (a.ndim === 0 || b.ndim === 0) throw new ShapeError(`matmul: operands must be at least 1-D, got ${fmtShape(a.node.shape)} @ ${fmtShape(b.node.shape)}`);
  let dt = promoteTypes(a.dtype, b.dtype);
  const isBool = dt === 'bool';
  if (isBool) dt = 'int32';
  let an = castNode(a.node, dt),
    bn = castNode(b.node, dt);
  const aVec = a.ndim === 1,
    bVec = b.ndim === 1;
  if (aVec) an = bind('reshape', [an], { shape: [1, an.shape[0]!] });
  if (bVec) bn = bind('reshape', [bn], { shape: [bn.shape[0]!, 1] });
  const k1 = an.shape[an.shape.length - 1]!,
    k2 = bn.shape[bn.shape.length - 2]!;
  if (k1 !== k2) throw new ShapeError(`matmul: contraction dims differ: ${fmtShape(a.node.shape)} @ ${fmtShape(b.node.shape)} (${k1} vs ${k2})`);
  const batch = broadcastShapes('matmul', an.shape.slice(0, -2), bn.shape.slice(0, -2));
  an = broadcastNode(an, [...batch, ...an.shape.slice(-2)]);
  bn = broadcastNode(bn, [...batch, ...bn.shape.slice(-2)]);
  let out = new Tensor(bind('matmul', [an, bn]));
  const shape = [...batch, ...(aVec ? [] : [an.shape[an.shape.length - 2]!]), ...(bVec ? [] : [bn.shape[bn.shape.length - 1]!])];
  if (aVec || bVec) out = reshape(out, shape);
  return isBool ? out.ne(0) : out;
}

/**
 * NumPy dot for scalars, vectors and matrices (no conjugation); JS scalars stay weak.
 * @example
 * ```ts
 * dot(tensor([1, 2, 3]), tensor([4, 5, 6])).item();        // 32
 * dot(tensor([[1, 2], [3, 4]]), tensor([1, 1])).tolist();  // [3, 7]
 * ```
 */
export function dot(aIn: Operand, bIn: Operand): Tensor {
  let a = toOperand('dot', aIn, 'first operand');
  const b = toOperand('dot', bIn, 'second operand');
  if (!(a instanceof Tensor) && !(b instanceof Tensor)) a = toTensor('dot', a, 'first operand');
  if (!(a instanceof Tensor) || !(b instanceof Tensor) || a.ndim === 0 || b.ndim === 0) return binary('mul', a, b);
  if (a.ndim <= 2 && b.ndim <= 2) return matmul(a, b);
  throw new ShapeError(`dot: only defined here for up to 2-D operands, got ${fmtShape(a.node.shape)} and ${fmtShape(b.node.shape)}; use matmul for batches`);
}

/**
 * Outer product of the flattened inputs.
 * @example
 * ```ts
 * outer(tensor([1, 2]), tensor([3, 4, 5])).tolist();   // [[3, 4, 5], [6, 8, 10]]
 * ```
 */
export function outer(aIn: Operand, bIn: Operand): Tensor {
  const a = toTensor('outer', aIn, 'first operand'),
    b = toTensor('outer', bIn, 'second operand');
  return reshape(a, [-1, 1]).mul(reshape(b, [1, -1]));
}
