// Contract cases of the Tensor methods (Tensor#...) and of the top-level tensor
// functions (creation, where/complex/cast, cat/stack, matmul/dot/outer).
// Domains keep each function smooth where sampled (positive bases and logs,
// |x| < 1 for asin/acos); piecewise-constant functions (floor, sign, comparisons)
// must give zero derivatives, which the FD check confirms.

import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import type { Case, Table, InSpec } from './checks.js';

const M = (lo = -2, hi = 2): InSpec => ({ shape: [2, 3], lo, hi });
const C = (shape = [2, 3], lo = -2, hi = 2): InSpec => ({ shape, dtype: 'complex128', lo, hi });
const V = (n: number, lo = -2, hi = 2): InSpec => ({ shape: [n], lo, hi });

/** A unary method on a real [2, 3] input (and a complex one when `complex` gives a domain). */
function unary(f: (x: Tensor) => Tensor, lo = -2, hi = 2, complex?: [number, number]): Case | Case[] {
  const real: Case = { specs: [M(lo, hi)], f };
  return complex ? [real, { label: 'complex', specs: [C([2, 3], complex[0], complex[1])], f }] : real;
}
/** A binary method x.op(y) on real inputs of one shape (and complex ones when asked). */
function binary(f: (x: Tensor, y: Tensor) => Tensor, lo = -2, hi = 2, complex?: [number, number]): Case | Case[] {
  const real: Case = { specs: [M(lo, hi), M(lo, hi)], f };
  return complex ? [real, { label: 'complex', specs: [C([2, 3], complex[0], complex[1]), C([2, 3], complex[0], complex[1])], f }] : real;
}

const idx = () => rlx.tensor([2, 0, 1, 2], { dtype: 'int32' });
const mask = () => rlx.tensor([[true, false, true], [false, true, true]]);

