// The pure-TypeScript reference implementation of the linalg kernel contract
// (src/linalg/kernels/contract.ts): portable, dependency-free, computing in
// float64 for every dtype. The native LAPACK kernels implement the same
// interface; tests hold both to the same identities and NumPy goldens.

import type { LinalgKernels } from '../contract.js';
import { cholesky } from './cholesky.js';
import { eig } from './eig.js';
import { eigh } from './eigh.js';
import { lstsq } from './lstsq.js';
import { lu, solve } from './lu.js';
import { qr } from './qr.js';
import { svd } from './svd.js';
import { triangularSolve } from './triangular.js';
import { gemm } from './gemm.js';
import { det, inv } from './det.js';
import { nrm2 } from './nrm2.js';

export const jsLinalgKernels: LinalgKernels = { cholesky, triangularSolve, lu, solve, det, inv, qr, eigh, svd, eig, lstsq, gemm, nrm2 };
