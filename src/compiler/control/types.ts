// The types of the control-flow signatures (scan, forLoop, whileLoop, cond):
// the carry's structure is inferred from `init` alone, so a body written as a
// bare lambda gets a typed carry and a body returning another structure is a
// compile error (issue 14 §5). Types only; nothing here exists at run time.

import type { Tensor } from '../../tensor/tensor.js';
import type { TensorTree } from '../transforms/pytree.js';

/**
 * A pytree as a call site writes it. The same values as PyTree; the extra
 * `readonly []` member makes TypeScript infer array literals (at any depth) as
 * tuples: init `[q, p]` is a `[Tensor, Tensor]` carry, not a `Tensor[]`.
 */
export type Tree = Tensor | number | boolean | null | undefined | string | readonly [] | readonly Tree[] | { readonly [k: string]: Tree };

/**
 * T, but not a place to infer T from (TypeScript 5.4's NoInfer, spelled so 5.0
 * accepts it): a body's parameters and results must follow `init`, never widen
 * the carry's type to whatever the body returns.
 */
export type NotInferred<T> = [T][T extends unknown ? 0 : never];

/**
 * The carry as the body sees it and must return it: init's structure with
 * numbers and booleans turned into tensors (shapes and dtypes are checked when
 * the body is traced).
 */
export type CarryOf<C> = TensorTree<NotInferred<C>>;

/**
 * The slice of xs one scan step receives: null when there are no xs. (xs with
 * no tensor leaves at all, `[]` or `{}`, also give null at run time; the type
 * says `[]` / `{}` there.)
 */
export type SliceOf<X> = [X] extends [null | undefined] ? null : TensorTree<NotInferred<X>>;
