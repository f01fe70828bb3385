// Matrix helpers over the last two axes, built from tensor ops (so they are
// lazy, fusable and differentiable): conjugate transpose, triangles, diagonals.

import { Tensor } from '../tensor/tensor.js';
import { fromStorage, eye } from '../tensor/create.js';
import { where } from '../tensor/ops/elementwise.js';
import { ShapeError } from '../tensor/errors.js';
import { type DType, isComplex } from '../tensor/dtype.js';
import { fmtShape } from '../tensor/shape.js';
import { ax, rg, s } from '../tensor/slicing.js';

const dims = (x: Tensor): [number, number] => {
  const sh = x.shape;
  if (sh.length < 2) throw new ShapeError(`linalg: expected a matrix (at least 2 dims), got ${fmtShape(sh)}`);
  return [sh[sh.length - 2]!, sh[sh.length - 1]!];
};

/** Swaps the last two axes. */
export function mT(x: Tensor): Tensor {
  const r = x.ndim;
  return x.swapaxes(r - 2, r - 1);
}

/** Conjugate transpose of the last two axes (a transpose for real dtypes). */
export function mH(x: Tensor): Tensor {
  const t = mT(x);
  return isComplex(x.dtype) ? t.conj() : t;
}

/** Boolean [m, n] mask of j - i <= k (lower) or j - i >= k (upper). */
function triMask(m: number, n: number, k: number, lower: boolean): Tensor {
  const v = new Uint8Array(m * n);
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) v[i * n + j] = (lower ? j - i <= k : j - i >= k) ? 1 : 0;
  return fromStorage(v, [m, n], 'bool');
}

/** Lower triangle (j - i <= k) of the last two axes, zeros elsewhere. */
export function tril(x: Tensor, k = 0): Tensor {
  const [m, n] = dims(x);
  return where(triMask(m, n, k, true), x, 0).cast(x.dtype);
}

/** Upper triangle (j - i >= k) of the last two axes, zeros elsewhere. */
export function triu(x: Tensor, k = 0): Tensor {
  const [m, n] = dims(x);
  return where(triMask(m, n, k, false), x, 0).cast(x.dtype);
}

/** The main diagonal of the last two axes: [..., min(m, n)] (a strided view). */
export function diagonalOf(x: Tensor): Tensor {
  const [m, n] = dims(x);
  const lead = x.shape.slice(0, -2);
  const k = Math.min(m, n);
  if (k === 0) return x.reshape([...lead, 0]);
  const flat = x.reshape([...lead, m * n]);
  return flat.slice(s(...lead.map(() => ax()), rg(0, (k - 1) * (n + 1) + 1, n + 1)));
}

/** [..., n] -> [..., n, n] with v on the diagonal. */
export function diagEmbed(v: Tensor, dtype: DType = v.dtype): Tensor {
  const n = v.shape[v.ndim - 1]!;
  return v.cast(dtype).expandDims(-1).mul(eye(n, n, { dtype }));
}

/** Identity [n, n] of a dtype. */
export const identity = (n: number, dtype: DType): Tensor => eye(n, n, { dtype });
