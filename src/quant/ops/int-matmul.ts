// Integer matrix products for quantized inference, as registered ops
// (compiler/op-registry.ts) of the quant kernel family:
//
//   quant.int8Matmul  a int8 [R, K] · b int8 [N, K]ᵀ → int32 [R, N]         exact
//   quant.int4Matmul  a int8 [R, K] codes, aScale float32 [R],
//                     w uint8 [N, K/2] packed signed 4-bit codes,
//                     wScale float32 [N, K/groupSize] → float32 [R, N]
//
// (kernels/contract.ts defines the arithmetic, bit for bit.) The public
// functions take a [..., M, K] and fold its leading dims into the rows, so one
// call is one GEMM over all of them and the weights are read once; the ops'
// own batch dims exist for vmap, which batches every input over leading dims
// (the registry's 'leading' rule: a vmapped weight gets its own problem per
// entry), and the kernels take a batch of independent problems.
//
// No derivative rules: the inputs are integer codes (a float scale's
// derivative is not what quantized inference asks for), so grad or jvp through
// either op is the registry's TransformError naming it.

import type { Tensor } from '../../tensor/tensor.js';
import { DTypeError, ShapeError, ValueError } from '../../tensor/errors.js';
import { registerOp, kernelSteps, type PartAval } from '../../compiler/op-registry.js';
import type { Attrs } from '../../compiler/ir.js';
import { bindOp } from '../../tensor/ops/registered-op.js';
import { QUANT_KERNELS } from '../kernels/family.js';
import { INT8_MATMUL_MAX_K, type QuantKernels } from '../kernels/contract.js';
import '../kernels/register.js';

export { INT8_MATMUL_MAX_K } from '../kernels/contract.js';

const fmt = (s: readonly (number | string)[]) => `[${s.join(', ')}]`;
const HINT = 'quantized products have no derivative rules; differentiate the float model instead';

// ---- the ops ---------------------------------------------------------------

registerOp<QuantKernels>('quant.int8Matmul', {
  family: QUANT_KERNELS,
  label: 'quant.int8Matmul',
  writesAll: true,
  coreRanks: [2, 2],
  outputs([a, b]) {
    checkInt8(a!, b!);
    return [{ shape: [a!.shape[0]!, b!.shape[0]!], dtype: 'int32' }];
  },
  ...kernelSteps<QuantKernels>(function* ({ batch, ins, inShapes, outs }) {
    const [m, k] = inShapes[0]!,
      n = inShapes[1]![0]!;
    yield ['int8Matmul', batch, m!, n, k!, ins[0] as Int8Array, ins[1] as Int8Array, outs[0] as Int32Array];
  }),
  missingRuleHint: HINT,
});

registerOp<QuantKernels>('quant.int4Matmul', {
  family: QUANT_KERNELS,
  label: 'quant.int4Matmul',
  writesAll: true,
  coreRanks: [2, 1, 2, 2],
  outputs([a, aScale, w, wScale], attrs) {
    checkInt4(a!, aScale!, w!, wScale!, attrs['groupSize'] as number);
    return [{ shape: [a!.shape[0]!, w!.shape[0]!], dtype: 'float32' }];
  },
  ...kernelSteps<QuantKernels>(function* ({ batch, ins, inShapes, outs, attrs }) {
    const [m, k] = inShapes[0]!,
      n = inShapes[2]![0]!;
    const gs = attrs['groupSize'] as number;
    yield ['int4Matmul', batch, m!, n, k!, gs, ins[0] as Int8Array, ins[1] as Float32Array, ins[2] as Uint8Array, ins[3] as Float32Array, outs[0] as Float32Array];
  }),
  missingRuleHint: HINT,
});

/** The shape/dtype rule of quant.int8Matmul's cores: a int8 [M, K], b int8 [N, K], K ≤ INT8_MATMUL_MAX_K. */
function checkInt8(a: PartAval, b: PartAval): void {
  const L = 'quant.int8Matmul';
  if (a.dtype !== 'int8') throw new DTypeError(`${L}: a must be int8 [..., M, K], got ${a.dtype} ${fmt(a.shape)}`);
  if (b.dtype !== 'int8') throw new DTypeError(`${L}: b must be int8 [N, K], got ${b.dtype} ${fmt(b.shape)}`);
  const K = a.shape[1]!;
  if (b.shape[1] !== K) throw new ShapeError(`${L}: b must be [N, K] with K = ${K} (a's last dim), got b ${fmt(b.shape)} for a ${fmt(a.shape)}`);
  if (K > INT8_MATMUL_MAX_K)
    throw new ShapeError(`${L}: K = ${K} is too large for exact int32 accumulation (128·128·K must not exceed 2^31 − 1: K ≤ ${INT8_MATMUL_MAX_K}); split K and add the int32 partial products in a wider type`);
}

