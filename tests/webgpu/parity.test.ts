// Backend parity on 'webgpu': every elementwise primitive the backend serves
// (unary and binary, float32 and int32), the reductions over random axes,
// matmul over random shapes and batches, and views (transposes, slices,
// broadcasts) folded into loads, on fast-check shapes and values, compared
// with the same expression on 'js' through the public API.
//
// Tolerances: exact where WGSL's f32/i32 arithmetic is correctly rounded
// (+, −, ×, min/max, comparisons, rounding, casts); elsewhere the accuracy
// WGSL requires of an adapter (WGSL spec §"Floating Point Accuracy"),
// rounded up, so the suite holds on any conforming adapter, not only on
// Mesa's llvmpipe: division 2.5 ulp, exp 3 + 2|x| ulp, log 3 ulp (absolute
// 2^-21 on [0.5, 2]), sin/cos absolute 2^-11 on [−π, π], the functions WGSL
// derives from exp (tanh, sinh, cosh, sigmoid) within what their formulas
// give, atan/atan2 4096 ulp and asin/acos as derived from them.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import { webgpuStatus } from '../../src/backends/webgpu/device.js';

const status = webgpuStatus();
const ULP = 2 ** -23;
const RUNS = { numRuns: 12 };

/** |gpu − js| ≤ abs + rel·|js| elementwise (NaN must match NaN). */
function close(gpu: ArrayLike<number>, ref: ArrayLike<number>, abs: number, rel: number, what: string): void {
  expect(gpu.length, what).toBe(ref.length);
  for (let i = 0; i < ref.length; i++) {
    const g = gpu[i]!,
      r = ref[i]!;
    if (Number.isNaN(r)) expect(Number.isNaN(g), `${what}[${i}]: js NaN, gpu ${g}`).toBe(true);
    else expect(Math.abs(g - r), `${what}[${i}]: gpu ${g}, js ${r}`).toBeLessThanOrEqual(abs + rel * Math.abs(r));
  }
}

const shapeArb = fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 3 });
const valuesFor = (shape: number[], lo: number, hi: number) =>
  fc.array(fc.float({ min: Math.fround(lo), max: Math.fround(hi), noNaN: true, noDefaultInfinity: true }), { minLength: shape.reduce((a, b) => a * b, 1), maxLength: shape.reduce((a, b) => a * b, 1) });
const tensorArb = (lo: number, hi: number) => shapeArb.chain((shape) => valuesFor(shape, lo, hi).map((v) => rlx.tensor(Float32Array.from(v), { dtype: 'float32' }).reshape(shape)));

type Unary = [name: string, f: (t: Tensor) => Tensor, lo: number, hi: number, abs: number, rel: number];
const UNARY: Unary[] = [
  ['neg', (t) => t.neg(), -100, 100, 0, 0],
  ['abs', (t) => t.abs(), -100, 100, 0, 0],
  ['sign', (t) => t.sign(), -100, 100, 0, 0],
  ['floor', (t) => t.floor(), -100, 100, 0, 0],
  ['ceil', (t) => t.ceil(), -100, 100, 0, 0],
  ['round', (t) => t.round(), -100, 100, 0, 0],
  ['exp', (t) => t.exp(), -80, 80, 0, 1.5 * ULP], // rlx_exp (wgsl-special.ts), not WGSL's 3 + 2|x| ulp exp
  ['log1p', (t) => t.log1p(), -0.999, 1e3, 0, 2.5 * ULP],
  ['expm1', (t) => t.expm1(), -20, 20, 0, 2.5 * ULP],
  ['erf', (t) => t.erf(), -5, 5, 0, 2.5 * ULP],
  ['softplus', (t) => t.softplus(), -30, 30, 0, 3.5 * ULP],
  ['gelu', (t) => t.gelu(), -5, 5, 1e-37, 3.5 * ULP],
  ['log', (t) => t.log(), 1e-3, 1e3, 2 ** -21, 3 * ULP],
  ['sqrt', (t) => t.sqrt(), 0, 1e4, 0, 3 * ULP],
  ['rsqrt', (t) => t.rsqrt(), 1e-3, 1e4, 0, 3 * ULP],
  ['sin', (t) => t.sin(), -Math.PI, Math.PI, 2 ** -11, 0],
  ['cos', (t) => t.cos(), -Math.PI, Math.PI, 2 ** -11, 0],
  ['tan', (t) => t.tan(), -1.2, 1.2, 2 ** -10, 2 ** -10],
  ['tanh', (t) => t.tanh(), -10, 10, 1e-6, 1e-5],
  ['sinh', (t) => t.sinh(), -5, 5, 1e-6, 1e-5],
  ['cosh', (t) => t.cosh(), -5, 5, 1e-6, 1e-5],
  // WGSL allows atan/atan2 4096 ulp and derives asin/acos from them (llvmpipe: asin(-0.25) off by 1.4e-4 relative).
  ['asin', (t) => t.asin(), -1, 1, 1e-6, 4096 * ULP],
  ['acos', (t) => t.acos(), -1, 1, 1e-6, 4096 * ULP],
  ['atan', (t) => t.atan(), -100, 100, 1e-6, 4096 * ULP],
  ['sigmoid', (t) => t.sigmoid(), -30, 30, 0, 3.5 * ULP], // two roundings of rlx_exp and a division
  ['square', (t) => t.square(), -100, 100, 0, 0],
  ['logicalNot→f32', (t) => t.logicalNot().cast('float32'), -2, 2, 0, 0],
];

