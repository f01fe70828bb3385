// sparse.add / sub / multiply / scale as functions (issue 14 §5): the same
// results as dense arithmetic on toDense() (an independent reference: the
// dense Tensor ops), the format rules of the methods (A's format; CSR for a
// COO A), and a typed error naming the function for a non-sparse first operand.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../../src/index.js';

const { sparse } = rlx;
const A = () => sparse.csr({ indptr: [0, 2, 3, 5], indices: [0, 2, 1, 0, 2], data: [1, 2, 3, 4, 5], shape: [3, 3] });
const B = () => sparse.coo({ row: [0, 1, 2, 2], col: [0, 1, 1, 2], data: [10, -3, 7, 0.5], shape: [3, 3] });
const D = () => rlx.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]]);
/** Values with -0 read as 0 (a structural zero is +0; dense 0 * -2 is -0). */
const arr = (t: rlx.Tensor) => t.add(0).toArray();

describe('sparse arithmetic functions', () => {
  it('add and sub match dense arithmetic; the result is in the first operand\'s format', () => {
    const s = sparse.add(A(), B());
    expect(s.format).toBe('csr');
    expect(arr(s.toDense())).toEqual(arr(A().toDense().add(B().toDense())));
    const d = sparse.sub(A().tocsc(), B());
    expect(d.format).toBe('csc');
    expect(arr(d.toDense())).toEqual(arr(A().toDense().sub(B().toDense())));
    const c = sparse.sub(B(), A());
    expect(c.format).toBe('csr');
    expect(arr(c.toDense())).toEqual(arr(B().toDense().sub(A().toDense())));
  });

  it('multiply: sparse, dense and a number', () => {
    expect(arr(sparse.multiply(A(), B()).toDense())).toEqual(arr(A().toDense().mul(B().toDense())));
    expect(arr(sparse.multiply(A(), D()).toDense())).toEqual(arr(A().toDense().mul(D())));
    expect(arr(sparse.multiply(B(), 3).toDense())).toEqual(arr(B().toDense().mul(3)));
  });

  it('scale: real and complex alpha', () => {
    expect(arr(sparse.scale(A(), -2).toDense())).toEqual(arr(A().toDense().mul(-2)));
    const z = sparse.scale(A(), [0, 1]);
    expect(z.dtype).toBe('complex128');
    expect(arr(z.toDense())).toEqual(arr(A().toDense().cast('complex128').mul(rlx.complex(rlx.tensor(0), rlx.tensor(1)))));
  });

  it('a non-sparse first operand is a ValueError naming the function', () => {
    for (const [name, f] of [
      ['add', () => sparse.add(D() as never, A())],
      ['sub', () => sparse.sub([[1]] as never, A())],
      ['multiply', () => sparse.multiply(null as never, A())],
      ['scale', () => sparse.scale(undefined as never, 2)],
    ] as const) {
      expect(f).toThrow(rlx.ValueError);
      expect(f).toThrow(new RegExp(`^sparse\\.${name}: the first operand must be a sparse matrix`));
    }
  });
});