/** The shape/dtype rule of quant.int4Matmul's cores. */
function checkInt4(a: PartAval, aScale: PartAval, w: PartAval, wScale: PartAval, gs: number): void {
  const L = 'quant.int4Matmul';
  if (a.dtype !== 'int8') throw new DTypeError(`${L}: a must be int8 codes [..., M, K], got ${a.dtype} ${fmt(a.shape)}`);
  if (aScale.dtype !== 'float32') throw new DTypeError(`${L}: aScale must be float32 [..., M], got ${aScale.dtype} ${fmt(aScale.shape)}`);
  if (w.dtype !== 'uint8') throw new DTypeError(`${L}: w must be uint8 [N, K/2] (packed 4-bit codes, packInt4), got ${w.dtype} ${fmt(w.shape)}`);
  if (wScale.dtype !== 'float32') throw new DTypeError(`${L}: wScale must be float32 [N, K/groupSize], got ${wScale.dtype} ${fmt(wScale.shape)}`);
  const [M, K] = a.shape as [number, number];
  checkGroupSize(L, gs, K);
  if (aScale.shape[0] !== M) throw new ShapeError(`${L}: aScale must be [..., M] with M = ${M} (a is ${fmt(a.shape)}), got ${fmt(aScale.shape)}`);
  const N = w.shape[0]!;
  if (w.shape[1] !== K / 2) throw new ShapeError(`${L}: w must be [N, K/2] = [N, ${K / 2}] (two 4-bit codes a byte, K = ${K}), got ${fmt(w.shape)}`);
  if (wScale.shape[0] !== N || wScale.shape[1] !== K / gs)
    throw new ShapeError(`${L}: wScale must be [N, K/groupSize] = [${N}, ${K / gs}] (K = ${K}, groupSize ${gs}), got ${fmt(wScale.shape)}`);
}

/** groupSize: an even integer ≥ 2 (bytes hold pairs) that divides K, at most 2^20 (int32 group sums stay exact). */
function checkGroupSize(L: string, gs: unknown, K: number): asserts gs is number {
  if (typeof gs !== 'number' || !Number.isInteger(gs) || gs < 2 || gs % 2 !== 0 || gs > 2 ** 20)
    throw new ValueError(`${L}: groupSize must be an even integer in [2, 2^20], got ${typeof gs === 'number' ? gs : typeof gs}`);
  if (K % gs !== 0) throw new ShapeError(`${L}: groupSize ${gs} must divide K = ${K} (a's last dim)`);
}

// Frozen attrs, one object per groupSize: bindOp memoizes by identity.
const GS_ATTRS = new Map<number, Readonly<Attrs>>();
function gsAttrs(groupSize: number): Readonly<Attrs> {
  let a = GS_ATTRS.get(groupSize);
  if (a === undefined) GS_ATTRS.set(groupSize, (a = Object.freeze({ groupSize })));
  return a;
}

/** a [..., M, K] as [R, K] rows (R = the product of the leading dims and M), with the leading shape. */
function rows(L: string, name: string, a: Tensor): { a2: Tensor; lead: number[] } {
  if (a.ndim < 2) throw new ShapeError(`${L}: ${name} must be [..., M, K] (at least 2 dims), got ${fmt(a.symbolicShape)}`);
  const s = a.shape;
  const lead = s.slice(0, -1);
  return { a2: a.ndim === 2 ? a : a.reshape([lead.reduce((p, q) => p * q, 1), s[s.length - 1]!]), lead };
}

// ---- public functions ------------------------------------------------------

