// Decompositions of composite ops into primitives, for backends without a kernel.

import type { Attrs, Node } from './ir.js';
import { Tensor } from '../tensor/tensor.js';
import { logsumexpDecomposed } from '../tensor/ops/reduce.js';

type Decomposition = (inputs: Node[], attrs: Attrs) => Node;

export const DECOMPOSITIONS: Partial<Record<string, Decomposition>> = {
  logsumexp: ([x], a) => logsumexpDecomposed(new Tensor(x!), a['axes'] as number[]).node,
  custom: (xs) => xs[xs.length - 1]!,
  // [..., m, k] @ [..., k, n] as a broadcast product summed over k (integer GEMM).
  matmul: ([a, b]) => new Tensor(a!).expandDims(-1).mul(new Tensor(b!).expandDims(-3)).sum(-2).node,
};
