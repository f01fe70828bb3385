// scan and forLoop: a loop carried in the IR as one 'scan' node whose body is a
// compiled sub-graph, so a 10,000-step integration is one executable.
//
// scan(f, init, xs): f(carry, x) → [carry, y]; returns [final carry, stacked ys].

import { Tensor } from '../../tensor/tensor.js';
import { TransformError } from '../../tensor/errors.js';
import { fmtShape, shapesEqual } from '../../tensor/shape.js';
import { arange } from '../../tensor/create.js';
import { bind } from '../primitives.js';
import { flatten, unflatten, type PyTree, type TreeDef, type TensorTree } from '../transforms/pytree.js';
import { traceBody, proxy, deviceOfOperands } from './body.js';
import type { Aval } from '../bodies.js';
import { commonDType, layout, unpack } from './pack.js';
import type { CarryOf, NotInferred, SliceOf, Tree } from './types.js';

export interface ScanOptions {
  /** Number of steps (required when xs is null). */
  length?: number;
  /** Walk xs from the end (ys are still stored in xs order). */
  reverse?: boolean;
  /**
   * Reverse-mode memory: by default the gradient stores the carry entering every
   * step. With checkpoint = k (dividing the length) it stores one carry per k
   * steps and recomputes the k carries of a segment during the backward pass.
   */
  checkpoint?: number;
}

const avalOf = (t: Tensor): Aval => ({ shape: t.node.shape, dtype: t.dtype });

/** Runs the scan primitive on flat lists; the building block of scan, forLoop and the scan rules. */
export function scanFlat(
  body: (consts: Tensor[], carry: Tensor[], xs: Tensor[]) => { carry: Tensor[]; ys: Tensor[] },
  init: Tensor[],
  xs: Tensor[],
  length: number,
  reverse = false,
  checkpoint = 0,
): { carry: Tensor[]; ys: Tensor[] } {
  if (checkpoint > 1 && length % checkpoint !== 0) throw new TransformError(`scan: checkpoint ${checkpoint} must divide the length ${length}`);
  const carryAvals = init.map(avalOf);
  const xAvals = xs.map((x) => ({ shape: x.node.shape.slice(1), dtype: x.dtype }));
  // First trace learns the ys avals and checks the carry; the second compiles with the packing dtype.
  const probe = body([], carryAvals.map((a) => proxy(a)), xAvals.map((a) => proxy(a)));
  probe.carry.forEach((c, i) => {
    const a = carryAvals[i]!;
    if (!shapesEqual(c.node.shape, a.shape) || c.dtype !== a.dtype) {
      throw new TransformError(`scan: the body must return a carry like its input; leaf ${i} went from ${fmtShape(a.shape)} ${a.dtype} to ${fmtShape(c.node.shape)} ${c.dtype}`);
    }
  });
  if (probe.carry.length !== init.length) throw new TransformError(`scan: the body returned ${probe.carry.length} carry leaves, expected ${init.length}`);
  const yAvals = probe.ys.map(avalOf);
  const dtype = commonDType([...carryAvals, ...yAvals]);
  const { body: b, consts } = traceBody(
    (...ps: Tensor[]) => {
      const c = ps.slice(0, init.length).map((p, i) => (p.dtype === carryAvals[i]!.dtype ? p : p.cast(carryAvals[i]!.dtype)));
      const r = body([], c, ps.slice(init.length));
      return [...r.carry, ...r.ys].map((t) => (t.dtype === dtype ? t : t.cast(dtype)));
    },
    [...carryAvals.map((a) => ({ shape: a.shape, dtype })), ...xAvals],
    deviceOfOperands([...init, ...xs]),
  );
  const outAvals = [...carryAvals, ...yAvals.map((a) => ({ shape: [length, ...a.shape], dtype: a.dtype }))];
  const { total } = layout(outAvals);
  const node = bind('scan', [...consts, ...init.map((t) => (t.dtype === dtype ? t : t.cast(dtype)).node), ...xs.map((x) => x.node)], {
    body: b.id,
    length,
    reverse,
    checkpoint,
    nConst: consts.length,
    nCarry: init.length,
    nX: xs.length,
    total,
    dtype,
  });
  const parts = unpack(node, outAvals);
  return { carry: parts.slice(0, init.length), ys: parts.slice(init.length) };
}

