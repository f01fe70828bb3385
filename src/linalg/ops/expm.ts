// expm: the matrix exponential as an op, per matrix of a batch, by the scaling
// and squaring algorithm of Al-Mohy and Higham 2009 (expm-pade.ts, as SciPy):
// Padé degree and squarings chosen per matrix from norms of its powers at run
// time. Being an op (not a graph of matmuls) is what lets that choice read the
// values under jit and vmap too.
//
// Derivatives by the block-triangular identity
//   expm([[A, E], [0, A]]) = [[expm(A), L(A, E)], [0, expm(A)]]
// where L(A, E) is the Fréchet derivative: JVP = L(A, dA). expm is holomorphic,
// so under the bilinear pairing its VJP is the plain transpose, L(A)ᵀ(G) = L(Aᵀ, G).
// Both are expm of a 2n × 2n matrix: higher derivatives come for free.

import type { Tensor } from '../../tensor/tensor.js';
import { cat } from '../../tensor/ops/movement.js';
import { ax, rg, s as sl } from '../../tensor/slicing.js';
import { zerosOf } from '../../compiler/transforms/rules/ad-helpers.js';
import { expmOne } from './expm-pade.js';
import { SingularMatrixError } from '../../tensor/errors-linalg.js';
import { mT } from '../matrix.js';
import { registerLinalgOp, asFloat, bindLinalg, firstFailure, linalgDType, square } from './common.js';

/** expm of a [..., n, n]. */
export function expmRaw(a: Tensor): Tensor {
  return bindLinalg('expm', [a])[0]!;
}

/** The top-right n × n block of expm([[x, e], [0, x]]). */
function frechet(x: Tensor, e: Tensor): Tensor {
  const n = x.shape[x.ndim - 1]!;
  const m = cat([cat([x, e], -1), cat([zerosOf(x.dtype, x.shape), x], -1)], -2);
  const lead = x.shape.slice(0, -2).map(() => ax());
  return expmRaw(m).slice(sl(...lead, rg(0, n), rg(n, 2 * n)));
}

registerLinalgOp('expm', {
  coreRanks: [2],
  outputs([a]) {
    linalgDType('expm', a!.dtype);
    square('expm', a!);
    return [{ shape: [...a!.shape], dtype: a!.dtype }];
  },
  run(kernels, { batch, ins: [a], inShapes: [sh], inDTypes: [dt], outs: [out] }) {
    const d = linalgDType('expm', dt!);
    const n = sh![0]!;
    const L = d === 'complex64' || d === 'complex128' ? 2 : 1;
    const size = n * n * L;
    const info = new Int32Array(batch);
    for (let b = 0; b < batch; b++) info[b] = expmOne(kernels, d, n, asFloat(a).subarray(b * size, (b + 1) * size), asFloat(out).subarray(b * size, (b + 1) * size));
    const e = firstFailure(info);
    if (e >= 0) throw new SingularMatrixError('expm', info[e]! - 1, batch > 1 ? e : undefined, 'the Padé denominator is singular');
  },
  jvp({ inputs: [a] }, [da]) {
    return [da ? frechet(a!, da) : null];
  },
  vjp({ inputs: [a] }, [g]) {
    return [g ? frechet(mT(a!), g) : null];
  },
});
