// Elementwise user ops: NumPy promotion, explicit broadcasting, then one primitive.

import { bind, constNode, type BinaryOp, type UnaryOp } from '../../compiler/primitives.js';
import type { Node } from '../../compiler/ir.js';
import { type DType, type DTypeLike, type ScalarKind, toDType, inexactDType, promoteTypes, promoteWithScalar, isComplex, isInexact, DTYPE_INFO, realDType, INT_RANGE } from '../dtype.js';
import { DTypeError, ValueError } from '../errors.js';
import { broadcastShapes, shapesEqual, type Dim } from '../shape.js';
import { Tensor, type Operand } from '../tensor.js';
import { toOperand, toTensor } from './operand.js';

const scalarKind = (v: number | boolean): ScalarKind => (typeof v === 'boolean' ? 'b' : Number.isInteger(v) ? 'i' : 'f');

/** Broadcasts node x to `shape` with reshape (new leading 1s) + expand. */
export function broadcastNode(x: Node, shape: readonly Dim[]): Node {
  if (shapesEqual(x.shape, shape)) return x;
  if (x.op === 'const') return constNode(x.attrs['value'] as number, x.dtype, shape);
  let n = x;
  if (n.shape.length < shape.length) n = bind('reshape', [n], { shape: [...Array(shape.length - n.shape.length).fill(1), ...n.shape] });
  if (!shapesEqual(n.shape, shape)) n = bind('expand', [n], { shape: [...shape] });
  return n;
}

export function castNode(x: Node, d: DType): Node {
  return x.dtype === d ? x : bind('cast', [x], { dtype: d });
}

/** A JS scalar as a literal node of dtype d. */
function literal(v: number | boolean, d: DType, shape: readonly Dim[] = []): Node {
  return constNode(typeof v === 'boolean' ? Number(v) : v, d, shape);
}

/**
 * A weak JS integer that takes an int8/uint8 tensor's dtype must fit it:
 * NEP 50 (NumPy 2) raises for uint8 + 300 or uint8 + -1 rather than wrap the
 * scalar silently; rlx throws a DTypeError (cast the tensor, or wrap the
 * value yourself). int32 keeps its older behavior (the literal wraps).
 */
function checkWeakInt(op: string, v: number | boolean, d: DType): void {
  if (typeof v !== 'number' || (d !== 'int8' && d !== 'uint8')) return;
  const [lo, hi] = INT_RANGE[d];
  if (v < lo || v > hi) throw new DTypeError(`${op}: the scalar ${v} is out of range for ${d} [${lo}, ${hi}] (NEP 50); cast the tensor to a wider dtype first`);
}

/** Zeros of x's shape on x's device (imag of a real tensor: the device stays the input's). */
function zerosOn(x: Tensor, d: DType): Tensor {
  const z = literal(0, d, x.node.shape);
  z.device = x.device;
  return new Tensor(z);
}

// Ops whose result is inexact: integer inputs are first cast to the smallest float
// that holds them (NumPy: bool, int8, uint8 → float16; int32 → float64).
const FLOAT_UNARY = new Set<UnaryOp>(['exp', 'log', 'log1p', 'expm1', 'sqrt', 'rsqrt', 'sin', 'cos', 'tan', 'tanh', 'sinh', 'cosh', 'asin', 'acos', 'atan', 'erf', 'sigmoid', 'softplus', 'gelu', 'angle']);
const FLOAT_BINARY = new Set<BinaryOp>(['div', 'atan2']);
const REAL_ONLY_UNARY = new Set<UnaryOp>(['floor', 'ceil', 'round', 'erf', 'gelu', 'softplus']);
const REAL_ONLY_BINARY = new Set<BinaryOp>(['maximum', 'minimum', 'atan2', 'lt', 'le', 'gt', 'ge', 'complex']);

const floatFor = (d: DType): DType => (isInexact(d) ? d : d === 'int32' ? 'float64' : 'float16');

/** Applies a unary op with NumPy's dtype rules. */
export function unary(op: UnaryOp, x: Tensor): Tensor {
  let n = x.node;
  const d = n.dtype;
  if (isComplex(d) && REAL_ONLY_UNARY.has(op)) throw new DTypeError(`${op}: not defined for complex input (got ${d})`);
  if (d === 'bool' && (op === 'neg' || op === 'sign')) throw new DTypeError(`${op}: not supported for bool input (NumPy raises too); cast to int32 or a float first`);
  if (!isInexact(d)) {
    if (op === 'floor' || op === 'ceil' || op === 'round' || op === 'real' || op === 'conj') return x;
    if (op === 'imag') return zerosOn(x, d);
  } else if (!isComplex(d)) {
    if (op === 'real' || op === 'conj') return x;
    if (op === 'imag') return zerosOn(x, d);
  }
  if (FLOAT_UNARY.has(op)) n = castNode(n, floatFor(d));
  return new Tensor(bind(op, [n]));
}