/**
 * scan(f, init, xs, {length, reverse}) → [final carry, ys stacked on a new leading axis].
 *
 * Typed from init: `scan((c, x) => [c.add(x), c], tensor(0), xs)` gives c and the
 * final carry init's structure (array literals are tuples) and the stacked ys
 * the body's y structure; a body returning another carry structure does not
 * compile. A body typed on PyTree (the loose second signature) gives PyTrees.
 * @example
 * ```ts
 * // cumulative sum: carry c, per-step output c + x
 * const [c, ys] = scan((c, x) => [c.add(x), c.add(x)], tensor(0), tensor([1, 2, 3]));
 * c.item();      // 6
 * ys.tolist();   // [1, 3, 6]
 * ```
 */
export function scan<C extends Tree, X extends Tree, Y extends Tree>(
  f: (carry: CarryOf<C>, x: SliceOf<X>) => readonly [CarryOf<C>, Y],
  init: C,
  xs: X,
  opts?: ScanOptions,
): [CarryOf<C>, TensorTree<NotInferred<Y>>];
export function scan(f: (carry: PyTree, x: PyTree) => readonly [PyTree, PyTree], init: PyTree, xs: PyTree | null, opts?: ScanOptions): [PyTree, PyTree];
// The implementation takes `any` carries: a body of the first signature (carry: CarryOf<C>) is not a PyTree function for every C.
export function scan(f: (carry: any, x: any) => readonly [PyTree, PyTree], init: PyTree, xs: PyTree | null, opts: ScanOptions = {}): [PyTree, PyTree] {
  const { leaves: initL, def: carryDef } = flatten(init);
  const { leaves: xsL, def: xDef } = xs === null || xs === undefined ? { leaves: [] as Tensor[], def: { kind: 'static', value: null } as TreeDef } : flatten(xs);
  let length = opts.length;
  for (const x of xsL) {
    const n = x.node.shape[0];
    if (typeof n !== 'number') throw new TransformError(`scan: xs need a static leading axis, got ${fmtShape(x.node.shape)}`);
    if (length === undefined) length = n;
    else if (length !== n) throw new TransformError(`scan: xs leading axes disagree (${length} vs ${n} in ${fmtShape(x.node.shape)})`);
  }
  if (length === undefined) throw new TransformError('scan: pass xs or {length}');
  let yDef: TreeDef | undefined;
  const res = scanFlat(
    (_c, carry, x) => {
      // xs without leaves ([] or {}: a length-only scan) keeps its structure; no xs gives null.
      const out = f(unflatten(carryDef, carry), xs === null || xs === undefined ? null : unflatten(xDef, x));
      if (!Array.isArray(out) || out.length !== 2) throw new TransformError('scan: the body must return [carry, y]');
      const c = flatten(out[0] as PyTree);
      const y = flatten(out[1] as PyTree);
      yDef = y.def;
      return { carry: c.leaves, ys: y.leaves };
    },
    initL,
    xsL,
    length,
    opts.reverse ?? false,
    opts.checkpoint ?? 0,
  );
  return [unflatten(carryDef, res.carry), unflatten(yDef!, res.ys)];
}

/**
 * forLoop(lo, hi, body(i, carry) → carry, init): a scan over i = lo..hi-1 (i is an int32 scalar); typed from init like scan.
 * @example
 * ```ts
 * // 5! = 1 · 2 · 3 · 4 · 5
 * forLoop(1, 6, (i, acc) => acc.mul(i), tensor(1)).item();   // 120
 * ```
 */
export function forLoop<C extends Tree>(lo: number, hi: number, body: (i: Tensor, carry: CarryOf<C>) => CarryOf<C>, init: C): CarryOf<C>;
export function forLoop(lo: number, hi: number, body: (i: Tensor, carry: PyTree) => PyTree, init: PyTree): PyTree;
export function forLoop(lo: number, hi: number, body: (i: Tensor, carry: PyTree) => PyTree, init: PyTree): PyTree {
  if (!Number.isInteger(lo) || !Number.isInteger(hi)) throw new TransformError(`forLoop: bounds must be integers, got ${lo}, ${hi}`);
  const n = Math.max(0, hi - lo);
  // No step: the carry as a step would give it (numbers in init become tensors).
  if (n === 0) {
    const { leaves, def } = flatten(init);
    return unflatten(def, leaves);
  }
  const idx = arange(lo, lo + n, 1, { dtype: 'int32' });
  const [c] = scan((carry, i) => [body(i as Tensor, carry), null], init, idx, { length: n });
  return c;
}
