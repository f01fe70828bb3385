// The splat namespace: 3-D Gaussian splatting (render, cameras, files,
// scenes, fitting). Only re-exports.

export { render } from './render.js';
export type { RenderOptions, RenderResult } from './render.js';
export { camera, lookAt } from './camera.js';
export type { CameraOptions, LookAtOptions, MatrixLike } from './camera.js';
export type { Gaussians, Camera } from './types.js';
export * as constants from './constants.js';