/**
 * The exact integer product of int8 activations and int8 weights:
 * out[..., m, n] = Σ_k a[..., m, k]·b[n, k] (a·bᵀ, b laid out as nn.Linear's
 * weight [out, in]), accumulated in int32.
 *
 * a: int8 [..., M, K]; b: int8 [N, K]; returns int32 [..., M, N]. int32
 * accumulation is exact for every input while K ≤ INT8_MATMUL_MAX_K = 131071
 * (128·128·K ≤ 2³¹ − 1); a larger K is a ShapeError. A wrong dtype is a
 * DTypeError, a wrong shape a ShapeError, each naming the op. No derivative
 * (grad through it is a TransformError).
 *
 * @example
 * ```ts
 * const a = tensor([[1, -2, 3]], { dtype: 'int8' });
 * const b = tensor([[1, 1, 1], [-128, 0, 127]], { dtype: 'int8' });
 * quant.int8Matmul(a, b).tolist();   // [[2, 253]]
 * quant.int8Matmul(a, b).dtype;      // 'int32'
 * ```
 */
export function int8Matmul(a: Tensor, b: Tensor): Tensor {
  const L = 'quant.int8Matmul';
  if (a.dtype !== 'int8') throw new DTypeError(`${L}: a must be int8 [..., M, K], got ${a.dtype} ${fmt(a.symbolicShape)}`);
  if (b.dtype !== 'int8') throw new DTypeError(`${L}: b must be int8 [N, K], got ${b.dtype} ${fmt(b.symbolicShape)}`);
  if (b.ndim !== 2) throw new ShapeError(`${L}: b must be [N, K] (2 dims, nn.Linear's weight layout), got ${fmt(b.symbolicShape)}`);
  const { a2, lead } = rows(L, 'a', a);
  const out = bindOp('quant.int8Matmul', [a2, b])[0]!;
  return a.ndim === 2 ? out : out.reshape([...lead, b.shape[0]!]);
}

/** Options of int4Matmul. */
export interface Int4MatmulOptions {
  /** Consecutive k sharing one weight scale: an even integer dividing K (32, 64, 128 are typical). */
  groupSize: number;
}

/**
 * The product of int8 activation codes with packed signed 4-bit weight codes,
 * group-wise scaled (weight-only 4-bit quantization, GPTQ/AWQ-style groups):
 *
 *   out[..., m, n] = aScale[..., m] · Σ_g wScale[n, g] · Σ_{k in group g} a[..., m, k]·w4[n, k]
 *
 * a: int8 [..., M, K] codes; aScale: float32 [..., M] (one scale a row);
 * w: uint8 [N, K/2], two codes a byte (element k even in the low nibble, k
 * odd in the high one, each a two's-complement value in [-8, 7]: packInt4
 * makes it); wScale: float32 [N, K/groupSize]; returns float32 [..., M, N].
 * The group sums are exact int32; they are scaled and added in float64 in
 * ascending group order, multiplied by the row scale and rounded once to
 * float32, so every device gives the same bits. Wrong dtypes are DTypeErrors,
 * wrong shapes ShapeErrors, a bad groupSize a ValueError, each naming the op.
 * No derivative (grad through it is a TransformError).
 *
 * @example
 * ```ts
 * const a = tensor([[2, -1, 4, 3]], { dtype: 'int8' });
 * const w = tensor(quant.packInt4([1, 7, -8, -1], 1, 4)).reshape([1, 2]);   // uint8 [N, K/2]
 * const y = quant.int4Matmul(a, tensor([0.5], { dtype: 'float32' }), w, tensor([[1, 0.25]], { dtype: 'float32' }), { groupSize: 2 });
 * y.tolist();   // [[-6.875]]
 * ```
 */
