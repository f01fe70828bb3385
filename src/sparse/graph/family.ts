// The sparse module's kernel families: the kernels of its IR ops (CSR products
// and solves: graph/contract.ts's SparseGraphKernels) and the direct solver
// the js solve kernel calls (the js sparse LU/Cholesky; registered by
// graph/register.ts, so the js kernels do not import the direct module).

import { kernelFamily } from '../../compiler/kernel-registry.js';
import type { SparseGraphKernels } from './contract.js';
import type { DirectSolve } from './direct.js';

export const SPARSE_KERNELS = kernelFamily<SparseGraphKernels>('sparse');
export const SPARSE_DIRECT = kernelFamily<DirectSolve>('sparse.direct');
