// det and slogdet from the LU factors: det = (−1)^(row swaps) · Π diag(u).
// A singular matrix gives det 0 and slogdet {sign: 0, logabsdet: −inf} (NumPy).
// Derivatives flow through lu's rule; at a singular matrix they are not finite.

import type { Tensor } from '../tensor/tensor.js';
import { arange } from '../tensor/create.js';
import { where } from '../tensor/ops/elementwise.js';
import { realDType, isComplex } from '../tensor/dtype.js';
import { diagonalOf } from './matrix.js';
import { type CheckOptions, type MatrixLike, matrixArg } from './input.js';
import { luRaw } from './ops/lu.js';
import { square } from './ops/common.js';

/** ±1 from the parity of the row interchanges (in dtype). */
function swapSign(piv: Tensor, dtype: Tensor['dtype']): Tensor {
  const k = piv.shape[piv.ndim - 1]!;
  const swaps = piv.ne(arange(k).cast('int32')).cast('float64').sum(-1);
  const odd = swaps.sub(swaps.div(2).floor().mul(2));
  return odd.mul(-2).add(1).cast(dtype);
}

function factors(op: string, a: MatrixLike, opts: CheckOptions) {
  const A = matrixArg(op, a, opts);
  square(op, { shape: A.shape.slice(-2) as number[], dtype: A.dtype });
  const [f, piv] = luRaw(A);
  return { A, d: diagonalOf(f!), sign: swapSign(piv!, A.dtype) };
}

/** The determinant (batched). */
export function det(a: MatrixLike, opts: CheckOptions = {}): Tensor {
  const { d, sign } = factors('det', a, opts);
  return d.prod(-1).mul(sign);
}

/** {sign, logabsdet} with det = sign · exp(logabsdet); sign is a unit complex number for complex input. */
export function slogdet(a: MatrixLike, opts: CheckOptions = {}): { sign: Tensor; logabsdet: Tensor } {
  const { A, d, sign } = factors('slogdet', a, opts);
  const mag = d.abs();
  const zero = mag.eq(0);
  const unit = isComplex(A.dtype) ? where(zero, 0, d.div(where(zero, 1, mag).cast(A.dtype))).cast(A.dtype) : where(zero, 0, d.sign()).cast(A.dtype);
  return { sign: unit.prod(-1).mul(sign), logabsdet: mag.log().sum(-1).cast(realDType(A.dtype)) };
}
