// The general op registry (compiler/op-registry.ts) and the kernel registry
// (compiler/kernel-registry.ts), exercised through a test op registered the way
// a module registers one: a kernel family of its own, kernels per device, and
// only the rules it offers.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { registerOp } from '../../src/compiler/op-registry.js';
import { kernelFamily, kernelTable, registerKernels, unregisterKernels, hasKernels } from '../../src/compiler/kernel-registry.js';
import { bindOp } from '../../src/tensor/ops/registered-op.js';
import { LegalizationError, TransformError } from '../../src/tensor/errors.js';
import type { Tensor } from '../../src/tensor/tensor.js';

// A family whose kernel set is one function: y = a·x + b over a vector core.
interface AxpbKernels {
  axpb(x: Float64Array, y: Float64Array, a: number, b: number): void;
}
const AXPB = kernelFamily<AxpbKernels>('test.axpb');
const hostAxpb: AxpbKernels = {
  axpb(x, y, a, b) {
    for (let i = 0; i < x.length; i++) y[i] = a * x[i]! + b;
  },
};
registerKernels('js', AXPB, hostAxpb);

// Two ops on it: 'testAxpb' has a JVP and a VJP; 'testAxpbBare' has none and no batching.
const common = {
  family: AXPB,
  coreRanks: [1],
  outputs: ([x]: readonly { shape: number[]; dtype: rlx.DType }[]) => [{ shape: [...x!.shape], dtype: 'float64' as const }],
  run: (k: AxpbKernels, { ins: [x], outs: [y], attrs }: { ins: unknown[]; outs: unknown[]; attrs: Readonly<Record<string, unknown>> }) =>
    k.axpb(x as Float64Array, y as Float64Array, attrs['a'] as number, attrs['b'] as number),
};
registerOp('testAxpb', {
  ...common,
  label: 'test.axpb',
  jvp: ({ attrs }, [dx]) => [dx ? dx.mul(attrs['a'] as number) : null],
  vjp: ({ attrs }, [ct]) => [ct ? ct.mul(attrs['a'] as number) : null],
});
registerOp('testAxpbBare', { ...common, label: 'test.axpbBare', batching: 'none' });

const axpb = (x: Tensor, a: number, b: number, bare = false) => bindOp(bare ? 'testAxpbBare' : 'testAxpb', [x], { a, b })[0]!;
const native = rlx.backends().some((b) => b.name === 'native' && b.available);

describe('registered ops', () => {
  it('run on a device that has their kernel family (values from the formula)', () => {
    const x = rlx.tensor([1, 2, 3], { dtype: 'float64', device: 'js' });
    expect(Array.from(axpb(x, 2, 1).toArray() as Float64Array)).toEqual([3, 5, 7]);
    // batch dims in front of the core map over it
    const xb = rlx.tensor([[1, 2], [3, 4]], { dtype: 'float64', device: 'js' });
    expect(Array.from(axpb(xb, -1, 0.5).toArray() as Float64Array)).toEqual([-0.5, -1.5, -2.5, -3.5]);
  });

  it('a device without the family is a LegalizationError naming op, dtype and device (no fallback to js)', () => {
    if (!native && process.env['RLX_REQUIRE_NATIVE'] !== '1') return;
    expect(hasKernels('native', AXPB)).toBe(false);
    const x = rlx.tensor([1, 2, 3], { dtype: 'float64', device: 'native' });
    const run = () => axpb(x, 2, 1).toArray();
    expect(run).toThrow(LegalizationError);
    expect(run).toThrow(/'test\.axpb' with dtype float64 on backend 'native'.*no 'test\.axpb' kernels on this device; registered on: js/);
    // registering the host kernels for native (both devices share host memory) makes it run there
    registerKernels('native', AXPB, hostAxpb);
    try {
      expect(Array.from(axpb(x, 2, 1).toArray() as Float64Array)).toEqual([3, 5, 7]);
    } finally {
      unregisterKernels('native', AXPB);
    }
  });

  it('lists every family with its devices', () => {
    const t = kernelTable();
    expect(t.find((r) => r.family === 'test.axpb')?.devices).toEqual(['js']);
    expect(t.find((r) => r.family === 'linalg')?.devices).toContain('js');
    expect(t.find((r) => r.family === 'sparse')?.devices).toContain('js');
    if (native) expect(t.find((r) => r.family === 'linalg')?.devices).toContain('native');
  });

  it('their rules drive grad, jvp and vmap', () => {
    const x = rlx.tensor([1, 2, 3], { dtype: 'float64', device: 'js' });
    const g = rlx.grad((v: Tensor) => axpb(v, 3, 1).sum())(x);
    expect(Array.from(g.toArray() as Float64Array)).toEqual([3, 3, 3]);
    const [, t] = rlx.jvp((v: Tensor) => axpb(v, -2, 0), [x], [rlx.onesLike(x)]);
    expect(Array.from(t.toArray() as Float64Array)).toEqual([-2, -2, -2]);
    const xb = rlx.tensor([[1, 2], [3, 4]], { dtype: 'float64', device: 'js' });
    const y = rlx.vmap((v: Tensor) => axpb(v, 2, 0))(xb);
    expect(Array.from(y.toArray() as Float64Array)).toEqual([2, 4, 6, 8]);
  });

  it('a rule the op does not offer is a TransformError naming the op, not zeros', () => {
    const x = rlx.tensor([1, 2, 3], { dtype: 'float64', device: 'js' });
    expect(() => rlx.grad((v: Tensor) => axpb(v, 3, 1, true).sum())(x)).toThrow(TransformError);
    expect(() => rlx.grad((v: Tensor) => axpb(v, 3, 1, true).sum())(x)).toThrow(/vjp: registered op 'test\.axpbBare' has no VJP rule/);
    expect(() => rlx.jvp((v: Tensor) => axpb(v, 3, 1, true), [x], [rlx.onesLike(x)])).toThrow(/jvp: registered op 'test\.axpbBare' has no JVP rule/);
    const xb = rlx.tensor([[1, 2], [3, 4]], { dtype: 'float64', device: 'js' });
    expect(() => rlx.vmap((v: Tensor) => axpb(v, 2, 0, true))(xb).toArray()).toThrow(/vmap: registered op 'test\.axpbBare' has no batching rule/);
    // the forward pass itself is fine
    expect(Array.from(axpb(x, 3, 1, true).toArray() as Float64Array)).toEqual([4, 7, 10]);
  });

  it('registering an op or a family twice is refused', () => {
    expect(() => registerOp('testAxpb', { ...common })).toThrow(/registered twice/);
    expect(() => kernelFamily('test.axpb')).toThrow(/declared twice/);
  });
});
