// det and slogdet on the det linalg op (src/linalg/ops/det.ts): one LU
// factorization and the scaled product of its pivots. A singular matrix gives
// det 0 and slogdet {sign: 0, logabsdet: −inf} (NumPy). Derivatives come from
// the op's rule (Jacobi's formula); at a singular matrix they raise
// SingularMatrixError.

import type { Tensor } from '../tensor/tensor.js';
import { type CheckOptions, type MatrixLike, matrixArg } from './input.js';
import { detRaw, slogdetRaw } from './ops/det.js';
import { square } from './ops/common.js';
import { isStatic } from '../tensor/shape.js';

function arg(op: string, a: MatrixLike, opts: CheckOptions): Tensor {
  const A = matrixArg(op, a, opts);
  const s = A.node.shape,
    r = s.length;
  // Square static matrices pass; anything else gets the checks (and errors) of A.shape and square().
  if (!isStatic(s) || s[r - 1] !== s[r - 2]) square(op, { shape: A.shape.slice(-2), dtype: A.dtype });
  return A;
}

/**
 * The determinant (batched; numpy.linalg.det).
 * @example
 * ```ts
 * linalg.det(tensor([[1, 2], [3, 4]])).item();   // ≈ -2  (1·4 − 2·3)
 * ```
 */
export function det(a: MatrixLike, opts: CheckOptions = {}): Tensor {
  return detRaw(arg('det', a, opts));
}

/**
 * {sign, logabsdet} with det = sign · exp(logabsdet); sign is a unit complex number for complex input (numpy.linalg.slogdet).
 * @example
 * ```ts
 * const { sign, logabsdet } = linalg.slogdet(tensor([[1, 2], [3, 4]]));
 * sign.item();        // -1
 * logabsdet.item();   // ≈ 0.6931  (ln 2: det = -2)
 * ```
 */
export function slogdet(a: MatrixLike, opts: CheckOptions = {}): { sign: Tensor; logabsdet: Tensor } {
  const [sign, logabsdet] = slogdetRaw(arg('slogdet', a, opts));
  return { sign: sign!, logabsdet: logabsdet! };
}
