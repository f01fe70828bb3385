// Realizing a lone linalg node over realized inputs calls the backend's linalg
// kernel directly (src/compiler/direct-linalg.ts) instead of compiling a
// one-kernel graph. It must be indistinguishable from the graph path: the same
// bits, dtypes and shapes, the same typed errors raised at the same point
// (realize, not bind), the graph still there for autodiff, vmap and jit, and
// explain() still showing the compiled plan.

import { afterEach, describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { config } from '../../src/compiler/config.js';
import { getBackend } from '../../src/backends/registry.js';
import { NotPositiveDefiniteError, SingularMatrixError } from '../../src/tensor/errors-linalg.js';
import { DEVICES } from '../harness/devices.js';

const L = rlx.linalg;

/** A deterministic, well-conditioned [..., n, n] matrix of dtype d on device. */
function mat(shape: number[], d: string, device: string, spd = false): rlx.Tensor {
  const n = shape[shape.length - 1]!;
  const count = shape.reduce((a, b) => a * b, 1);
  // sin(...) entries plus n on the diagonal: far from singular
  const re = Float64Array.from({ length: count }, (_, i) => Math.sin(1.3 * i + 0.2) + ((i % (n * n)) % (n + 1) === 0 ? n : 0));
  let t = rlx.tensor(re).reshape(shape);
  if (d === 'complex64' || d === 'complex128') t = rlx.complex(t, rlx.tensor(Float64Array.from({ length: count }, (_, i) => Math.cos(0.7 * i))).reshape(shape).mul(0.3));
  t = t.cast(d as rlx.DType).on(device);
  if (spd) t = t.matmul(t.swapaxes(-1, -2).conj()).add(rlx.eye(n).cast(d as rlx.DType).on(device).mul(n));
  return t.realize();
}

/** f's outputs realized with the direct path on, then off (compiled graphs): [direct, graph] data. */
function both(f: () => rlx.Tensor[]): [ArrayLike<number>[], ArrayLike<number>[], rlx.Tensor[], rlx.Tensor[]] {
  config.directOp = true;
  const a = f();
  const da = a.map((t) => t.toArray());
  config.directOp = false;
  try {
    const b = f();
    const db = b.map((t) => t.toArray());
    return [da, db, a, b];
  } finally {
    config.directOp = true;
  }
}

/** Runs `body` with the device backend's runOp wrapped to report each call's op; restores it after. */
function spyRunLinalg(device: string, onCall: (op: string) => void, body: () => void): void {
  const backend = getBackend(device) as { runOp?: NonNullable<ReturnType<typeof getBackend>['runOp']> };
  const orig = backend.runOp!;
  backend.runOp = (a) => {
    onCall(a.attrs['op'] as string);
    orig(a);
  };
  try {
    body();
  } finally {
    backend.runOp = orig;
  }
}

const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
};

afterEach(() => {
  config.directOp = true;
});

