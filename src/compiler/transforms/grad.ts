// grad, valueAndGrad, vjp, jvp, hvp and the tensor-level loss.grad([...]).
//
// Each differentiated argument is wrapped in a fresh tracked identity node, so
// only its uses inside f count (a closure over the same tensor is a constant, as
// in JAX) and realizing inside f keeps the history autodiff needs.

import { Tensor , setTensorGrad } from '../../tensor/tensor.js';
import { TransformError } from '../../tensor/errors.js';
import { fmtShape } from '../../tensor/shape.js';
import { isComplex } from '../../tensor/dtype.js';
import { bind } from '../primitives.js';
import { realizeTogether } from '../realize-groups.js';
import { flatten, unflatten, type PyTree, type TensorTree, type TensorTreeLike } from './pytree.js';
import { forwardMode, reverseMode, requireDifferentiable } from './autodiff.js';
import { constNode } from '../primitives.js';
import type { Node } from '../ir.js';

/** A literal like t (same shape, dtype and device). */
function literalLike(t: Tensor, v: number): Tensor {
  const n = constNode(v, t.dtype, t.node.shape);
  n.device = t.node.device;
  return new Tensor(n);
}
const zerosLike = (t: Tensor) => literalLike(t, 0);
const onesLike = (t: Tensor) => literalLike(t, 1);

/** A fresh tracked identity over t: the point derivatives are taken at. */
export function wrap(t: Tensor): Tensor {
  const n = bind('reshape', [t.node], { shape: [...t.node.shape] });
  n.tracked = true;
  return new Tensor(n);
}

type Fn = (...args: any[]) => PyTree;
/** A function to differentiate: a real scalar Tensor out (or [value, aux] with hasAux). */
type ScalarFn = (...args: any[]) => Tensor;
type AuxFn = (...args: any[]) => readonly [Tensor, PyTree];

/**
 * The gradient's type for argnums N of F: the differentiated argument's
 * structure with Tensor leaves (N a number), or a tuple of those (N a list).
 */
export type GradOf<F extends (...args: any[]) => unknown, N> = N extends number
  ? TensorTree<Parameters<F>[N]>
  : N extends readonly number[]
    ? { -readonly [K in keyof N]: TensorTree<Parameters<F>[N[K] & number]> }
    : never;
/** The argnums option: one argument index or a list of them (typed as a literal so the gradient's type can follow it). */
type Argnums = number | readonly number[];

export interface GradOptions {
  /** Which positional arguments to differentiate (default 0). */
  argnums?: number | readonly number[];
  /** f returns [value, aux]; aux is passed through undifferentiated. */
  hasAux?: boolean;
}

function argnumList(argnums: number | readonly number[] | undefined, n: number, what: string): readonly number[] {
  const list = argnums === undefined ? [0] : typeof argnums === 'number' ? [argnums] : argnums;
  for (const a of list) if (!Number.isInteger(a) || a < 0 || a >= n) throw new TransformError(`${what}: argnums ${JSON.stringify(argnums)} out of range for ${n} argument(s)`);
  return list;
}

/** Calls f with the chosen arguments' tensor leaves wrapped; returns wrapped leaves per argnum. */
function traceWith(f: Fn, args: readonly unknown[], nums: readonly number[]) {
  const wrapped: { leaves: Tensor[]; def: ReturnType<typeof flatten>['def'] }[] = [];
  const callArgs = [...args];
  for (const a of nums) {
    const { leaves, def } = flatten(args[a] as PyTree);
    const w = leaves.map(wrap);
    wrapped.push({ leaves: w, def });
    callArgs[a] = unflatten(def, w);
  }
  return { out: f(...callArgs), wrapped };
}

function scalarOut(what: string, out: PyTree): Tensor {
  if (!(out instanceof Tensor)) throw new TransformError(`${what}: f must return a scalar tensor (got ${Array.isArray(out) ? 'an array' : typeof out}); use vjp for other outputs`);
  if (out.node.shape.length !== 0) throw new TransformError(`${what}: f must return a scalar, got shape ${fmtShape(out.node.shape)}; use vjp with a cotangent for non-scalar outputs`);
  if (isComplex(out.dtype)) throw new TransformError(`${what}: f returns ${out.dtype}; grad needs a real scalar (use vjp for complex outputs)`);
  requireDifferentiable(`${what}: output`, [out.node]);
  return out;
}

/**
 * valueAndGrad(f)(...args) → [f(...args), gradient(s) shaped like the argnums
 * arguments]. Typed: the value is f's result, the gradient has the structure of
 * the differentiated argument (a tuple of them for a list of argnums). Like
 * JAX's, it computes both: realizing the value or any gradient computes the
 * value and every gradient in one graph (the forward's intermediates stay
 * inside it).
 * @example
 * ```ts
 * const [v, g] = valueAndGrad((x: Tensor) => x.mul(x).sum())(tensor([1, 2, 3]));
 * v.item();     // 14
 * g.tolist();   // [2, 4, 6]
 * ```
 */
