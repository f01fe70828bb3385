// The dispatch answer shared by the CPU backends: leaves and views are free,
// composites are decomposed, storage-type arithmetic is rewritten to its
// compute dtype (float16/bfloat16 to float32, int8/uint8 to int32; ops that
// only move bits are exempt), an elementwise op is served
// when the backend has a scalar rule for its input dtype. A backend passes its
// own answer for the ops where it differs (e.g. native has no integer GEMM).

import type { Node } from '../compiler/ir.js';
import { kindOf } from '../compiler/primitives.js';
import { opServedOn } from '../compiler/op-registry.js';
import { DTYPE_INFO, type DType } from '../tensor/dtype.js';
import type { DispatchChoice } from './backend.js';

/** A dtype stored narrower than it is computed (float16/bfloat16 in float32, int8/uint8 in int32). */
export const isStorageType = (d: DType) => DTYPE_INFO[d].compute !== d;
/** Ops that only move bits (or orchestrate bodies): they serve f16/bf16 and int8/uint8 storage as is. */
export const BIT_MOVERS: ReadonlySet<string> = new Set(['cast', 'where', 'gather', 'concat', 'pad', 'scan', 'while', 'cond']);

export interface DispatchHooks {
  /** The device answering (a registered op is served where its kernel family is registered). */
  device: string;
  /** Whether the backend has a scalar rule for op on this input dtype. */
  hasRule(op: string, inDType: DType): boolean;
  /** Overrides for non-elementwise ops (undefined: the default answer, 'native'). */
  special?(n: Node): DispatchChoice | undefined;
}

export function cpuDispatch(n: Node, hooks: DispatchHooks): DispatchChoice | undefined {
  const k = kindOf(n.op);
  if (k === 'leaf' || k === 'movement') return 'native';
  if (k === 'composite') return 'decompose';
  // A registered op's kernels take the dtypes its shape rule accepted; its
  // parts are written by its call's kernel (served with it).
  if (n.op === 'registered') return opServedOn(hooks.device, n.attrs) ? 'native' : undefined;
  if (n.op === 'part') return 'native';
  if (!BIT_MOVERS.has(n.op) && (isStorageType(n.dtype) || n.inputs.some((x) => isStorageType(x.dtype)))) return 'rewrite';
  if (k === 'elementwise') return hooks.hasRule(n.op, n.inputs[0]!.dtype) ? 'native' : undefined;
  return hooks.special?.(n) ?? 'native';
}
