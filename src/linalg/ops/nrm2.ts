// nrm2: the Euclidean norm of x [..., n] over its last axis, float64 or
// complex128, in one kernel pass safe from overflow and underflow
// (kernels/contract.ts). linalg.norm's 2-norm, Frobenius norm and default
// norm of double precision input move the reduced axes last, flatten them and
// call it; as an op it is one node with one kernel instead of the max pass and
// the scaled sum the generic graph needed. Output: [...] float64.
//
// JVP: d‖x‖ = Re Σ conj(u)·dx with u = x/‖x‖ (the unit vector; divided, not
// multiplied by 1/‖x‖, which is subnormal for ‖x‖ > 2^1022). At ‖x‖ = 0, u is
// x/1 = 0, so the derivative is 0 there (PyTorch's choice of subgradient)
// instead of 0/0. The JVP is linear in dx with a constant factor, so the VJP
// is its transpose: x̄ = ḡ·u for real x, ḡ·conj(u) for complex x under rlx's
// complex convention (what the generic graph's rules gave before).

import type { Tensor } from '../../tensor/tensor.js';
import { registerLinalgOp, type LinalgRuleCtx } from '../../compiler/linalg-registry.js';
import { DTypeError } from '../../tensor/errors.js';
import { isComplex } from '../../tensor/dtype.js';
import { where } from '../../tensor/ops/elementwise.js';
import { K, asFloat, bindLinalg, transposeJvp } from './common.js';

/** ‖x‖₂ over the last axis of a float64 or complex128 x [..., n]: float64 [...]. */
export function nrm2Raw(x: Tensor): Tensor {
  return bindLinalg('nrm2', [x])[0]!;
}

const jvp = ({ inputs: [x], outs: [norm] }: LinalgRuleCtx, [dx]: (Tensor | null)[]) => {
  if (!dx) return [null];
  const u = x!.div(where(norm!.gt(0), norm!, 1).expandDims(-1));
  return [isComplex(x!.dtype) ? u.conj().mul(dx).real().sum(-1) : u.mul(dx).sum(-1)];
};

registerLinalgOp('nrm2', {
  coreRanks: [1],
  outputs([x]) {
    if (x!.dtype !== 'float64' && x!.dtype !== 'complex128') throw new DTypeError(`linalg.nrm2: expects float64 or complex128, got ${x!.dtype}`);
    return [{ shape: [], dtype: 'float64' }];
  },
  run(kernels, { batch, ins: [x], inShapes: [s], inDTypes: [d], outs }) {
    K(kernels).nrm2(d as 'float64' | 'complex128', batch, s![0]!, asFloat(x), asFloat(outs[0]));
  },
  jvp,
  vjp: transposeJvp(jvp),
});
