// nrm2: the Euclidean norm of x [..., core...] over its last 1 to 4 axes,
// float64 or complex128, in one kernel pass safe from overflow and underflow
// (kernels/contract.ts). linalg.norm's 2-norm, Frobenius norm and default
// norm of double precision input move the reduced axes last and call it; as
// an op it is one node with one kernel instead of the max pass and the scaled
// sum the generic graph needed. Output: [...] float64.
//
// JVP: d‖x‖ = Re Σ conj(u)·dx with u = x/‖x‖ (the unit vector; divided, not
// multiplied by 1/‖x‖, which is subnormal for ‖x‖ > 2^1022). At ‖x‖ = 0, u is
// x/1 = 0, so the derivative is 0 there (PyTorch's choice of subgradient)
// instead of 0/0. The JVP is linear in dx with a constant factor, so the VJP
// is its transpose: x̄ = ḡ·u for real x, ḡ·conj(u) for complex x under rlx's
// complex convention (what the generic graph's rules gave before).

import type { Tensor } from '../../tensor/tensor.js';
import type { OpRuleCtx } from '../../compiler/op-registry.js';
import { DTypeError } from '../../tensor/errors.js';
import { isComplex } from '../../tensor/dtype.js';
import { where } from '../../tensor/ops/elementwise.js';
import { registerLinalgOp, asFloat, bindLinalg, transposeJvp } from './common.js';

/**
 * The op over `core` trailing axes, 1 to MAX_CORE ('nrm2', 'nrm2.2', ...): the
 * kernel reads the core as one flat row, so the norm over the last few axes of
 * a contiguous tensor needs no reshape, which a compiled graph would copy (an
 * opaque op's input that is a view is materialized: 8 MB more traffic for the
 * Frobenius norm of a realized 1000 × 1000 matrix inside a larger graph).
 */
export const NRM2_MAX_CORE = 4;
const opName = (core: number) => (core === 1 ? 'nrm2' : `nrm2.${core}`);

/** ‖x‖₂ over the last `core` axes (1 ≤ core ≤ NRM2_MAX_CORE) of a float64 or complex128 x: float64 with the other dims. */
export function nrm2Raw(x: Tensor, core = 1): Tensor {
  return bindLinalg(opName(core), [x])[0]!;
}

const jvp = ({ inputs: [x], outs: [norm] }: OpRuleCtx, [dx]: (Tensor | null)[]) => {
  if (!dx) return [null];
  const core = x!.ndim - norm!.ndim;
  const axes = Array.from({ length: core }, (_, i) => -1 - i);
  const u = x!.div(where(norm!.gt(0), norm!, 1).expandDims(axes));
  return [isComplex(x!.dtype) ? u.conj().mul(dx).real().sum(axes) : u.mul(dx).sum(axes)];
};

for (let core = 1; core <= NRM2_MAX_CORE; core++) {
  registerLinalgOp(opName(core), {
    coreRanks: [core],
    outputs([x]) {
      if (x!.dtype !== 'float64' && x!.dtype !== 'complex128') throw new DTypeError(`linalg.nrm2: expects float64 or complex128, got ${x!.dtype}`);
      return [{ shape: [], dtype: 'float64' }];
    },
    run(kernels, { batch, ins: [x], inShapes: [s], inDTypes: [d], outs }) {
      let n = 1;
      for (const k of s!) n *= k;
      kernels.nrm2(d as 'float64' | 'complex128', batch, n, asFloat(x), asFloat(outs[0]));
    },
    jvp,
    vjp: transposeJvp(jvp),
  });
}
