// Contract cases of rlx.quant (issue 18). Quantization rounds, so its true
// derivative is zero almost everywhere except through the scales, which are
// functions of max|x|: d/dx of round(x/s)·s is codes · ds/dx. The cases keep
// the codes fixed while the inputs move: a fixed "grid" tensor whose entries
// are exact multiples of max|grid|/127 (or /7 for 4 bits) is multiplied by a
// positive scalar p, so the codes stay put and the output is linear in p.
// Finite differences take a large step (h = 0.05: f is linear, and it computes
// in float32, whose rounding would swamp a small step) with float32-sized
// tolerances. The integer GEMMs have no derivative: a float operand reaching
// them is a TransformError; reached only through integer casts, their
// gradient is exactly zero. fakeQuant's straight-through gradient is, by
// design, not the derivative of its (piecewise constant) output inside the
// clamp range: the case here takes inputs outside it, where both are zero
// (tests/quant/quantize.test.ts checks the estimator against PyTorch's rule).

import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import type { Table, InSpec, FdOpts } from './checks.js';

const { quant, tensor } = rlx;
/** A positive scalar multiplier, away from zero (the codes do not depend on it). */
const P: InSpec = { shape: [1], lo: 0.5, hi: 1.5 };
/** Linear in p, computed in float32. */
const linearF32: FdOpts = { h: 0.05, rtol: 1e-4, atolScale: 1e-5 };
const f64 = { dtype: 'float64' as const };

/** Rows of integer multiples of rowMax/127, each row reaching ±rowMax: 8-bit codes k exactly. */
const grid8 = tensor([[127, -64, 3, 40], [-90, 127, -1, 0], [12, -127, 77, 5]].map((r) => r.map((k) => (k / 127) * 0.8)), f64);
/** Groups of 4 (along the last axis) of integer multiples of groupMax/7, each group reaching ±groupMax: 4-bit codes. */
const grid4 = tensor([[7, -3, 1, 0, -7, 2, 5, 6], [4, 7, -6, -1, 3, 0, -2, 7]].map((r) => r.map((k) => (k / 7) * 0.6)), f64);
/** 8-bit weights [N = 2, K = 4], per output channel. */
const w8 = quant.quantize(tensor([[0.2, -0.5, 0.1, 0.7], [0.4, 0.3, -0.9, 0.05]]), { axis: 0 });

export const quantCases: Table = {
  'quant.QuantizedTensor': { none: 'class' },
  'quant.quantize': [
    { label: 'per tensor, 8 bits (dequantized)', specs: [P], f: (p) => quant.dequantize(quant.quantize(grid8.mul(p))), fd: linearF32 },
    { label: 'per block of 4, 4 bits (dequantized)', specs: [P], f: (p) => quant.dequantize(quant.quantize(grid4.mul(p), { bits: 4, groupSize: 4 })), fd: linearF32 },
  ],
  'quant.dequantize': {
    label: 'as a function of per-channel scales',
    specs: [{ shape: [3], lo: 0.5, hi: 2 }],
    f: (s) => quant.dequantize(new quant.QuantizedTensor({ codes: tensor([[3, -7], [127, 0], [-128, 9]], { dtype: 'int8' }), scales: s.cast('float32'), zeroPoints: null, layout: { kind: 'channel', axis: 0 }, bits: 8, shape: [3, 2], dtype: 'float64' })),
    fd: linearF32,
  },
  'quant.fakeQuant': { label: 'outside the clamp range (output constant, straight-through gradient zero)', specs: [{ shape: [4], lo: 2, hi: 3 }], f: (x) => quant.fakeQuant(x, { bits: 8, scale: 0.01 }), ad: 'zero' },
  'quant.scaledMatmul': [
    { label: 'float activations quantized per row', specs: [P], f: (p) => quant.scaledMatmul(grid8.mul(p), w8), fd: linearF32 },
    { label: 'quantized activations', specs: [P], f: (p) => quant.scaledMatmul(quant.quantize(grid8.mul(p), { groupSize: 4 }), w8), fd: linearF32 },
  ],
  'quant.QuantLinear': [
    { label: 'dynamic per-row activation scales', specs: [P], f: (p) => quant.QuantLinear(w8, tensor([0.5, -0.25])).forward(grid8.mul(p)), fd: linearF32 },
    { label: 'static input scale (piecewise constant in x)', specs: [{ shape: [2, 4], lo: -1, hi: 1 }], f: (x) => quant.QuantLinear(w8, null, { inputScale: 0.02 }).forward(x), ad: 'zero' },
  ],
  'quant.QatLinearModule': { none: 'class' },
  'quant.ptq': { label: 'a calibrated model (static activation scales: piecewise constant in x)', specs: [{ shape: [3, 4], lo: -1, hi: 1 }], f: (x) => quant.ptq(rlx.nn.Sequential(rlx.nn.Linear(4, 2, { key: rlx.random.key(7), ...f64 })), [grid8]).forward(x), ad: 'zero' },
  'quant.qat': { label: 'forward as a function of the input (fake-quantized weights are constants of x)', specs: [{ shape: [3, 4], lo: -1, hi: 1 }], f: (x) => quant.qat(rlx.nn.Sequential(rlx.nn.Linear(4, 2, { key: rlx.random.key(8), ...f64 }), rlx.nn.Tanh())).forward(x) },
  'quant.int8Matmul': { label: 'codes cast from floats (integer inputs: zero gradient)', specs: [{ shape: [3, 4], lo: -1, hi: 1 }], f: (x) => quant.int8Matmul(x.mul(100).round().cast('int8'), w8.codes).cast('float64'), ad: 'zero' },
  'quant.int4Matmul': {
    label: 'a float row scale reaching the op (no derivative rule)',
    specs: [{ shape: [2], lo: 0.5, hi: 1.5 }],
    f: (s) => quant.int4Matmul(tensor([[2, -1, 4, 3], [0, 7, -8, 1]], { dtype: 'int8' }), s.cast('float32'), tensor(quant.packInt4([1, 7, -8, -1, 3, 0, 2, -5], 2, 4)).reshape([2, 2]), tensor([[1, 0.25], [0.5, 2]], { dtype: 'float32' }), { groupSize: 2 }),
    ad: 'throws',
  },
  'quant.packInt4': { none: 'raw' },
  'quant.unpackInt4': { none: 'raw' },
  'quant.INT8_MATMUL_MAX_K': { none: 'metadata' },
};
