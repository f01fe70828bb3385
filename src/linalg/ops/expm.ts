// expm: the matrix exponential by scaling and squaring with a Padé approximant
// (Higham 2005, "The scaling and squaring method for the matrix exponential
// revisited"): degree 13 for double precision, degree 7 for single, with the
// number of squarings chosen per matrix from its 1-norm at run time. Being an
// op (not a graph of matmuls) is what lets that choice read the values under
// jit and vmap too.
//
// Derivatives by the block-triangular identity
//   expm([[A, E], [0, A]]) = [[expm(A), L(A, E)], [0, expm(A)]]
// where L(A, E) is the Fréchet derivative: JVP = L(A, dA). expm is holomorphic,
// so under the bilinear pairing its VJP is the plain transpose, L(A)ᵀ(G) = L(Aᵀ, G).
// Both are expm of a 2n × 2n matrix: higher derivatives come for free.

import type { Tensor } from '../../tensor/tensor.js';
import { registerLinalgOp } from '../../compiler/linalg-registry.js';
import { cat } from '../../tensor/ops/movement.js';
import { ax, rg, s as sl } from '../../tensor/slicing.js';
import { zerosOf } from '../../compiler/transforms/rules/ad-helpers.js';
import type { FloatArray, LinalgDType, LinalgKernels } from '../kernels/contract.js';
import { SingularMatrixError } from '../errors.js';
import { mT } from '../matrix.js';
import { K, asFloat, bindLinalg, firstFailure, linalgDType, square } from './common.js';

const PADE13 = [64764752532480000, 32382376266240000, 7771770303897600, 1187353796428800, 129060195264000, 10559470521600, 670442572800, 33522128640, 1323241920, 40840800, 960960, 16380, 182, 1];
const PADE7 = [17297280, 8648640, 1995840, 277200, 25200, 1512, 56, 1];
const THETA13 = 5.371920351148152;
const THETA7 = 3.92572478313866;

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

/** One matrix: out = expm(a), all arrays of the storage type (interleaved complex). */
function expmOne(k: LinalgKernels, d: LinalgDType, n: number, a: FloatArray, out: FloatArray): number {
  const cplx = d === 'complex64' || d === 'complex128';
  const L = cplx ? 2 : 1;
  const single = d === 'float32' || d === 'complex64';
  const make = () => (single ? new Float32Array(n * n * L) : new Float64Array(n * n * L));
  let norm1 = 0;
  for (let j = 0; j < n; j++) {
    let c = 0;
    for (let i = 0; i < n; i++) c += cplx ? Math.hypot(a[2 * (i * n + j)]!, a[2 * (i * n + j) + 1]!) : Math.abs(a[i * n + j]!);
    if (!(c <= norm1)) norm1 = c; // NaN propagates into norm1
  }
  if (!Number.isFinite(norm1)) return (out.fill(NaN), 0);
  const theta = single ? THETA7 : THETA13;
  const s = norm1 > theta ? Math.ceil(Math.log2(norm1 / theta)) : 0;
  const x = make();
  const scale = 2 ** -s;
  for (let i = 0; i < x.length; i++) x[i] = a[i]! * scale;
  const mm = (p: FloatArray, q: FloatArray) => {
    const r = make();
    k.gemm(d, n, n, n, p, q, r);
    return r;
  };
  /** Σ c_i M_i + c_I I. */
  const comb = (terms: [number, FloatArray][], cI: number) => {
    const r = make();
    for (const [c, m] of terms) for (let i = 0; i < r.length; i++) r[i] += c * m[i]!;
    for (let i = 0; i < n; i++) r[(i * n + i) * L] += cI;
    return r;
  };
  const x2 = mm(x, x),
    x4 = mm(x2, x2),
    x6 = mm(x4, x2);
  let u: FloatArray, v: FloatArray;
  if (single) {
    const b = PADE7;
    u = mm(x, comb([[b[7]!, x6], [b[5]!, x4], [b[3]!, x2]], b[1]!));
    v = comb([[b[6]!, x6], [b[4]!, x4], [b[2]!, x2]], b[0]!);
  } else {
    const b = PADE13;
    u = mm(x, comb([[1, mm(x6, comb([[b[13]!, x6], [b[11]!, x4], [b[9]!, x2]], 0))], [b[7]!, x6], [b[5]!, x4], [b[3]!, x2]], b[1]!));
    v = comb([[1, mm(x6, comb([[b[12]!, x6], [b[10]!, x4], [b[8]!, x2]], 0))], [b[6]!, x6], [b[4]!, x4], [b[2]!, x2]], b[0]!);
  }
  const q = comb([[1, v], [-1, u]], 0),
    p = comb([[1, v], [1, u]], 0);
  let r = make();
  const info = k.solve(d, 1, n, n, q, p, r)[0]!;
  if (info !== 0) return info;
  for (let i = 0; i < s; i++) r = mm(r, r);
  out.set(r);
  return 0;
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
    for (let b = 0; b < batch; b++) info[b] = expmOne(K(kernels), d, n, asFloat(a).subarray(b * size, (b + 1) * size), asFloat(out).subarray(b * size, (b + 1) * size));
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
