// JVP and VJP rules of the elementwise primitives, on float64 and complex128:
// every JVP against a central finite difference along a random direction (real,
// imaginary and mixed directions for complex inputs), and every VJP against its
// JVP through the dot-product identity Re<u, J v> = Re<Jᵀ u, v>. Tolerances are
// explained in ad-harness.ts. Domains avoid kinks, poles and branch cuts by a
// margin much larger than h = 1e-6.

import { describe, it } from 'vitest';
import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import { bind } from '../../src/compiler/primitives.js';
import { DEVICES } from '../harness/devices.js';
import { checkCase, type AdCase, type InSpec } from './ad-harness.js';

const S = [2, 3];
const away = (lo: number, hi: number) => (r: () => number) => (r() < 0.5 ? -1 : 1) * (lo + (hi - lo) * r());
const re = (lo: number, hi: number, shape = S): InSpec => ({ shape, lo, hi });
const cx = (lo: number, hi: number, shape = S): InSpec => ({ shape, lo, hi, dtype: 'complex128' });
/** Complex values with real part in [rlo, rhi] and imaginary part in [ilo, ihi]. */
const cxBox = (rlo: number, rhi: number, ilo: number, ihi: number, shape = S): InSpec => {
  let k = 0;
  return { shape, dtype: 'complex128', sample: (r) => (k++ % 2 === 0 ? rlo + (rhi - rlo) * r() : ilo + (ihi - ilo) * r()) };
};
const prim = (op: Parameters<typeof bind>[0], ...xs: Tensor[]) => new rlx.Tensor(bind(op, xs.map((x) => x.node)));

const REAL_UNARY: AdCase[] = [
  { name: 'neg', specs: [re(-2, 2)], f: (x) => x.neg() },
  { name: 'abs', specs: [{ shape: S, sample: away(0.1, 2) }], f: (x) => x.abs() },
  { name: 'sign (zero derivative)', specs: [{ shape: S, sample: away(0.1, 2) }], f: (x) => x.sign().mul(x) },
  { name: 'exp', specs: [re(-2, 2)], f: (x) => x.exp() },
  { name: 'log', specs: [re(0.2, 3)], f: (x) => x.log() },
  { name: 'log1p', specs: [re(-0.7, 3)], f: (x) => x.log1p() },
  { name: 'expm1', specs: [re(-2, 2)], f: (x) => x.expm1() },
  { name: 'sqrt', specs: [re(0.2, 3)], f: (x) => x.sqrt() },
  { name: 'rsqrt', specs: [re(0.2, 3)], f: (x) => x.rsqrt() },
  { name: 'sin', specs: [re(-3, 3)], f: (x) => x.sin() },
  { name: 'cos', specs: [re(-3, 3)], f: (x) => x.cos() },
  { name: 'tan', specs: [re(-1.2, 1.2)], f: (x) => x.tan() },
  { name: 'tanh', specs: [re(-2, 2)], f: (x) => x.tanh() },
  { name: 'sinh', specs: [re(-2, 2)], f: (x) => x.sinh() },
  { name: 'cosh', specs: [re(-2, 2)], f: (x) => x.cosh() },
  { name: 'asin', specs: [re(-0.9, 0.9)], f: (x) => x.asin() },
  { name: 'acos', specs: [re(-0.9, 0.9)], f: (x) => x.acos() },
  { name: 'atan', specs: [re(-3, 3)], f: (x) => x.atan() },
  { name: 'floor (zero derivative)', specs: [re(-3, 3)], f: (x) => x.floor().mul(x) },
  { name: 'ceil (zero derivative)', specs: [re(-3, 3)], f: (x) => x.ceil().mul(x) },
  { name: 'round (zero derivative)', specs: [re(-3, 3)], f: (x) => x.round().mul(x) },
  { name: 'erf', specs: [re(-2.5, 2.5)], f: (x) => x.erf() },
  { name: 'sigmoid', specs: [re(-6, 6)], f: (x) => x.sigmoid() },
  { name: 'softplus', specs: [re(-6, 6)], f: (x) => x.softplus() },
  { name: 'gelu', specs: [re(-4, 4)], f: (x) => x.gelu() },
  { name: 'angle of real (zero derivative)', specs: [{ shape: S, sample: away(0.1, 2) }], f: (x) => x.angle().add(x) },
  // real/imag/conj of a real value are identities/zero in the Tensor API; the primitives via bind:
  { name: 'real/imag/conj primitives on float64', specs: [re(-2, 2)], f: (x) => prim('real', x).mul(prim('conj', x)).add(prim('imag', x)) },
  { name: 'logicalNot in a mask', specs: [re(-2, 2)], f: (x) => x.gt(0).logicalNot().cast('float64').mul(x.sin()) },
  { name: 'cast float64 -> complex128 -> float64', specs: [re(-2, 2)], f: (x) => x.cast('complex128').mul(x).real() },
];

