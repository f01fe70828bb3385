// The public surface the contract test covers, read from src/index.ts at run
// time (so a new export or method joins without editing this file):
//
//   'name'             every top-level export (functions, classes, objects)
//   'ns.name'          every export of the module namespaces (linalg, sparse, random)
//   'Class#member'     every prototype member (methods and getters, inherited ones
//                      included) of the classes whose instances users call on:
//                      Tensor, the sparse matrices and SparseFactorization.

import * as rlx from '../../src/index.js';

/** Classes whose prototypes are part of the contract (instances flow through user code). */
export const PROTOTYPES: Record<string, abstract new (...a: never[]) => unknown> = {
  Tensor: rlx.Tensor,
  CsrMatrix: rlx.sparse.CsrMatrix,
  CscMatrix: rlx.sparse.CscMatrix,
  CooMatrix: rlx.sparse.CooMatrix,
  SparseFactorization: rlx.sparse.SparseFactorization,
};

const isNamespace = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && Object.prototype.toString.call(v) === '[object Module]';

/** Prototype member names up the chain (below Object.prototype), without the constructor. */
function members(cls: abstract new (...a: never[]) => unknown): string[] {
  const out = new Set<string>();
  for (let p = cls.prototype as object | null; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const n of Object.getOwnPropertyNames(p)) if (n !== 'constructor') out.add(n);
  }
  return [...out];
}

/** Every name of the public surface, as listed above. */
export function publicSurface(): string[] {
  const names: string[] = [];
  for (const [k, v] of Object.entries(rlx)) {
    if (isNamespace(v)) for (const m of Object.keys(v)) names.push(`${k}.${m}`);
    else names.push(k);
  }
  for (const [cls, C] of Object.entries(PROTOTYPES)) for (const m of members(C)) names.push(`${cls}#${m}`);
  return names;
}
