// Tensor: the user's handle to a node of the lazy graph.
//
// Methods only build graph nodes (through src/tensor/ops); nothing is computed
// until toArray / tolist / item / data, which compile (or hit the cache) and run.

import { Node } from '../compiler/ir.js';
import { realize, realizeAsync } from '../compiler/realize.js';
import { type DType, type DTypeLike, DTYPE_INFO, isComplex } from './dtype.js';
import { ShapeError, TransformError } from './errors.js';
import { type Dim, isStatic, fmtShape } from './shape.js';
import { decodeStorage, decodeStorageAsync } from './storage.js';
import { formatTensor, reprTensor } from './format.js';
import type { ArrayOf, DTypeOf, ItemOf } from './dtype-types.js';
import type { SliceSpec } from './slicing.js';
import * as ew from './ops/elementwise.js';
import * as red from './ops/reduce.js';
import * as mv from './ops/movement.js';
import * as lin from './ops/linear.js';
import type { TensorLike } from './ops/operand.js';
import { relu as reluOp } from './ops/custom-call.js';

// Reverse mode belongs to the transforms, a layer above the Tensor API:
// transforms/grad.ts installs it here when it loads (the package root loads it).
let tensorGrad: ((loss: Tensor, wrt: readonly Tensor[]) => Tensor[]) | undefined;
/** Called once by transforms/grad.ts: what Tensor.grad runs. */
export function setTensorGrad(f: (loss: Tensor, wrt: readonly Tensor[]) => Tensor[]): void {
  tensorGrad = f;
}

/** Node's util.inspect.custom (a registered symbol: no dependency on Node's types in the .d.ts). */
const INSPECT: unique symbol = Symbol.for('nodejs.util.inspect.custom') as never;

/**
 * A tensor operand: a Tensor, a JS scalar (weak, NEP 50, where the op takes
 * scalars), or array-like data converted like tensor(data) (ops/operand.ts).
 */
export type Operand = TensorLike;
export type Axis = number | readonly number[] | undefined;
/** Nested JS values as returned by tolist(); complex elements are [re, im]. */
export type NestedList = number | boolean | [number, number] | NestedList[];

/**
 * D is the dtype when it is known statically (tensor(data, {dtype: 'float32'}),
 * x.cast('int32')): toArray(), data() and item() narrow with it. It defaults to
 * DType, which every op returns (their dtypes follow promotion at run time).
 * @example
 * ```ts
 * const x = tensor([[1, 2], [3, 4]]);   // ops on it build a lazy graph
 * x.shape;                              // [2, 2]
 * x.add(1).mul(x).sum().item();         // 40  (2·1 + 3·2 + 4·3 + 5·4)
 * tensor([1, 2], { dtype: 'int32' }).toArray();   // Int32Array [1, 2] (typed as Int32Array: D is 'int32')
 * ```
 */
export class Tensor<D extends DType = DType> {
  /** @internal the graph node this handle points to. (`declare`: assigned in the constructor, no field initializer; see Node.) */
  declare node: Node;

  /** @internal use tensor(), zeros(), ... */
  constructor(node: Node) {
    this.node = node;
  }

  /** Concrete shape; throws ShapeError for a symbolic tensor inside graph(). */
  get shape(): number[] {
    const s = this.node.shape;
    if (!isStatic(s)) throw new ShapeError(`shape: tensor has dynamic dims ${fmtShape(s)}; use symbolicShape`);
    return [...s];
  }
  /** Shape with dynamic dims as their names. */
  get symbolicShape(): Dim[] {
    return [...this.node.shape];
  }
  get dtype(): D {
    return this.node.dtype as D;
  }
  get ndim(): number {
    return this.node.shape.length;
  }
  get size(): number {
    return this.shape.reduce((a, b) => a * b, 1);
  }
  /** Device this tensor is pinned to, if any. */
  get device(): string | undefined {
    return this.node.device;
  }
  /** True once the data is computed (the node is a leaf buffer). */
  get isRealized(): boolean {
    return this.node.op === 'buffer';
  }

