// lstsq: the minimum-norm least-squares solution of a x ≈ b by SVD (gelsd).
// Parts: x [n, k], the singular values s [min(m, n)] and the effective rank
// (int32; singular values at or below rcond · s_max count as zero; rcond < 0
// means eps · max(m, n), NumPy's default).
//
// JVP (constant rank, with the pseudo-inverse p = a⁺ built from the SVD and
// r = b − a x): dx = −p da x + p pᴴ daᴴ r + (I − p a) daᴴ pᴴ x + p db.
// The singular values get the SVD's tangent Re diag(uᴴ da v).

import type { Tensor } from '../../tensor/tensor.js';
import { ShapeError } from '../../tensor/errors.js';
import { DTYPE_INFO, realDType } from '../../tensor/dtype.js';
import { fmtShape } from '../../tensor/shape.js';
import { where } from '../../tensor/ops/elementwise.js';
import { binary } from '../../tensor/ops/elementwise.js';
import { ConvergenceError } from '../../tensor/errors-linalg.js';
import { mH, diagonalOf, identity } from '../matrix.js';
import { registerLinalgOp, asFloat, bindLinalg, firstFailure, linalgDType, sameDType, transposeJvp, oneKernelCall } from './common.js';
import { svdRaw } from './svd.js';

/** [x, s, rank] for a [..., m, n], b [..., m, k]. */
export function lstsqRaw(a: Tensor, b: Tensor, rcond: number): [Tensor, Tensor, Tensor] {
  return bindLinalg('lstsq', [a, b], { rcond }) as [Tensor, Tensor, Tensor];
}

/** The cutoff ratio actually used: rcond, or eps · max(m, n) when rcond < 0. */
export function effectiveRcond(rcond: number, m: number, n: number, dtype: Tensor['dtype']): number {
  const eps = DTYPE_INFO[realDType(dtype)].itemsize === 4 ? 2 ** -23 : 2 ** -52;
  return rcond < 0 ? eps * Math.max(m, n) : rcond;
}

/** a⁺ from the SVD, dropping singular values at or below the cutoff. */
export function pinvFromSvd(u: Tensor, s: Tensor, vh: Tensor, rcond: number): Tensor {
  const cutoff = s.max(-1, true).mul(rcond);
  const keep = s.gt(cutoff);
  const safe = where(keep, s, 1);
  const inv = where(keep, binary('div', 1, safe), 0).cast(u.dtype);
  return mH(vh).mul(inv.expandDims(-2)).matmul(mH(u));
}

const jvp = ({ inputs: [a, b], outs: [x], attrs }: { inputs: Tensor[]; outs: Tensor[]; attrs: Readonly<Record<string, unknown>> }, [da, db]: (Tensor | null)[]) => {
  const [m, n] = a!.shape.slice(-2) as [number, number];
  const rc = effectiveRcond(attrs['rcond'] as number, m, n, a!.dtype);
  const [u, s, vh] = svdRaw(a!, false, true) as [Tensor, Tensor, Tensor];
  const p = pinvFromSvd(u, s, vh, rc);
  let dx: Tensor | null = db ? p.matmul(db) : null;
  let ds: Tensor | null = null;
  if (da) {
    const r = b!.sub(a!.matmul(x!));
    const daH = mH(da);
    const t = p.matmul(da.matmul(x!)).neg()
      .add(p.matmul(mH(p).matmul(daH.matmul(r))))
      .add(identity(n, a!.dtype).sub(p.matmul(a!)).matmul(daH.matmul(mH(p).matmul(x!))));
    dx = dx ? dx.add(t) : t;
    ds = diagonalOf(mH(u).matmul(da).matmul(mH(vh))).real();
  }
  return [dx, ds, null];
};

registerLinalgOp('lstsq', {
  coreRanks: [2, 2],
  outputs([a, b]) {
    sameDType('lstsq', [a!, b!]);
    const [m, n] = a!.shape as [number, number];
    if (b!.shape[0] !== m) throw new ShapeError(`linalg.lstsq: a ${fmtShape(a!.shape)} and b ${fmtShape(b!.shape)}: b needs ${m} rows`);
    return [
      { shape: [n, b!.shape[1]!], dtype: a!.dtype },
      { shape: [Math.min(m, n)], dtype: realDType(a!.dtype) },
      { shape: [], dtype: 'int32' },
    ];
  },
  ...oneKernelCall(
    'lstsq',
    ({ batch, ins, inShapes, inDTypes, outs, attrs }) => {
      const [m, n] = inShapes[0]!;
      const dt = linalgDType('lstsq', inDTypes[0]!);
      return [dt, batch, m!, n!, inShapes[1]![1]!, asFloat(ins[0]), asFloat(ins[1]), asFloat(outs[0]), asFloat(outs[1]), outs[2] as Int32Array, effectiveRcond(attrs['rcond'] as number, m!, n!, dt)];
    },
    (info, { batch }) => {
      const e = firstFailure(info);
      if (e >= 0) throw new ConvergenceError('lstsq', batch > 1 ? e : undefined, 'the SVD did not converge');
    },
  ),
  jvp,
  vjp: transposeJvp(jvp),
});
