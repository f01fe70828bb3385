// Typed errors. Every message names the op, what it received and what it expected.

/** Base class of every error rlx throws on purpose. */
export class RlxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Shapes that do not fit the op (broadcasting, reshape sizes, axes out of range...). */
export class ShapeError extends RlxError {}

/** A dtype the op does not accept, or an unknown dtype name. */
export class DTypeError extends RlxError {}

/** Input values that cannot be turned into a tensor or a parameter out of its domain. */
export class ValueError extends RlxError {}

/** No backend can run this node: names the op, the dtype and the backend. */
export class LegalizationError extends RlxError {
  constructor(
    readonly op: string,
    readonly dtype: string,
    readonly backend: string,
    detail = '',
  ) {
    super(`cannot lower op '${op}' with dtype ${dtype} on backend '${backend}': no native kernel, decomposition or rewrite${detail ? ` (${detail})` : ''}`);
  }
}

/** A device name that is unknown or whose backend is not available. */
export class DeviceError extends RlxError {}

/**
 * A device that ended while in use (a GPU lost: driver reset, device
 * destroyed, its worker gone): everything on it is gone. Thrown by every later
 * call on it and by reads of tensors whose data was on it; the next use of the
 * device starts a new one, where such tensors can be recomputed.
 */
export class DeviceLostError extends DeviceError {}

/** An index out of range (slicing, select, gather, scatterAdd). */
export class IndexError extends RlxError {}

/** A transform used wrongly: grad of a non-scalar, integer outputs, mismatched vmap sizes... */
export class TransformError extends RlxError {}

/**
 * A tensor read after a jitted call consumed it (jit's donateArgnums): its
 * memory may hold one of that call's outputs.
 */
export class DonatedError extends RlxError {}
