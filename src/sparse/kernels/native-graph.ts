// The native kernels of the sparse IR ops (the SPARSE_KERNELS family,
// graph/contract.ts): threaded CSR products (native-products.ts) and the
// UMFPACK/CHOLMOD solves (native-direct.ts; the LU is KLU in an addon built
// without UMFPACK, see luFactor); registered on the native device by native.ts.
//
// csrMatmulAsync and solveAsync are the Async twins (same arguments, result and
// errors; a Promise): the products (SpMV, SpMM, SpMV-H) and the direct solves
// run on a libuv worker, the rest (several columns of a transpose, Krylov
// methods) as the sync method does.

import type { CompressedArrays, SparseDType, ValueArray } from '../contract.js';
import type { CsrView, SparseGraphKernels } from '../graph/contract.js';
import { jsSparseGraphKernels, krylovOperand, krylovSolve } from '../graph/js-kernels.js';
import { checkFiniteCsr } from '../finite.js';
import type { AsyncTwins } from '../../backends/native/addon.js';
import { spmm, spmmAsync, spmv, spmvAsync, spmvH, spmvHAsync } from './native-products.js';
import { cholmodFactor, cholmodFactorAsync, luFactor, luFactorAsync } from './native-direct.js';

const arraysOf = (dtype: SparseDType, a: CsrView): CompressedArrays => ({ shape: [a.rows, a.cols], dtype, indptr: a.indptr, indices: a.indices, data: a.data });
const cplx = (d: SparseDType) => d === 'complex64' || d === 'complex128';
const conjugated = (v: ValueArray): ValueArray => {
  const c = v.slice();
  for (let i = 1; i < c.length; i += 2) c[i] = -c[i]!;
  return c;
};

/** op(A) X on the native kernels: A X by spmm, Aᴴ x by spmvH, Aᵀ x = conj(Aᴴ conj x); several columns of a transpose fall back to js. */
function csrMatmul(dtype: SparseDType, a: CsrView, x: ValueArray, k: number, out: ValueArray, trans: 0 | 1 | 2): void {
  const A = arraysOf(dtype, a);
  // beta = 0: the kernels write every output element without reading it. One column is
  // the threaded SpMV, its indices checked inside the product (out is the graph's scratch).
  if (trans === 0 && k === 1) spmv(A, x, out, 1, 0, { outputScratch: true });
  else if (trans === 0) spmm(A, x, k, out, 1, 0, { validated: false });
  else if (k !== 1) jsSparseGraphKernels.csrMatmul(dtype, a, x, k, out, trans);
  else if (trans === 2 || !cplx(dtype)) spmvH(A, x, out, 1, 0, { validated: false });
  else {
    spmvH(A, conjugated(x), out, 1, 0, { validated: false });
    for (let i = 1; i < out.length; i += 2) out[i] = -out[i]!;
  }
}

/** op(A)⁻¹ B by UMFPACK (LU; KLU without UMFPACK) or CHOLMOD (Cholesky; Aᵀ of a Hermitian A is conj(A)), or a Krylov method on native products. */
function solve(dtype: SparseDType, a: CsrView, b: ValueArray, k: number, out: ValueArray, o: Parameters<SparseGraphKernels['solve']>[5]): void {
  if (o.method !== 'lu' && o.method !== 'cholesky') return krylovSolve(dtype, krylovOperand(dtype, a, o.trans, csrMatmul), b, k, out, o);
  const A = arraysOf(dtype, a);
  checkFiniteCsr(o.method === 'cholesky' ? 'cholesky' : 'splu', A);
  const f = o.method === 'cholesky' ? cholmodFactor(A) : luFactor(A);
  try {
    if (o.method === 'cholesky' && o.trans === 1 && cplx(dtype)) out.set(conjugated(f.solve(conjugated(b)) as ValueArray));
    else out.set(f.solve(b, { trans: o.method === 'cholesky' ? 'N' : (['N', 'T', 'H'] as const)[o.trans] }));
  } finally {
    f.dispose();
  }
}

/** csrMatmul's twin: the same cases, the native products on a libuv worker (several columns of a transpose: js, as csrMatmul). */
async function csrMatmulAsync(dtype: SparseDType, a: CsrView, x: ValueArray, k: number, out: ValueArray, trans: 0 | 1 | 2): Promise<void> {
  const A = arraysOf(dtype, a);
  if (trans === 0 && k === 1) await spmvAsync(A, x, out, 1, 0, { outputScratch: true });
  else if (trans === 0) await spmmAsync(A, x, k, out, 1, 0, { validated: false });
  else if (k !== 1) csrMatmul(dtype, a, x, k, out, trans);
  else if (trans === 2 || !cplx(dtype)) await spmvHAsync(A, x, out, 1, 0, { validated: false });
  else {
    await spmvHAsync(A, conjugated(x), out, 1, 0, { validated: false });
    for (let i = 1; i < out.length; i += 2) out[i] = -out[i]!;
  }
}

/** solve's twin: the factorization and the triangular solves on a libuv worker (Krylov methods as solve). */
async function solveAsync(dtype: SparseDType, a: CsrView, b: ValueArray, k: number, out: ValueArray, o: Parameters<SparseGraphKernels['solve']>[5]): Promise<void> {
  if (o.method !== 'lu' && o.method !== 'cholesky') return solve(dtype, a, b, k, out, o);
  const A = arraysOf(dtype, a);
  checkFiniteCsr(o.method === 'cholesky' ? 'cholesky' : 'splu', A);
  const f = o.method === 'cholesky' ? await cholmodFactorAsync(A) : await luFactorAsync(A);
  try {
    if (o.method === 'cholesky' && o.trans === 1 && cplx(dtype)) out.set(conjugated((await f.solveAsync(conjugated(b))) as ValueArray));
    else out.set(await f.solveAsync(b, { trans: o.method === 'cholesky' ? 'N' : (['N', 'T', 'H'] as const)[o.trans] }));
  } finally {
    f.dispose();
  }
}

export const nativeSparseGraphKernels: SparseGraphKernels & AsyncTwins<Pick<SparseGraphKernels, 'csrMatmul' | 'solve'>> = {
  csrMatmul,
  csrSddmm: jsSparseGraphKernels.csrSddmm,
  solve,
  csrMatmulAsync,
  solveAsync,
};
