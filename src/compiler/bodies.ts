// The registry of control-flow bodies: a body's compiled executable and traced
// graph by id, which a 'scan'/'while'/'cond' node names in its attrs. Below
// the compiler and the backends (the js backend's loop kernels look bodies up
// here); tracing a body is control/body.ts's job, a layer above.

import type { DType } from '../tensor/dtype.js';
import type { Dim } from '../tensor/shape.js';
import type { Node } from './ir.js';
import type { BoundExecutable } from './executable.js';

export interface Aval {
  shape: readonly Dim[];
  dtype: DType;
}

export interface Body {
  id: number;
  exe: BoundExecutable;
  /** Number of lifted closure inputs (they come first). */
  nConst: number;
  outAvals: Aval[];
  /** The traced graph: inputs (lifted consts then proxies) and outputs, for transforms of the body. */
  inputs: Node[];
  outputs: Node[];
}

const bodies = new Map<number, Body>();
const byKey = new Map<string, number>();
let nextBody = 1;

/** The body registered under `id`. */
export function getBody(id: number): Body {
  const b = bodies.get(id);
  if (!b) throw new Error(`internal: control-flow body ${id} is not registered`);
  return b;
}

/** The id of the body with this structural key, if one is registered. */
export const bodyIdOf = (key: string): number | undefined => byKey.get(key);

/** Registers a new body under `key`; returns it. */
export function addBody(key: string, make: (id: number) => Body): Body {
  const id = nextBody++;
  const b = make(id);
  bodies.set(id, b);
  byKey.set(key, id);
  return b;
}
