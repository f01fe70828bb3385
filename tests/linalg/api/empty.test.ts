// Empty matrices and empty batches through the public linalg API on every
// device, with NumPy 1.24 / SciPy 1.10's results (written out by hand here:
// shapes plus the identities that full factors of an empty side must be).
// LAPACK itself rejects zero leading dimensions, so these exercise the
// kernels' and bindings' own empty paths (native svd of a 3x0 matrix with
// full factors once failed in the addon's argument check).

import { describe, expect, it } from 'vitest';
import * as rlx from '../../../src/index.js';
import { DEVICES } from '../../harness/devices.js';

const L = rlx.linalg;
const eye = (n: number) => Array.from({ length: n * n }, (_, i) => (i % (n + 1) === 0 ? 1 : 0));
const vals = (x: rlx.Tensor | undefined) => Array.from(x!.toArray() as ArrayLike<number>);

describe.each(DEVICES)('linalg on empty matrices on %s', (device) => {
  const z = (...shape: number[]) => rlx.zeros(shape).on(device);

  it('det / slogdet of 0x0 are 1 and (1, 0); inv, solve, cholesky, eigh, eig give empty results', () => {
    expect(L.det(z(0, 0)).item()).toBe(1);
    expect(L.slogdet(z(0, 0)).sign.item()).toBe(1);
    expect(L.slogdet(z(0, 0)).logabsdet.item()).toBe(0);
    expect(vals(L.det(z(2, 0, 0)))).toEqual([1, 1]);
    expect(L.inv(z(0, 0)).shape).toEqual([0, 0]);
    expect(L.solve(z(0, 0), z(0)).shape).toEqual([0]);
    expect(L.solve(rlx.eye(2).on(device), z(2, 0)).shape).toEqual([2, 0]);
    expect(L.cholesky(z(0, 0)).shape).toEqual([0, 0]);
    const e = L.eigh(z(0, 0));
    expect([e.eigenvalues.shape, e.eigenvectors.shape]).toEqual([[0], [0, 0]]);
    expect(L.eig(z(0, 0)).eigenvalues.shape).toEqual([0]);
    expect(L.inv(z(0, 2, 2)).shape).toEqual([0, 2, 2]);
    expect(L.matrixPower(z(0, 0), -1).shape).toEqual([0, 0]);
  });

  it('svd of 3x0 and 0x3: empty s, identity full factors (NumPy)', () => {
    const a = L.svd(z(3, 0), { fullMatrices: true });
    expect([a.u!.shape, a.s.shape, a.vh!.shape]).toEqual([[3, 3], [0], [0, 0]]);
    expect(vals(a.u)).toEqual(eye(3));
    const b = L.svd(z(0, 3), { fullMatrices: true });
    expect([b.u!.shape, b.s.shape, b.vh!.shape]).toEqual([[0, 0], [0], [3, 3]]);
    expect(vals(b.vh)).toEqual(eye(3));
    const c = L.svd(z(3, 0));
    expect([c.u!.shape, c.vh!.shape]).toEqual([[3, 0], [0, 0]]);
    expect(L.svd(z(2, 3, 0), { fullMatrices: true, computeUv: true }).u!.shape).toEqual([2, 3, 3]);
    expect(vals(L.svd(rlx.zeros([2, 3, 0], { dtype: 'complex64' }).on(device), { fullMatrices: true }).u)).toEqual([...eye(3), ...eye(3)].flatMap((x) => [x, 0]));
  });

  it('qr and lu of 3x0 / 0x3: identity q / p (NumPy, SciPy)', () => {
    const q = L.qr(z(3, 0), { mode: 'complete' });
    expect([q.q!.shape, q.r.shape]).toEqual([[3, 3], [3, 0]]);
    expect(vals(q.q)).toEqual(eye(3));
    const qr = L.qr(z(3, 0));
    expect([qr.q!.shape, qr.r.shape]).toEqual([[3, 0], [0, 0]]);
    const w = L.qr(z(0, 3), { mode: 'complete' });
    expect([w.q!.shape, w.r.shape]).toEqual([[0, 0], [0, 3]]);
    const lu = L.lu(z(3, 0));
    expect([lu.p.shape, lu.l.shape, lu.u.shape]).toEqual([[3, 3], [3, 0], [0, 0]]);
    expect(vals(lu.p)).toEqual(eye(3));
    expect(L.lu(z(0, 3)).u.shape).toEqual([0, 3]);
  });

  it('lstsq with n = 0 (x empty, residuals = Σ|b|² since m > n = rank) and m = 0 (x = 0)', () => {
    const r = L.lstsq(z(3, 0), rlx.ones([3, 2]).on(device));
    expect(r.x.shape).toEqual([0, 2]);
    expect(r.rank.item()).toBe(0);
    expect(r.s.shape).toEqual([0]);
    expect(vals(r.residuals)).toEqual([3, 3]);
    const w = L.lstsq(z(0, 3), z(0, 2));
    expect(w.x.shape).toEqual([3, 2]);
    expect(vals(w.x)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(w.residuals.shape).toEqual([0]);
  });

  it('expm of 0x0 and of an empty batch is empty (SciPy)', () => {
    expect(L.expm(z(0, 0)).shape).toEqual([0, 0]);
    expect(L.expm(z(0, 2, 2)).shape).toEqual([0, 2, 2]);
  });

  it('norm of an empty vector is 0; trace of 0x0 is 0', () => {
    expect(L.norm(z(0)).item()).toBe(0);
    expect(L.trace(z(0, 0)).item()).toBe(0);
  });
});
