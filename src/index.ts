// rlx: the public API. This file only re-exports.

export { Tensor } from './tensor/tensor.js';
export type { Operand, Axis, NestedList } from './tensor/tensor.js';
export { tensor, zeros, ones, full, zerosLike, onesLike, arange, linspace, eye, fromStorage } from './tensor/create.js';
export type { TensorOptions, TensorData, NestedData, ComplexValue } from './tensor/create.js';
export { where, complex, cast } from './tensor/ops/elementwise.js';
export { cat, stack } from './tensor/ops/movement.js';
export { matmul, dot, outer } from './tensor/ops/linear.js';
export { s, ax, rg, ix, tail } from './tensor/slicing.js';
export type { SliceSpec, AxisSpec } from './tensor/slicing.js';
export * as random from './tensor/random.js';
export { DTYPES, toDType, promoteTypes, promotionTable, isComplex, isFloat } from './tensor/dtype.js';
export type { DType, DTypeLike } from './tensor/dtype.js';
export type { Dim, Shape } from './tensor/shape.js';
export { RlxError, ShapeError, DTypeError, ValueError, IndexError, LegalizationError, DeviceError } from './tensor/errors.js';
export { printOptions, setPrintOptions, resetPrintOptions } from './tensor/format.js';
export { graph, compile, Func, CompiledFunc, GraphBuilder } from './compiler/trace.js';
export { explain } from './compiler/explain.js';
export type { Plan, KernelPlan, BufferPlan } from './compiler/explain.js';
export { cacheStats, clearCache } from './compiler/cache.js';
export { config } from './compiler/config.js';
export { backends } from './backends/registry.js';
export type { Backend, BackendStatus, DispatchChoice } from './backends/backend.js';
