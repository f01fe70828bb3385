// Decompositions of composite ops into primitives, for backends without a
// kernel for them (legalize.ts asks here). Each is registered next to its op
// (tensor/ops/reduce.ts: logsumexp; tensor/ops/linear.ts: integer matmul;
// transforms/custom.ts: custom), since it is written with the Tensor API, a
// layer above the compiler: the registry keeps the compiler from importing it.

import type { Attrs, Node } from './ir.js';

/** The node computing the same value as `op` applied to `inputs`, from primitives a backend has. */
export type Decomposition = (inputs: Node[], attrs: Attrs) => Node;

const DECOMPOSITIONS = new Map<string, Decomposition>();

/** Registers how `op` is decomposed (once, by the op's own module). */
export function registerDecomposition(op: string, d: Decomposition): void {
  DECOMPOSITIONS.set(op, d);
}

/** The decomposition of `op`, if its module registered one. */
export const decompositionOf = (op: string): Decomposition | undefined => DECOMPOSITIONS.get(op);