type Binary = [name: string, f: (a: Tensor, b: Tensor) => Tensor, abs: number, rel: number];
const BINARY: Binary[] = [
  ['add', (a, b) => a.add(b), 0, 0],
  ['sub', (a, b) => a.sub(b), 0, 0],
  ['mul', (a, b) => a.mul(b), 0, 0],
  ['div', (a, b) => a.div(b.abs().add(0.5)), 0, 2.5 * ULP],
  ['pow', (a, b) => a.abs().add(0.1).pow(b.mul(0.1)), 0, 2.5 * ULP],
  ['maximum', (a, b) => a.maximum(b), 0, 0],
  ['minimum', (a, b) => a.minimum(b), 0, 0],
  ['atan2', (a, b) => a.atan2(b), 1e-6, 4096 * ULP],
  ['where(lt)', (a, b) => rlx.where(a.lt(b), a, b.mul(2)), 0, 0],
  ['eq/ne/le/ge → f32', (a, b) => a.eq(b).cast('float32').add(a.ne(b).cast('float32').mul(2)).add(a.le(b).cast('float32').mul(4)).add(a.ge(b).cast('float32').mul(8)), 0, 0],
  ['logicalAnd/Or → f32', (a, b) => a.gt(0).logicalAnd(b.gt(0)).cast('float32').add(a.gt(0).logicalOr(b.lt(0)).cast('float32').mul(2)), 0, 0],
];

