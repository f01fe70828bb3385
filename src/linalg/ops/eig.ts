// eig: eigenvalues and right eigenvectors (columns, unit 2-norm) of a general
// real or complex square matrix (geev). Results are complex; the order is
// LAPACK's. No derivative rule: the non-Hermitian eigenproblem's derivatives
// (and their conventions for eigenvector phase) are left for a later issue.

import type { Tensor } from '../../tensor/tensor.js';
import { complexDType, isComplex } from '../../tensor/dtype.js';
import { ConvergenceError } from '../../tensor/errors-linalg.js';
import { registerLinalgOp, asFloat, bindLinalg, firstFailure, linalgDType, square, oneKernelCall } from './common.js';

// Constant attrs objects: bindLinalg memoizes what it derives from them.
const WITH_V = Object.freeze({ computeV: true });
const VALUES_ONLY = Object.freeze({ computeV: false });

/** [w, v] (computeV) or [w] of a [..., n, n]. */
export function eigRaw(a: Tensor, computeV: boolean): Tensor[] {
  return bindLinalg('eig', [a], computeV ? WITH_V : VALUES_ONLY);
}

registerLinalgOp('eig', {
  coreRanks: [2],
  outputs([a], attrs) {
    const d = linalgDType('eig', a!.dtype);
    const n = square('eig', a!);
    const c = isComplex(d) ? d : complexDType(d);
    return attrs['computeV'] ? [{ shape: [n], dtype: c }, { shape: [n, n], dtype: c }] : [{ shape: [n], dtype: c }];
  },
  ...oneKernelCall(
    'eig',
    ({ batch, ins, inShapes, inDTypes, outs, attrs }) => {
      return [linalgDType('eig', inDTypes[0]!), batch, inShapes[0]![0]!, asFloat(ins[0]), asFloat(outs[0]), outs[1] ? asFloat(outs[1]) : null];
    },
    (info, { batch }) => {
      const e = firstFailure(info);
      if (e >= 0) throw new ConvergenceError('eig', batch > 1 ? e : undefined, 'the QR algorithm failed to compute all eigenvalues');
    },
  ),
  // No jvp/vjp: grad or jvp through eig is the registry's TransformError, with this hint.
  missingRuleHint: 'derivatives of the general eigenproblem are not implemented; use eigh for Hermitian matrices',
});
