// Contract cases of rlx.splat. render offers reverse mode only: grad matches
// finite differences (the analytic backward kernels), jvp throws a
// TransformError (never a silent zero), vmap over a scene is the loop. The
// inputs are small scenes in front of the camera, away from the culling and
// threshold discontinuities (moderate scales and opacities).

import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import type { Table, InSpec } from './checks.js';

const { splat, tensor } = rlx;
const cam = splat.lookAt({ eye: [0.2, -0.1, -4], target: [0, 0, 0], fovY: 45, width: 12, height: 10 });
const fixed = {
  means: tensor([[-0.3, 0.1, 0], [0.2, -0.2, 0.3], [0.05, 0.25, -0.2]]),
  quats: tensor([[1, 0.1, -0.2, 0.05], [0.9, 0.3, 0.1, -0.1], [0.7, -0.2, 0.4, 0.3]]),
  scales: tensor([[0.3, 0.2, 0.25], [0.22, 0.35, 0.3], [0.28, 0.26, 0.2]]),
  opacities: tensor([0.6, 0.5, 0.7]),
  colors: tensor([[0.9, 0.2, 0.1], [0.1, 0.8, 0.3], [0.2, 0.3, 0.9]]),
};
const U = (lo: number, hi: number, ...shape: number[]): InSpec => ({ shape, lo, hi });

export const splatCases: Table = {
  'splat.render': [
    { label: 'means', specs: [U(-0.4, 0.4, 3, 3)], f: (m: Tensor) => splat.render({ ...fixed, means: m }, cam).image, ad: 'throws', grad: 'fd' },
    { label: 'colours and opacities', specs: [U(0.1, 0.9, 3, 3), U(0.3, 0.7, 3)], f: (c: Tensor, o: Tensor) => splat.render({ ...fixed, colors: c, opacities: o }, cam, { background: [0.2, 0.2, 0.2] }).image, ad: 'throws', grad: 'fd' },
    { label: 'scales and quats (alpha)', specs: [U(0.2, 0.35, 3, 3), U(0.5, 1, 3, 4)], f: (s: Tensor, q: Tensor) => splat.render({ ...fixed, scales: s, quats: q }, cam).alpha, ad: 'throws', grad: 'fd' },
    { label: 'SH degree 1 (depth)', specs: [U(-0.5, 0.5, 3, 4, 3)], f: (sh: Tensor) => splat.render({ ...fixed, colors: undefined, sh }, cam).depth.add(splat.render({ ...fixed, colors: undefined, sh }, cam).image.sum(-1)), ad: 'throws', grad: 'fd' },
  ],
  'splat.ssim': [
    { specs: [U(0, 1, 12, 13, 3), U(0, 1, 12, 13, 3)], f: (a: Tensor, b: Tensor) => splat.ssim(a, b) },
    { label: 'grey, dataRange 2', specs: [U(0, 2, 11, 11), U(0, 2, 11, 11)], f: (a: Tensor, b: Tensor) => splat.ssim(a, b, { dataRange: 2 }) },
  ],
  'splat.psnr': { none: 'readout' },
  'splat.fit': { none: 'readout' },
  'splat.readPly': { none: 'io' },
  'splat.writePly': { none: 'io' },
  'splat.readSplat': { none: 'io' },
  'splat.writeSplat': { none: 'io' },
  'splat.readPng': { none: 'io' },
  'splat.savePng': { none: 'io' },
  'splat.SplatFileError': { none: 'error' },
  // Named one by one (not Object.keys) so that a new export still needs a decision here.
  ...Object.fromEntries(['sphereShell', 'checkerboardPlane', 'randomCloud'].map((k) => [`splat.scenes.${k}`, { none: 'sizes' as const }])),
  'splat.camera': { none: 'sizes' },
  'splat.lookAt': { none: 'sizes' },
  ...Object.fromEntries(
    ['COV2D_BLUR', 'CLAMP_MARGIN', 'RADIUS_SIGMAS', 'EIGEN_FLOOR', 'ALPHA_MAX', 'ALPHA_MIN', 'T_STOP', 'DEFAULT_NEAR', 'DEFAULT_FAR', 'DEFAULT_TILE_SIZE', 'PIXEL_CENTER', 'SH_OFFSET', 'MAX_SH_DEGREE', 'SH_C0', 'SH_C1', 'SH_C2', 'SH_C3'].map((k) => [`splat.constants.${k}`, { none: 'metadata' as const }]),
  ),
  'splat.nativeSplatStatus': { none: 'device' },
};
