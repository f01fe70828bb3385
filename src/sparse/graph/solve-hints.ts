// What an iterative spsolve takes besides A and b — a preconditioner M and a
// start vector x0 — cannot be attrs of the IR node (attrs key the compile
// cache and must be plain numbers and strings). The node carries an id and the
// kernel looks the hints up here. An entry lives as long as the node that
// refers to it (a FinalizationRegistry on the node drops it).

import { ValueError } from '../../tensor/errors.js';
import type { PreconditionerLike } from '../solvers/index.js';

export interface SolveHints {
  /** Preconditioner M ≈ A⁻¹ as the raw solvers take it. */
  M?: PreconditionerLike;
  /** Start vector, row-major [n, k] like b (float64, complex interleaved). */
  x0?: Float64Array;
}

const HINTS = new Map<number, SolveHints>();
const gone = new FinalizationRegistry<number>((id) => HINTS.delete(id));
let nextId = 1;

/** Registers hints for the node `owner` (dropped when it is collected); returns their id. */
export function registerHints(h: SolveHints): { id: number; bind(owner: object): void } {
  const id = nextId++;
  HINTS.set(id, h);
  return { id, bind: (owner) => gone.register(owner, id) };
}

export function hintsById(id: number): SolveHints {
  const h = HINTS.get(id);
  if (!h) throw new ValueError(`sparse.spsolve: internal: the preconditioner/x0 of a pending solve is gone`);
  return h;
}
