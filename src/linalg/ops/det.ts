// det: the determinant of a [..., n, n] from one LU factorization (getrf) and
// the product of its pivoted diagonal, without forming l, u or the
// permutation. Parts: [det], or with attrs.log [sign, logabsdet] (slogdet;
// sign is ±1 or a unit complex number, 0 with logabsdet −inf when singular).
// A singular matrix is not an error (NumPy).
//
// JVP (Jacobi's formula), t = tr(a⁻¹ da) = Σ a⁻¹ ⊙ daᵀ:
//   d det = det · t,  d logabsdet = Re t,  d sign = sign · i Im t = sign · (t − t̄)/2
// (zero for real input). a⁻¹ is the inv op, so a derivative at a singular
// matrix raises SingularMatrixError, as lu's rule did through its triangular
// solves. The JVP is linear in da with constant factors, so the VJP is its
// transpose (ā = ḡ det a⁻ᵀ for det).

import type { Tensor } from '../../tensor/tensor.js';
import type { OpRuleCtx } from '../../compiler/op-registry.js';
import { isComplex, realDType } from '../../tensor/dtype.js';
import { mT } from '../matrix.js';
import { registerLinalgOp, asFloat, bindLinalg, linalgDType, square, transposeJvp, oneKernelCall } from './common.js';
import { invRaw } from './inv.js';

// Constant attrs objects: bindLinalg memoizes what it derives from them.
const DET = Object.freeze({ log: false });
const SLOGDET = Object.freeze({ log: true });

/** det(a) for a [..., n, n]: shape [...]. */
export function detRaw(a: Tensor): Tensor {
  return bindLinalg('det', [a], DET)[0]!;
}

/** [sign, logabsdet] of a [..., n, n]. */
export function slogdetRaw(a: Tensor): [Tensor, Tensor] {
  return bindLinalg('det', [a], SLOGDET) as [Tensor, Tensor];
}

const jvp = ({ inputs: [a], outs, attrs }: OpRuleCtx, [da]: (Tensor | null)[]) => {
  if (!da) return outs.map(() => null);
  const t = invRaw(a!).mul(mT(da)).sum([-2, -1]);
  if (!attrs['log']) return [outs[0]!.mul(t)];
  const sign = outs[0]!;
  return [isComplex(sign.dtype) ? sign.mul(t.sub(t.conj()).mul(0.5)) : null, isComplex(t.dtype) ? t.real() : t];
};

registerLinalgOp('det', {
  coreRanks: [2],
  outputs([a], attrs) {
    const d = linalgDType(attrs['log'] ? 'slogdet' : 'det', a!.dtype);
    square(attrs['log'] ? 'slogdet' : 'det', a!);
    return attrs['log'] ? [{ shape: [], dtype: d }, { shape: [], dtype: realDType(d) }] : [{ shape: [], dtype: d }];
  },
  ...oneKernelCall(
    'det',
    ({ batch, ins, inShapes, inDTypes, outs, attrs }) => {
      // info > 0 (singular) is not an error: det is 0, slogdet (0, −inf).
      return [linalgDType('det', inDTypes[0]!), batch, inShapes[0]![0]!, asFloat(ins[0]), asFloat(outs[0]), attrs['log'] ? asFloat(outs[1]) : null];
    },
  ),
  jvp,
  vjp: transposeJvp(jvp),
});
