// Contract cases of the remaining top-level exports: the transforms and control
// flow (checked composed: a transform inside jvp / grad / vmap must itself be
// differentiable and batchable), plus the exports that take no Tensor (random
// keys, dtypes, errors, printing, the compiler's graph API, config, devices).

import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import type { Table, InSpec } from './checks.js';

const V = (n = 3, lo = -2, hi = 2): InSpec => ({ shape: [n], lo, hi });
const M: InSpec = { shape: [2, 3] };
const T0 = () => rlx.tensor([0.3, -0.7, 1.1]);

export const otherCases: Table = {
  // ---- transforms, composed with jvp / grad / vmap ------------------------------------
  grad: { specs: [V()], f: (x) => rlx.grad((y: Tensor) => y.sin().mul(y).sum())(x) as Tensor },
  valueAndGrad: {
    specs: [V()],
    f: (x) => {
      const [v, g] = rlx.valueAndGrad((y: Tensor) => y.exp().sum())(x) as [Tensor, Tensor];
      return g.mul(v);
    },
  },
  vjp: { specs: [V()], f: (x) => (rlx.vjp((y: Tensor) => y.sin().mul(y), x)[1](T0()) as Tensor[])[0]! },
  jvp: { specs: [V()], f: (x) => rlx.jvp((y: Tensor) => y.exp().mul(y), [x], [T0()])[1] as Tensor },
  hvp: { specs: [V()], f: (x) => rlx.hvp((y: Tensor) => y.pow(3).sum().add(y.prod()), [x], [T0()]) as Tensor },
  vmap: { specs: [M], f: (x) => rlx.vmap((row: Tensor) => row.sin().mul(row.sum()))(x) as Tensor },
  jit: { specs: [M], f: (x) => rlx.jit((y: Tensor) => y.tanh().mul(y))(x) as Tensor },
  jacfwd: { specs: [V()], f: (x) => rlx.jacfwd((y: Tensor) => y.sin().mul(y.sum()))(x) as Tensor },
  jacrev: { specs: [V()], f: (x) => rlx.jacrev((y: Tensor) => y.cos().mul(y.sum()))(x) as Tensor },
  hessian: { specs: [V()], f: (x) => rlx.hessian((y: Tensor) => y.pow(3).sum().add(y.prod()))(x) as Tensor },
  // stopGradient's derivative is zero by definition (FD of its forward is not): jvp and grad must
  // give exactly zero ('zero'), vmap the loop.
  stopGradient: { specs: [M], f: (x) => rlx.stopGradient(x.sin()).mul(2), ad: 'zero' },
  customJvp: {
    specs: [V()],
    f: (x) => rlx.customJvp((y: Tensor) => y.sin(), ([y], [t]) => t!.mul(y!.cos()))(x),
  },
  customVjp: {
    specs: [V()],
    f: (x) => rlx.customVjp((y: Tensor) => y.sin(), ([y], _out, ct) => [ct.mul(y!.cos())])(x),
  },
  checkpoint: { specs: [V()], f: (x) => rlx.checkpoint((y: Tensor) => y.sin().mul(y.exp()))(x) },
  scan: {
    specs: [V(4)],
    f: (x) => {
      const [c, ys] = rlx.scan((c, xi) => [(c as Tensor).mul(0.9).add((xi as Tensor).sin()), (c as Tensor).mul(xi as Tensor)], rlx.tensor(0.5), x) as [Tensor, Tensor];
      return rlx.cat([c.reshape([1]), ys], 0);
    },
  },
  forLoop: { specs: [V()], f: (x) => rlx.forLoop(0, 3, (i, c) => (c as Tensor).mul((c as Tensor).sin().add(1.5)).add(i.cast('float64').mul(0.1)), x) as Tensor },
  // whileLoop has forward mode and batching, not reverse mode (ARCHITECTURE.md).
  whileLoop: {
    specs: [V()],
    f: (x) => (rlx.whileLoop((c) => (c as Tensor[])[0]!.lt(3), (c) => { const [i, y] = c as Tensor[]; return [i!.add(1), y!.mul(y!.cos()).add(0.5)]; }, [rlx.tensor(0, { dtype: 'int32' }), x]) as Tensor[])[1]!,
    grad: 'throws',
  },
  cond: { specs: [V()], f: (x) => rlx.cond(x.sum().gt(0), (y: Tensor) => y.sin(), (y: Tensor) => y.mul(y), x) as Tensor },

  // ---- no tensor ------------------------------------------------------------------------------
  'random.key': { none: 'key' },
  'random.keyData': { none: 'key' },
  'random.split': { none: 'key' },
  'random.foldIn': { none: 'key' },
  'random.uniform': { none: 'key' },
  'random.normal': { none: 'key' },
  'random.randint': { none: 'key' },
  'random.bernoulli': { none: 'key' },
  DTYPES: { none: 'dtype' },
  toDType: { none: 'dtype' },
  promoteTypes: { none: 'dtype' },
  promotionTable: { none: 'dtype' },
  isComplex: { none: 'dtype' },
  isFloat: { none: 'dtype' },
  s: { none: 'slicing' },
  ax: { none: 'slicing' },
  rg: { none: 'slicing' },
  ix: { none: 'slicing' },
  tail: { none: 'slicing' },
  RlxError: { none: 'error' },
  ShapeError: { none: 'error' },
  DTypeError: { none: 'error' },
  ValueError: { none: 'error' },
  IndexError: { none: 'error' },
  LegalizationError: { none: 'error' },
  DeviceError: { none: 'error' },
  DeviceLostError: { none: 'error' },
  TransformError: { none: 'error' },
  DonatedError: { none: 'error' },
  printOptions: { none: 'printing' },
  setPrintOptions: { none: 'printing' },
  resetPrintOptions: { none: 'printing' },
  graph: { none: 'compiler' },
  compile: { none: 'compiler' },
  Func: { none: 'compiler' },
  CompiledFunc: { none: 'compiler' },
  GraphBuilder: { none: 'compiler' },
  explain: { none: 'compiler' },
  cacheStats: { none: 'compiler' },
  clearCache: { none: 'compiler' },
  config: { none: 'config' },
  backends: { none: 'device' },
  setNumThreads: { none: 'device' },
  setDefaultDevice: { none: 'device' },
  numThreads: { none: 'device' },
  nativeStatus: { none: 'device' },
  blasInfo: { none: 'device' },
  nativeFftStatus: { none: 'device' },
};
