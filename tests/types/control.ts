// Compile-only: the control-flow signatures' types (issue 14 §5). The carry's
// structure comes from init (array literals are tuples), the body is checked
// against it, and the results keep it. Each @ts-expect-error line is a wrong
// use the types reject. Never executed.

import { scan, forLoop, whileLoop, cond, tensor, Tensor } from '../../src/index.js';
import type { PyTree } from '../../src/index.js';
import { expectTrue, type Equal } from './assert.js';

const x = tensor([1, 2, 3]);
const q0 = tensor(1);

// scan: the carry from init, x a slice of xs, ys the body's y structure; no annotations.
const [c1, ys1] = scan((c, xi) => [c.add(xi), { sq: xi.square(), n: 2 }], tensor(0), x);
expectTrue<Equal<typeof c1, Tensor>>();
expectTrue<Equal<typeof ys1, { sq: Tensor; n: Tensor }>>();

// A tuple carry stays a tuple; a number in init is a Tensor in the body and the result.
const [[q, p], none] = scan(
  ([q, p]) => {
    const p2 = p.sub(q.sin().mul(0.01));
    return [[q.add(p2.mul(0.01)), p2], null];
  },
  [q0, 0],
  null,
  { length: 1000 },
);
expectTrue<Equal<typeof q | typeof p, Tensor>>();
expectTrue<Equal<typeof none, null>>();

// Objects and nested tuples in the carry and in xs.
const [st] = scan(
  (s, { a, b }) => [{ pos: s.pos.add(a), hist: [s.hist[0].mul(b), s.hist[1]] }, null],
  { pos: q0, hist: [q0, q0] },
  { a: x, b: x },
);
expectTrue<Equal<typeof st, { pos: Tensor; hist: [Tensor, Tensor] }>>();

// @ts-expect-error the body must return the carry's structure (a Tensor, not a pair)
scan((c, xi) => [[c, xi], null], tensor(0), x);
// @ts-expect-error the carry is a [Tensor, Tensor] tuple: no third element
scan((c) => [[c[0], c[1], c[2]], null], [q0, q0], null, { length: 3 });
// @ts-expect-error a missing key in the returned carry
scan((s) => [{ pos: s.pos }, null], { pos: q0, vel: q0 }, null, { length: 3 });
// @ts-expect-error x is null without xs
scan((c, xi) => [c.add(xi), null], tensor(0), null, { length: 3 });
// @ts-expect-error the body returns [carry, y]
scan((c) => c, tensor(0), null, { length: 3 });

// A named, annotated body: its y type is inferred from its declared result.
const step = ([a, b]: [Tensor, Tensor], xi: Tensor): [[Tensor, Tensor], { a: Tensor }] => [[b, a.add(xi)], { a }];
const [fib, seen] = scan(step, [q0, q0], x);
expectTrue<Equal<typeof fib, [Tensor, Tensor]>>();
expectTrue<Equal<typeof seen, { a: Tensor }>>();
// Generic code over the carry type compiles: the body returns the carry it got.
const repeat = <T extends PyTree>(init: T) => scan((c) => [c, null], init, null, { length: 3 })[0];
expectTrue<Equal<ReturnType<typeof repeat<{ w: Tensor }>>, { w: Tensor }>>();

// A body typed on PyTree still compiles (and gives PyTrees).
const loose = (c: PyTree, xi: PyTree): [PyTree, PyTree] => [c, xi];
const [lc, ly] = scan(loose, tensor(0), x);
expectTrue<Equal<typeof lc | typeof ly, PyTree>>();
// A PyTree-typed init gives a PyTree carry.
declare const anyInit: PyTree;
const [pc] = scan((c) => [c, null], anyInit, null, { length: 2 });
expectTrue<Equal<typeof pc, PyTree>>();

// forLoop: the carry from init; i an int32 Tensor.
const f1 = forLoop(0, 10, (i, [a, b]) => [a.add(i), b.mul(a)], [q0, q0]);
expectTrue<Equal<typeof f1, [Tensor, Tensor]>>();
// A declared result type or a destructuring pattern does not turn init's tuples into arrays.
const f2: [Tensor, Tensor] = forLoop(0, 3, (_i: Tensor, c: [Tensor, Tensor]): [Tensor, Tensor] => c, [q0, q0]);
const [[n0, [n1]]] = scan((c) => [c, null], [q0, [q0, q0]], null, { length: 2 });
expectTrue<Equal<typeof n0 | typeof n1, Tensor>>();
void f2;
// @ts-expect-error the body returns the carry, not a pair
forLoop(0, 10, (i, c) => [c, i], q0);

// whileLoop: the carry from init, cond a Tensor predicate.
const w = whileLoop(([i]) => i.lt(10), ([i, y]) => [i.add(1), y.mul(2)], [tensor(0, { dtype: 'int32' }), x]);
expectTrue<Equal<typeof w, [Tensor, Tensor]>>();
// @ts-expect-error the body must keep the carry's structure
whileLoop((c) => c.lt(3), (c) => ({ c }), q0);
// @ts-expect-error cond returns a Tensor
whileLoop((c) => true, (c) => c, q0);

// cond: operands are Tensors positionally; the result has the branches' structure.
const r = cond(x.sum().gt(0), (a, b) => ({ s: a.add(b), n: 1 }), (a, b) => ({ s: a.sub(b), n: 2 }), x, q0);
expectTrue<Equal<typeof r, { s: Tensor; n: Tensor }>>();
const rt = cond(x.sum().gt(0), (a) => [a, a.sum()], (a) => [a.neg(), a.prod()], x);
expectTrue<Equal<typeof rt, [Tensor, Tensor]>>();
// Branches without operands.
const r0 = cond(x.sum().gt(0), () => x, () => q0);
expectTrue<Equal<typeof r0, Tensor>>();
// @ts-expect-error the branches return different structures
cond(x.sum().gt(0), (a) => [a, a], (a) => a, x);
// @ts-expect-error a branch takes one parameter per operand, each a Tensor
cond(x.sum().gt(0), (a: Tensor, b: Tensor) => a.add(b), (a: Tensor) => a, x);