const REAL_BINARY: AdCase[] = [
  { name: 'add (broadcast)', specs: [re(-2, 2, [2, 3]), re(-2, 2, [3])], f: (a, b) => a.add(b) },
  { name: 'sub (broadcast)', specs: [re(-2, 2, [2, 1]), re(-2, 2, [2, 3])], f: (a, b) => a.sub(b) },
  { name: 'mul', specs: [re(-2, 2), re(-2, 2)], f: (a, b) => a.mul(b) },
  { name: 'mul by itself', specs: [re(-2, 2)], f: (a) => a.mul(a) },
  { name: 'div', specs: [re(-2, 2), { shape: S, sample: away(0.3, 2) }], f: (a, b) => a.div(b) },
  { name: 'pow', specs: [re(0.3, 2), re(-2, 2)], f: (a, b) => a.pow(b) },
  { name: 'pow, integer exponent, negative base', specs: [{ shape: S, sample: away(0.3, 2) }], f: (a) => a.pow(3) },
  { name: 'maximum', specs: [re(-2, 2), re(-2, 2)], f: (a, b) => a.maximum(b) },
  { name: 'minimum', specs: [re(-2, 2), re(-2, 2)], f: (a, b) => a.minimum(b) },
  { name: 'atan2', specs: [{ shape: S, sample: away(0.2, 2) }, { shape: S, sample: away(0.2, 2) }], f: (a, b) => a.atan2(b) },
  { name: 'comparisons and logical ops in masks', specs: [re(-2, 2), re(-2, 2)], f: (a, b) => {
      const m = a.lt(b).logicalOr(a.ge(b.mul(2))).logicalAnd(a.ne(b)).logicalOr(a.eq(b)).logicalAnd(a.le(1)).logicalOr(a.gt(1.5));
      return rlx.where(m, a.mul(b), b.exp());
    } },
  { name: 'where', specs: [re(-2, 2), re(-2, 2)], f: (a, b) => rlx.where(a.gt(b), a.mul(b), a.sin()) },
  { name: 'where with a constant branch', specs: [re(-2, 2)], f: (a) => rlx.where(a.gt(0), a.exp(), 3) },
  { name: 'complex(a, b)', specs: [re(-2, 2), re(-2, 2)], f: (a, b) => rlx.complex(a, b).exp() },
  { name: 'complex(a, constant)', specs: [re(-2, 2)], f: (a) => rlx.complex(a, 0.5).mul(rlx.complex(1.5, a)) },
];

