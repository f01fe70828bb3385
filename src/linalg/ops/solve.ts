// solve: x with a x = b (LU with partial pivoting, gesv), a [..., n, n], b [..., n, k].
//
// JVP: dx = a⁻¹ (db − da x). VJP (a is holomorphic-linear in b, so plain
// transposes, no conjugation): b̄ = a⁻ᵀ ḡ, ā = −b̄ xᵀ.

import type { Tensor } from '../../tensor/tensor.js';
import { ShapeError } from '../../tensor/errors.js';
import { fmtShape } from '../../tensor/shape.js';
import { SingularMatrixError } from '../../tensor/errors-linalg.js';
import { mT } from '../matrix.js';
import { registerLinalgOp, asFloat, bindLinalg, firstFailure, linalgDType, sameDType, square, oneKernelCall } from './common.js';

/** x solving a x = b for a [..., n, n], b [..., n, k] (same batch dims). */
export function solveRaw(a: Tensor, b: Tensor): Tensor {
  return bindLinalg('solve', [a, b])[0]!;
}

registerLinalgOp('solve', {
  coreRanks: [2, 2],
  outputs([a, b]) {
    sameDType('solve', [a!, b!]);
    const n = square('solve', a!);
    if (b!.shape[0] !== n) throw new ShapeError(`linalg.solve: a ${fmtShape(a!.shape)} and b ${fmtShape(b!.shape)}: b needs ${n} rows`);
    return [{ shape: [...b!.shape], dtype: b!.dtype }];
  },
  ...oneKernelCall(
    'solve',
    ({ batch, ins, inShapes, inDTypes, outs, attrs }) => {
      const [n, k] = inShapes[1]!;
      return [linalgDType('solve', inDTypes[0]!), batch, n!, k!, asFloat(ins[0]), asFloat(ins[1]), asFloat(outs[0])];
    },
    (info, { batch }) => {
      const e = firstFailure(info);
      if (e >= 0) throw new SingularMatrixError('solve', info[e]! - 1, batch > 1 ? e : undefined);
    },
  ),
  jvp({ inputs: [a], outs: [x] }, [da, db]) {
    let rhs: Tensor | null = db;
    if (da) rhs = rhs ? rhs.sub(da.matmul(x!)) : da.matmul(x!).neg();
    return [rhs ? solveRaw(a!, rhs) : null];
  },
  vjp({ inputs: [a], outs: [x] }, [g]) {
    if (!g) return [null, null];
    const bbar = solveRaw(mT(a!), g);
    return [bbar.matmul(mT(x!)).neg(), bbar];
  },
});
