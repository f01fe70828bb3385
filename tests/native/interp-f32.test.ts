// The interpreter's float32 evaluation (Program::f32 in native/src/interp):
// elementwise kernels whose per-element work is float32 loads, add / sub /
// mul / div / sqrt / neg / abs / maximum / minimum, comparisons, where and
// bool -> float32 casts run in float registers, with values computed from
// constants alone done once in double. Computing those ops in float gives the
// bits of computing them in double and rounding (the js backend's
// Math.fround per op): a double has more than 2 * 24 + 2 bits, so the double
// rounding is innocuous for +, -, *, /, sqrt, and the rest are exact. A
// float32 constant that is not a float32 number (0.1 in a float32 graph,
// which the js backend multiplies unrounded) must send the kernel back to the
// double path. Each case is compared bit for bit (Object.is: -0 and NaN
// included) with the js backend, over special values (NaN, ±inf, ±0,
// subnormals, the largest floats, values whose products and quotients round
// at ties), contiguous, transposed, broadcast and stepped operands, and sizes
// that span many 256-element blocks with ragged ends.

import { it } from 'vitest';
import * as rlx from '../../src/index.js';
import { describeInterp, EXACT, expectMatch, rng, useInterpDevice } from './interp-harness.js';

const F32_SPECIALS = [
  NaN, Infinity, -Infinity, 0, -0, 1, -1, 0.5, 1.5, 3, 1e-45, -1e-45, 1.1754943508222875e-38, 5.877471754111438e-39, 3.4028234663852886e38,
  -3.4028234663852886e38, 16777215, 16777217, 1.0000001192092896, 0.9999999403953552, 2.5, 1e-20, 1e20, 0.1, -7.25, 65504,
];

/** n float32 values: the specials, then random ones over many magnitudes. */
function f32Values(n: number, seed: number): Float32Array {
  const r = rng(seed);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = i < F32_SPECIALS.length ? F32_SPECIALS[(i * 7 + seed) % F32_SPECIALS.length]! : (r() - 0.5) * 2 ** Math.floor(r() * 60 - 30);
  return out;
}

describeInterp('interpreter: float32 kernels evaluated in float', (addon) => {
  const dev = useInterpDevice(addon);
  const same = (build: (device: string) => rlx.Tensor, what: string) => {
    const want = build('js').toArray() as ArrayLike<number>;
    const got = build(dev).toArray() as ArrayLike<number>;
    expectMatch(got, want, EXACT, what);
  };
  const input = (device: string, shape: number[], seed: number) =>
    rlx.tensor(f32Values(shape.reduce((a, b) => a * b, 1), seed), { device, shape, dtype: 'float32' });

  it('an Adam-shaped update: constants in float32, sqrt, division, three operands', () => {
    for (const n of [1, 255, 256, 257, 1000, 3 * 256 + 5]) {
      same((d) => {
        const p = input(d, [n], 1),
          m = input(d, [n], 2),
          v = input(d, [n], 3).abs();
        return p.sub(m.mul(0.5).div(v.mul(0.25).sqrt().add(2 ** -20)));
      }, `adam n=${n}`);
    }
  });

  it('every op of the float path on special values, each operand against each', () => {
    const n = F32_SPECIALS.length;
    const binary: [string, (a: rlx.Tensor, b: rlx.Tensor) => rlx.Tensor][] = [
      ['add', (a, b) => a.add(b)], ['sub', (a, b) => a.sub(b)], ['mul', (a, b) => a.mul(b)], ['div', (a, b) => a.div(b)],
      ['maximum', (a, b) => a.maximum(b)], ['minimum', (a, b) => a.minimum(b)],
      ['where(lt)', (a, b) => rlx.where(a.lt(b), a, b)], ['where(ge)', (a, b) => rlx.where(a.ge(b), b.neg(), a.abs())],
      ['eq->cast', (a, b) => a.eq(b).cast('float32').add(a)], ['ne->cast', (a, b) => a.ne(b).cast('float32').mul(b)],
      ['le/gt', (a, b) => a.le(b).cast('float32').sub(a.gt(b).cast('float32'))],
      ['sqrt(|a|)/b', (a, b) => a.abs().sqrt().div(b)],
    ];
    for (const [name, f] of binary) {
      same((d) => {
        const vals = Float32Array.from(F32_SPECIALS);
        const a = rlx.tensor(vals, { device: d, shape: [n, 1], dtype: 'float32' });
        const b = rlx.tensor(vals, { device: d, shape: [1, n], dtype: 'float32' });
        return f(a.broadcastTo([n, n]), b.broadcastTo([n, n]));
      }, name);
    }
  });

  it('transposed, stepped and broadcast operands over many blocks', () => {
    same((d) => input(d, [37, 53], 4).transpose().mul(input(d, [53, 37], 5)).add(input(d, [37], 6)), 'transposed + broadcast row');
    same((d) => {
      const x = input(d, [90, 40], 7);
      return x.slice(rlx.s(rlx.rg(0, 90, 3))).sub(input(d, [30, 1], 8)).div(x.slice(rlx.s(rlx.rg(1, 90, 3))).abs().add(1));
    }, 'stepped rows, broadcast column');
  });

  it('a constant that is not a float32 number sends the kernel to the double path', () => {
    // 0.1 and 1/3 are float64 literals of a float32 graph: the js backend
    // multiplies by them unrounded and rounds the product.
    for (const n of [5, 700]) {
      same((d) => input(d, [n], 9).mul(0.1).add(input(d, [n], 10).div(1 / 3)), `0.1 and 1/3, n=${n}`);
      same((d) => input(d, [n], 11).mul(0.375).sub(0.5), `0.375 and 0.5 (float32 numbers), n=${n}`);
    }
  });

  it('with the interpreter pool on (threshold 0): the same bits', () => {
    const before = addon.interpGetThreshold();
    addon.interpSetThreshold(0);
    try {
      same((d) => {
        const x = input(d, [64, 300], 12);
        return x.mul(x).sub(input(d, [300], 13)).div(x.abs().add(0.5)).sqrt();
      }, 'pool');
    } finally {
      addon.interpSetThreshold(before);
    }
  });
});
