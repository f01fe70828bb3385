// The shapes of per-primitive transform rules. Rules are written with the
// Tensor API, so what they build is an ordinary lazy graph that the compiler
// fuses and plans like any other.

import type { Node } from '../ir.js';
import type { Tensor } from '../../tensor/tensor.js';
import type { Primitive } from '../primitives.js';

/** What a rule sees of the node it differentiates or batches. */
export interface RuleCtx {
  node: Node;
  /** The primitive's attrs (history-aware). */
  attrs: Readonly<Record<string, unknown>>;
  /** Primal inputs as tensors. */
  inputs: Tensor[];
  /** The node's own value as a tensor (for rules that reuse the output, like exp). */
  out: Tensor;
}

/** Forward mode: the output tangent from input tangents (null = symbolic zero). Return null for a zero tangent. */
export type JvpRule = (ctx: RuleCtx, tangents: (Tensor | null)[]) => Tensor | null;

/**
 * Reverse mode: input cotangents from the output cotangent, the transpose of the
 * JVP under the pairing <u, v> = Re(sum(u * v)) (JAX's convention; no conjugation
 * except where the op itself conjugates). null = zero or not differentiable.
 */
export type VjpRule = (ctx: RuleCtx, ct: Tensor) => (Tensor | null)[];

/** Batching: args carry a batch axis each (null = not batched); returns the output and its batch axis. */
export type BatchRule = (ctx: RuleCtx, dims: (number | null)[]) => { out: Tensor; dim: number | null };

/**
 * Primitives with rule-table entries. Leaves, the structural 'custom' and
 * 'stopGradient', and control flow (scan, while, cond) are handled by the
 * interpreters themselves (structural-rules.ts), and so is a registered op's
 * part: its derivatives come with its call's (autodiff.ts).
 */
export type RulePrimitive = Exclude<Primitive, 'buffer' | 'const' | 'input' | 'custom' | 'stopGradient' | 'scan' | 'while' | 'cond' | 'part'>;
/**
 * Primitives with JVP/VJP table entries: a registered call has several
 * outputs, so autodiff.ts differentiates it with all of them at once
 * (rules/op-rules.ts) instead of through a one-output table rule.
 */
export type AdPrimitive = Exclude<RulePrimitive, 'registered'>;
