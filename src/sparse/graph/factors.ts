// Factorizations that lazy solves refer to. A factor object's solve(b) is a
// sparseSolve IR node whose attrs carry the factor's id (a number keys the
// compile cache; an object could not), and its kernel looks the factor up here.
// Entries hold the factor weakly: a factor that is garbage collected (or
// disposed) before a pending solve runs makes that solve a typed error.

import { ValueError } from '../../tensor/errors.js';

/** What the kernel needs of a factorization: a solve on float64 (interleaved complex) data, column by column. */
export interface SolvingFactor {
  readonly method: string;
  readonly disposed: boolean;
  /** x = op(A)⁻¹ b, written to `out` (b's length, not overlapping b) when given. */
  solveRaw(b: Float64Array, trans?: 'N' | 'T' | 'H', out?: Float64Array): Float64Array;
}

const FACTORS = new Map<number, WeakRef<SolvingFactor>>();
const gone = new FinalizationRegistry<number>((id) => FACTORS.delete(id));
let nextId = 1;

/** Registers a factor and returns its id. */
export function registerFactor(f: SolvingFactor): number {
  const id = nextId++;
  FACTORS.set(id, new WeakRef(f));
  gone.register(f, id);
  return id;
}

/** The factor with this id; a ValueError when it has been disposed or collected. */
export function factorById(id: number): SolvingFactor {
  const f = FACTORS.get(id)?.deref();
  if (!f || f.disposed) throw new ValueError(`sparse: a pending solve refers to a factorization that has been disposed (solve results are lazy: read them before dispose())`);
  return f;
}