/** Applies a binary op: scalars are weak (NEP 50), tensors promote and broadcast. */
export function binary(op: BinaryOp, aIn: Operand, bIn: Operand): Tensor {
  const a = toOperand(op, aIn, 'first operand'),
    b = toOperand(op, bIn, 'second operand');
  if (!(a instanceof Tensor) && !(b instanceof Tensor)) throw new ValueError(`${op}: expected at least one tensor operand`);
  let dt: DType;
  if (a instanceof Tensor && b instanceof Tensor) dt = promoteTypes(a.dtype, b.dtype);
  else if (a instanceof Tensor) dt = promoteWithScalar(a.dtype, scalarKind(b as number | boolean));
  else dt = promoteWithScalar((b as Tensor).dtype, scalarKind(a as number | boolean));
  if (isComplex(dt) && REAL_ONLY_BINARY.has(op)) throw new DTypeError(`${op}: complex values have no order / not defined for complex (got ${dt})`);
  if (dt === 'bool' && op === 'sub') throw new DTypeError('sub: not supported for bool operands (NumPy raises too); use logicalXor or cast to int32');
  if (op === 'div') dt = inexactDType(dt); // true division: bool/int32 → float64
  else if (FLOAT_BINARY.has(op)) dt = floatFor(dt);
  if (dt === 'bool' && op === 'pow') dt = 'int32';
  const shape = broadcastShapes(op, a instanceof Tensor ? a.node.shape : [], b instanceof Tensor ? b.node.shape : []);
  if (!(a instanceof Tensor)) checkWeakInt(op, a, dt);
  if (!(b instanceof Tensor)) checkWeakInt(op, b, dt);
  const an = a instanceof Tensor ? castNode(a.node, dt) : literal(a, dt, shape);
  const bn = b instanceof Tensor ? castNode(b.node, dt) : literal(b, dt, shape);
  return new Tensor(bind(op, [broadcastNode(an, shape), broadcastNode(bn, shape)]));
}

/**
 * cast(x, dtype) like NumPy astype (floats → int32 truncate; complex → real drops imag).
 * @example
 * ```ts
 * cast(tensor([1.7, -1.7, 2.5]), 'int32').tolist();   // [1, -1, 2]  (truncation, numpy astype)
 * cast(tensor([0, 2]), 'bool').tolist();              // [false, true]
 * ```
 */
export function cast(x: Operand, dtype: DTypeLike): Tensor {
  return new Tensor(castNode(toTensor('cast', x).node, toDType(dtype)));
}

/**
 * where(cond, x, y): NumPy broadcasting of all three; x and y promote.
 * @example
 * ```ts
 * where(tensor([true, false, true]), tensor([1, 2, 3]), tensor([10, 20, 30])).tolist();   // [1, 20, 3]
 * const x = tensor([-2, 3]);
 * where(x.gt(0), x, 0).tolist();   // [0, 3]  (a scalar broadcasts)
 * ```
 */
export function where(condIn: Operand, xIn: Operand, yIn: Operand): Tensor {
  const cond = toTensor('where', condIn, 'condition'),
    x = toOperand('where', xIn, 'x'),
    y = toOperand('where', yIn, 'y');
  let dt: DType;
  if (x instanceof Tensor && y instanceof Tensor) dt = promoteTypes(x.dtype, y.dtype);
  else if (x instanceof Tensor) dt = promoteWithScalar(x.dtype, scalarKind(y as number));
  else if (y instanceof Tensor) dt = promoteWithScalar(y.dtype, scalarKind(x as number));
  else dt = scalarKind(x as number) === 'b' && scalarKind(y as number) === 'b' ? 'bool' : 'float64';
  const shape = broadcastShapes('where', cond.node.shape, x instanceof Tensor ? x.node.shape : [], y instanceof Tensor ? y.node.shape : []);
  if (!(x instanceof Tensor)) checkWeakInt('where', x, dt);
  if (!(y instanceof Tensor)) checkWeakInt('where', y, dt);
  const xn = x instanceof Tensor ? castNode(x.node, dt) : literal(x, dt, shape);
  const yn = y instanceof Tensor ? castNode(y.node, dt) : literal(y, dt, shape);
  const c = cond.dtype === 'bool' ? cond.node : bind('ne', [cond.node, literal(0, cond.dtype, cond.node.shape)]);
  return new Tensor(bind('where', [broadcastNode(c, shape), broadcastNode(xn, shape), broadcastNode(yn, shape)]));
}

/** clip(x, lo, hi) = minimum(maximum(x, lo), hi); null skips a bound. */
export function clip(x: Tensor, lo: Operand | null, hi: Operand | null): Tensor {
  let r = x;
  if (lo !== null && lo !== undefined) r = binary('maximum', r, lo);
  if (hi !== null && hi !== undefined) r = binary('minimum', r, hi);
  return r;
}

/**
 * complex(re, im): builds a complex tensor from real parts (broadcast).
 * @example
 * ```ts
 * const z = complex(tensor([3, 0]), tensor([4, -1]));   // [3+4i, 0-1i]
 * z.dtype;             // 'complex128'
 * z.abs().tolist();    // [5, 1]
 * ```
 */
export function complex(reIn: Operand, imIn: Operand): Tensor {
  const re = toOperand('complex', reIn, 'real part'),
    im = toOperand('complex', imIn, 'imaginary part');
  if (!(re instanceof Tensor) && !(im instanceof Tensor)) {
    const c = bind('complex', [literal(re, 'float64'), literal(im, 'float64')]);
    return new Tensor(c);
  }
  const d = (t: Operand): DType => {
    if (t instanceof Tensor && isComplex(t.dtype)) throw new DTypeError(`complex: real and imaginary parts must be real, got ${t.dtype}`);
    return t instanceof Tensor ? (isInexact(t.dtype) ? t.dtype : 'float64') : 'float64';
  };
  let dt: DType = re instanceof Tensor && im instanceof Tensor ? promoteTypes(d(re), d(im)) : re instanceof Tensor ? d(re) : d(im);
  if (DTYPE_INFO[dt].compute === 'float32' && dt !== 'float32') dt = 'float32';
  if (isComplex(dt)) throw new DTypeError(`complex: inputs must be real, got ${dt}`);
  return binary('complex', re instanceof Tensor ? re.cast(dt) : re, im instanceof Tensor ? im.cast(dt) : im);
}
