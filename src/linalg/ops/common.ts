// Shared pieces of the linalg ops: registering and binding them, checking
// dtypes, turning kernel info codes into typed errors, and the generic VJP
// (the transpose of an op's JVP).

import type { Tensor } from '../../tensor/tensor.js';
import { type KernelCall, type OpDef, type OpRuleCtx, type OpRunArgs, kernelSteps, registerOp } from '../../compiler/op-registry.js';
import { bindOp } from '../../tensor/ops/registered-op.js';
import { LINALG_KERNELS } from '../kernels/family.js';
import { reverseMode } from '../../compiler/transforms/autodiff.js';
import { wrap } from '../../compiler/transforms/grad.js';
import { zerosOf } from '../../compiler/transforms/rules/ad-helpers.js';
import { DTypeError, ShapeError } from '../../tensor/errors.js';
import { type DType } from '../../tensor/dtype.js';
import type { Attrs } from '../../compiler/ir.js';
import type { LinalgDType, LinalgKernels, FloatArray } from '../kernels/contract.js';
import type { PartAval } from '../../compiler/op-registry.js';
import { fmtShape } from '../../tensor/shape.js';

export const LINALG_DTYPES: readonly DType[] = ['float32', 'float64', 'complex64', 'complex128'];

export const asFloat = (a: unknown): FloatArray => a as FloatArray;

/** Throws DTypeError unless d is one of the four LAPACK dtypes. */
export function linalgDType(op: string, d: DType): LinalgDType {
  if (!LINALG_DTYPES.includes(d)) throw new DTypeError(`linalg.${op}: expects float32, float64, complex64 or complex128, got ${d}`);
  return d as LinalgDType;
}

/** Core shape checks. */
export function square(op: string, a: PartAval): number {
  const [m, n] = a.shape;
  if (a.shape.length !== 2 || m !== n) throw new ShapeError(`linalg.${op}: expects square matrices [..., n, n], got core ${fmtShape(a.shape)}`);
  return n!;
}

export function sameDType(op: string, xs: readonly PartAval[]): LinalgDType {
  const d = linalgDType(op, xs[0]!.dtype);
  for (const x of xs) if (x.dtype !== d) throw new DTypeError(`linalg.${op}: inputs must share one dtype, got ${xs.map((y) => y.dtype).join(', ')}`);
  return d;
}

/** Registers linalg op `name` on the dense linalg kernel family, its errors labelled `linalg.<name>`. */
export function registerLinalgOp(name: string, def: Omit<OpDef<LinalgKernels>, 'family' | 'label'>): void {
  registerOp(name, { ...def, family: LINALG_KERNELS, label: `linalg.${name}` });
}

/** No attrs (a shared frozen object: bindOp memoizes what it derives from it). */
export const NO_ATTRS: Attrs = Object.freeze({});

/** Binds a linalg op and returns its parts as tensors with the batch dims. */
export const bindLinalg = (op: string, inputs: readonly Tensor[], attrs: Attrs = NO_ATTRS): Tensor[] => bindOp(op, inputs, attrs);

/**
 * The VJP of an op as the transpose of its JVP: the JVP is linear in the
 * tangents, so reverse mode over the JVP graph, taken at placeholder tangents,
 * gives the transpose under the same bilinear pairing the primitive rules use
 * (JAX's linearize + transpose). Ops whose JVP applies the op itself to a
 * tangent (solve, triangularSolve) have explicit VJPs instead, or this would recurse.
 */
export function transposeJvp(jvp: (ctx: OpRuleCtx, ts: (Tensor | null)[]) => (Tensor | null)[]) {
  return (ctx: OpRuleCtx, cts: (Tensor | null)[]): (Tensor | null)[] => {
    const ph = ctx.inputs.map((x) => wrap(zerosOf(x.dtype, x.node.shape)));
    const outs = jvp(ctx, ph);
    const used = outs.map((o, i) => (o && cts[i] ? i : -1)).filter((i) => i >= 0);
    if (used.length === 0) return ctx.inputs.map(() => null);
    return reverseMode(
      used.map((i) => outs[i]!.node),
      used.map((i) => cts[i]!),
      ph.map((p) => p.node),
    );
  };
}

/** info codes per batch entry: the first failing entry, or -1. */
export function firstFailure(info: Int32Array): number {
  for (let b = 0; b < info.length; b++) if (info[b]! !== 0) return b;
  return -1;
}

/** The kernels that return LAPACK-style info codes (one per batch entry). */
type InfoKernel = Exclude<keyof LinalgKernels, 'nrm2' | 'gemm'>;

/**
 * run and runAsync of an op that is one kernel call (compiler/op-registry.ts:
 * kernelSteps): `args` builds the call's arguments, `check` turns its info
 * codes into typed errors. An awaited realization on native runs the call
 * on a pool thread (`svdAsync`, ...), so `await t.data()` keeps the event
 * loop turning during a large factorization.
 */
export function oneKernelCall<M extends InfoKernel>(
  method: M,
  args: (a: OpRunArgs) => Parameters<LinalgKernels[M]>,
  check: (info: Int32Array, a: OpRunArgs) => void = () => {},
): Pick<OpDef<LinalgKernels>, 'run' | 'runAsync'> {
  const steps = kernelSteps<LinalgKernels>(function* (a) {
    const call = [method, ...args(a)] as unknown as KernelCall<LinalgKernels>;
    check((yield call) as Int32Array, a);
  });
  // The sync call without the steps' generator: a 4x4 det takes ~3 µs in all,
  // and the generator, the spread arguments and their array cost a tenth of it.
  type Untyped = Record<string, (...x: unknown[]) => Int32Array>;
  return { run: (k, a) => check((k as unknown as Untyped)[method]!(...(args(a) as unknown[])), a), runAsync: steps.runAsync! };
}
