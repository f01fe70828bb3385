// The native addon's errors as rlx's typed errors, in one place.
//
// The addon checks every argument again in C++ and throws plain TypeError /
// RangeError / Error (its own contract, tested on the raw exports), each
// carrying `rlxKind`: the name of the rlx error class it stands for
// (native/src/errors.h). The TS wrappers of this directory validate first, so
// most bad calls never reach C++; what still can (a SharedArrayBuffer changed
// by another thread between the TS and the C++ check, a buffer detached by a
// transfer, a SuiteSparse failure, out of memory) goes through nativeError,
// so that nothing leaves the native backend as an untyped error.

import { DTypeError, DeviceError, IndexError, RlxError, ShapeError, ValueError } from '../../tensor/errors.js';
import { LinAlgError } from '../../tensor/errors-linalg.js';

type ErrorClass = new (message: string) => RlxError;

// SingularMatrixError and NotPositiveDefiniteError need a pivot the addon's
// message does not carry as a number: the wrappers turn statuses into those;
// a raw throw of that kind becomes their base class, LinAlgError.
const KINDS: Record<string, ErrorClass> = {
  ShapeError,
  DTypeError,
  ValueError,
  IndexError,
  DeviceError,
  LinAlgError,
  SingularMatrixError: LinAlgError,
  NotPositiveDefiniteError: LinAlgError,
};

/** `e` (thrown by the addon inside `op`) as an RlxError naming the op; RlxErrors pass through. */
export function nativeError(op: string, e: unknown): RlxError {
  if (e instanceof RlxError) return e;
  const kind = typeof e === 'object' && e !== null ? (e as { rlxKind?: unknown }).rlxKind : undefined;
  const Cls = (typeof kind === 'string' ? KINDS[kind] : undefined) ?? DeviceError;
  const msg = e instanceof Error ? e.message : String(e);
  const err = new Cls(op ? `${op}: ${msg}` : msg);
  (err as { cause?: unknown }).cause = e;
  return err;
}

/** f(), with any error it throws rethrown as nativeError(op, e). */
export function callNative<T>(op: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw nativeError(op, e);
  }
}

/** Every function-valued property of `obj` wrapped by callNative (op: `${prefix}${name}`; an empty op keeps the addon's message, which names its function). */
export function typedErrors<T extends object>(prefix: string | null, obj: T): T {
  const out = { ...obj } as Record<string, unknown>;
  for (const [name, f] of Object.entries(obj)) {
    if (typeof f !== 'function') continue;
    const op = prefix === null ? '' : `${prefix}${name}`;
    out[name] = (...args: unknown[]) => {
      try {
        // Looked up at each call, so a replaced export (a test's spy) is the one called.
        return ((obj as Record<string, unknown>)[name] as (...a: unknown[]) => unknown).apply(obj, args);
      } catch (e) {
        throw nativeError(op, e);
      }
    };
  }
  return out as T;
}

const typedAddons = new WeakMap<object, object>();

/** The addon with every export wrapped by typedErrors (built once per addon object). */
export function typedAddon<T extends object>(addon: T): T {
  let t = typedAddons.get(addon);
  if (!t) typedAddons.set(addon, (t = typedErrors(null, addon)));
  return t as T;
}