describe.each(DEVICES)('direct linalg realization on %s', (device) => {
  describe.each(['float32', 'float64', 'complex64', 'complex128'])('%s', (d) => {
    it('det, slogdet, inv, solve, cholesky, lu, qr, eigh, svd: the same bits, dtypes and shapes as the compiled graph', () => {
      const A = mat([5, 5], d, device);
      const B = mat([2, 3, 4, 4], d, device);
      const H = mat([5, 5], d, device, true);
      const b = mat([5, 2], d, device);
      const cases: [string, () => rlx.Tensor[]][] = [
        ['det', () => [L.det(A)]],
        ['det batched', () => [L.det(B)]],
        ['slogdet', () => Object.values(L.slogdet(A))],
        ['inv', () => [L.inv(A)]],
        ['inv batched', () => [L.inv(B)]],
        ['solve', () => [L.solve(A, b)]],
        ['solve vector', () => [L.solve(A, rlx.tensor([1, 2, 3, 4, 5]).cast(d as rlx.DType).on(device))]],
        ['cholesky', () => [L.cholesky(H)]],
        ['luFactor', () => Object.values(L.luFactor(A))],
        ['lu', () => Object.values(L.lu(A))],
        ['qr', () => Object.values(L.qr(A)) as rlx.Tensor[]],
        ['eigh', () => Object.values(L.eigh(H))],
        ['svd', () => Object.values(L.svd(A)) as rlx.Tensor[]],
      ];
      for (const [name, f] of cases) {
        const [da, db, ta, tb] = both(f);
        expect(da.length, name).toBe(db.length);
        for (let i = 0; i < da.length; i++) {
          expect(ta[i]!.dtype, name).toBe(tb[i]!.dtype);
          expect(ta[i]!.shape, name).toEqual(tb[i]!.shape);
          expect(Array.from(da[i]!), `${name} part ${i}`).toEqual(Array.from(db[i]!));
        }
      }
    });
  });

  it('runs the backend kernel without compiling (and compiles with config.directOp = false)', () => {
    const A = mat([6, 6], 'float64', device);
    const calls: string[] = [];
    spyRunLinalg(device, (op) => calls.push(op), () => {
      L.inv(A).realize(); // warm the cache, whichever path
      const c0 = rlx.cacheStats();
      L.inv(A).realize();
      L.det(A).realize();
      const c1 = rlx.cacheStats();
      expect(calls).toEqual(['inv', 'inv', 'det']);
      expect(c1.hits + c1.misses).toBe(c0.hits + c0.misses); // no graph captured at all
      config.directOp = false;
      L.inv(A).realize();
      expect(rlx.cacheStats().hits + rlx.cacheStats().misses).toBe(c1.hits + c1.misses + 1);
      expect(calls.length).toBe(3);
    });
  });

  it('inputs that are contiguous views of realized buffers (a reshaped vector, one matrix of a batch) are read in place; strided views compile', () => {
    const A = mat([4, 4], 'float64', device);
    const batch = mat([3, 4, 4], 'float64', device);
    const b = rlx.tensor([1, 2, 3, 4]).on(device).realize();
    let calls = 0;
    spyRunLinalg(device, () => calls++, () => {
      const cases: [string, () => rlx.Tensor, number][] = [
        ['solve with a vector (its [n, 1] reshape)', () => L.solve(A, b), 1],
        ['det of one matrix of a batch', () => L.det(batch.slice(rlx.s(1))), 1],
        ['inv of a reshaped flat buffer', () => L.inv(batch.reshape([48]).slice(rlx.s(rlx.rg(16, 32))).reshape([4, 4])), 1],
        ['det of a transpose (strided): compiled', () => L.det(A.swapaxes(0, 1)), 0],
      ];
      for (const [name, f, direct] of cases) {
        calls = 0;
        config.directOp = true;
        const got = f().toArray();
        expect(calls, name).toBe(direct);
        config.directOp = false;
        const want = f().toArray();
        config.directOp = true;
        expect(Array.from(got), name).toEqual(Array.from(want));
      }
      expect(batch.isRealized && b.isRealized).toBe(true);
    });
  });

  it('only a lone linalg node over realized inputs takes it: an unrealized input or a fused user compile as before', () => {
    const A = mat([4, 4], 'float64', device);
    let calls = 0;
    spyRunLinalg(device, () => calls++, () => {
      const lazyIn = L.det(A.mul(2)); // input not realized: one graph with the multiply
      const withUser = L.inv(A).add(1); // the root is an add over the linalg node
      const want1 = L.det(A).toArray()[0]! * 16;
      expect(calls).toBe(1);
      expect(lazyIn.toArray()[0]).toBeCloseTo(want1, 10);
      const inv = L.inv(A).toArray();
      expect(calls).toBe(2);
      expect(Array.from(withUser.toArray())).toEqual(Array.from(inv, (v) => v + 1));
      expect(calls).toBe(2);
    });
  });

  it('errors: the same typed errors and messages as the graph path, raised at realize (binding stays lazy)', () => {
    const sing = rlx.tensor([1, 2, 2, 4]).reshape([2, 2]).on(device).realize();
    const notPd = rlx.tensor([1, 2, 2, 1]).reshape([2, 2]).on(device).realize();
    for (const [make, type] of [
      [() => L.inv(sing), SingularMatrixError],
      [() => L.solve(sing, rlx.tensor([1, 1]).on(device)), SingularMatrixError],
      [() => L.cholesky(notPd), NotPositiveDefiniteError],
    ] as const) {
      config.directOp = true;
      const t1 = make(); // no throw at bind
      const e1 = thrown(() => t1.realize());
      config.directOp = false;
      const t2 = make();
      const e2 = thrown(() => t2.realize());
      expect(e1).toBeInstanceOf(type);
      expect(e2).toBeInstanceOf(type);
      expect((e1 as Error).message).toBe((e2 as Error).message);
      expect(t1.isRealized).toBe(false); // a failed realize leaves the node as it was
    }
    config.directOp = true;
    // det of a singular matrix is 0, not an error (NumPy)
    expect(Math.abs(L.det(sing).item() as number)).toBe(0);
    const { sign, logabsdet } = L.slogdet(sing);
    expect(Math.abs(sign.item() as number)).toBe(0);
    expect(logabsdet.item()).toBe(-Infinity);
  });

  it('transforms still see the graph: loss.grad, grad, vmap and jit give the compiled-graph values', () => {
    const A = mat([4, 4], 'float64', device);
    const run = () => {
      const g1 = L.det(A).grad([A])[0]!.toArray(); // A is an untracked realized leaf: through the lazy graph
      const g2 = (rlx.grad((a: rlx.Tensor) => L.det(a))(A) as rlx.Tensor).toArray();
      const g3 = (
        rlx.grad((a: rlx.Tensor) => {
          const x = L.inv(a).realize(); // realized inside grad: the tracked node keeps its history
          return x.sum();
        })(A) as rlx.Tensor
      ).toArray();
      const v = (rlx.vmap((a: rlx.Tensor) => L.inv(a))(mat([3, 4, 4], 'float64', device)) as rlx.Tensor).toArray();
      const j = (rlx.jit((a: rlx.Tensor) => L.det(a).mul(2))(A) as rlx.Tensor).toArray();
      return [g1, g2, g3, v, j];
    };
    config.directOp = true;
    const direct = run();
    config.directOp = false;
    const graph = run();
    config.directOp = true;
    for (let i = 0; i < direct.length; i++) expect(Array.from(direct[i]!), `case ${i}`).toEqual(Array.from(graph[i]!));
    // Jacobi's formula against the inverse: d det / dA = det · A⁻ᵀ
    const det = L.det(A).item() as number;
    const invT = L.inv(A).swapaxes(0, 1).toArray();
    direct[0]!.forEach((v, k) => expect(v).toBeCloseTo(det * invT[k]!, 9));
  });

  it('explain() still shows the compiled linalg kernel, and the tensor realizes afterwards', () => {
    const A = mat([4, 4], 'float64', device);
    const x = L.inv(A);
    const plan = rlx.explain(x);
    expect(plan.kernels.map((k) => k.kind)).toContain('registered');
    expect(x.isRealized).toBe(false);
    expect(x.realize().isRealized).toBe(true);
  });
});
