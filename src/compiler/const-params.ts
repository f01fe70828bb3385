// Literals as arguments of a compiled graph ("parameters").
//
// A scalar a user passes (`x.mul(Math.random())`) is a 'const' node. If its
// value were part of the compile-cache key, every distinct value would compile
// (and keep) a new executable. Instead capture() keys such a literal by dtype
// and shape only and collects its value; the kernels read it at run time from
// a constant vector (a Float64Array: one entry per real literal, two for a
// complex one), so one compile serves every value.
//
// Literals that a pass rewrites on (passes/const-value.ts SPECIAL_VALUES:
// x*1, x-0, x**2...) stay keyed by value, so those rewrites still apply.
//
// Constant folding over parameters is kept: constFold records each fold of an
// op over parameters as a step of a ConstProgram, and the executable replays
// the steps at each run with the same js scalar kernels that folded at compile
// time (backends/js/evaluate.ts), so a folded value is bit-identical to what
// folding the literal values would have given.

import type { ScalarValue } from '../backends/js/evaluate.js';

/** An argument of a fold step: another parameter (its offset and lanes) or a literal. */
export type FoldArg = { param: number; lanes: 1 | 2 } | { value: ScalarValue };

/** One folded op over parameters: writes eval(args) at offset `out` of the constant vector. */
export interface FoldStep {
  eval: (args: readonly ScalarValue[]) => ScalarValue;
  args: FoldArg[];
  out: number;
}

/** How the constant vector of one run is made from the captured values. */
export interface ConstProgram {
  /** Entries captured (Captured.consts.length). */
  captured: number;
  /** Entries in all, folded values included. */
  length: number;
  steps: FoldStep[];
}

const EMPTY = new Float64Array(0);

/** The constant vector of a run: the captured values, then each fold step's result. */
export function constVector(prog: ConstProgram | undefined, consts: readonly number[]): Float64Array {
  if (prog === undefined || prog.length === 0) {
    if (consts.length !== 0) throw new Error(`internal: ${consts.length} parameter values for a graph compiled without parameters`);
    return EMPTY;
  }
  if (consts.length !== prog.captured) throw new Error(`internal: ${consts.length} parameter values for a graph compiled with ${prog.captured}`);
  const C = new Float64Array(prog.length);
  for (let i = 0; i < consts.length; i++) C[i] = consts[i]!;
  for (const s of prog.steps) {
    const args = s.args.map((a): ScalarValue => ('value' in a ? a.value : a.lanes === 2 ? [C[a.param]!, C[a.param + 1]!] : C[a.param]!));
    const v = s.eval(args);
    if (typeof v === 'number') C[s.out] = v;
    else (C[s.out] = v[0]!), (C[s.out + 1] = v[1]!);
  }
  return C;
}
