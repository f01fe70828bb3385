// inv: a⁻¹ of a [..., n, n] by getrf + getri (SciPy's inv), instead of
// solving against a freshly built identity. A zero pivot of a's LU with
// partial pivoting is a SingularMatrixError naming it, the pivot solve reports.
//
// JVP: dx = −x da x with x = a⁻¹; the VJP is its transpose (ā = −xᵀ ḡ xᵀ).

import type { Tensor } from '../../tensor/tensor.js';
import type { OpRuleCtx } from '../../compiler/op-registry.js';
import { SingularMatrixError } from '../../tensor/errors-linalg.js';
import { registerLinalgOp, asFloat, bindLinalg, firstFailure, linalgDType, square, transposeJvp, oneKernelCall } from './common.js';

/** a⁻¹ for a [..., n, n]. */
export function invRaw(a: Tensor): Tensor {
  return bindLinalg('inv', [a])[0]!;
}

const jvp = ({ outs: [x] }: OpRuleCtx, [da]: (Tensor | null)[]) => [da ? x!.matmul(da).matmul(x!).neg() : null];

registerLinalgOp('inv', {
  coreRanks: [2],
  outputs([a]) {
    const d = linalgDType('inv', a!.dtype);
    const n = square('inv', a!);
    return [{ shape: [n, n], dtype: d }];
  },
  ...oneKernelCall(
    'inv',
    ({ batch, ins, inShapes, inDTypes, outs, attrs }) => {
      return [linalgDType('inv', inDTypes[0]!), batch, inShapes[0]![0]!, asFloat(ins[0]), asFloat(outs[0])];
    },
    (info, { batch }) => {
      const e = firstFailure(info);
      if (e >= 0) throw new SingularMatrixError('inv', info[e]! - 1, batch > 1 ? e : undefined);
    },
  ),
  jvp,
  vjp: transposeJvp(jvp),
});
