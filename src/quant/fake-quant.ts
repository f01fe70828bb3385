// fakeQuant: quantize-then-dequantize in float, with PyTorch's
// straight-through estimator for quantization-aware training.
//
// Forward: dequantize(quantize(x)) exactly as quant.quantize computes it
// (same scales, same rounding), cast back to x's dtype.
// Backward: torch.fake_quantize_per_tensor_affine's gradient: 1 where the
// rounded code round(x/scale) + z lies inside [qmin, qmax], 0 where it was
// clamped. Written as m·x + stopGradient(fq(x) − m·x) with m that mask
// (itself under stopGradient), so it is ordinary IR: jit, grad, vmap, hvp see
// through it. The scales are not differentiated (they are computed from x's
// min-max under stopGradient, or given).

import type { Tensor } from '../tensor/tensor.js';
import { tensor } from '../tensor/create.js';
import { stopGradient } from '../tensor/ops/custom-call.js';
import { codeRange, layoutView } from './quantized.js';
import { codesFloat, dequantizeFloat, paramsFor, resolveOptions, type QuantizeOptions } from './quantize.js';

/** Options of quant.fakeQuant: quantize's, with optional given `scale` / `zeroPoint`. */
export type FakeQuantOptions = QuantizeOptions;

/**
 * Quantize-dequantize in float (what a quantized layer will see), with the
 * straight-through gradient of torch.fake_quantize_per_tensor_affine: 1 where
 * x quantizes inside the code range, 0 where it is clipped. Layouts and
 * scales as in quant.quantize (min-max from x unless `scale` is given).
 * @example
 * ```ts
 * const x = tensor([0.3, 1.0, 2.6]);
 * quant.fakeQuant(x, { bits: 4, scale: 0.25 }).tolist();                         // [0.25, 1, 1.75]
 * grad((v: Tensor) => quant.fakeQuant(v, { bits: 4, scale: 0.25 }).sum())(x).tolist();   // [1, 1, 0]
 * ```
 */
export function fakeQuant(x: Tensor, opts: FakeQuantOptions = {}): Tensor {
  const op = 'quant.fakeQuant';
  const r = resolveOptions(op, x, opts, false);
  const xs = stopGradient(x);
  const p = paramsFor(op, xs, r, opts);
  const scales = stopGradient(p.scales);
  const zeroPoints = p.zeroPoints && stopGradient(p.zeroPoints);
  const codes = codesFloat(xs, r, scales, zeroPoints);
  const fq = dequantizeFloat(codes, r.layout, scales, zeroPoints).cast(x.dtype);
  // The mask: the unclamped code lies in [qmin, qmax].
  const lv = layoutView(x.shape, r.layout);
  const [qmin, qmax] = codeRange(r.bits, r.symmetric);
  let raw = lv.view(xs.cast('float32')).mul(lv.expand(tensor(1, { dtype: 'float32' }).div(scales))).round();
  if (zeroPoints) raw = raw.add(lv.expand(zeroPoints.cast('float32')));
  const mask = lv.back(raw.ge(qmin).logicalAnd(raw.le(qmax))).cast(x.dtype);
  const mx = x.mul(mask);
  return mx.add(stopGradient(fq.sub(mx)));
}
