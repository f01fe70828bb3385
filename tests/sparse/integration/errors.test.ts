// Errors of the sparse integration layer, on every device: shape mismatches are
// ShapeErrors naming the shapes, unsupported dtypes DTypeErrors, spsolve of a
// non-square matrix, iterative non-convergence a ConvergenceError (thrown when
// the lazy result is read), bad factor arguments; after each error the process
// and the compiler caches keep working.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../../src/index.js';
import type { Tensor } from '../../../src/index.js';
import { DEVICES } from '../../harness/devices.js';
import { build, prng, randomNonsym, randomTriplets } from './helpers.js';

type C = rlx.sparse.CsrMatrix;
const pin = <T extends C | rlx.sparse.CscMatrix>(A: T, device: string): T => A.withValues(A.valuesTensor().on(device)) as T;

/** The thunk throws `cls` with a message matching every pattern. */
function throwsWith(f: () => unknown, cls: new (...a: never[]) => Error, ...patterns: RegExp[]): void {
  let err: unknown;
  try {
    f();
  } catch (e) {
    err = e;
  }
  expect(err, 'expected a throw').toBeInstanceOf(cls);
  for (const p of patterns) expect((err as Error).message).toMatch(p);
}

describe.each(DEVICES)('sparse integration errors on %s', (device) => {
  /** A small computation that must still work after an error. */
  const alive = () => {
    const A = pin(rlx.sparse.poisson1d(4), device);
    expect(Array.from(A.matvec(rlx.ones([4]).on(device)).toArray())).toEqual([1, 0, 0, 1]);
    expect(Array.from(rlx.sparse.spsolve(A, rlx.tensor([1, 0, 0, 1]).on(device)).toArray())).toBeAllclose([1, 1, 1, 1], { rtol: 1e-12, atol: 1e-12 });
  };

  it('products: operands of the wrong shape are ShapeErrors naming both shapes', () => {
    for (const format of ['csr', 'csc'] as const) {
      const A = pin(build(randomTriplets(prng(1), 3, 4, 0.5, 'float64'), format) as C, device);
      throwsWith(() => A.matvec(rlx.ones([3]).on(device)), rlx.ShapeError, /3x4/, /\[3\]/);
      throwsWith(() => A.rmatvec(rlx.ones([4]).on(device)), rlx.ShapeError, /3x4/, /\[4\]/);
      throwsWith(() => A.matmul(rlx.ones([5, 2]).on(device)), rlx.ShapeError, /3x4/, /\[5, 2\]/);
      throwsWith(() => A.matvec(rlx.ones([4, 1]).on(device)), rlx.ShapeError, /\[4, 1\]/);
      throwsWith(() => A.matmul(rlx.ones([4, 2, 1]).on(device)), rlx.ShapeError, /\[4, 2, 1\]/);
      alive();
    }
    const coo = rlx.sparse.coo({ row: [0, 2], col: [1, 3], data: [1, 2], shape: [3, 4] });
    throwsWith(() => coo.matvec(rlx.ones([3]).on(device)), rlx.ShapeError, /3x4/, /\[3\]/);
  });

  it('withValues: wrong length or rank is a ShapeError; integer/bool values a DTypeError', () => {
    const A = rlx.sparse.poisson1d(4);
    throwsWith(() => A.withValues(rlx.ones([A.nnz + 1])), rlx.ShapeError, new RegExp(`${A.nnz}`), new RegExp(`\\[${A.nnz + 1}\\]`));
    throwsWith(() => A.withValues(rlx.ones([A.nnz, 1])), rlx.ShapeError, /1-D/);
    throwsWith(() => A.withValues(rlx.ones([A.nnz], { dtype: 'int32' })), rlx.DTypeError, /int32/);
    throwsWith(() => A.withValues(rlx.ones([A.nnz], { dtype: 'bool' })), rlx.DTypeError, /bool/);
    alive();
  });

  it('products and solves with unsupported operand dtypes are DTypeErrors', () => {
    const A = pin(rlx.sparse.poisson1d(3), device);
    // integer and bool operands promote to float64 (NumPy/SciPy do the same)
    expect(A.matvec(rlx.tensor([1, 2, 3], { dtype: 'int32' }).on(device)).dtype).toBe('float64');
    expect(A.matvec(rlx.tensor([true, false, true]).on(device)).dtype).toBe('float64');
    // a float32 matrix with an int32 operand: float64 (int32 does not fit float32 exactly), like promoteTypes
    expect(pin(rlx.sparse.poisson1d(3).astype('float32'), device).matvec(rlx.tensor([1, 2, 3], { dtype: 'int32' }).on(device)).dtype).toBe(rlx.promoteTypes('float32', 'int32') === 'float32' ? 'float32' : 'float64');
    throwsWith(() => rlx.sparse.csr({ indptr: [0, 1], indices: [0], data: [1], shape: [1, 1], dtype: 'int32' }), rlx.DTypeError);
    alive();
  });

  it('spsolve: non-square matrix, b of the wrong rows or rank: ShapeErrors naming the shapes', () => {
    const R = pin(build(randomTriplets(prng(2), 3, 4, 0.6, 'float64'), 'csr') as C, device);
    throwsWith(() => rlx.sparse.spsolve(R, rlx.ones([3]).on(device)), rlx.ShapeError, /square/, /3x4/);
    const A = pin(rlx.sparse.poisson1d(5), device);
    throwsWith(() => rlx.sparse.spsolve(A, rlx.ones([4]).on(device)), rlx.ShapeError, /5x5/, /\[4\]/);
    throwsWith(() => rlx.sparse.spsolve(A, rlx.ones([5, 2, 2]).on(device)), rlx.ShapeError, /\[5, 2, 2\]/);
    throwsWith(() => rlx.sparse.spsolve(A.tocsc(), rlx.ones([6, 1]).on(device)), rlx.ShapeError, /\[6, 1\]/);
    alive();
  });

  it('spsolve: bad options are ValueErrors at the call (not when the result is read)', () => {
    const A = pin(rlx.sparse.poisson1d(3), device);
    const b = rlx.ones([3]).on(device);
    throwsWith(() => rlx.sparse.spsolve(A, b, { method: 'qr' as never }), rlx.ValueError, /method/, /'lu'/, /qr/);
    throwsWith(() => rlx.sparse.spsolve(A, b, { trans: 3 as never }), rlx.ValueError, /trans/);
    throwsWith(() => rlx.sparse.spsolve(A, b, { trans: 1 as never }), rlx.ValueError, /trans/);
    throwsWith(() => rlx.sparse.spsolve(A, b, { method: 'cg', maxiter: -1 }), rlx.ValueError, /maxiter/);
    throwsWith(() => rlx.sparse.spsolve(A, b, { method: 'cg', maxiter: 2.5 }), rlx.ValueError, /maxiter/);
    throwsWith(() => rlx.sparse.spsolve(A, b, { method: 'cg', rtol: Number.NaN }), rlx.ValueError, /rtol/);
    throwsWith(() => rlx.sparse.spsolve(A, b, { method: 'gmres', atol: -1 }), rlx.ValueError, /atol/);
    alive();
  });

  for (const method of ['cg', 'gmres', 'bicgstab', 'minres'] as const)
    it(`${method}: non-convergence within maxiter is a ConvergenceError when the result is read`, () => {
      const A = pin(method === 'cg' || method === 'minres' ? rlx.sparse.poisson2d(12) : (build(randomNonsym(prng(3), 81, 'float64', 0.2), 'csr') as C).add(rlx.sparse.poisson2d(9).scale(-30)), device);
      const n = A.shape[0];
      const b = rlx.ones([n]).on(device);
      const x = rlx.sparse.spsolve(A, b, { method, maxiter: 2, rtol: 1e-14 });
      expect(x.isRealized).toBe(false);
      throwsWith(() => x.toArray(), rlx.sparse.ConvergenceError, new RegExp(method));
      expect(rlx.sparse.ConvergenceError).toBe(rlx.linalg.ConvergenceError);
      // the same graph fails the same way again (nothing half-cached), a converging one works
      throwsWith(() => rlx.sparse.spsolve(A, b, { method, maxiter: 2, rtol: 1e-14 }).toArray(), rlx.linalg.ConvergenceError);
      // also through grad: the backward solve does not converge either
      throwsWith(() => (rlx.grad((bb: Tensor) => rlx.sparse.spsolve(A, bb, { method, maxiter: 2, rtol: 1e-14 }).sum())(b) as Tensor).toArray(), rlx.linalg.ConvergenceError);
      alive();
    });

  it('errors inside a jitted function surface and the jitted function keeps working', () => {
    const f = rlx.jit((v: Tensor, b: Tensor) => rlx.sparse.spsolve(rlx.sparse.poisson1d(3).withValues(v), b));
    const good = rlx.sparse.poisson1d(3).valuesTensor().on(device);
    const b = rlx.ones([3]).on(device);
    const bad = rlx.zeros([good.shape[0]!]).on(device);
    throwsWith(() => (f(bad, b) as Tensor).toArray(), rlx.linalg.SingularMatrixError);
    expect(Array.from((f(good, b) as Tensor).toArray())).toBeAllclose([1.5, 2, 1.5], { rtol: 1e-12, atol: 1e-12 });
    alive();
  });

  it('factor objects: bad b shape, bad trans, bad device', () => {
    const F = rlx.sparse.splu(rlx.sparse.poisson1d(4), { device: device === 'native' ? 'native' : 'js' });
    throwsWith(() => F.solve(rlx.ones([3])), rlx.ShapeError, /\[4\]/, /\[3\]/);
    throwsWith(() => F.solve(rlx.ones([4, 1, 1])), rlx.ShapeError, /\[4, 1, 1\]/);
    throwsWith(() => F.solve(rlx.ones([4]), { trans: 'X' as never }), rlx.ValueError, /trans/);
    throwsWith(() => rlx.sparse.splu(rlx.sparse.poisson1d(4), { device: 'gpu' as never }), rlx.DeviceError, /gpu/);
    throwsWith(() => rlx.sparse.splu(build(randomTriplets(prng(4), 3, 4, 0.8, 'float64'), 'csr')), rlx.ShapeError, /square/);
    expect(Array.from(F.solve(rlx.tensor([1, 0, 0, 1])).toArray())).toBeAllclose([1, 1, 1, 1], { rtol: 1e-12, atol: 1e-12 });
    F.dispose();
    alive();
  });
});
