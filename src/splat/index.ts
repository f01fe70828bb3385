// The splat namespace: 3-D Gaussian splatting (render, cameras, files,
// scenes, fitting). Only re-exports.

export { render } from './render.js';
export type { RenderOptions, RenderResult } from './render.js';
export { camera, lookAt } from './camera.js';
export type { CameraOptions, LookAtOptions, MatrixLike } from './camera.js';
export type { Gaussians, Camera } from './types.js';
export { readPly, writePly } from './io/ply.js';
export type { ReadPlyOptions, WritePlyOptions } from './io/ply.js';
export { readSplat, writeSplat } from './io/splat-file.js';
export type { ReadSplatOptions } from './io/splat-file.js';
export { savePng, readPng } from './io/png.js';
export type { ReadPngOptions } from './io/png.js';
export { SplatFileError } from './io/errors.js';
export { ssim } from './ssim.js';
export type { SsimOptions } from './ssim.js';
export { fit, psnr } from './fit.js';
export type { FitOptions, FitResult, FitLearningRates } from './fit.js';
export type { DensifyOptions } from './fit-densify.js';
/** Procedural scenes (sphere shell, checkerboard plane, random cloud), each with a ring of cameras, for tests and demos. */
export * as scenes from './scenes.js';
export type { GaussianDType } from './io/gaussian-arrays.js';
export type { Scene, SceneOptions, SphereShellOptions, CheckerboardPlaneOptions, RandomCloudOptions } from './scenes.js';
export { nativeSplatStatus } from './kernels/register.js';
/** Every constant of the rendering semantics (gsplat's classic rasterization): blur, clamps, thresholds, SH basis. */
export * as constants from './constants.js';
