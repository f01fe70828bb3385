// Compile-only: the transforms' types (issue 14 §5). Each expectTrue<Equal<...>>
// states the type a call returns; each @ts-expect-error line is a wrong use the
// types reject (the file fails to compile if it is accepted). Never executed.

import { grad, valueAndGrad, vjp, jvp, hvp, vmap, jit, jacfwd, jacrev, hessian, tensor, Tensor } from '../../src/index.js';
import type { Jitted } from '../../src/index.js';
import { expectTrue, type Equal } from './assert.js';

const x = tensor([1, 2, 3]);
const y = tensor([4, 5, 6]);
const loss = (t: Tensor) => t.square().sum();

// grad of a Tensor -> scalar function: a Tensor.
const g = grad(loss)(x);
expectTrue<Equal<typeof g, Tensor>>();
g.add(1);
// @ts-expect-error the gradient is a Tensor, not an array
g.map((t: Tensor) => t);
// @ts-expect-error the argument must be what f takes
grad(loss)('x');
// @ts-expect-error f must return a Tensor (a scalar at run time)
grad((t: Tensor) => t.toArray())(x);

// argnums: a number picks that argument, a list gives a tuple in that order.
const two = (a: Tensor, b: { w: Tensor; bias: Tensor }) => a.mul(b.w).add(b.bias).sum();
const gb = grad(two, { argnums: 1 })(x, { w: y, bias: x });
expectTrue<Equal<typeof gb, { w: Tensor; bias: Tensor }>>();
const gab = grad(two, { argnums: [1, 0] })(x, { w: y, bias: x });
expectTrue<Equal<typeof gab, [{ w: Tensor; bias: Tensor }, Tensor]>>();
// @ts-expect-error the structure is kept: no 'b' key
gb.b;

// Pytrees: arrays, tuples and objects keep their structure; numbers become Tensors.
const tree = (p: { layers: [Tensor, Tensor][]; scale: number }) => p.layers[0]![0].mul(p.scale).sum();
const gt = grad(tree)({ layers: [[x, y]], scale: 2 });
expectTrue<Equal<typeof gt, { layers: [Tensor, Tensor][]; scale: Tensor }>>();

// hasAux: [gradient, aux].
const withAux = grad((t: Tensor) => [t.sum(), { n: 3, t }] as const, { hasAux: true })(x);
expectTrue<Equal<(typeof withAux)[0], Tensor>>();
expectTrue<Equal<(typeof withAux)[1], { readonly n: 3; readonly t: Tensor }>>();

// valueAndGrad: [f's value, gradient].
const [v, dv] = valueAndGrad(loss)(x);
expectTrue<Equal<typeof v, Tensor>>();
expectTrue<Equal<typeof dv, Tensor>>();

// vjp: cotangents per primal, with each primal's structure.
const [out, back] = vjp((a: Tensor, b: Tensor[]) => ({ s: a.add(b[0]!), p: a.mul(b[1]!) }), x, [x, y]);
expectTrue<Equal<typeof out, { s: Tensor; p: Tensor }>>();
const cts = back({ s: x, p: y });
expectTrue<Equal<typeof cts, [Tensor, Tensor[]]>>();
// @ts-expect-error the cotangent has the output's structure
back(x);

// jvp: tangents have the primals' structure; the derivative has the output's.
const [o2, t2] = jvp((a: Tensor) => [a.sin(), a.cos()] as [Tensor, Tensor], [x], [y]);
expectTrue<Equal<typeof o2, [Tensor, Tensor]>>();
expectTrue<Equal<typeof t2, [Tensor, Tensor]>>();
const h = hvp(loss, [x], [y]);
expectTrue<Equal<typeof h, Tensor>>();

// vmap keeps f's parameters and result type.
const vf = vmap((a: Tensor, b: { w: Tensor }) => [a.mul(b.w), a.sum()] as [Tensor, Tensor]);
expectTrue<Equal<Parameters<typeof vf>, [a: Tensor, b: { w: Tensor }]>>();
expectTrue<Equal<ReturnType<typeof vf>, [Tensor, Tensor]>>();
const perExample = vmap(grad(loss));
expectTrue<Equal<ReturnType<typeof perExample>, Tensor>>();
// @ts-expect-error the mapped function takes f's parameters
vf(x);

// jit keeps f's type (and counts compiles).
const jf = jit((a: Tensor, n: number) => a.mul(n));
expectTrue<Equal<ReturnType<typeof jf>, Tensor>>();
expectTrue<Equal<typeof jf.compiles, number>>();
const asJitted: Jitted<(a: Tensor, n: number) => Tensor> = jf;
void asJitted;
// @ts-expect-error the second argument is a number
jf(x, 'two');
const jg = jit(grad(loss));
expectTrue<Equal<ReturnType<typeof jg>, Tensor>>();

// Jacobians and Hessians: Tensors.
const J = jacfwd((a: Tensor) => a.sin())(x);
const Jr = jacrev((a: Tensor) => a.sin())(x);
const H = hessian(loss)(x);
expectTrue<Equal<typeof J | typeof Jr | typeof H, Tensor>>();
// @ts-expect-error jacfwd(f) takes f's parameters
jacfwd((a: Tensor) => a.sin())(1, 2);