export function valueAndGrad<F extends ScalarFn, const N extends Argnums = 0>(f: F, opts?: { argnums?: N; hasAux?: false }): (...args: Parameters<F>) => [ReturnType<F>, GradOf<F, N>];
export function valueAndGrad<F extends AuxFn, const N extends Argnums = 0>(f: F, opts: { argnums?: N; hasAux: true }): (...args: Parameters<F>) => [ReturnType<F>, GradOf<F, N>];
/** Untyped form (f returning a PyTree, or options known only at run time). */
export function valueAndGrad(f: Fn, opts?: GradOptions): (...args: any[]) => [PyTree, PyTree];
export function valueAndGrad(f: Fn, opts: GradOptions = {}) {
  return (...args: unknown[]): [PyTree, PyTree] => {
    const nums = argnumList(opts.argnums, args.length, 'grad');
    const { out, wrapped } = traceWith(f, args, nums);
    let value: PyTree = out,
      aux: PyTree = undefined;
    if (opts.hasAux) {
      if (!Array.isArray(out) || out.length !== 2) throw new TransformError('grad: with hasAux, f must return [value, aux]');
      [value, aux] = out as [PyTree, PyTree];
    }
    const y = scalarOut('grad', value);
    const allLeaves = wrapped.flatMap((w) => w.leaves);
    requireDifferentiable('grad: input', allLeaves.map((l) => l.node));
    const returned = opts.hasAux ? returnedNodes(y, aux) : [y.node];
    const cts = reverseMode([y.node], [onesLike(y)], allLeaves.map((l) => l.node), returned);
    let k = 0;
    const leaves = wrapped.map((w) => w.leaves.map((l) => cts[k++] ?? zerosLike(l)));
    // Computed together when one is realized (realize-groups.ts): one graph shares the forward's intermediates.
    realizeTogether([y.node, ...leaves.flat().map((t) => t.node)]);
    const grads = wrapped.map((w, i) => unflatten(w.def, leaves[i]!));
    const g = typeof opts.argnums === 'object' ? grads : grads[0]!;
    return [opts.hasAux ? [value, aux] : value, g];
  };
}

/**
 * grad(f, {argnums}): the gradient of a real scalar function (JAX's convention
 * for complex inputs: see ARCHITECTURE.md). Typed: grad(f)(x) has x's type with
 * Tensor leaves (a Tensor for a Tensor x; [Tensor, Tensor] for argnums [0, 1];
 * with hasAux, [gradient, aux]).
 * @example
 * ```ts
 * const f = (x: Tensor) => x.mul(x).sum();
 * grad(f)(tensor([1, 2, 3])).tolist();   // [2, 4, 6]
 * ```
 */
export function grad<F extends ScalarFn, const N extends Argnums = 0>(f: F, opts?: { argnums?: N; hasAux?: false }): (...args: Parameters<F>) => GradOf<F, N>;
export function grad<F extends AuxFn, const N extends Argnums = 0>(f: F, opts: { argnums?: N; hasAux: true }): (...args: Parameters<F>) => [GradOf<F, N>, ReturnType<F>[1]];
/** Untyped form (f returning a PyTree, or options known only at run time). */
export function grad(f: Fn, opts?: GradOptions): (...args: any[]) => PyTree;
export function grad(f: Fn, opts: GradOptions = {}) {
  const vg = valueAndGrad(f, opts);
  return (...args: unknown[]): PyTree => {
    const [v, g] = vg(...args);
    return opts.hasAux ? [g, (v as PyTree[])[1]!] : g;
  };
}

/** The nodes of value and aux (undefined when aux is not a pytree of tensors: then no output counts as an intermediate). */
function returnedNodes(value: Tensor, aux: PyTree): Node[] | undefined {
  try {
    return [value.node, ...flatten(aux).leaves.map((t) => t.node)];
  } catch {
    return undefined;
  }
}

/**
 * vjp(f, ...primals) → [f(...primals), ct => cotangents for every primal].
 * Typed: ct has the output's structure; the cotangents are a tuple with one
 * entry per primal, each of that primal's structure with Tensor leaves.
 * @example
 * ```ts
 * const [y, back] = vjp((x: Tensor) => x.mul(x), tensor([1, 2, 3]));
 * y.tolist();                            // [1, 4, 9]
 * back(tensor([1, 1, 1]))[0].tolist();   // [2, 4, 6]  (2x · ct)
 * ```
 */