describe.runIf(status.available)('webgpu parity with js (fast-check)', () => {
  for (const [name, f, lo, hi, abs, rel] of UNARY) {
    it(`unary ${name}`, () => {
      fc.assert(
        fc.property(tensorArb(lo, hi), (t) => {
          close(f(t.on('webgpu')).toArray() as Float32Array, f(t.on('js')).toArray() as Float32Array, abs, rel, name);
        }),
        RUNS,
      );
    });
  }

  for (const [name, f, abs, rel] of BINARY) {
    it(`binary ${name}, broadcasting a trailing slice of the shape`, () => {
      fc.assert(
        fc.property(
          shapeArb.chain((shape) => fc.tuple(fc.constant(shape), valuesFor(shape, -50, 50), fc.integer({ min: 0, max: shape.length }))),
          ([shape, va, cut]) => {
            const a = rlx.tensor(Float32Array.from(va), { dtype: 'float32' }).reshape(shape);
            const bShape = shape.slice(cut);
            const b = rlx.tensor(Float32Array.from({ length: bShape.reduce((x, y) => x * y, 1) }, (_, i) => va[(i * 7) % va.length]! * 0.5 + (i % 3) - 1), { dtype: 'float32' }).reshape(bShape);
            close(f(a.on('webgpu'), b.on('webgpu')).toArray() as Float32Array, f(a.on('js'), b.on('js')).toArray() as Float32Array, abs, rel, name);
          },
        ),
        RUNS,
      );
    });
  }

  it('atan2 at signed zeros follows C and NumPy (WGSL leaves it undefined)', () => {
    const y = rlx.tensor(Float32Array.of(0, -0, 0, -0, 1, -1), { dtype: 'float32' });
    const x = rlx.tensor(Float32Array.of(0, 0, -0, -0, 0, -0), { dtype: 'float32' });
    const g = y.on('webgpu').atan2(x.on('webgpu')).toArray() as Float32Array;
    expect([...g]).toEqual([...(y.on('js').atan2(x.on('js')).toArray() as Float32Array)]);
    expect(Object.is(g[1], -0) && Object.is(g[0], 0)).toBe(true);
  });

  it('int32 arithmetic, min/max and casts to and from float32', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { minLength: 1, maxLength: 200 }), (v) => {
        const x = rlx.tensor(Int32Array.from(v), { dtype: 'int32' });
        const f = (t: Tensor) => t.mul(t).sub(t.mul(3)).add(7).maximum(t.neg()).minimum(t.abs()).add(t.cast('float32').mul(0.5).cast('int32'));
        expect(f(x.on('webgpu')).toArray()).toEqual(f(x.on('js')).toArray());
      }),
      RUNS,
    );
  });

  it('reductions over random axes (sum, prod, max, min, argmax, argmin, mean)', () => {
    fc.assert(
      fc.property(
        tensorArb(-2, 2).chain((t) => fc.tuple(fc.constant(t), fc.subarray([...t.shape.keys()], { minLength: 1 }), fc.constantFrom('sum', 'prod', 'max', 'min', 'argmax', 'argmin', 'mean'))),
        ([t, axes, op]) => {
          const arg = op === 'argmax' || op === 'argmin';
          const ax = arg ? axes[0]! : axes;
          const f = (d: string): Tensor => (t.on(d) as unknown as Record<string, (a: unknown) => Tensor>)[op]!(ax);
          const g = f('webgpu').toArray(),
            j = f('js').toArray();
          if (op === 'max' || op === 'min' || arg) expect(g).toEqual(j);
          else {
            // f32 accumulation (GPU) vs float64 (js): within n·ε of the sum (product) of magnitudes.
            const n = axes.reduce((a, i) => a * t.shape[i]!, 1);
            const mag = (op === 'prod' ? t.on('js').abs().prod(axes) : t.on('js').abs().sum(axes)).toArray() as Float32Array;
            const scale = op === 'mean' ? 1 / n : 1;
            for (let i = 0; i < j.length; i++) expect(Math.abs(g[i]! - j[i]!)).toBeLessThanOrEqual(2 * n * ULP * mag[i]! * scale + 1e-30);
          }
        },
      ),
      RUNS,
    );
  });

  it('matmul over random shapes and broadcast batches', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 40 }), fc.boolean(), (batch, m, k, n, transposeB) => {
        const a = rlx.tensor(Float32Array.from({ length: batch * m * k }, (_, i) => Math.sin(i * 0.37 + m)), { dtype: 'float32' }).reshape([batch, m, k]);
        const bBase = rlx.tensor(Float32Array.from({ length: k * n }, (_, i) => Math.cos(i * 0.29 + n)), { dtype: 'float32' });
        const b = transposeB ? bBase.reshape([n, k]).transpose() : bBase.reshape([k, n]);
        const g = a.on('webgpu').matmul(b.on('webgpu')).toArray() as Float32Array;
        const j = a.on('js').matmul(b.on('js')).toArray() as Float32Array;
        const mag = a.on('js').abs().matmul(b.on('js').abs()).toArray() as Float32Array;
        for (let i = 0; i < j.length; i++) expect(Math.abs(g[i]! - j[i]!)).toBeLessThanOrEqual(2 * k * ULP * mag[i]! + 1e-30);
      }),
      RUNS,
    );
  });

  it('views folded into loads: permutations, strided slices, flips and expands', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 9 }), fc.integer({ min: 2, max: 9 }), fc.integer({ min: 1, max: 3 }), (r, c, step) => {
        const x = rlx.tensor(Float32Array.from({ length: r * c * 2 }, (_, i) => i * 0.25 - 3), { dtype: 'float32' }).reshape([r, c, 2]);
        const f = (d: string) => {
          const t = x.on(d);
          return t.transpose([2, 0, 1]).slice(rlx.s(rlx.ax(), rlx.rg(null, null, step))).mul(t.sum(2).reshape([1, r, c]).slice(rlx.s(rlx.ax(), rlx.rg(null, null, step))).flip(2)).add(t.slice(rlx.s(rlx.rg(0, 1))).reshape([1, 1, c * 2]).slice(rlx.s(rlx.ax(), rlx.ax(), rlx.rg(0, c))));
        };
        expect(f('webgpu').toArray()).toEqual(f('js').toArray());
      }),
      RUNS,
    );
  });
});