const CX_UNARY: AdCase[] = [
  { name: 'neg', specs: [cx(-2, 2)], f: (z) => z.neg() },
  { name: 'exp', specs: [cx(-2, 2)], f: (z) => z.exp() },
  { name: 'log', specs: [cxBox(0.2, 2, -2, 2)], f: (z) => z.log() },
  { name: 'log1p', specs: [cxBox(-0.5, 2, -2, 2)], f: (z) => z.log1p() },
  { name: 'expm1', specs: [cx(-2, 2)], f: (z) => z.expm1() },
  { name: 'sqrt', specs: [cxBox(0.2, 2, -2, 2)], f: (z) => z.sqrt() },
  { name: 'rsqrt', specs: [cxBox(0.2, 2, -2, 2)], f: (z) => z.rsqrt() },
  { name: 'sin', specs: [cx(-2, 2)], f: (z) => z.sin() },
  { name: 'cos', specs: [cx(-2, 2)], f: (z) => z.cos() },
  { name: 'tan', specs: [cx(-1, 1)], f: (z) => z.tan() },
  { name: 'tanh', specs: [cx(-1, 1)], f: (z) => z.tanh() },
  { name: 'sinh', specs: [cx(-2, 2)], f: (z) => z.sinh() },
  { name: 'cosh', specs: [cx(-2, 2)], f: (z) => z.cosh() },
  { name: 'asin', specs: [cx(-0.7, 0.7)], f: (z) => z.asin() },
  { name: 'acos', specs: [cx(-0.7, 0.7)], f: (z) => z.acos() },
  { name: 'atan', specs: [cx(-0.7, 0.7)], f: (z) => z.atan() },
  { name: 'sigmoid', specs: [cx(-1, 1)], f: (z) => z.sigmoid() },
  { name: 'abs', specs: [cxBox(0.2, 2, -2, 2)], f: (z) => z.abs() },
  { name: 'sign', specs: [cxBox(0.2, 2, -2, 2)], f: (z) => z.sign() },
  { name: 'angle', specs: [cxBox(0.2, 2, -2, 2)], f: (z) => z.angle() },
  { name: 'real', specs: [cx(-2, 2)], f: (z) => z.real() },
  { name: 'imag', specs: [cx(-2, 2)], f: (z) => z.imag() },
  { name: 'conj', specs: [cx(-2, 2)], f: (z) => z.conj() },
  { name: 'conj inside a product', specs: [cx(-2, 2)], f: (z) => z.conj().mul(z.sin()) },
  { name: 'cast complex128 -> float64 (real part)', specs: [cx(-2, 2)], f: (z) => z.mul(z).cast('float64') },
];

const CX_BINARY: AdCase[] = [
  { name: 'add', specs: [cx(-2, 2), cx(-2, 2, [3])], f: (a, b) => a.add(b) },
  { name: 'sub', specs: [cx(-2, 2), cx(-2, 2)], f: (a, b) => a.sub(b) },
  { name: 'mul', specs: [cx(-2, 2), cx(-2, 2)], f: (a, b) => a.mul(b) },
  { name: 'mul complex by real', specs: [cx(-2, 2), re(-2, 2)], f: (a, b) => a.mul(b) },
  { name: 'div', specs: [cx(-2, 2), cxBox(0.3, 2, -2, 2)], f: (a, b) => a.div(b) },
  { name: 'pow', specs: [cxBox(0.3, 2, -1, 1), cx(-1, 1)], f: (a, b) => a.pow(b) },
  { name: 'where', specs: [cx(-2, 2), cx(-2, 2), re(-1, 1)], f: (a, b, c) => rlx.where(c.gt(0), a.mul(b), b.exp()) },
  { name: 'eq/ne in masks', specs: [cx(-2, 2), cx(-2, 2)], f: (a, b) => rlx.where(a.eq(b).logicalOr(a.ne(b)), a.mul(b), b) },
];

const run = (cases: AdCase[], device: string, runs?: number) => {
  for (const c of cases) it(c.name, () => checkCase(c, device, runs));
};

describe.each(DEVICES)('real unary on %s: JVP vs finite differences, VJP vs JVP', (device) => run(REAL_UNARY, device));
describe.each(DEVICES)('real binary on %s: JVP vs finite differences, VJP vs JVP', (device) => run(REAL_BINARY, device));
describe.each(DEVICES)('complex unary on %s (real, imaginary and mixed directions)', (device) => run(CX_UNARY, device));
describe.each(DEVICES)('complex binary on %s (real, imaginary and mixed directions)', (device) => run(CX_BINARY, device));