  // ---- materialization -------------------------------------------------------
  /** Computes and returns a copy of the data (complex interleaved; f16/bf16 as Float32Array). */
  toArray(): ArrayOf<D> {
    realize([this.node]);
    return decodeStorage(this.node.data!, this.dtype) as ArrayOf<D>;
  }
  /** Computes the data now (no copy) and returns this tensor, now a leaf. */
  realize(): this {
    realize([this.node]);
    return this;
  }
  /** Async toArray: compiles and runs without blocking the event loop's other work longer than needed. */
  async data(): Promise<ArrayOf<D>> {
    await realizeAsync([this.node]);
    const n = this.node;
    // Device data is read back without blocking (a GPU result), then kept as the node's host copy.
    if (n.host === undefined && n.dev !== undefined) n.host = await n.dev.readHostAsync();
    return (await decodeStorageAsync(n.data!, this.dtype)) as ArrayOf<D>;
  }
  /** Nested JS arrays (booleans for bool, [re, im] pairs for complex). */
  tolist(): NestedList {
    const a = this.toArray();
    const shape = this.shape;
    const cplx = isComplex(this.dtype),
      isBool = this.dtype === 'bool';
    let k = 0;
    const build = (d: number): NestedList => {
      if (d === shape.length) {
        if (cplx) {
          const v: [number, number] = [a[2 * k]!, a[2 * k + 1]!];
          k++;
          return v;
        }
        const v = a[k++]!;
        return isBool ? v !== 0 : v;
      }
      return Array.from({ length: shape[d]! }, () => build(d + 1));
    };
    return build(0);
  }
  /** The single value of a size-1 tensor ([re, im] for complex, boolean for bool). */
  item(): ItemOf<D> {
    if (this.size !== 1) throw new ShapeError(`item: expected a tensor with one element, got shape ${fmtShape(this.shape)}`);
    const a: ArrayLike<number> = this.toArray();
    if (isComplex(this.dtype)) return [a[0]!, a[1]!] as ItemOf<D>;
    return (this.dtype === 'bool' ? a[0] !== 0 : a[0]!) as ItemOf<D>;
  }
  /** Pins this tensor's computation to a device ('js', 'native', 'webgpu'). */
  on(device: string): Tensor<D> {
    return mv.onDevice(this, device) as Tensor<D>;
  }
  /** The same as `on(device)`, PyTorch's spelling: this tensor with its computation pinned to `device`. */
  to(device: string): Tensor<D> {
    return mv.onDevice(this, device) as Tensor<D>;
  }

  // ---- printing --------------------------------------------------------------
  /** NumPy's str(): the values laid out by shape. */
  toString(): string {
    return formatTensor(this.toArray(), this.shape, this.dtype);
  }
  /** NumPy's repr() with `tensor(` as the prefix. */
  repr(): string {
    return reprTensor(this.toArray(), this.shape, this.dtype);
  }
  [INSPECT](): string {
    if (!isStatic(this.node.shape)) return `Tensor<symbolic ${fmtShape(this.node.shape)} ${this.dtype}>`;
    return this.repr();
  }

  // ---- elementwise -----------------------------------------------------------
  add(o: Operand): Tensor { return ew.binary('add', this, o); }
  sub(o: Operand): Tensor { return ew.binary('sub', this, o); }
  mul(o: Operand): Tensor { return ew.binary('mul', this, o); }
  div(o: Operand): Tensor { return ew.binary('div', this, o); }
  pow(o: Operand): Tensor { return ew.binary('pow', this, o); }
  maximum(o: Operand): Tensor { return ew.binary('maximum', this, o); }
  minimum(o: Operand): Tensor { return ew.binary('minimum', this, o); }
  atan2(o: Operand): Tensor { return ew.binary('atan2', this, o); }
  eq(o: Operand): Tensor { return ew.binary('eq', this, o); }
  ne(o: Operand): Tensor { return ew.binary('ne', this, o); }
  lt(o: Operand): Tensor { return ew.binary('lt', this, o); }
  le(o: Operand): Tensor { return ew.binary('le', this, o); }
  gt(o: Operand): Tensor { return ew.binary('gt', this, o); }
  ge(o: Operand): Tensor { return ew.binary('ge', this, o); }
  logicalAnd(o: Operand): Tensor { return ew.binary('logicalAnd', this, o); }
  logicalOr(o: Operand): Tensor { return ew.binary('logicalOr', this, o); }
  logicalNot(): Tensor { return ew.unary('logicalNot', this); }
  neg(): Tensor { return ew.unary('neg', this); }
  abs(): Tensor { return ew.unary('abs', this); }
  sign(): Tensor { return ew.unary('sign', this); }
  exp(): Tensor { return ew.unary('exp', this); }
  log(): Tensor { return ew.unary('log', this); }
  log1p(): Tensor { return ew.unary('log1p', this); }
  expm1(): Tensor { return ew.unary('expm1', this); }
  sqrt(): Tensor { return ew.unary('sqrt', this); }
  rsqrt(): Tensor { return ew.unary('rsqrt', this); }
  sin(): Tensor { return ew.unary('sin', this); }
  cos(): Tensor { return ew.unary('cos', this); }
  tan(): Tensor { return ew.unary('tan', this); }
  tanh(): Tensor { return ew.unary('tanh', this); }
  sinh(): Tensor { return ew.unary('sinh', this); }
  cosh(): Tensor { return ew.unary('cosh', this); }
  asin(): Tensor { return ew.unary('asin', this); }
  acos(): Tensor { return ew.unary('acos', this); }
  atan(): Tensor { return ew.unary('atan', this); }
  floor(): Tensor { return ew.unary('floor', this); }
  ceil(): Tensor { return ew.unary('ceil', this); }
  round(): Tensor { return ew.unary('round', this); }
  erf(): Tensor { return ew.unary('erf', this); }
  sigmoid(): Tensor { return ew.unary('sigmoid', this); }
  softplus(): Tensor { return ew.unary('softplus', this); }
  gelu(): Tensor { return ew.unary('gelu', this); }
  relu(): Tensor { return reluOp(this); }
  real(): Tensor { return ew.unary('real', this); }
  imag(): Tensor { return ew.unary('imag', this); }
  conj(): Tensor { return ew.unary('conj', this); }
  angle(): Tensor { return ew.unary('angle', this); }
  square(): Tensor { return ew.binary('mul', this, this); }
  clip(lo: Operand | null, hi: Operand | null): Tensor { return ew.clip(this, lo, hi); }
  /** Elements of this where cond is true, of `other` elsewhere (torch's x.where(cond, y)). */
  where(cond: Operand, other: Operand): Tensor { return ew.where(cond, this, other); }
  cast<T extends DTypeLike>(dtype: T): Tensor<DTypeOf<T>> { return ew.cast(this, dtype) as Tensor<DTypeOf<T>>; }
  astype<T extends DTypeLike>(dtype: T): Tensor<DTypeOf<T>> { return ew.cast(this, dtype) as Tensor<DTypeOf<T>>; }

