// cholesky: a = l lᴴ (lower) or uᴴ u (upper), reading only that triangle of a.
//
// Derivative (exact for the function as computed, which reads one triangle):
// the Hermitian matrix the kernel sees is S(a) = tril(a, -1) + Re diag(a) + tril(a, -1)ᴴ, and
// dl = l Φ(l⁻¹ S(da) l⁻ᴴ) with Φ = strictly-lower part plus half the diagonal.
// So perturbing the ignored triangle changes nothing, and finite differences
// in any direction agree with the rule.

import type { Tensor } from '../../tensor/tensor.js';
import { NotPositiveDefiniteError } from '../../tensor/errors-linalg.js';
import { isComplex } from '../../tensor/dtype.js';
import { mH, tril, triu, diagEmbed, diagonalOf } from '../matrix.js';
import { registerLinalgOp, asFloat, firstFailure, linalgDType, square, transposeJvp, bindLinalg, oneKernelCall } from './common.js';
import { triangularSolveRaw } from './triangular.js';

/**
 * The Hermitian matrix built from the triangle that is read. Its diagonal is
 * the real part of a's: the kernels (LAPACK's potrf/heevd and the js ones)
 * read a Hermitian matrix and never look at the imaginary part of a complex
 * diagonal, so a tangent there must not move the factor. (Keeping the complex
 * diagonal, as tril(a) + tril(a, −1)ᴴ does, made l⁻¹ S l⁻ᴴ non-Hermitian and
 * gave cholesky a complex diagonal tangent and eigh's vectors a spurious one.)
 */
export const hermitianFromTriangle = (a: Tensor, lower: boolean): Tensor => {
  const strict = lower ? tril(a, -1) : triu(a, 1);
  const d = diagonalOf(a);
  return strict.add(mH(strict)).add(diagEmbed(isComplex(a.dtype) ? d.real() : d, a.dtype));
};

/** Strictly-lower part plus half the diagonal. */
const phi = (x: Tensor): Tensor => tril(x, -1).add(diagEmbed(diagonalOf(x).mul(0.5)));

const jvp = ({ outs: [f], attrs }: { outs: Tensor[]; attrs: Readonly<Record<string, unknown>> }, [da]: (Tensor | null)[]) => {
  if (!da) return [null];
  const lower = attrs['lower'] as boolean;
  const l = lower ? f! : mH(f!);
  const s = hermitianFromTriangle(da, lower);
  // x = l⁻¹ s l⁻ᴴ by two triangular solves: w = l⁻¹ s, x = (l⁻¹ wᴴ)ᴴ
  const w = triangularSolveRaw(l, s, { lower: true, trans: 0, unitDiagonal: false });
  const x = mH(triangularSolveRaw(l, mH(w), { lower: true, trans: 0, unitDiagonal: false }));
  const dl = l.matmul(phi(x));
  return [lower ? dl : mH(dl)];
};

registerLinalgOp('cholesky', {
  coreRanks: [2],
  outputs([a], attrs) {
    linalgDType('cholesky', a!.dtype);
    square('cholesky', a!);
    return [{ shape: [...a!.shape], dtype: a!.dtype }];
  },
  ...oneKernelCall(
    'cholesky',
    ({ batch, ins, inShapes, inDTypes, outs, attrs }) => {
      return [linalgDType('cholesky', inDTypes[0]!), batch, inShapes[0]![0]!, asFloat(ins[0]), asFloat(outs[0]), attrs['lower'] as boolean];
    },
    (info, { batch }) => {
      const b = firstFailure(info);
      if (b >= 0) throw new NotPositiveDefiniteError('cholesky', info[b]!, batch > 1 ? b : undefined);
    },
  ),
  jvp,
  vjp: transposeJvp(jvp),
});

// Constant attrs objects: bindLinalg memoizes what it derives from them.
const LOWER = Object.freeze({ lower: true });
const UPPER = Object.freeze({ lower: false });

/** The factor of a Hermitian positive-definite a (batched). */
export function choleskyRaw(a: Tensor, lower: boolean): Tensor {
  return bindLinalg('cholesky', [a], lower ? LOWER : UPPER)[0]!;
}
