// lu: partial-pivoting LU of a [..., m, n] (getrf). Parts: the packed factors
// (unit-lower l below the diagonal, u on and above), the 0-based row
// interchanges piv [..., min(m, n)] and the permutation perm [..., m] with
// a[perm[i], :] = (l u)[i, :]. A singular matrix is not an error here (SciPy's
// lu returns the factors); solve/det decide what singularity means for them.
//
// JVP (square a): with p a = l u, x = l⁻¹ (p da) u⁻¹,
// dl = l tril(x, −1), du = triu(x) u; the packed tangent is their sum.
// Pivots do not change under small perturbations (no tangent).

import type { Tensor } from '../../tensor/tensor.js';
import { TransformError } from '../../tensor/errors.js';
import { arange } from '../../tensor/create.js';
import { mT, tril, triu, identity } from '../matrix.js';
import { registerLinalgOp, asFloat, bindLinalg, linalgDType, transposeJvp, oneKernelCall } from './common.js';
import { triangularSolveRaw } from './triangular.js';

/** [packed lu, piv (int32), perm (int32)] of a [..., m, n]. */
export function luRaw(a: Tensor): [Tensor, Tensor, Tensor] {
  return bindLinalg('lu', [a]) as [Tensor, Tensor, Tensor];
}

/** Row-selection matrix of a permutation: (p x)[i] = x[perm[i]]. */
export function permutationMatrix(perm: Tensor, dtype: Tensor['dtype']): Tensor {
  const m = perm.shape[perm.ndim - 1]!;
  return perm.expandDims(-1).eq(arange(m).cast('int32')).cast(dtype);
}

/** unit-lower l and upper u from the packed factors (square). */
export function unpackLu(lu: Tensor): { l: Tensor; u: Tensor } {
  const n = lu.shape[lu.ndim - 1]!;
  return { l: tril(lu, -1).add(identity(n, lu.dtype)), u: triu(lu) };
}

const jvp = ({ outs: [lu, , perm] }: { outs: Tensor[] }, [da]: (Tensor | null)[]) => {
  if (!da) return [null, null, null];
  const [m, n] = lu!.shape.slice(-2);
  if (m !== n) throw new TransformError(`linalg.lu: derivatives are implemented for square matrices, got ${m}x${n}`);
  const { l, u } = unpackLu(lu!);
  const pda = permutationMatrix(perm!, da.dtype).matmul(da);
  const y = triangularSolveRaw(l, pda, { lower: true, trans: 0, unitDiagonal: true }); // l⁻¹ p da
  const x = mT(triangularSolveRaw(u, mT(y), { lower: false, trans: 1, unitDiagonal: false })); // y u⁻¹
  return [l.matmul(tril(x, -1)).add(triu(x).matmul(u)), null, null];
};

registerLinalgOp('lu', {
  coreRanks: [2],
  outputs([a]) {
    linalgDType('lu', a!.dtype);
    const [m, n] = a!.shape as [number, number];
    return [
      { shape: [m, n], dtype: a!.dtype },
      { shape: [Math.min(m, n)], dtype: 'int32' },
      { shape: [m], dtype: 'int32' },
    ];
  },
  ...oneKernelCall(
    'lu',
    ({ batch, ins, inShapes, inDTypes, outs, attrs }) => {
      const [m, n] = inShapes[0]!;
      return [linalgDType('lu', inDTypes[0]!), batch, m!, n!, asFloat(ins[0]), asFloat(outs[0]), outs[1] as Int32Array, outs[2] as Int32Array];
    },
  ),
  jvp,
  vjp: transposeJvp(jvp),
});
