// VJP rules, one per primitive (reverse mode). See rule-types.ts.
//
// Complex convention (JAX's). A VJP rule is the transpose of the JVP rule under
// the bilinear pairing
//
//     <u, v> = Re(sum(u * v))          (no conjugation)
//
// i.e. for every tangent t and cotangent u:  <u, J t> = <Jᵀ u, t>. Consequences:
// - holomorphic ops (exp, log, sin, ..., mul, div, pow, matmul, sum, prod, ...):
//   the JVP is f'(z)·t and the VJP is ct·f'(z): no conjugation anywhere
//   (mul w.r.t. a: ct·b; matmul: ct @ bᵀ and aᵀ @ ct with plain transposes).
// - ops that conjugate or leave the complex plane are transposed exactly:
//   conj → conj(ct); real(z) → complex(ct, 0); imag(z) → complex(0, -ct) = -i·ct;
//   complex(a, b) → [real(ct), -imag(ct)]; abs(z) → ct·conj(z)/|z| (0 at z = 0);
//   angle(z) → ct·(-i·conj(z))/|z|² (0 at z = 0); sign(z) → i·conj(s)·Im(s·ct)/|z|.
//   cast real → complex: real(ct); complex → real: complex(ct, 0).
// - so for a real scalar f of complex z, grad f = ∂f/∂x - i ∂f/∂y, i.e. the
//   conjugate of the steepest-ascent direction: grad(|z|²)(3+4i) = 6-8i = 2·conj(z).
//   (Gradient descent on complex parameters steps along conj(grad).)
//
// Non-smooth points and ties (same as the JVP rules, see jvp.ts): abs'(0) = 0,
// maximum/minimum ties 0.5/0.5, max/min reductions share ct equally among ties,
// floor/ceil/round zero, comparisons/argmax/indices never get a cotangent (null).

import type { Tensor } from '../../../tensor/tensor.js';
import { isComplex, isInexact } from '../../../tensor/dtype.js';
import type { AdPrimitive, RulePrimitive, VjpRule } from '../rule-types.js';
import { BINARY_SCALE, UNARY_SCALE } from './ad-elementwise.js';
import { SCALED_BINARY, SCALED_UNARY, type ScaledBinary, type ScaledUnary } from './scaled-ops.js';
import { flipAxis, mT, mulI, prim, recipOrZero, reshapeTo, select, unreduce, zerosOf } from './ad-helpers.js';
import { unconcat, unexpand, unpad, unslice } from './ad-movement.js';
import { logsumexpWeights, maxMinWeights, prodPartials } from './ad-reduce.js';

const none: VjpRule = ({ inputs }) => inputs.map(() => null);

const scaled = (op: ScaledUnary): VjpRule => (c, g) => [UNARY_SCALE[op](c, g)];

const binaryRule = (op: ScaledBinary): VjpRule => (c, g) => {
  const [da, db] = BINARY_SCALE[op];
  return [da(c, g), db(c, g)];
};

/** { op: rule(op) } for every op of a list. */
const byOp = <K extends string>(ops: readonly K[], rule: (op: K) => VjpRule): Record<K, VjpRule> =>
  Object.fromEntries(ops.map((op) => [op, rule(op)])) as Record<K, VjpRule>;

const axesOf = (attrs: Readonly<Record<string, unknown>>) => attrs['axes'] as number[];