export function vjp<F extends Fn>(f: F, ...primals: Parameters<F>): [ReturnType<F>, (ct: TensorTreeLike<ReturnType<F>>) => TensorTree<Parameters<F>>];
/** Untyped form (primals that do not match f's parameters, e.g. extra ones). */
export function vjp(f: Fn, ...primals: unknown[]): [PyTree, (ct: PyTree) => PyTree[]];
export function vjp(f: Fn, ...primals: unknown[]): [PyTree, (ct: PyTree) => PyTree[]] {
  const nums = primals.map((_, i) => i);
  const { out, wrapped } = traceWith(f, primals, nums);
  const { leaves: outs, def: outDef } = flatten(out);
  const inLeaves = wrapped.flatMap((w) => w.leaves);
  const fn = (ct: PyTree): PyTree[] => {
    const { leaves: cts, def } = flatten(ct);
    if (cts.length !== outs.length) throw new TransformError(`vjp: cotangent has ${cts.length} leaves, the output has ${outs.length}`);
    void def;
    cts.forEach((c, i) => {
      if (c.node.shape.join() !== outs[i]!.node.shape.join()) throw new TransformError(`vjp: cotangent ${i} has shape ${fmtShape(c.node.shape)}, output has ${fmtShape(outs[i]!.node.shape)}`);
    });
    const r = reverseMode(outs.map((o) => o.node), cts.map((c, i) => c.cast(outs[i]!.dtype)), inLeaves.map((l) => l.node), outs.map((o) => o.node));
    let k = 0;
    return wrapped.map((w) => unflatten(w.def, w.leaves.map((l) => r[k++] ?? zerosLike(l))));
  };
  void outDef;
  return [out, fn];
}

/**
 * jvp(f, primals, tangents) → [f(...primals), directional derivative]. Typed:
 * tangents have the primals' structure; the derivative has the output's.
 * @example
 * ```ts
 * const [y, dy] = jvp((x: Tensor) => x.sin(), [tensor(0)], [tensor(2)]);
 * [y.item(), dy.item()];   // [0, 2]  (sin 0, and cos 0 · 2)
 * ```
 */
export function jvp<F extends Fn>(f: F, primals: Parameters<F>, tangents: TensorTreeLike<Parameters<F>>): [ReturnType<F>, TensorTree<ReturnType<F>>];
/** Untyped form (primals that do not match f's parameters, e.g. extra ones). */
export function jvp(f: Fn, primals: readonly unknown[], tangents: readonly unknown[]): [PyTree, PyTree];
export function jvp(f: Fn, primals: readonly unknown[], tangents: readonly unknown[]): [PyTree, PyTree] {
  if (primals.length !== tangents.length) throw new TransformError(`jvp: ${primals.length} primals but ${tangents.length} tangents`);
  const nums = primals.map((_, i) => i);
  const { out, wrapped } = traceWith(f, primals, nums);
  const tl = tangents.flatMap((t) => flatten(t as PyTree).leaves);
  const inLeaves = wrapped.flatMap((w) => w.leaves);
  if (tl.length !== inLeaves.length) throw new TransformError(`jvp: tangents have ${tl.length} leaves, primals ${inLeaves.length}`);
  requireDifferentiable('jvp: input', inLeaves.map((l) => l.node));
  tl.forEach((t, i) => {
    if (t.node.shape.join() !== inLeaves[i]!.node.shape.join()) throw new TransformError(`jvp: tangent ${i} has shape ${fmtShape(t.node.shape)}, primal has ${fmtShape(inLeaves[i]!.node.shape)}`);
  });
  const { leaves: outs, def } = flatten(out);
  const ts = forwardMode(outs.map((o) => o.node), inLeaves.map((l) => l.node), tl.map((t, i) => t.cast(inLeaves[i]!.dtype)));
  return [out, unflatten(def, outs.map((o, i) => ts[i] ?? zerosLike(o)))];
}

/**
 * Hessian-vector product: the JVP of grad(f) along `vectors`. Typed: one
 * primal gives its structure with Tensor leaves, several a tuple of them.
 * @example
 * ```ts
 * // f(x) = (Σx)² + Σx³ has the Hessian 2·11ᵀ + diag(6x)
 * const f = (x: Tensor) => x.sum().square().add(x.pow(3).sum());
 * hvp(f, [tensor([1, 2])], [tensor([1, 0])]).tolist();   // [8, 2]
 * ```
 */
export function hvp<F extends ScalarFn>(f: F, primals: Parameters<F>, vectors: TensorTreeLike<Parameters<F>>): Parameters<F> extends readonly [infer A] ? TensorTree<A> : TensorTree<Parameters<F>>;
export function hvp(f: Fn, primals: unknown[], vectors: unknown[]): PyTree {
  const g = grad(f, { argnums: primals.map((_, i) => i) });
  const [, t] = jvp((...a: unknown[]) => g(...a), primals, vectors as PyTree[]);
  return primals.length === 1 ? (t as PyTree[])[0]! : t;
}

/** Gradients of a scalar tensor with respect to the given tensors (lazy graph or tracked history). */
export function tensorGrad(loss: Tensor, wrt: readonly Tensor[]): Tensor[] {
  const y = scalarOut('grad', loss);
  requireDifferentiable('grad: input', wrt.map((t) => t.node));
  const cts = reverseMode([y.node], [onesLike(y)], wrt.map((t) => t.node));
  return wrt.map((t, i) => cts[i] ?? zerosLike(t));
}

// Tensor.grad (tensor.ts, a layer below) runs tensorGrad.
setTensorGrad(tensorGrad);
