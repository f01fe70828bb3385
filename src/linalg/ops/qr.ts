// qr: a = q r by Householder reflections (geqrf + orgqr/ungqr).
// mode 'reduced' (q [m, k], r [k, n], k = min(m, n)), 'complete' (q [m, m],
// r [m, n]) or 'r' (r [k, n] only).
//
// JVP (JAX's rule; reduced, or complete with m <= n where it is the same):
// for m >= n with c = qᴴ da r⁻¹, ω = tril(c, −1) − tril(c, −1)ᴴ + i·Im(diag c),
// dq = q (ω − c) + da r⁻¹ and dr = (c − ω) r. For m < n, a = [x | y] with x
// square: the square rule on x, and r's right block qᴴ y gives dqᴴ y + qᴴ dy.
// The complete factors of a tall matrix are not unique (no derivative).

import type { Tensor } from '../../tensor/tensor.js';
import { TransformError, ValueError } from '../../tensor/errors.js';
import { isComplex } from '../../tensor/dtype.js';
import { ax, rg, s } from '../../tensor/slicing.js';
import { cat } from '../../tensor/ops/movement.js';
import { mH, mT, tril, diagEmbed, diagonalOf } from '../matrix.js';
import { mulI } from '../../compiler/transforms/rules/ad-helpers.js';
import { registerLinalgOp, asFloat, bindLinalg, linalgDType, transposeJvp, oneKernelCall } from './common.js';
import { triangularSolveRaw } from './triangular.js';

export type QrMode = 'reduced' | 'complete' | 'r';

// Constant attrs objects by mode: bindLinalg memoizes what it derives from them.
const QR_ATTRS: Record<QrMode, Readonly<{ mode: QrMode }>> = { reduced: Object.freeze({ mode: 'reduced' }), complete: Object.freeze({ mode: 'complete' }), r: Object.freeze({ mode: 'r' }) };

/** [q, r] (or [r] for mode 'r') of a [..., m, n]. */
export function qrRaw(a: Tensor, mode: QrMode): Tensor[] {
  return bindLinalg('qr', [a], QR_ATTRS[mode]);
}

const cols = (x: Tensor, a: number, b: number) => x.slice(s(...x.shape.slice(0, -1).map(() => ax()), rg(a, b)));

/** dq, dr of a tall-or-square a (m >= n) with reduced q [m, n], r [n, n]. */
function tallJvp(q: Tensor, r: Tensor, da: Tensor): [Tensor, Tensor] {
  const daRinv = mT(triangularSolveRaw(r, mT(da), { lower: false, trans: 1, unitDiagonal: false })); // da r⁻¹
  const c = mH(q).matmul(daRinv);
  const low = tril(c, -1);
  let omega = low.sub(mH(low));
  if (isComplex(c.dtype)) omega = omega.add(mulI(diagEmbed(diagonalOf(c).imag(), c.dtype)));
  return [q.matmul(omega.sub(c)).add(daRinv), c.sub(omega).matmul(r)];
}

const jvp = ({ inputs: [a], outs, attrs }: { inputs: Tensor[]; outs: Tensor[]; attrs: Readonly<Record<string, unknown>> }, [da]: (Tensor | null)[]) => {
  const mode = attrs['mode'] as QrMode;
  if (!da) return outs.map(() => null);
  const [m, n] = a!.shape.slice(-2) as [number, number];
  if (mode === 'complete' && m > n) throw new TransformError(`linalg.qr: the complete factorization of a tall ${m}x${n} matrix is not unique; differentiate mode 'reduced'`);
  const [q, r] = mode === 'r' ? qrRaw(a!, 'reduced') : (outs as [Tensor, Tensor]);
  let dq: Tensor, dr: Tensor;
  if (m >= n) [dq, dr] = tallJvp(q!, r!, da);
  else {
    const [dqx, drx] = tallJvp(q!, cols(r!, 0, m), cols(da, 0, m));
    const y = cols(a!, m, n),
      dy = cols(da, m, n);
    dq = dqx;
    dr = cat([drx, mH(dqx).matmul(y).add(mH(q!).matmul(dy))], -1);
  }
  return mode === 'r' ? [dr] : [dq, dr];
};

registerLinalgOp('qr', {
  coreRanks: [2],
  outputs([a], attrs) {
    linalgDType('qr', a!.dtype);
    const mode = attrs['mode'] as QrMode;
    const [m, n] = a!.shape as [number, number];
    const k = Math.min(m, n);
    const r = { shape: [mode === 'complete' ? m : k, n], dtype: a!.dtype };
    if (mode === 'r') return [r];
    if (mode !== 'reduced' && mode !== 'complete') throw new ValueError(`linalg.qr: mode must be 'reduced', 'complete' or 'r', got '${String(mode)}'`);
    return [{ shape: [m, mode === 'complete' ? m : k], dtype: a!.dtype }, r];
  },
  ...oneKernelCall(
    'qr',
    ({ batch, ins, inShapes, inDTypes, outs, attrs }) => {
      const [m, n] = inShapes[0]!;
      const mode = attrs['mode'] as QrMode;
      const [q, r] = mode === 'r' ? [null, outs[0]!] : [outs[0]!, outs[1]!];
      return [linalgDType('qr', inDTypes[0]!), batch, m!, n!, asFloat(ins[0]), q ? asFloat(q) : null, asFloat(r), mode === 'complete'];
    },
  ),
  jvp,
  vjp: transposeJvp(jvp),
});
