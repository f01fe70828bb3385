// Registers the sparse IR ops, their js kernels and the js direct solver, and,
// when the native backend is available, the native kernels (UMFPACK/CHOLMOD
// solves, threaded products) and the raw SpMV and vector kernels
// (kernels/native.ts).

import './ops.js';
import { registerKernels } from '../../compiler/kernel-registry.js';
import { SPARSE_DIRECT, SPARSE_KERNELS } from './family.js';
import { jsSparseGraphKernels } from './js-kernels.js';
import { jsCholesky, jsSplu } from '../direct/index.js';
import { deviceNames } from '../../backends/registry.js';
import { registerNativeSparse } from '../kernels/native.js';

registerKernels('js', SPARSE_KERNELS, jsSparseGraphKernels);

const TRANS = ['N', 'T', 'H'] as const;

registerKernels('js', SPARSE_DIRECT, (dtype, a, b, _k, out, o) => {
  const arrays = { shape: [a.rows, a.cols] as [number, number], dtype, indptr: a.indptr, indices: a.indices, data: a.data, format: 'csr' as const };
  if (o.method !== 'cholesky') {
    const f = jsSplu(arrays);
    try {
      out.set(f.solve(b, { trans: TRANS[o.trans] }));
    } finally {
      f.dispose();
    }
    return;
  }
  // Hermitian A: Aᴴ = A, and Aᵀ = conj(A), so Aᵀ x = b is x = conj(A⁻¹ conj(b)).
  const f = jsCholesky(arrays);
  const flip = o.trans === 1 && (dtype === 'complex64' || dtype === 'complex128');
  const conjugated = (v: ArrayLike<number>) => Float64Array.from(v, (x, i) => (i % 2 ? -x : x));
  try {
    const x = f.solve(flip ? conjugated(b) : b);
    out.set(flip ? conjugated(x) : x);
  } finally {
    f.dispose();
  }
});

if (deviceNames().includes('native')) registerNativeSparse();
