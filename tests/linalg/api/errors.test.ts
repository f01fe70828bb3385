// Error cases of the public linalg API on every device: typed errors with the
// right pivot / minor / batch entry / position, shape and dtype contracts, and
// after every error the process keeps computing (a tensor made before the
// failure still realizes). Errors of the kernels surface when the value is
// realized (the ops are lazy), so each failing call is realized here.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../../src/index.js';
import { DEVICES } from '../../harness/devices.js';

const L = rlx.linalg;
const { SingularMatrixError, NotPositiveDefiniteError, NonFiniteError, ConvergenceError, LinAlgError } = L;

/** The error thrown by f (realizing its result), or a failure when nothing is thrown. */
function caught(f: () => unknown): Error {
  try {
    const r = f();
    if (r instanceof rlx.Tensor) r.toArray();
    else for (const v of Object.values(r as object)) if (v instanceof rlx.Tensor) v.toArray();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error, none was thrown');
}

describe.each(DEVICES)('linalg errors on %s', (device) => {
  const t = (x: rlx.TensorData, dtype: rlx.DType = 'float64') => rlx.tensor(x, { dtype }).on(device);
  // made before any failure; must still compute after each one
  const witness = t([[1, 2], [3, 4]]);
  const alive = () => expect(witness.sum().item()).toBe(10);

  it('singular solve / inv (real, complex, float32): SingularMatrixError with the 0-based zero pivot', () => {
    for (const [a, pivot] of [
      [[[1, 2], [2, 4]], 1], // pivots on row 2 (|2| > |1|), then 4 − 2·2 = 0 exactly
      [[[0, 0], [0, 0]], 0],
      [[[1, 0, 0], [0, 1, 0], [0, 0, 0]], 2],
      [[[2, 1, 1], [4, 2, 2], [0, 0, 1]], 1],
    ] as const) {
      const A = t(a as unknown as number[][]);
      const n = a.length;
      for (const [what, f] of [
        ['solve', () => L.solve(A, t(Array(n).fill(1)))],
        ['inv', () => L.inv(A)],
        ['complex solve', () => L.solve(A.cast('complex128'), t(Array(n).fill(1), 'complex128'))],
        ['float32 inv', () => L.inv(A.cast('float32'))],
      ] as const) {
        const e = caught(f);
        expect(e, `${what} ${JSON.stringify(a)}`).toBeInstanceOf(SingularMatrixError);
        expect(e).toBeInstanceOf(LinAlgError);
        expect((e as InstanceType<typeof SingularMatrixError>).index, `${what}: pivot`).toBe(pivot);
        expect((e as InstanceType<typeof SingularMatrixError>).batch).toBeUndefined();
        expect(e.message).toContain(`pivot ${pivot}`);
        alive();
      }
    }
    // a singular matrix is not an error for det / slogdet / lu (NumPy, SciPy)
    const S = t([[1, 2], [2, 4]]);
    // (NumPy gives +0 here; rlx gives −0 = sign · Π u_ii with one row swap: equal as numbers)
    expect(Math.abs(L.det(S).item() as number)).toBe(0);
    expect(Math.abs(L.slogdet(S).sign.item() as number)).toBe(0);
    expect(L.slogdet(S).logabsdet.item()).toBe(-Infinity);
    expect(L.lu(S).u.toArray()[3]).toBe(0);
  });

  it('batched singular solve names the batch entry', () => {
    const a = t([[[2, 0], [0, 2]], [[1, 1], [1, 1]], [[0, 0], [0, 0]]]);
    const e = caught(() => L.solve(a, t([1, 1])));
    expect(e).toBeInstanceOf(SingularMatrixError);
    expect((e as InstanceType<typeof SingularMatrixError>).batch).toBe(1); // the first failing entry
    expect((e as InstanceType<typeof SingularMatrixError>).index).toBe(1);
    expect(e.message).toContain('batch entry 1');
    alive();
    // broadcast batch: a [2, 1, 2, 2] against b [3, 2, 1] -> 6 entries, entry 3 = (1, 0) is the first singular one
    const ab = t([[[[1, 0], [0, 1]]], [[[1, 2], [2, 4]]]]);
    const e2 = caught(() => L.solve(ab, t([[[1], [1]], [[2], [2]], [[3], [3]]])));
    expect((e2 as InstanceType<typeof SingularMatrixError>).batch).toBe(3);
    alive();
  });

  it('non-positive-definite cholesky: NotPositiveDefiniteError with the 1-based leading minor order, lower and upper, batched', () => {
    for (const [a, minor] of [
      [[[-1, 0], [0, 1]], 1],
      [[[1, 2], [2, 1]], 2],
      [[[2, 0, 0], [0, 2, 0], [0, 0, -1]], 3],
      [[[4, 2, 0], [2, 1, 0], [0, 0, 1]], 2], // minor 2 is exactly singular (1 − 2²/4 = 0): not positive
    ] as const) {
      for (const dtype of ['float64', 'float32', 'complex128'] as const)
        for (const lower of [true, false]) {
          const e = caught(() => L.cholesky(t(a as unknown as number[][], dtype), { lower }));
          expect(e, `${JSON.stringify(a)} ${dtype} lower ${lower}`).toBeInstanceOf(NotPositiveDefiniteError);
          expect((e as InstanceType<typeof NotPositiveDefiniteError>).minor).toBe(minor);
          expect(e.message).toContain(`order ${minor}`);
          alive();
        }
    }
    const b = t([[[1, 0], [0, 1]], [[2, 0], [0, 2]], [[1, 3], [3, 1]]]);
    const e = caught(() => L.cholesky(b));
    expect((e as InstanceType<typeof NotPositiveDefiniteError>).batch).toBe(2);
    expect((e as InstanceType<typeof NotPositiveDefiniteError>).minor).toBe(2);
    expect(e.message).toContain('batch entry 2');
    alive();
  });

  it('non-square input: ShapeError for every square-only function', () => {
    const a = t([[1, 2, 3], [4, 5, 6]]);
    const fs: [string, () => unknown][] = [
      ['solve', () => L.solve(a, t([1, 2]))],
      ['inv', () => L.inv(a)],
      ['det', () => L.det(a)],
      ['slogdet', () => L.slogdet(a)],
      ['cholesky', () => L.cholesky(a)],
      ['eigh', () => L.eigh(a)],
      ['eigvalsh', () => L.eigvalsh(a)],
      ['eig', () => L.eig(a)],
      ['eigvals', () => L.eigvals(a)],
      ['expm', () => L.expm(a)],
      ['matrixPower', () => L.matrixPower(a, 2)],
      ['solveTriangular', () => L.solveTriangular(a, t([1, 2]))],
      ['choSolve', () => L.choSolve(a, t([1, 2]))],
      ['cond 1', () => L.cond(a, 1)],
    ];
    for (const [name, f] of fs) {
      expect(() => f(), name).toThrow(rlx.ShapeError);
      alive();
    }
    // 1-D and 0-D inputs where a matrix is required
    expect(() => L.inv(t([1, 2]))).toThrow(rlx.ShapeError);
    expect(() => L.svd(t([1, 2]))).toThrow(rlx.ShapeError);
    expect(() => L.qr(t(3))).toThrow(rlx.ShapeError);
  });

  it('b with the wrong number of rows or incompatible batch dims: ShapeError', () => {
    const a = t([[2, 0, 0], [0, 2, 0], [0, 0, 2]]);
    for (const [name, f] of [
      ['solve vector', () => L.solve(a, t([1, 2]))],
      ['solve matrix', () => L.solve(a, t([[1], [2]]))],
      ['solve scalar', () => L.solve(a, t(1))],
      ['solveTriangular', () => L.solveTriangular(a, t([[1, 2], [3, 4]]))],
      ['choSolve', () => L.choSolve(a, t([1, 2, 3, 4]))],
      ['luSolve', () => L.luSolve(L.luFactor(a), t([1, 2]))],
      ['lstsq', () => L.lstsq(t([[1, 2], [3, 4], [5, 6]]), t([1, 2]))],
      ['batch', () => L.solve(rlx.ones([2, 3, 3]).on(device), rlx.ones([4, 3, 1]).on(device))],
      ['cross', () => L.cross(t([1, 2]), t([1, 2, 3]))],
      ['norm axis', () => L.norm(a, { axis: 2 })],
      ['norm ord without axis on 3-D', () => L.norm(rlx.ones([2, 2, 2]).on(device), { ord: 1 })],
    ] as const) {
      expect(() => f(), name).toThrow(rlx.ShapeError);
      alive();
    }
  });

  it('float16 / bfloat16: DTypeError (LAPACK has no half precision); int and bool are promoted to float64', () => {
    for (const dt of ['float16', 'bfloat16'] as const) {
      const h = t([[2, 1], [1, 3]], dt);
      for (const [name, f] of [
        ['solve', () => L.solve(h, t([1, 1], dt))],
        ['inv', () => L.inv(h)],
        ['det', () => L.det(h)],
        ['svd', () => L.svd(h)],
        ['qr', () => L.qr(h)],
        ['cholesky', () => L.cholesky(h)],
        ['eigh', () => L.eigh(h)],
        ['eig', () => L.eig(h)],
        ['lstsq', () => L.lstsq(h, t([1, 1], dt))],
        ['norm', () => L.norm(h)],
        ['expm', () => L.expm(h)],
        ['pinv', () => L.pinv(h)],
        ['matrixRank', () => L.matrixRank(h)],
      ] as const) {
        expect(() => f(), `${name} ${dt}`).toThrow(rlx.DTypeError);
        alive();
      }
    }
    const i = t([[2, 1], [1, 3]], 'int32');
    expect(L.det(i).dtype).toBe('float64');
    expect(L.det(i).item()).toBeCloseTo(5, 12);
    expect(L.inv(t([[true, false], [false, true]], 'bool')).dtype).toBe('float64');
  });

  it('checkFinite: NonFiniteError with the exact multi-index and value, for a and for b', () => {
    const a = Array.from({ length: 2 }, () => [[4, 1, 0], [1, 4, 1], [0, 1, 4]]);
    a[1]![2]![0] = NaN;
    const e = caught(() => L.solve(t(a), t([1, 1, 1]), { checkFinite: true }));
    expect(e).toBeInstanceOf(NonFiniteError);
    expect(e).toBeInstanceOf(rlx.ValueError);
    expect((e as InstanceType<typeof NonFiniteError>).position).toEqual([1, 2, 0]);
    expect((e as InstanceType<typeof NonFiniteError>).value).toBeNaN();
    expect(e.message).toContain('[1, 2, 0]');
    alive();
    // complex: an infinite imaginary part at [0, 1]
    const c = rlx.complex(t([[1, 2], [3, 4]]), t([[0, -Infinity], [0, 0]])).on(device);
    const ec = caught(() => L.svd(c, { checkFinite: true }));
    expect((ec as InstanceType<typeof NonFiniteError>).position).toEqual([0, 1]);
    expect((ec as InstanceType<typeof NonFiniteError>).value).toBe(-Infinity);
    alive();
    // in b (a is finite)
    const eb = caught(() => L.solve(t([[1, 0], [0, 1]]), t([1, Infinity]), { checkFinite: true }));
    expect((eb as InstanceType<typeof NonFiniteError>).position).toEqual([1]);
    expect((eb as InstanceType<typeof NonFiniteError>).value).toBe(Infinity);
    alive();
    for (const [name, f] of [
      ['cholesky', () => L.cholesky(t([[1, NaN], [NaN, 1]]), { checkFinite: true })],
      ['eigh', () => L.eigh(t([[1, 0], [0, -Infinity]]), { checkFinite: true })],
      ['lstsq', () => L.lstsq(t([[1, 0], [0, 1], [1, 1]]), t([1, NaN, 0]), { checkFinite: true })],
      ['expm', () => L.expm(t([[NaN]]), { checkFinite: true })],
      ['lu', () => L.lu(t([[1, Infinity]]), { checkFinite: true })],
    ] as const) {
      expect(caught(f), name).toBeInstanceOf(NonFiniteError);
      alive();
    }
  });

  it('NaN without checkFinite: svd / lstsq report ConvergenceError (NumPy: "SVD did not converge"), solve propagates NaN, on every device', () => {
    const a = t([[NaN, 0], [0, 1]]);
    for (const [name, f] of [
      ['svd', () => L.svd(a)],
      ['svd values', () => L.svd(a, { computeUv: false })],
      ['lstsq', () => L.lstsq(a, t([1, 1]))],
      ['complex svd', () => L.svd(a.cast('complex64'))],
    ] as const) {
      const e = caught(f);
      expect(e, `${name}: ${e.message}`).toBeInstanceOf(ConvergenceError);
      alive();
    }
    // LAPACK's i?amax keeps a leading NaN as the pivot: NaN flows through, no SingularMatrixError
    const x = L.solve(a, t([1, 1])).toArray();
    expect(Array.from(x).some(Number.isNaN)).toBe(true);
    alive();
  });

  it('invalid options: ValueError', () => {
    const a = t([[2, 1], [1, 2]]);
    expect(() => L.eigh(a, { uplo: 'X' as 'L' })).toThrow(rlx.ValueError);
    expect(() => L.solveTriangular(a, t([1, 1]), { trans: 3 as 0 })).toThrow(rlx.ValueError);
    expect(() => L.luSolve(L.luFactor(a), t([1, 1]), { trans: 'X' as 'N' })).toThrow(rlx.ValueError);
    expect(() => L.matrixPower(a, 1.5)).toThrow(rlx.ValueError);
    expect(() => L.norm(a, { ord: 3 })).toThrow(rlx.ValueError);
    expect(() => L.norm(t([1, 2]), { ord: 'fro' })).toThrow(rlx.ValueError);
    expect(() => L.norm(a, { axis: [1, 1] })).toThrow(rlx.ValueError);
    expect(() => L.lstsq(a, t([1, 1]), { rcond: NaN })).toThrow(rlx.ValueError);
    alive();
  });
});
