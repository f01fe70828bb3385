// Turning user arguments into the matrices the linalg ops take: tensors or
// nested arrays, integer/bool promoted to float64 (NumPy), float16/bfloat16
// rejected (LAPACK has no half precision), batch dims broadcast between
// operands, vector right-hand sides, and the opt-in finiteness check.

import { Tensor } from '../tensor/tensor.js';
import { tensor, type TensorData } from '../tensor/create.js';
import { type DType, promoteTypes, DTYPE_INFO } from '../tensor/dtype.js';
import { DTypeError, ShapeError } from '../tensor/errors.js';
import { broadcastShapes, fmtShape, isStatic } from '../tensor/shape.js';
import { NonFiniteError } from '../tensor/errors-linalg.js';
import { reshape } from '../tensor/ops/movement.js';

export type MatrixLike = Tensor | TensorData;

export interface CheckOptions {
  /** Reject NaN/±Inf in the inputs with a NonFiniteError naming the position (reads the values now). */
  checkFinite?: boolean;
}

/** The dtype a linalg op computes in for inputs of dtype d. */
export function linalgDTypeOf(op: string, d: DType): DType {
  if (d === 'float16' || d === 'bfloat16') throw new DTypeError(`linalg.${op}: ${d} is not supported (LAPACK has no half precision); cast to float32`);
  if (d === 'int32' || d === 'int8' || d === 'uint8' || d === 'bool') return 'float64';
  return d;
}

export const asTensor = (x: MatrixLike): Tensor => (x instanceof Tensor ? x : tensor(x as TensorData));

/** Scans x for a non-finite value and throws with its multi-index. */
export function checkFinite(op: string, x: Tensor): void {
  const lanes = DTYPE_INFO[x.dtype].lanes;
  const data = x.toArray() as ArrayLike<number>;
  for (let i = 0; i < data.length; i++) {
    const v = data[i]!;
    if (!Number.isFinite(v)) {
      let flat = Math.floor(i / lanes);
      const pos: number[] = [];
      for (let a = x.ndim - 1; a >= 0; a--) {
        const d = x.shape[a]!;
        pos.unshift(flat % d);
        flat = Math.floor(flat / d);
      }
      throw new NonFiniteError(op, pos, v);
    }
  }
}

/** One matrix operand ([..., m, n]) in its compute dtype. */
export function matrixArg(op: string, x: MatrixLike, opts: CheckOptions = {}, minRank = 2): Tensor {
  let t = asTensor(x);
  if (t.ndim < minRank) throw new ShapeError(`linalg.${op}: expected an array with at least ${minRank} dims, got ${fmtShape(t.shape)}`);
  const d = linalgDTypeOf(op, t.dtype);
  if (d !== t.dtype) t = t.cast(d);
  if (opts.checkFinite) checkFinite(op, t);
  return t;
}

/** Two operands in their common compute dtype. */
export function commonDType(op: string, a: Tensor, b: Tensor): DType {
  return linalgDTypeOf(op, promoteTypes(a.dtype, b.dtype));
}

/** a [..., n, n] and b [..., n, k] or [n] (a vector) with broadcast batch dims; `vector` says whether to squeeze the result. */
export function solveArgs(op: string, aIn: MatrixLike, bIn: MatrixLike, opts: CheckOptions = {}): { a: Tensor; b: Tensor; vector: boolean } {
  let a = matrixArg(op, aIn, opts);
  let b = asTensor(bIn);
  if (b.ndim === 0) throw new ShapeError(`linalg.${op}: b must be a vector [n] or a matrix [..., n, k], got a scalar`);
  const d = commonDType(op, a, b);
  if (a.dtype !== d) a = a.cast(d);
  if (b.dtype !== d) b = b.cast(d);
  if (opts.checkFinite) checkFinite(op, b);
  const vector = b.ndim === 1;
  if (vector) b = reshape(b, [b.shape[0]!, 1]);
  if (a.ndim === 2 && b.ndim === 2 && isStatic(a.node.shape) && isStatic(b.node.shape)) {
    // No batch dims on either side (the common case): nothing to broadcast.
    if (a.node.shape[0] !== b.node.shape[0]) throw new ShapeError(`linalg.${op}: a ${fmtShape(a.shape)} and b ${fmtShape(b.shape)} need the same number of rows`);
    return { a, b, vector };
  }
  const batch = broadcastShapes(`linalg.${op}`, a.shape.slice(0, -2), b.shape.slice(0, -2)) as number[];
  const ash = [...batch, ...a.shape.slice(-2)],
    bsh = [...batch, ...b.shape.slice(-2)];
  if (a.shape[a.ndim - 2] !== b.shape[b.ndim - 2]) throw new ShapeError(`linalg.${op}: a ${fmtShape(a.shape)} and b ${fmtShape(b.shape)} need the same number of rows`);
  return { a: a.broadcastTo(ash), b: b.broadcastTo(bsh), vector };
}

/** Drops the trailing unit column of a vector solve. */
export const unvector = (x: Tensor, vector: boolean): Tensor => (vector ? reshape(x, x.shape.slice(0, -1)) : x);
