// Level 3 of the IR: kernels. A kernel is a fused loop (or a whole-op kernel)
// over buffer slots, with loads described as movement chains over a slot's
// contiguous layout. Sizes stay symbolic here; they are resolved per run, so
// one compiled kernel serves every binding of the dynamic dims.

import type { DType } from '../tensor/dtype.js';
import type { Dim } from '../tensor/shape.js';
import type { Attrs } from './ir.js';
import type { ElementwiseOp, MovementOp, OpaqueOp, ReduceOp, Primitive } from './primitives.js';

/** One movement op on the way from a buffer to the kernel's index space. */
export interface ViewStep {
  op: MovementOp;
  attrs: Attrs;
  inShape: Dim[];
  outShape: Dim[];
}

/** A read of a slot through a chain of views (applied in order, buffer first). */
export interface Load {
  slot: number;
  dtype: DType;
  chain: ViewStep[];
}

/** One instruction of a fused scalar expression (SSA: args index earlier instrs). */
export type Instr =
  | { op: 'load'; load: number; dtype: DType }
  /**
   * A literal. With `param`, its value is read at run time from the
   * executable's constant vector at that offset (re, im at param, param + 1),
   * and `value` is only the value it had when compiled (for listings).
   */
  | { op: 'const'; value: number | number[]; dtype: DType; param?: number }
  | { op: 'acc'; dtype: DType }
  | { op: ElementwiseOp; args: number[]; dtype: DType; attrs: Attrs };

/** A fused scalar expression; the value of the last instruction is the result. */
export interface Expr {
  instrs: Instr[];
  loads: Load[];
}

interface KernelBase {
  /** Output slot. */
  out: number;
  outDType: DType;
  outShape: Dim[];
  /** Ops fused into this kernel, in order, for explain(). */
  fused: Primitive[];
}

export interface ElementwiseKernel extends KernelBase {
  kind: 'elementwise';
  expr: Expr;
}
export interface ReduceKernel extends KernelBase {
  kind: 'reduce';
  op: ReduceOp;
  inShape: Dim[];
  axes: number[];
  /** Evaluated over inShape; its value is accumulated. */
  prologue: Expr;
  /** Evaluated over outShape with 'acc' = the reduced value. */
  epilogue?: Expr | undefined;
}
export interface MatmulKernel extends KernelBase {
  kind: 'matmul';
  a: Load;
  b: Load;
  /** [...batch, m, k] and [...batch, k, n] */
  aShape: Dim[];
  bShape: Dim[];
  /** Operands read conjugated (a conj folded into the load, e.g. from a conjugate transpose). */
  aConj?: boolean;
  bConj?: boolean;
  epilogue?: Expr | undefined;
}
export interface OpaqueKernel extends KernelBase {
  kind: 'opaque';
  op: Exclude<OpaqueOp, 'matmul'> | 'composite';
  name: string;
  inputs: number[];
  inShapes: Dim[][];
  inDTypes: DType[];
  attrs: Attrs;
  /**
   * A registered call's further outputs: parts[i] is the slot of output i
   * (-1 where the graph does not use it; index 0 is `out`).
   */
  parts?: number[];
}
export type Kernel = ElementwiseKernel | ReduceKernel | MatmulKernel | OpaqueKernel;

/** A buffer in the plan. */
export interface SlotInfo {
  shape: Dim[];
  dtype: DType;
  role: 'input' | 'intermediate' | 'output';
  /** Physical buffer after memory planning (slots sharing one reuse memory). */
  buffer: number;
  /**
   * An output that no kernel writes: it is slot `alias`'s data under this
   * slot's shape (a contiguous reshape of a computed node), so it shares that
   * slot's buffer (fusion.ts, memory-plan.ts).
   */
  alias?: number;
}