  // ---- reductions ------------------------------------------------------------
  sum(axis?: Axis, keepdims = false): Tensor { return red.reduce('sum', this, axis, keepdims); }
  prod(axis?: Axis, keepdims = false): Tensor { return red.reduce('prod', this, axis, keepdims); }
  max(axis?: Axis, keepdims = false): Tensor { return red.reduce('max', this, axis, keepdims); }
  min(axis?: Axis, keepdims = false): Tensor { return red.reduce('min', this, axis, keepdims); }
  argmax(axis?: number, keepdims = false): Tensor { return red.argReduce('argmax', this, axis, keepdims); }
  argmin(axis?: number, keepdims = false): Tensor { return red.argReduce('argmin', this, axis, keepdims); }
  mean(axis?: Axis, keepdims = false): Tensor { return red.mean(this, axis, keepdims); }
  var(axis?: Axis, keepdims = false, ddof = 0): Tensor { return red.variance(this, axis, keepdims, ddof); }
  std(axis?: Axis, keepdims = false, ddof = 0): Tensor { return red.variance(this, axis, keepdims, ddof).sqrt(); }
  logsumexp(axis?: Axis, keepdims = false): Tensor { return red.logsumexp(this, axis, keepdims); }
  cumsum(axis?: number): Tensor { return red.cumsum(this, axis); }

  // ---- linear algebra --------------------------------------------------------
  matmul(o: Operand): Tensor { return lin.matmul(this, o); }
  dot(o: Operand): Tensor { return lin.dot(this, o); }
  outer(o: Operand): Tensor { return lin.outer(this, o); }

  // ---- shape and movement ----------------------------------------------------
  reshape(...shape: (Dim | readonly Dim[])[]): Tensor {
    // reshape([a, b]) and reshape(a, b); Array.prototype.flat costs ~1 µs, as much as the rest of a reshape.
    const s0 = shape[0];
    return mv.reshape(this, shape.length === 1 && Array.isArray(s0) ? (s0 as Dim[]) : (shape.flat() as Dim[]));
  }
  transpose(perm?: readonly number[]): Tensor { return mv.transpose(this, perm); }
  get T(): Tensor { return mv.transpose(this); }
  swapaxes(a: number, b: number): Tensor { return mv.swapaxes(this, a, b); }
  expandDims(axis: number | readonly number[]): Tensor { return mv.expandDims(this, axis); }
  squeeze(axis?: number | readonly number[]): Tensor { return mv.squeeze(this, axis); }
  broadcastTo(shape: readonly Dim[]): Tensor { return mv.broadcastTo(this, shape); }
  flatten(): Tensor { return mv.reshape(this, [-1]); }
  flip(axis?: Axis): Tensor { return mv.flip(this, axis); }
  pad(widths: number | readonly (readonly [number, number])[] | readonly [number, number], value = 0): Tensor { return mv.pad(this, widths, value); }
  slice(spec: SliceSpec): Tensor { return mv.slice(this, spec); }
  select(axis: number, index: number): Tensor { return mv.select(this, axis, index); }
  gather(indices: Operand, axis = 0): Tensor { return mv.gather(this, indices, axis); }
  scatterAdd(indices: Operand, updates: Operand, axis = 0): Tensor { return mv.scatterAdd(this, indices, updates, axis); }

  // ---- autodiff --------------------------------------------------------------
  /** Gradients of this scalar with respect to `wrt` (through the lazy graph, or tracked history). */
  grad(wrt: readonly Tensor[]): Tensor[] {
    if (tensorGrad === undefined) throw new TransformError('Tensor.grad: reverse mode is not loaded (import rlx itself, or compiler/transforms/grad.js)');
    return tensorGrad(this, wrt);
  }
  /** Marks this tensor so that realizing values computed from it keeps their history for grad(). */
  requiresGrad(): this {
    this.node.tracked = true;
    return this;
  }

  /** Itemsize in bytes. */
  get itemsize(): number {
    return DTYPE_INFO[this.dtype].itemsize;
  }
}
