// svd: a = u diag(s) vh, s real descending (gesdd, gesvd fallback).
// computeUv = false gives s only; full = true gives square u [m, m], vh [n, n].
//
// JVP (JAX's rule; reduced factors, distinct nonzero singular values): with
// ds = uᴴ da v, s' = Re diag(ds), f_ij = 1 / (s_j² − s_i²) off the diagonal,
// du = u (f ∘ (ds S + S dsᴴ) + ½ (ds − dsᴴ) S⁻¹) (+ the part of da v outside
// span(u), over s, when m > n), dv likewise. Repeated singular values make f
// infinite (the vectors are not differentiable there); the values' tangents
// stay finite. The full factors of a non-square matrix are not unique.

import type { Tensor } from '../../tensor/tensor.js';
import { realDType } from '../../tensor/dtype.js';
import { TransformError } from '../../tensor/errors.js';
import { binary } from '../../tensor/ops/elementwise.js';
import { ConvergenceError } from '../../tensor/errors-linalg.js';
import { mH, mT, diagEmbed, diagonalOf, identity } from '../matrix.js';
import { registerLinalgOp, asFloat, bindLinalg, firstFailure, linalgDType, transposeJvp, oneKernelCall } from './common.js';

// Constant attrs objects by [full][computeUv]: bindLinalg memoizes what it derives from them.
const SVD_ATTRS = [false, true].map((full) => [false, true].map((computeUv) => Object.freeze({ full, computeUv })));

/** [u, s, vh] (computeUv) or [s] of a [..., m, n]. */
export function svdRaw(a: Tensor, full: boolean, computeUv: boolean): Tensor[] {
  return bindLinalg('svd', [a], SVD_ATTRS[+full]![+computeUv]!);
}

const jvp = ({ inputs: [a], outs, attrs }: { inputs: Tensor[]; outs: Tensor[]; attrs: Readonly<Record<string, unknown>> }, [da]: (Tensor | null)[]) => {
  if (!da) return outs.map(() => null);
  const computeUv = attrs['computeUv'] as boolean;
  const [m, n] = a!.shape.slice(-2) as [number, number];
  if (computeUv && attrs['full'] && m !== n) throw new TransformError(`linalg.svd: the full factors of a ${m}x${n} matrix are not unique; differentiate fullMatrices: false`);
  const [u, s, vh] = computeUv ? (outs as [Tensor, Tensor, Tensor]) : (svdRaw(a!, false, true) as [Tensor, Tensor, Tensor]);
  const dt = a!.dtype;
  const v = mH(vh!);
  const dS = mH(u!).matmul(da).matmul(v);
  const ds = diagonalOf(dS).real();
  if (!computeUv) return [ds];
  const k = s!.shape[s!.ndim - 1]!;
  const row = s!.expandDims(-2); // s_j along columns
  const col = mT(row); // s_i along rows
  const eye = identity(k, realDType(dt));
  const f = binary('div', 1, row.add(col).mul(row.sub(col)).add(eye)).sub(eye).cast(dt);
  const sRow = row.cast(dt);
  const dSS = dS.mul(sRow); // dS diag(s)
  const SdS = mT(sRow).mul(dS); // diag(s) dS
  const zero = s!.eq(0).cast(s!.dtype);
  const sInv = binary('div', 1, s!.add(zero)).sub(zero);
  const diagPart = dS.sub(mH(dS)).mul(0.5).mul(diagEmbed(sInv, dt));
  let du = u!.matmul(f.mul(dSS.add(mH(dSS))).add(diagPart));
  let dv = v.matmul(f.mul(SdS.add(mH(SdS))));
  if (m > n) {
    const dav = da.matmul(v);
    du = du.add(dav.sub(u!.matmul(mH(u!).matmul(dav))).div(sRow));
  }
  if (n > m) {
    const dahu = mH(da).matmul(u!);
    dv = dv.add(dahu.sub(v.matmul(vh!.matmul(dahu))).div(sRow));
  }
  return [du, ds, mH(dv)];
};

registerLinalgOp('svd', {
  coreRanks: [2],
  outputs([a], attrs) {
    linalgDType('svd', a!.dtype);
    const [m, n] = a!.shape as [number, number];
    const k = Math.min(m, n);
    const s = { shape: [k], dtype: realDType(a!.dtype) };
    if (!attrs['computeUv']) return [s];
    const full = attrs['full'] as boolean;
    return [{ shape: [m, full ? m : k], dtype: a!.dtype }, s, { shape: [full ? n : k, n], dtype: a!.dtype }];
  },
  ...oneKernelCall(
    'svd',
    ({ batch, ins, inShapes, inDTypes, outs, attrs }) => {
      const [m, n] = inShapes[0]!;
      const uv = attrs['computeUv'] as boolean;
      const [u, s, vh] = uv ? outs : [null, outs[0]!, null];
      return [linalgDType('svd', inDTypes[0]!), batch, m!, n!, asFloat(ins[0]), asFloat(s), u ? asFloat(u) : null, vh ? asFloat(vh) : null, attrs['full'] as boolean];
    },
    (info, { batch }) => {
      const e = firstFailure(info);
      if (e >= 0) throw new ConvergenceError('svd', batch > 1 ? e : undefined, `${info[e]} superdiagonals did not converge`);
    },
  ),
  jvp,
  vjp: transposeJvp(jvp),
});
