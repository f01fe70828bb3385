// scaledMatmul: a · bᵀ on quantized operands, in integer arithmetic.
//
//   a: activations [..., M, K], quantized per tensor or per row (one scale per
//      m: quantize(x, {groupSize: K}), or {axis: -2} on a matrix), or a float
//      tensor, which is quantized per row (8-bit symmetric) on the spot;
//   b: weights [N, K], 8-bit per tensor or per output channel (axis 0), or
//      4-bit in any layout (per tensor / per channel become one group of K).
//
// 8-bit weights: int8Matmul gives Σ_k qa·qb exactly in int32; zero points are
// corrected in int32 (Σ (qa−za)(qb−zb) = Σ qa qb − zb Σ qa − za Σ qb + K za zb),
// then one float32 product by aScale[m]·bScale[n]. 4-bit weights: int4Matmul
// (group-wise scales inside the kernel); zero points, where present, are
// subtracted afterwards from group sums in float32.

import { Tensor } from '../tensor/tensor.js';
import { ShapeError, ValueError } from '../tensor/errors.js';
import { QuantizedTensor, codesOf } from './quantized.js';
import { quantize, dequantizeFloat, describe } from './quantize.js';
import { int8Matmul, int4Matmul } from './ops/int-matmul.js';

const OP = 'quant.scaledMatmul';

/** a's per-row scales and zero points as [..., M] tensors (or explains why a's layout has none). */
function rowParams(a: QuantizedTensor): { scale: Tensor; zero: Tensor | null } {
  const n = a.ndim;
  const rows = a.shape.slice(0, -1);
  const l = a.layout;
  const perRow = (t: Tensor): Tensor => {
    if (l.kind === 'tensor') return t.broadcastTo(rows);
    if (l.kind === 'channel') return t.broadcastTo(rows); // [M] against [..., M]
    return t.reshape(rows); // [..., M, 1]
  };
  const ok = l.kind === 'tensor' || (l.kind === 'channel' && l.axis === n - 2) || (l.kind === 'block' && l.blockSize === a.shape[n - 1]);
  if (!ok)
    throw new ValueError(
      `${OP}: activations must be quantized per tensor or per row (quantize(x, {groupSize: K}), or {axis: -2}); got layout ${JSON.stringify(l)} for shape [${a.shape}]`,
    );
  return { scale: perRow(a.scales), zero: a.zeroPoints && perRow(a.zeroPoints) };
}

/**
 * a · bᵀ for quantized a [..., M, K] (per-tensor or per-row scales; a float
 * tensor is quantized per row, 8-bit symmetric) and quantized weights b [N, K]
 * (8-bit per tensor or per output channel; 4-bit in any layout, group-wise
 * included): float32 [..., M, N] ≈ dequantize(a) · dequantize(b)ᵀ, computed by
 * an int8 × int8 → int32 GEMM (8-bit weights) or the INT4 group-wise GEMM,
 * zero points corrected exactly.
 * @example
 * ```ts
 * const w = quant.quantize(tensor([[1, -2, 3, 4], [0.5, 0.5, -1, 2]]), { axis: 0 });
 * const x = quant.quantize(tensor([[1, 2, 3, 4]]), { groupSize: 4 });
 * quant.scaledMatmul(x, w).shape;    // [1, 2]
 * const err = quant.scaledMatmul(x, w).sub(matmul(quant.dequantize(x), quant.dequantize(w).transpose())).abs().max().item() as number;
 * err < 1e-5;                        // true
 * ```
 */
export function scaledMatmul(a: QuantizedTensor | Tensor, b: QuantizedTensor): Tensor {
  if (a instanceof Tensor) {
    if (a.ndim < 1) throw new ShapeError(`${OP}: a must have at least one axis [..., K], got a scalar`);
    if (a.ndim === 1) {
      const y = scaledMatmul(a.expandDims(0), b);
      return y.reshape([y.shape[1]!]);
    }
    a = quantize(a, { groupSize: a.shape[a.ndim - 1]! });
  }
  if (!(a instanceof QuantizedTensor)) throw new ValueError(`${OP}: a must be a QuantizedTensor or a float Tensor, got ${describe(a)}`);
  if (!(b instanceof QuantizedTensor)) throw new ValueError(`${OP}: b must be a QuantizedTensor (quant.quantize(weight, ...)), got ${describe(b)}`);
  if (a.ndim < 2) throw new ShapeError(`${OP}: a must be [..., M, K], got shape [${a.shape}]`);
  if (b.ndim !== 2) throw new ShapeError(`${OP}: b must be a matrix [N, K], got shape [${b.shape}]`);
  const K = a.shape[a.ndim - 1]!;
  const [N, Kb] = b.shape as [number, number];
  if (K !== Kb) throw new ShapeError(`${OP}: a [..., M, K] and b [N, K] must share K; got a [${a.shape}], b [${b.shape}]`);
  const { scale: aScale, zero: aZero } = rowParams(a);
  const qa = codesOf(a);
  const lead = a.shape.slice(0, -1);
  const col = (t: Tensor) => t.expandDims(-1); // [..., M] → [..., M, 1]
  const bl = b.layout;

  if (b.bits === 8) {
    if (!(bl.kind === 'tensor' || (bl.kind === 'channel' && bl.axis === 0) || (bl.kind === 'block' && bl.blockSize === K)))
      throw new ValueError(`${OP}: 8-bit weights must be quantized per tensor or per output channel (axis 0); got layout ${JSON.stringify(bl)} (use bits: 4 for group-wise weights)`);
    const perN = (t: Tensor) => (bl.kind === 'tensor' ? t.broadcastTo([N]) : t.reshape([N]));
    const bScale = perN(b.scales);
    const bZero = b.zeroPoints && perN(b.zeroPoints);
    let acc = int8Matmul(qa, b.codes); // int32 [..., M, N]
    if (bZero) acc = acc.sub(col(qa.sum(-1)).mul(bZero));
    if (aZero) {
      acc = acc.sub(col(aZero).mul(b.codes.sum(-1)));
      if (bZero) acc = acc.add(col(aZero).mul(bZero).mul(K));
    }
    return acc.cast('float32').mul(col(aScale)).mul(bScale);
  }

  // 4-bit weights: scales as [N, G] groups.
  if (bl.kind === 'channel' && bl.axis !== 0) throw new ValueError(`${OP}: 4-bit weights per channel must be along axis 0 (output channels); got axis ${bl.axis}`);
  const groupSize = bl.kind === 'block' ? bl.blockSize : K;
  const toGroups = (t: Tensor) => (bl.kind === 'tensor' ? t.broadcastTo([N, 1]) : bl.kind === 'channel' ? t.reshape([N, 1]) : t);
  const wScale = toGroups(b.scales);
  let out = int4Matmul(qa, aScale, b.codes, wScale, { groupSize }); // float32 [..., M, N]
  if (b.zeroPoints) {
    // Σ_g ws[n,g]·zw[n,g]·aScale[m]·Σ_{k∈g} qa[m,k]
    const G = K / groupSize;
    const groupSums = qa.reshape([...lead, G, groupSize]).sum(-1).cast('float32'); // [..., M, G]
    const sz = wScale.mul(toGroups(b.zeroPoints).cast('float32')); // [N, G]
    out = out.sub(groupSums.matmul(sz.transpose()).mul(col(aScale)));
  }
  if (aZero) {
    const bRowSums = dequantizeFloat(codesOf(b).cast('float32'), bl, b.scales, b.zeroPoints).sum(-1); // [N]
    out = out.sub(col(aZero.cast('float32').mul(aScale)).mul(bRowSums));
  }
  return out;
}