export const tensorMethodCases: Table = {
  // ---- metadata and readouts: no values to differentiate -------------------------
  'Tensor#shape': { none: 'metadata' },
  'Tensor#symbolicShape': { none: 'metadata' },
  'Tensor#dtype': { none: 'metadata' },
  'Tensor#ndim': { none: 'metadata' },
  'Tensor#size': { none: 'metadata' },
  'Tensor#device': { none: 'metadata' },
  'Tensor#isRealized': { none: 'metadata' },
  'Tensor#itemsize': { none: 'metadata' },
  'Tensor#toArray': { none: 'readout' },
  'Tensor#data': { none: 'readout' },
  'Tensor#tolist': { none: 'readout' },
  'Tensor#item': { none: 'readout' },
  'Tensor#toString': { none: 'printing' },
  'Tensor#repr': { none: 'printing' },

  // ---- values that keep their derivative ------------------------------------------
  // realize() computes now: under vmap the per-example proxy has no value, a typed error.
  'Tensor#realize': { specs: [M()], f: (x) => x.mul(x).realize(), vmap: 'throws' },
  // Through the js device and back to the input's one.
  'Tensor#on': { specs: [M()], f: (x) => x.mul(2).on('js').sin().on(x.device ?? 'js') },
  'Tensor#to': { specs: [M()], f: (x) => x.mul(2).to('js').sin().to(x.device ?? 'js') },
  'Tensor#requiresGrad': { specs: [M()], f: (x) => x.sin().requiresGrad().mul(x) },
  'Tensor#grad': { specs: [V(3)], f: (x) => x.sin().mul(x).sum().grad([x])[0]! },

  // ---- elementwise ------------------------------------------------------------------
  'Tensor#add': binary((x, y) => x.add(y), -2, 2, [-2, 2]),
  'Tensor#sub': binary((x, y) => x.sub(y), -2, 2, [-2, 2]),
  'Tensor#mul': binary((x, y) => x.mul(y), -2, 2, [-2, 2]),
  'Tensor#div': binary((x, y) => x.div(y), 0.5, 2, [0.5, 2]),
  'Tensor#pow': [{ specs: [M(0.5, 2), M(-2, 2)], f: (x, y) => x.pow(y) }, { label: 'complex', specs: [C([2, 3], 0.5, 2), C([2, 3], -1, 1)], f: (x, y) => x.pow(y) }],
  'Tensor#maximum': binary((x, y) => x.maximum(y)),
  'Tensor#minimum': binary((x, y) => x.minimum(y)),
  'Tensor#atan2': binary((x, y) => x.atan2(y), 0.5, 2),
  'Tensor#eq': binary((x, y) => x.eq(y)),
  'Tensor#ne': binary((x, y) => x.ne(y)),
  'Tensor#lt': binary((x, y) => x.lt(y)),
  'Tensor#le': binary((x, y) => x.le(y)),
  'Tensor#gt': binary((x, y) => x.gt(y)),
  'Tensor#ge': binary((x, y) => x.ge(y)),
  'Tensor#logicalAnd': binary((x, y) => x.gt(0).logicalAnd(y.gt(0))),
  'Tensor#logicalOr': binary((x, y) => x.gt(0).logicalOr(y.gt(0))),
  'Tensor#logicalNot': unary((x) => x.gt(0).logicalNot()),
  'Tensor#neg': unary((x) => x.neg(), -2, 2, [-2, 2]),
  'Tensor#abs': unary((x) => x.abs(), 0.2, 2, [0.2, 2]),
  'Tensor#sign': unary((x) => x.sign(), 0.2, 2),
  'Tensor#exp': unary((x) => x.exp(), -2, 2, [-1, 1]),
  'Tensor#log': unary((x) => x.log(), 0.5, 2, [0.5, 2]),
  'Tensor#log1p': unary((x) => x.log1p(), -0.5, 2, [0.1, 1]),
  'Tensor#expm1': unary((x) => x.expm1(), -2, 2, [-1, 1]),
  'Tensor#sqrt': unary((x) => x.sqrt(), 0.5, 2, [0.5, 2]),
  'Tensor#rsqrt': unary((x) => x.rsqrt(), 0.5, 2, [0.5, 2]),
  'Tensor#sin': unary((x) => x.sin(), -2, 2, [-1, 1]),
  'Tensor#cos': unary((x) => x.cos(), -2, 2, [-1, 1]),
  'Tensor#tan': unary((x) => x.tan(), -1, 1, [-0.5, 0.5]),
  'Tensor#tanh': unary((x) => x.tanh(), -2, 2, [-0.5, 0.5]),
  'Tensor#sinh': unary((x) => x.sinh(), -2, 2, [-1, 1]),
  'Tensor#cosh': unary((x) => x.cosh(), -2, 2, [-1, 1]),
  'Tensor#asin': unary((x) => x.asin(), -0.8, 0.8, [0.1, 0.5]),
  'Tensor#acos': unary((x) => x.acos(), -0.8, 0.8, [0.1, 0.5]),
  'Tensor#atan': unary((x) => x.atan(), -2, 2, [0.1, 0.5]),
  'Tensor#floor': unary((x) => x.floor()),
  'Tensor#ceil': unary((x) => x.ceil()),
  'Tensor#round': unary((x) => x.round()),
  'Tensor#erf': unary((x) => x.erf()),
  'Tensor#sigmoid': unary((x) => x.sigmoid(), -2, 2, [-0.5, 0.5]),
  'Tensor#softplus': unary((x) => x.softplus()),
  'Tensor#gelu': unary((x) => x.gelu()),
  'Tensor#relu': unary((x) => x.relu()),
  'Tensor#real': unary((x) => x.real(), -2, 2, [-2, 2]),
  'Tensor#imag': unary((x) => x.imag(), -2, 2, [-2, 2]),
  'Tensor#conj': unary((x) => x.conj(), -2, 2, [-2, 2]),
  'Tensor#angle': unary((x) => x.angle(), 0.2, 2, [0.2, 2]),
  'Tensor#square': unary((x) => x.square(), -2, 2, [-2, 2]),
  'Tensor#clip': [
    { specs: [M()], f: (x) => x.clip(-1, 1) },
    { label: 'tensor bounds', specs: [M(), M(-3, -1), M(1, 3)], f: (x, lo, hi) => x.clip(lo, hi) },
  ],
  'Tensor#where': { specs: [M(), M()], f: (x, y) => x.where(mask(), y) },
  'Tensor#cast': [
    { specs: [M()], f: (x) => x.cast('complex128') },
    { label: 'complex to real', specs: [C()], f: (x) => x.cast('float64') },
    { label: 'to int32', specs: [M()], f: (x) => x.cast('int32') },
  ],
  'Tensor#astype': { specs: [M()], f: (x) => x.astype('complex128').mul(x) },

  // ---- reductions ------------------------------------------------------------------
  'Tensor#sum': [{ specs: [M()], f: (x) => x.sum(1) }, { label: 'complex', specs: [C()], f: (x) => x.sum() }],
  'Tensor#prod': [{ specs: [M()], f: (x) => x.prod(0) }, { label: 'complex', specs: [C()], f: (x) => x.prod(1) }],
  'Tensor#max': { specs: [M()], f: (x) => x.max(1) },
  'Tensor#min': { specs: [M()], f: (x) => x.min(0) },
  'Tensor#argmax': { specs: [M()], f: (x) => x.argmax(1) },
  'Tensor#argmin': { specs: [M()], f: (x) => x.argmin(0) },
  'Tensor#mean': [{ specs: [M()], f: (x) => x.mean(1, true) }, { label: 'complex', specs: [C()], f: (x) => x.mean() }],
  'Tensor#var': [{ specs: [M()], f: (x) => x.var(1, false, 1) }, { label: 'complex', specs: [C()], f: (x) => x.var() }],
  'Tensor#std': { specs: [M()], f: (x) => x.std(0) },
  'Tensor#logsumexp': { specs: [M()], f: (x) => x.logsumexp(1) },
  'Tensor#cumsum': [{ specs: [M()], f: (x) => x.cumsum(1) }, { label: 'complex', specs: [C()], f: (x) => x.cumsum(0) }],

  // ---- linear algebra ----------------------------------------------------------------
  'Tensor#matmul': [
    { specs: [M(), { shape: [3, 2] }], f: (a, b) => a.matmul(b) },
    { label: 'complex', specs: [C(), C([3, 2])], f: (a, b) => a.matmul(b) },
  ],
  'Tensor#dot': [{ specs: [V(3), V(3)], f: (a, b) => a.dot(b) }, { label: 'complex', specs: [C([3]), C([3])], f: (a, b) => a.dot(b) }],
  'Tensor#outer': { specs: [V(2), V(3)], f: (a, b) => a.outer(b) },

  // ---- shape and movement -------------------------------------------------------------
  'Tensor#reshape': { specs: [M()], f: (x) => x.reshape(3, 2) },
  'Tensor#transpose': { specs: [{ shape: [2, 3, 2] }], f: (x) => x.transpose([2, 0, 1]) },
  'Tensor#T': [{ specs: [M()], f: (x) => x.T }, { label: 'complex', specs: [C()], f: (x) => x.T }],
  'Tensor#swapaxes': { specs: [M()], f: (x) => x.swapaxes(0, 1) },
  'Tensor#expandDims': { specs: [M()], f: (x) => x.expandDims(1) },
  'Tensor#squeeze': { specs: [{ shape: [2, 1, 3] }], f: (x) => x.squeeze(1) },
  'Tensor#broadcastTo': { specs: [V(3)], f: (x) => x.broadcastTo([2, 3]) },
  'Tensor#flatten': { specs: [M()], f: (x) => x.flatten() },
  'Tensor#flip': { specs: [M()], f: (x) => x.flip(1) },
  'Tensor#pad': { specs: [M()], f: (x) => x.pad([[1, 0], [0, 2]], 1.5) },
  'Tensor#slice': { specs: [{ shape: [3, 4] }], f: (x) => x.slice(rlx.s(rlx.rg(1, 3), rlx.rg(0, 4, 2))) },
  'Tensor#select': { specs: [M()], f: (x) => x.select(1, 2) },
  'Tensor#gather': { specs: [M()], f: (x) => x.gather(idx(), 1) },
  'Tensor#scatterAdd': { specs: [M(), { shape: [2, 4] }], f: (x, u) => x.scatterAdd(idx(), u, 1) },
};

