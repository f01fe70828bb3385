// The small dense symmetric eigenproblem inside Lanczos (the thick-restart
// matrix is arrowhead + tridiagonal): solved by the linalg module's js eigh
// kernel (Householder tridiagonalization + implicit QL), the same code that
// serves linalg.eigh on the js backend. m is small (ncv ≲ 100): O(m³) is nothing.

import { RlxError } from '../../tensor/errors.js';
import { jsLinalgKernels } from '../../linalg/kernels/js/index.js';

/** Symmetric eigen-decomposition of a dense row-major m×m A: ascending w, Z's columns the vectors. */
export function symEig(m: number, A: Float64Array): { w: Float64Array; Z: Float64Array } {
  const w = new Float64Array(m),
    Z = new Float64Array(m * m);
  if (m === 0) return { w, Z };
  const info = jsLinalgKernels.eigh('float64', 1, m, A, w, Z, true)[0]!;
  if (info !== 0) throw new RlxError(`eigsh: the QL iteration did not converge on the ${m}×${m} projected matrix`);
  return { w, Z };
}
