// Jacobians and Hessians as vmaps of jvp (forward) or vjp (reverse) over a basis.

import { Tensor } from '../../tensor/tensor.js';
import { TransformError } from '../../tensor/errors.js';
import { eye } from '../../tensor/create.js';
import { isStatic } from '../../tensor/shape.js';
import type { PyTree } from './pytree.js';
import { jvp, vjp } from './grad.js';
import { vmap } from './vmap.js';

type Fn = (...args: any[]) => PyTree;

function single(what: string, t: unknown): Tensor {
  if (!(t instanceof Tensor)) throw new TransformError(`${what}: supports functions of one tensor returning one tensor (use vmap of jvp/vjp for pytrees)`);
  if (!isStatic(t.node.shape)) throw new TransformError(`${what}: needs static shapes`);
  return t;
}

function basis(shape: number[], dtype: Tensor['dtype']): Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  return eye(n, n, { dtype }).reshape([n, ...shape]);
}

/**
 * jacfwd(f)(x): d f(x) / d x with shape [...out, ...in], one JVP per input element (batched).
 * @example
 * ```ts
 * // f(x) = x · Σx: J[i][j] = δij Σx + x[i]
 * jacfwd((x: Tensor) => x.mul(x.sum()))(tensor([1, 2])).tolist();   // [[4, 1], [2, 5]]
 * ```
 */
export function jacfwd<F extends Fn>(f: F, opts?: { argnums?: number }): (...args: Parameters<F>) => Tensor;
export function jacfwd(f: Fn, opts: { argnums?: number } = {}) {
  const k = opts.argnums ?? 0;
  return (...args: unknown[]): Tensor => {
    const x = single('jacfwd', args[k]);
    const g = (v: Tensor) => single('jacfwd', jvp((xi: Tensor) => f(...args.map((a, i) => (i === k ? xi : a))), [x], [v])[1]);
    const J = vmap(g)(basis(x.shape, x.dtype)) as Tensor; // [n_in, ...out]
    const outRank = J.ndim - 1;
    return J.reshape([...x.shape, ...J.shape.slice(1)]).transpose([...Array(outRank).keys()].map((i) => i + x.ndim).concat([...Array(x.ndim).keys()]));
  };
}

/**
 * jacrev(f)(x): d f(x) / d x with shape [...out, ...in], one VJP per output element (batched).
 * @example
 * ```ts
 * const A = tensor([[1, 2], [3, 4], [5, 6]]);
 * jacrev((x: Tensor) => matmul(A, x))(tensor([0, 0])).tolist();   // [[1, 2], [3, 4], [5, 6]]  (the Jacobian of Ax is A)
 * ```
 */
export function jacrev<F extends Fn>(f: F, opts?: { argnums?: number }): (...args: Parameters<F>) => Tensor;
export function jacrev(f: Fn, opts: { argnums?: number } = {}) {
  const k = opts.argnums ?? 0;
  return (...args: unknown[]): Tensor => {
    const x = single('jacrev', args[k]);
    const [y, back] = vjp((xi: Tensor) => f(...args.map((a, i) => (i === k ? xi : a))), x);
    const yt = single('jacrev', y);
    const J = vmap((u: Tensor) => back(u)[0]!)(basis(yt.shape, yt.dtype)) as Tensor; // [n_out, ...in]
    return J.reshape([...yt.shape, ...x.shape]);
  };
}

/**
 * hessian(f)(x) = jacfwd(jacrev(f))(x) for scalar f.
 * @example
 * ```ts
 * // f(x) = (Σx)² + Σx³ has the Hessian 2·11ᵀ + diag(6x)
 * hessian((x: Tensor) => x.sum().square().add(x.pow(3).sum()))(tensor([1, 2])).tolist();   // [[8, 2], [2, 14]]
 * ```
 */
export function hessian<F extends Fn>(f: F, opts?: { argnums?: number }): (...args: Parameters<F>) => Tensor;
export function hessian(f: Fn, opts: { argnums?: number } = {}) {
  return jacfwd(jacrev(f, opts), opts);
}