export const tensorFunctionCases: Table = {
  Tensor: { none: 'class' },
  tensor: { specs: [M()], f: (x) => rlx.tensor(x) },
  zeros: { none: 'sizes' },
  ones: { none: 'sizes' },
  full: { none: 'sizes' },
  eye: { none: 'sizes' },
  arange: { none: 'sizes' },
  linspace: { none: 'sizes' },
  fromStorage: { none: 'raw' },
  zerosLike: { specs: [M()], f: (x) => rlx.zerosLike(x).add(x) },
  onesLike: { specs: [M()], f: (x) => rlx.onesLike(x).mul(x) },
  where: { specs: [M(), M()], f: (x, y) => rlx.where(x.gt(y), x.mul(y), y) },
  complex: { specs: [M(), M()], f: (x, y) => rlx.complex(x, y) },
  cast: { specs: [C()], f: (x) => rlx.cast(x, 'float64') },
  cat: { specs: [M(), { shape: [1, 3] }], f: (x, y) => rlx.cat([x, y], 0) },
  stack: { specs: [M(), M()], f: (x, y) => rlx.stack([x, y], 1) },
  matmul: { specs: [{ shape: [2, 2, 3] }, { shape: [3, 2] }], f: (a, b) => rlx.matmul(a, b) },
  dot: { specs: [V(4), V(4)], f: (a, b) => rlx.dot(a, b) },
  outer: { specs: [C([2]), C([3])], f: (a, b) => rlx.outer(a, b) },
};
