// Argument checks shared by nn.functional and the layers: every message names
// the op, what it got and what it expected.

import { Tensor } from '../../tensor/tensor.js';
import { DTypeError, ShapeError, ValueError } from '../../tensor/errors.js';
import { isFloat } from '../../tensor/dtype.js';

/** `x` as a Tensor, or a ValueError naming the op and the argument. */
export function checkTensor(op: string, name: string, x: unknown): Tensor {
  if (!(x instanceof Tensor)) throw new ValueError(`${op}: ${name} must be a Tensor, got ${x === null ? 'null' : Array.isArray(x) ? 'an array' : typeof x}`);
  return x;
}

/** `x` as a Tensor of a floating dtype. */
export function checkFloatTensor(op: string, name: string, x: unknown): Tensor {
  const t = checkTensor(op, name, x);
  if (!isFloat(t.dtype)) throw new DTypeError(`${op}: ${name} must have a floating dtype, got ${t.dtype}`);
  return t;
}

/** `x` with rank in [lo, hi], or a ShapeError naming the op and the shape. */
export function checkRank(op: string, name: string, x: Tensor, lo: number, hi: number, what = ''): void {
  if (x.ndim < lo || x.ndim > hi) {
    const want = lo === hi ? `${lo}-D` : `${lo}-D to ${hi}-D`;
    throw new ShapeError(`${op}: ${name} must be ${want}${what ? ` ${what}` : ''}, got shape [${x.shape}]`);
  }
}

/** A probability in [0, 1] (dropout rates). */
export function checkProbability(op: string, name: string, p: unknown): number {
  if (typeof p !== 'number' || !(p >= 0 && p <= 1)) throw new ValueError(`${op}: ${name} must be a probability in [0, 1], got ${String(p)}`);
  return p;
}
