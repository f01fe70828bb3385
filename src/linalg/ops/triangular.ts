// triangularSolve: x with op(a) x = b, a triangular (only its lower or upper
// triangle is read; unitDiagonal takes the diagonal as ones), op = identity,
// transpose or conjugate transpose (trans 0 / 1 / 2).
//
// JVP: dx = op(a)⁻¹ (db − op(da) x), da restricted to the triangle read.
// VJP (explicit: the JVP applies the op to a tangent): with b̄ = op(a)⁻ᵀ ḡ,
// ā = −mask(b̄ xᵀ) for trans 0, −mask(x b̄ᵀ) for 1, −mask(conj(x b̄ᵀ)) for 2.

import type { Tensor } from '../../tensor/tensor.js';
import type { PartAval } from '../../compiler/op-registry.js';
import { ShapeError } from '../../tensor/errors.js';
import { fmtShape } from '../../tensor/shape.js';
import { isComplex } from '../../tensor/dtype.js';
import { SingularMatrixError } from '../../tensor/errors-linalg.js';
import { mH, mT, tril, triu } from '../matrix.js';
import { registerLinalgOp, asFloat, bindLinalg, firstFailure, linalgDType, sameDType, square, oneKernelCall } from './common.js';

export interface TriangularOptions {
  lower: boolean;
  trans: 0 | 1 | 2;
  unitDiagonal: boolean;
}

const opts = (a: Readonly<Record<string, unknown>>): TriangularOptions => ({
  lower: a['lower'] as boolean,
  trans: a['trans'] as 0 | 1 | 2,
  unitDiagonal: a['unitDiagonal'] as boolean,
});

/** x solving op(a) x = b for a [..., n, n], b [..., n, k] (same batch dims). */
export function triangularSolveRaw(a: Tensor, b: Tensor, o: TriangularOptions): Tensor {
  return bindLinalg('triangularSolve', [a, b], { lower: o.lower, trans: o.trans, unitDiagonal: o.unitDiagonal })[0]!;
}

/** The part of a matrix the solve reads. */
const mask = (x: Tensor, o: TriangularOptions) => (o.lower ? tril(x, o.unitDiagonal ? -1 : 0) : triu(x, o.unitDiagonal ? 1 : 0));

const applyOp = (x: Tensor, trans: 0 | 1 | 2) => (trans === 0 ? x : trans === 1 ? mT(x) : mH(x));
const conj = (x: Tensor) => (isComplex(x.dtype) ? x.conj() : x);

registerLinalgOp('triangularSolve', {
  coreRanks: [2, 2],
  outputs([a, b]) {
    sameDType('triangularSolve', [a!, b!]);
    const n = square('triangularSolve', a!);
    if (b!.shape[0] !== n) throw new ShapeError(`linalg.triangularSolve: a ${fmtShape(a!.shape)} and b ${fmtShape(b!.shape)}: b needs ${n} rows`);
    return [{ shape: [...b!.shape], dtype: b!.dtype } as PartAval];
  },
  ...oneKernelCall(
    'triangularSolve',
    ({ batch, ins, inShapes, inDTypes, outs, attrs }) => {
      const o = opts(attrs);
      const [n, k] = inShapes[1]!;
      return [linalgDType('triangularSolve', inDTypes[0]!), batch, n!, k!, asFloat(ins[0]), asFloat(ins[1]), asFloat(outs[0]), o.lower, o.trans, o.unitDiagonal];
    },
    (info, { batch }) => {
      const e = firstFailure(info);
      if (e >= 0) throw new SingularMatrixError('solveTriangular', info[e]! - 1, batch > 1 ? e : undefined);
    },
  ),
  jvp({ inputs: [a], outs: [x], attrs }, [da, db]) {
    const o = opts(attrs);
    let rhs: Tensor | null = db;
    if (da) {
      const t = applyOp(mask(da, o), o.trans).matmul(x!);
      rhs = rhs ? rhs.sub(t) : t.neg();
    }
    return [rhs ? triangularSolveRaw(a!, rhs, o) : null];
  },
  vjp({ inputs: [a], outs: [x], attrs }, [g]) {
    if (!g) return [null, null];
    const o = opts(attrs);
    const bbar = o.trans === 2 ? conj(triangularSolveRaw(a!, conj(g), { ...o, trans: 0 })) : triangularSolveRaw(a!, g, { ...o, trans: o.trans === 0 ? 1 : 0 });
    const m = o.trans === 0 ? bbar.matmul(mT(x!)) : o.trans === 1 ? x!.matmul(mT(bbar)) : conj(x!.matmul(mT(bbar)));
    return [mask(m, o).neg(), bbar];
  },
});
