// Right-hand sides and determinant bookkeeping shared by the LU and Cholesky objects.
//
// A right-hand side is a flat vector of length n (2n interleaved when complex),
// or an n×k row-major block of k right-hand sides (n·k, or 2·n·k). k is
// inferred from the length; each column is gathered into a contiguous work
// vector, solved, and scattered back, so the triangular kernels only ever see
// one dense vector.

import { ShapeError, ValueError } from '../../tensor/errors.js';

export type Rhs = Float64Array | Float32Array | ArrayLike<number>;

/** Number of right-hand sides in b, or a ShapeError. */
export function rhsCount(op: string, b: Rhs, n: number, complex: boolean): number {
  const per = complex ? 2 : 1;
  const len = b.length;
  if (n === 0) {
    if (len !== 0) throw new ShapeError(`${op}: the matrix is 0×0 but b has length ${len}`);
    return 0;
  }
  if (len === 0 || len % (n * per) !== 0)
    throw new ShapeError(
      `${op}: b has length ${len}; expected ${n * per}·k (n = ${n}${complex ? ', complex interleaved' : ''}, k right-hand sides in row-major n×k)`,
    );
  return len / (n * per);
}

/**
 * Solve every column of b with `one` (which works in place on a length-n, or
 * 2n complex, vector) and return the results in b's layout.
 */
export function solveColumns(op: string, b: Rhs, n: number, complex: boolean, one: (x: Float64Array) => void): Float64Array {
  const k = rhsCount(op, b, n, complex);
  const per = complex ? 2 : 1;
  const out = new Float64Array(b.length);
  if (k === 0) return out;
  if (k === 1) {
    for (let i = 0; i < b.length; i++) out[i] = b[i];
    one(out);
    return out;
  }
  const x = new Float64Array(n * per);
  for (let c = 0; c < k; c++) {
    for (let i = 0; i < n; i++)
      for (let r = 0; r < per; r++) x[i * per + r] = b[(i * k + c) * per + r];
    one(x);
    for (let i = 0; i < n; i++)
      for (let r = 0; r < per; r++) out[(i * k + c) * per + r] = x[i * per + r];
  }
  return out;
}

/** Sign (±1) of a permutation given as an index array. */
export function permutationSign(perm: Int32Array): number {
  const n = perm.length;
  const seen = new Uint8Array(n);
  let sign = 1;
  for (let i = 0; i < n; i++) {
    if (seen[i]) continue;
    let len = 0;
    for (let j = i; !seen[j]; j = perm[j]) {
      seen[j] = 1;
      len++;
    }
    if (len % 2 === 0) sign = -sign;
  }
  return sign;
}

export type Trans = 'N' | 'T' | 'H';

export function checkTrans(op: string, trans: unknown): Trans {
  if (trans === undefined) return 'N';
  if (trans !== 'N' && trans !== 'T' && trans !== 'H') throw new ValueError(`${op}: trans must be 'N', 'T' or 'H', got ${String(trans)}`);
  return trans;
}

/** log|det| and sign, real or complex (`sign` is [re, im] of det/|det| for complex). */
export interface LogDet {
  sign: number | [number, number];
  logabsdet: number;
}
