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
/** Random numbers from explicit, splittable keys (JAX's jax.random): key, split, uniform, normal, ...; same key, same samples on every backend. */
export * as random from './tensor/random.js';
export { DTYPES, toDType, promoteTypes, promotionTable, isComplex, isFloat } from './tensor/dtype.js';
export type { DType, DTypeLike } from './tensor/dtype.js';
export type { Dim, Shape } from './tensor/shape.js';
export { RlxError, ShapeError, DTypeError, ValueError, IndexError, LegalizationError, DeviceError, DeviceLostError, TransformError, DonatedError } from './tensor/errors.js';
export { printOptions, setPrintOptions, resetPrintOptions } from './tensor/format.js';
export { graph, compile, Func, CompiledFunc, GraphBuilder } from './compiler/trace.js';
export { explain } from './compiler/explain.js';
export type { Plan, KernelPlan, BufferPlan } from './compiler/explain.js';
export { cacheStats, clearCache } from './compiler/cache.js';
export { grad, valueAndGrad, vjp, jvp, hvp } from './compiler/transforms/grad.js';
export type { GradOptions } from './compiler/transforms/grad.js';
export { vmap } from './compiler/transforms/vmap.js';
export type { VmapOptions } from './compiler/transforms/vmap.js';
export { jit } from './compiler/transforms/jit.js';
export type { JitOptions, Jitted } from './compiler/transforms/jit.js';
export { jacfwd, jacrev, hessian } from './compiler/transforms/jacobian.js';
export { customJvp, customVjp, checkpoint } from './compiler/transforms/custom.js';
export { stopGradient } from './tensor/ops/custom-call.js';
export type { PyTree } from './compiler/transforms/pytree.js';
export { scan, forLoop } from './compiler/control/scan.js';
export { whileLoop, cond } from './compiler/control/loop.js';
export type { ScanOptions } from './compiler/control/scan.js';
export { config } from './compiler/config.js';
export { backends, setDefaultDevice } from './backends/registry.js';
export { setNumThreads, numThreads } from './backends/native/threads.js';
export { nativeStatus, blasInfo } from './backends/native/info.js';
export { nativeFftStatus } from './fft/kernels/native.js';
export type { NativeStatus, NativeSource, BlasInfo } from './backends/native/info.js';
export type { Backend, BackendStatus, DispatchChoice, DeviceRuntime, DeviceGraph, DimEnv } from './backends/backend.js';
export type { DeviceStorage } from './compiler/ir.js';
/** Dense linear algebra (numpy.linalg / scipy.linalg): solve, lstsq, inv, det, qr, cholesky, eigh, svd, eig, norm, expm, ... on LAPACK (native) or TypeScript kernels. */
export * as linalg from './linalg/index.js';
/** Sparse matrices (scipy.sparse): CSR/CSC/COO formats, builders (poisson2d, ...), Matrix Market / Harwell-Boeing I/O, direct (spsolve, splu, cholesky) and Krylov (cg, gmres, ...) solvers, eigsh. */
export * as sparse from './sparse/index.js';
/** Fast Fourier transforms (numpy.fft): fft, ifft, rfft, irfft, their 2-D and n-D forms, fftfreq, fftshift; FFTW on native. */
export * as fft from './fft/index.js';
/** Plots from tensors as plotly.js figures (line, scatter, heatmap, contour, surface, spy, animate, subplots) that render offline, in notebooks and to PNG. */
export * as plot from './plot/index.js';
export type { ProgressOption, ProgressOptions, ProgressStream } from './progress.js';
/** ODE integrators (scipy.integrate): solveIvp (adaptive), odeint (with adjoint gradients), and fixed-step rk4, velocityVerlet, leapfrog, crankNicolson. */
export * as integrate from './integrate/index.js';

/** 3-D Gaussian splatting (gsplat's conventions): render (differentiable), cameras, PLY/.splat/PNG files, procedural scenes, fitting. */
export * as splat from './splat/index.js';

/** Pytree utilities (jax.tree_util): leaves, flatten, unflatten, map over nested arrays, objects and registered classes such as nn modules. */
export * as tree from './compiler/transforms/tree.js';
/** Neural networks (torch.nn): modules as pytrees with PyTorch's parameter names and state dicts, and nn.functional. */
export * as nn from './nn/index.js';
/** Optimizers (torch.optim, functional): sgd, adam, adamw with learning-rate schedules, gradient clipping and dynamic loss scaling; init(params) / step(params, grads, state). */
export * as optim from './optim/index.js';
/** Quantization: int8 / packed int4 tensors with per-tensor, per-channel or per-block scales, integer GEMMs (native VNNI/AVX2), post-training quantization and quantization-aware training of nn models. */
export * as quant from './quant/index.js';
/** Model and data files: safetensors (load, save, header), IDX (MNIST/Fashion-MNIST), and mini-batching of in-memory data. */
export * as io from './io/index.js';