export function int4Matmul(a: Tensor, aScale: Tensor, w: Tensor, wScale: Tensor, opts: Int4MatmulOptions): Tensor {
  const L = 'quant.int4Matmul';
  if (a.dtype !== 'int8') throw new DTypeError(`${L}: a must be int8 codes [..., M, K], got ${a.dtype} ${fmt(a.symbolicShape)}`);
  if (aScale.dtype !== 'float32') throw new DTypeError(`${L}: aScale must be float32 [..., M], got ${aScale.dtype} ${fmt(aScale.symbolicShape)}`);
  if (w.dtype !== 'uint8') throw new DTypeError(`${L}: w must be uint8 [N, K/2] (packed 4-bit codes, packInt4), got ${w.dtype} ${fmt(w.symbolicShape)}`);
  if (wScale.dtype !== 'float32') throw new DTypeError(`${L}: wScale must be float32 [N, K/groupSize], got ${wScale.dtype} ${fmt(wScale.symbolicShape)}`);
  if (w.ndim !== 2) throw new ShapeError(`${L}: w must be [N, K/2] (2 dims), got ${fmt(w.symbolicShape)}`);
  if (wScale.ndim !== 2) throw new ShapeError(`${L}: wScale must be [N, K/groupSize] (2 dims), got ${fmt(wScale.symbolicShape)}`);
  const { a2, lead } = rows(L, 'a', a);
  const gs = (opts as Partial<Int4MatmulOptions> | undefined)?.groupSize;
  checkGroupSize(L, gs, a.shape[a.ndim - 1]!);
  const want = lead;
  if (aScale.ndim !== want.length || aScale.shape.some((d, i) => d !== want[i]))
    throw new ShapeError(`${L}: aScale must be [..., M] = ${fmt(want)} (a is ${fmt(a.shape)}), got ${fmt(aScale.symbolicShape)}`);
  const s2 = aScale.ndim === 1 ? aScale : aScale.reshape([want.reduce((p, q) => p * q, 1)]);
  const out = bindOp('quant.int4Matmul', [a2, s2, w, wScale], gsAttrs(gs))[0]!;
  return a.ndim === 2 ? out : out.reshape([...lead, w.shape[0]!]);
}

// ---- packing (host) --------------------------------------------------------

/**
 * Packs signed 4-bit codes (integers in [-8, 7]) of an [N, K] matrix,
 * row-major, into the [N, K/2] bytes int4Matmul reads: element k even in the
 * low nibble, k odd in the high one, each nibble two's complement. K must be
 * even; a code outside [-8, 7] or not an integer is a ValueError.
 *
 * @example
 * ```ts
 * Array.from(quant.packInt4([1, 7, -8, -1], 1, 4));   // [113, 248]
 * ```
 */
export function packInt4(codes: Int8Array | readonly number[], N: number, K: number): Uint8Array {
  const L = 'quant.packInt4';
  if (!Number.isInteger(N) || N < 0 || !Number.isInteger(K) || K < 0 || K % 2 !== 0)
    throw new ShapeError(`${L}: N must be an integer ≥ 0 and K an even integer ≥ 0 (two codes a byte), got N = ${N}, K = ${K}`);
  if (codes.length !== N * K) throw new ShapeError(`${L}: expects N·K = ${N * K} codes for [${N}, ${K}], got ${codes.length}`);
  const out = new Uint8Array((N * K) / 2);
  for (let i = 0; i < out.length; i++) {
    const lo = codes[2 * i]!,
      hi = codes[2 * i + 1]!;
    if (!(Number.isInteger(lo) && lo >= -8 && lo <= 7)) throw new ValueError(`${L}: codes must be integers in [-8, 7], got ${lo} at index ${2 * i}`);
    if (!(Number.isInteger(hi) && hi >= -8 && hi <= 7)) throw new ValueError(`${L}: codes must be integers in [-8, 7], got ${hi} at index ${2 * i + 1}`);
    out[i] = (lo & 15) | ((hi & 15) << 4);
  }
  return out;
}

/**
 * The inverse of packInt4: the [N, K] signed 4-bit codes (in [-8, 7]) of
 * N·K/2 packed bytes, row-major. K must be even.
 *
 * @example
 * ```ts
 * Array.from(quant.unpackInt4(new Uint8Array([113, 248]), 1, 4));   // [1, 7, -8, -1]
 * ```
 */
export function unpackInt4(packed: Uint8Array, N: number, K: number): Int8Array {
  const L = 'quant.unpackInt4';
  if (!Number.isInteger(N) || N < 0 || !Number.isInteger(K) || K < 0 || K % 2 !== 0)
    throw new ShapeError(`${L}: N must be an integer ≥ 0 and K an even integer ≥ 0 (two codes a byte), got N = ${N}, K = ${K}`);
  if (!(packed instanceof Uint8Array)) throw new DTypeError(`${L}: packed must be a Uint8Array, got ${Object.prototype.toString.call(packed)}`);
  if (packed.length !== (N * K) / 2) throw new ShapeError(`${L}: expects N·K/2 = ${(N * K) / 2} bytes for [${N}, ${K}], got ${packed.length}`);
  const out = new Int8Array(N * K);
  for (let i = 0; i < packed.length; i++) {
    const v = packed[i]!;
    out[2 * i] = ((v & 15) << 28) >> 28;
    out[2 * i + 1] = (v << 24) >> 28;
  }
  return out;
}
