// sparse.add / sub / multiply / scale as functions, for code written in the
// NumPy/SciPy style (`sparse.add(A, B)` beside `A.add(B)`). They are thin: the
// arithmetic lives in the matrix methods (base.ts, coo.ts); here only the first
// operand is checked, so a non-sparse one gets a typed error naming the function
// instead of "A.add is not a function".

import { ValueError } from '../tensor/errors.js';
import { isSparse, type DenseOperand, type SparseMatrix } from './base.js';
import type { CsrMatrix } from './csr.js';
import type { CscMatrix } from './csc.js';
import type { CooMatrix } from './coo.js';
import type { Scalar } from './dtypes.js';

/** The matrices whose arithmetic methods these functions call. */
type Arith = CsrMatrix | CscMatrix | CooMatrix;

function checked(op: string, A: unknown): Arith {
  if (!isSparse(A)) {
    const got = A === null ? 'null' : typeof A === 'object' ? (A.constructor?.name ?? 'object') : typeof A;
    throw new ValueError(`sparse.${op}: the first operand must be a sparse matrix (csr, csc or coo), got ${got}; for dense tensors use Tensor.${op === 'scale' ? 'mul' : op}`);
  }
  return A as Arith;
}

/**
 * A + B (any formats); the result is in A's format (CSR when A is COO), like A.add(B).
 * @example
 * ```ts
 * sparse.add(sparse.eye(2), sparse.fromDense([[0, 1], [1, 0]])).toDense().tolist();   // [[1, 1], [1, 1]]
 * ```
 */
export function add(A: CsrMatrix, B: SparseMatrix): CsrMatrix;
export function add(A: CscMatrix, B: SparseMatrix): CscMatrix;
export function add(A: CooMatrix, B: SparseMatrix): CsrMatrix;
export function add(A: Arith, B: SparseMatrix): CsrMatrix | CscMatrix;
export function add(A: Arith, B: SparseMatrix): CsrMatrix | CscMatrix {
  return checked('add', A).add(B);
}

/**
 * A − B (any formats); the result is in A's format (CSR when A is COO), like A.sub(B).
 * @example
 * ```ts
 * sparse.sub(sparse.fromDense([[3, 1], [0, 2]]), sparse.eye(2)).toDense().tolist();   // [[2, 1], [0, 1]]
 * ```
 */
export function sub(A: CsrMatrix, B: SparseMatrix): CsrMatrix;
export function sub(A: CscMatrix, B: SparseMatrix): CscMatrix;
export function sub(A: CooMatrix, B: SparseMatrix): CsrMatrix;
export function sub(A: Arith, B: SparseMatrix): CsrMatrix | CscMatrix;
export function sub(A: Arith, B: SparseMatrix): CsrMatrix | CscMatrix {
  return checked('sub', A).sub(B);
}

/**
 * Elementwise product, like A.multiply(B): with a sparse B the intersection of
 * the patterns; with a dense B (broadcast like NumPy) or a number, A's pattern.
 * @example
 * ```ts
 * // elementwise: A's pattern times a dense matrix
 * sparse.multiply(sparse.fromDense([[1, 2], [0, 3]]), [[10, 10], [10, 0]]).toDense().tolist();   // [[10, 20], [0, 0]]
 * ```
 */
export function multiply(A: CsrMatrix, B: SparseMatrix | DenseOperand | number): CsrMatrix;
export function multiply(A: CscMatrix, B: SparseMatrix | DenseOperand | number): CscMatrix;
export function multiply(A: CooMatrix, B: SparseMatrix | DenseOperand | number): CsrMatrix;
export function multiply(A: Arith, B: SparseMatrix | DenseOperand | number): CsrMatrix | CscMatrix;
export function multiply(A: Arith, B: SparseMatrix | DenseOperand | number): CsrMatrix | CscMatrix {
  return checked('multiply', A).multiply(B);
}

/**
 * α·A, like A.scale(α); a complex α ([re, im] or {re, im}) makes a real matrix complex.
 * @example
 * ```ts
 * sparse.scale(sparse.eye(2), 3).toDense().tolist();   // [[3, 0], [0, 3]]
 * ```
 */
export function scale(A: CsrMatrix, alpha: Scalar): CsrMatrix;
export function scale(A: CscMatrix, alpha: Scalar): CscMatrix;
export function scale(A: CooMatrix, alpha: Scalar): CsrMatrix;
export function scale(A: Arith, alpha: Scalar): CsrMatrix | CscMatrix;
export function scale(A: Arith, alpha: Scalar): CsrMatrix | CscMatrix {
  return checked('scale', A).scale(alpha);
}
