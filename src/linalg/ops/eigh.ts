// eigh: eigenvalues (ascending, real) and eigenvectors (columns) of a
// Hermitian matrix, reading its lower (or upper) triangle (syevd / heevd).
// computeV = false gives the values only (eigvalsh).
//
// JVP (distinct eigenvalues): with s the Hermitian matrix built from the
// triangle read and m = vᴴ ds v, dw = Re diag(m), dv = v (f ∘ m) with
// f_ij = 1 / (w_j − w_i) off the diagonal and 0 on it. At repeated eigenvalues
// the eigenvectors are not differentiable: f holds ±inf there and the vector
// tangents become inf/nan (the values' tangents stay finite), as in JAX/PyTorch.
// Gradients of the values alone stay finite too, also through eigh's full
// output: an unused part's cotangent is a symbolic zero (linalg-rules.ts).

import type { Tensor } from '../../tensor/tensor.js';
import { realDType } from '../../tensor/dtype.js';
import { binary } from '../../tensor/ops/elementwise.js';
import { ConvergenceError } from '../../tensor/errors-linalg.js';
import { mH, diagonalOf, identity } from '../matrix.js';
import { registerLinalgOp, asFloat, bindLinalg, firstFailure, linalgDType, square, transposeJvp, oneKernelCall } from './common.js';
import { hermitianFromTriangle } from './cholesky.js';

// Constant attrs objects by [lower][computeV]: bindLinalg memoizes what it derives from them.
const EIGH_ATTRS = [false, true].map((lower) => [false, true].map((computeV) => Object.freeze({ lower, computeV })));

/** [w, v] (computeV) or [w] of a Hermitian a [..., n, n]. */
export function eighRaw(a: Tensor, lower: boolean, computeV: boolean): Tensor[] {
  return bindLinalg('eigh', [a], EIGH_ATTRS[+lower]![+computeV]!);
}

const jvp = ({ inputs: [a], outs, attrs }: { inputs: Tensor[]; outs: Tensor[]; attrs: Readonly<Record<string, unknown>> }, [da]: (Tensor | null)[]) => {
  if (!da) return outs.map(() => null);
  const lower = attrs['lower'] as boolean;
  const computeV = attrs['computeV'] as boolean;
  const [w, v] = computeV ? (outs as [Tensor, Tensor]) : (eighRaw(a!, lower, true) as [Tensor, Tensor]);
  const m = mH(v!).matmul(hermitianFromTriangle(da, lower)).matmul(v!);
  const dw = diagonalOf(m).real();
  if (!computeV) return [dw];
  const n = w!.shape[w!.ndim - 1]!;
  const eyeR = identity(n, w!.dtype);
  // 1 / (w_j − w_i + δ_ij) − δ_ij: zero on the diagonal without dividing by zero there
  const f = binary('div', 1, w!.expandDims(-2).sub(w!.expandDims(-1)).add(eyeR)).sub(eyeR);
  return [dw, v!.matmul(f.cast(m.dtype).mul(m))];
};

registerLinalgOp('eigh', {
  coreRanks: [2],
  outputs([a], attrs) {
    linalgDType('eigh', a!.dtype);
    const n = square('eigh', a!);
    const w = { shape: [n], dtype: realDType(a!.dtype) };
    return attrs['computeV'] ? [w, { shape: [n, n], dtype: a!.dtype }] : [w];
  },
  ...oneKernelCall(
    'eigh',
    ({ batch, ins, inShapes, inDTypes, outs, attrs }) => {
      return [linalgDType('eigh', inDTypes[0]!), batch, inShapes[0]![0]!, asFloat(ins[0]), asFloat(outs[0]), outs[1] ? asFloat(outs[1]) : null, attrs['lower'] as boolean];
    },
    (info, { batch }) => {
      const e = firstFailure(info);
      if (e >= 0) throw new ConvergenceError('eigh', batch > 1 ? e : undefined, `${info[e]} off-diagonal elements did not converge to zero`);
    },
  ),
  jvp,
  vjp: transposeJvp(jvp),
});
