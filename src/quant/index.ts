// The quant namespace (issue 18): quantized tensors (int8 and packed int4
// codes with per-tensor, per-channel or per-block scales), integer GEMMs on
// them, post-training quantization and quantization-aware training of nn
// models.
export { QuantizedTensor } from './quantized.js';
export type { ScaleLayout, Bits, FloatDType, QuantizedTensorFields } from './quantized.js';
export { quantize, dequantize } from './quantize.js';
export type { QuantizeOptions } from './quantize.js';
export { fakeQuant } from './fake-quant.js';
export type { FakeQuantOptions } from './fake-quant.js';
export { scaledMatmul } from './scaled-matmul.js';
export { QuantLinear, QatLinearModule } from './linear.js';
export type { QuantLinearOptions } from './linear.js';
export { ptq, qat } from './ptq.js';
export type { PtqOptions, QatOptions, CalibrationBatch } from './ptq.js';
export { int8Matmul, int4Matmul, packInt4, unpackInt4, INT8_MATMUL_MAX_K } from './ops/int-matmul.js';
export type { Int4MatmulOptions } from './ops/int-matmul.js';