/** Reverse-mode rules: every primitive has one (the type makes a missing rule a compile error). */
export const VJP_RULES: { readonly [P in AdPrimitive]: VjpRule } = {
  // The unary and binary ops whose rule is a scale of the tangent (ad-elementwise.ts): one table serves
  // forward and reverse mode, so an op added there gets both rules.
  ...byOp(SCALED_UNARY, scaled),
  ...byOp(SCALED_BINARY, binaryRule),
  // ---- unary elementwise ----
  neg: (_c, g) => [g.neg()],
  // real: ct·sign(x); complex: ct·conj(z)/|z| = ct·conj(sign z).
  abs: ({ inputs: [x] }, g) => [isComplex(x!.dtype) ? x!.sign().conj().mul(g) : g.mul(x!.sign())],
  sign: ({ inputs: [x] }, g) => {
    if (!isComplex(x!.dtype)) return [null];
    const s = x!.sign();
    return [mulI(s.conj()).mul(s.mul(g).imag().mul(recipOrZero(x!.abs())))];
  },
  floor: none,
  ceil: none,
  round: none,
  real: ({ inputs: [x] }, g) => [g.cast(x!.dtype)],
  imag: ({ inputs: [x] }, g) => [isComplex(x!.dtype) ? prim('complex', [zerosOf(g.dtype, g.node.shape), g.neg()]) : null],
  conj: (_c, g) => [g.conj()],
  angle: ({ inputs: [x] }, g) => {
    if (!isComplex(x!.dtype)) return [null];
    const r = x!.abs();
    return [mulI(x!.conj()).neg().mul(g.mul(recipOrZero(r.mul(r))))];
  },
  logicalNot: none,
  cast: ({ inputs: [x] }, g) => [isInexact(x!.dtype) ? g.cast(x!.dtype) : null],

  // ---- binary elementwise ----
  eq: none,
  ne: none,
  lt: none,
  le: none,
  gt: none,
  ge: none,
  logicalAnd: none,
  logicalOr: none,
  complex: (_c, g) => [g.real(), g.imag().neg()],
  where: ({ inputs: [c] }, g) => [null, select(c!, g, 0), select(c!, 0, g)],

  // ---- reductions ----
  sum: ({ inputs: [x], attrs }, g) => [unreduce(g, axesOf(attrs), x!.node.shape)],
  prod: (c, g) => [unreduce(g, axesOf(c.attrs), c.inputs[0]!.node.shape).mul(prodPartials(c))],
  max: (c, g) => [maxMinCotangent(c, g)],
  min: (c, g) => [maxMinCotangent(c, g)],
  argmax: none,
  argmin: none,
  logsumexp: (c, g) => [unreduce(g, axesOf(c.attrs), c.inputs[0]!.node.shape).mul(logsumexpWeights(c))],

  // ---- movement ----
  reshape: ({ inputs: [x] }, g) => [reshapeTo(g, x!.node.shape)],
  permute: ({ attrs }, g) => {
    const perm = attrs['perm'] as number[];
    const inv = perm.map((_, i) => perm.indexOf(i));
    return [prim('permute', [g], { perm: inv })];
  },
  expand: ({ inputs: [x] }, g) => [unexpand(g, x!.node.shape)],
  slice: ({ inputs: [x], attrs }, g) => [unslice(g, x!.node.shape, attrs)],

  // ---- opaque ----
  matmul: ({ inputs: [a, b] }, g) => [prim('matmul', [g, mT(b!)]), prim('matmul', [mT(a!), g])],
  cumsum: ({ attrs }, g) => [reverseCumsum(g, attrs['axis'] as number)],
  gather: ({ inputs: [x, idx], attrs }, g) => [prim('scatterAdd', [zerosOf(x!.dtype, x!.node.shape), idx!, g], attrs), null],
  scatterAdd: ({ inputs: [, idx], attrs }, g) => [g, null, prim('gather', [g, idx!], attrs)],
  concat: ({ inputs, attrs }, g) => unconcat(g, inputs.map((x) => x.node.shape), attrs['axis'] as number),
  pad: ({ inputs: [x], attrs }, g) => [unpad(g, x!.node.shape, attrs['widths'] as [number, number][])],
};

function maxMinCotangent(c: Parameters<VjpRule>[0], g: Tensor): Tensor {
  const { mask, count } = maxMinWeights(c);
  return unreduce(g.div(count), axesOf(c.attrs), c.inputs[0]!.node.shape).mul(mask);
}

/** Σ_{j ≥ i} g_j along axis: flip, cumsum, flip (a dynamic axis uses total - cumsum + g instead). */
function reverseCumsum(g: Tensor, axis: number): Tensor {
  if (typeof g.node.shape[axis] !== 'number') {
    const total = unreduce(prim('sum', [g], { axes: [axis] }), [axis], g.node.shape);
    return total.sub(prim('cumsum', [g], { axis })).add(g);
  }
  return flipAxis(prim('cumsum', [flipAxis(g, axis)], { axis }), axis);
}
