// The sparse module's native glue: registers its kernels on the native device.
// The module owns this glue (graph/register.ts calls registerNativeSparse when
// the native backend is available), so the backends never import a module.
//
// Three kernel families get a 'native' implementation here:
//   SPARSE_KERNELS  the sparse IR ops' kernels (native-graph.ts);
//   SPMV_KERNELS    the SpMV behind the matrix classes' raw products and the
//                   Krylov solvers (spmv.ts), on the checked products of
//                   native-products.ts;
//   VEC_KERNELS     the SIMD vector kernels of the solvers and Lanczos
//                   (solvers/vec.ts), the addon's own functions.
// The raw families are optional: an addon without them (an older build) leaves
// their js loops in charge.

import { registerKernels } from '../../compiler/kernel-registry.js';
import { nativeAddon } from '../../backends/native/addon.js';
import { typedAddon } from '../../backends/native/errors.js';
import { SPARSE_KERNELS } from '../graph/family.js';
import { SPMV_KERNELS } from '../spmv.js';
import { VEC_KERNELS } from '../solvers/vec.js';
import { nativeSparseGraphKernels } from './native-graph.js';
import { spmv, spmvDot, spmvH } from './native-products.js';

/** Registers the sparse module's native kernels (graph/register.ts, when the native backend is available). */
export function registerNativeSparse(): void {
  registerKernels('native', SPARSE_KERNELS, nativeSparseGraphKernels);
  registerNativeRawKernels();
}

/** The native SpMV and vector kernels behind the raw products and the Krylov solvers, when the addon has them. */
function registerNativeRawKernels(): void {
  const raw = nativeAddon();
  if (!raw || typeof raw.sparseSpmv !== 'function') return;
  const a = typedAddon(raw);
  const hasDot = typeof a.sparseSpmvDot === 'function';
  registerKernels('native', SPMV_KERNELS, {
    name: 'native',
    csrMatvec(m, x, y, scratch) {
      // The raw vectors are float64 (interleaved complex); the native kernel wants A's storage type.
      if (m.dtype !== 'float64' && m.dtype !== 'complex128') return false;
      spmv(m, x, y, 1, 0, { validated: false, outputScratch: scratch === true });
      return true;
    },
    csrRmatvec(m, x, y) {
      if (m.dtype !== 'float64' && m.dtype !== 'complex128') return false;
      spmvH(m, x, y, 1, 0, { validated: false });
      return true;
    },
    csrMatvecDot(m, x, y) {
      if (!hasDot || m.dtype !== 'float64' || m.shape[0] !== m.shape[1]) return null;
      return spmvDot(m, x, y);
    },
  });
  if (a.sparseVecDot && a.sparseVecAxpy && a.sparseVecXpby && a.sparseVecCgStep && a.sparseVecGemv && a.sparseVecGemmTN) {
    registerKernels('native', VEC_KERNELS, {
      name: 'native',
      dot: a.sparseVecDot.bind(a),
      axpy: a.sparseVecAxpy.bind(a),
      xpby: a.sparseVecXpby.bind(a),
      cgStep: a.sparseVecCgStep.bind(a),
      gemv: a.sparseVecGemv.bind(a),
      gemmTN: a.sparseVecGemmTN.bind(a),
    });
  }
}
