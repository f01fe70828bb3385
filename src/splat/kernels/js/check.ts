// Argument checks of the js splat kernels. Their callers are the splat ops,
// not users, so a wrong length, dtype or shape parameter is a bug upstream
// and a plain Error naming the kernel, what it got and what it expected (as
// ../contract.ts says); numerical content is never checked here.

import type { FloatArray, ProjectArgs, ProjectCotangents, ProjectGrads, ProjectOutputs, RasterArgs, RasterCotangents, RasterGrads, RasterOutputs, SplatDType } from '../contract.js';

function isCount(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
}

function checkFloat(kernel: string, name: string, dtype: SplatDType, arr: unknown, length: number): void {
  const want = dtype === 'float32' ? Float32Array : Float64Array;
  if (!(arr instanceof want)) throw new Error(`splat ${kernel}: ${name} must be a ${want.name} (dtype ${dtype}), got ${describe(arr)}`);
  if (arr.length !== length) throw new Error(`splat ${kernel}: ${name} must have ${length} values, got ${arr.length}`);
}

function checkInt(kernel: string, name: string, arr: unknown, length: number): void {
  if (!(arr instanceof Int32Array)) throw new Error(`splat ${kernel}: ${name} must be an Int32Array, got ${describe(arr)}`);
  if (arr.length !== length) throw new Error(`splat ${kernel}: ${name} must have ${length} values, got ${arr.length}`);
}

function describe(x: unknown): string {
  return x === null || typeof x !== 'object' ? String(x) : (x.constructor?.name ?? 'object');
}

function checkDType(kernel: string, dtype: unknown): asserts dtype is SplatDType {
  if (dtype !== 'float32' && dtype !== 'float64') throw new Error(`splat ${kernel}: dtype must be 'float32' or 'float64', got ${String(dtype)}`);
}

export function checkProjectArgs(kernel: string, a: ProjectArgs): void {
  checkDType(kernel, a.dtype);
  if (!isCount(a.n)) throw new Error(`splat ${kernel}: n must be a non-negative integer, got ${a.n}`);
  if (!Number.isInteger(a.shDegree) || a.shDegree < -1 || a.shDegree > 3) throw new Error(`splat ${kernel}: shDegree must be an integer in [-1, 3], got ${a.shDegree}`);
  if (a.shDegree === -1 ? a.k !== 1 : !isCount(a.k) || a.k < (a.shDegree + 1) ** 2)
    throw new Error(`splat ${kernel}: k must be ${a.shDegree === -1 ? '1 for colours (shDegree -1)' : `an integer ≥ ${(a.shDegree + 1) ** 2} for shDegree ${a.shDegree}`}, got ${a.k}`);
  checkFloat(kernel, 'means', a.dtype, a.means, 3 * a.n);
  checkFloat(kernel, 'quats', a.dtype, a.quats, 4 * a.n);
  checkFloat(kernel, 'scales', a.dtype, a.scales, 3 * a.n);
  checkFloat(kernel, 'opacities', a.dtype, a.opacities, a.n);
  checkFloat(kernel, 'coeffs', a.dtype, a.coeffs, 3 * a.k * a.n);
  const c = a.camera;
  if (!c || !Array.isArray(c.viewmat) || c.viewmat.length !== 16) throw new Error(`splat ${kernel}: camera.viewmat must be 16 numbers, got ${c ? JSON.stringify(c.viewmat) : String(c)}`);
  if (!isCount(c.width) || !isCount(c.height)) throw new Error(`splat ${kernel}: camera width and height must be non-negative integers, got ${c.width}×${c.height}`);
}

export function checkProjectOutputs(kernel: string, a: ProjectArgs, o: ProjectOutputs): void {
  checkFloat(kernel, 'out.means2d', a.dtype, o.means2d, 2 * a.n);
  checkFloat(kernel, 'out.conics', a.dtype, o.conics, 3 * a.n);
  checkFloat(kernel, 'out.depths', a.dtype, o.depths, a.n);
  checkInt(kernel, 'out.radii', o.radii, a.n);
  checkFloat(kernel, 'out.colors', a.dtype, o.colors, 3 * a.n);
  checkFloat(kernel, 'out.opacities', a.dtype, o.opacities, a.n);
}

export function checkProjectCotangents(kernel: string, a: ProjectArgs, radii: Int32Array, ct: ProjectCotangents): void {
  checkInt(kernel, 'radii', radii, a.n);
  checkFloat(kernel, 'ct.means2d', a.dtype, ct.means2d, 2 * a.n);
  checkFloat(kernel, 'ct.conics', a.dtype, ct.conics, 3 * a.n);
  checkFloat(kernel, 'ct.depths', a.dtype, ct.depths, a.n);
  checkFloat(kernel, 'ct.colors', a.dtype, ct.colors, 3 * a.n);
  checkFloat(kernel, 'ct.opacities', a.dtype, ct.opacities, a.n);
}

export function checkProjectGrads(kernel: string, a: ProjectArgs, g: ProjectGrads): void {
  checkFloat(kernel, 'grads.means', a.dtype, g.means, 3 * a.n);
  checkFloat(kernel, 'grads.quats', a.dtype, g.quats, 4 * a.n);
  checkFloat(kernel, 'grads.scales', a.dtype, g.scales, 3 * a.n);
  checkFloat(kernel, 'grads.opacities', a.dtype, g.opacities, a.n);
  checkFloat(kernel, 'grads.coeffs', a.dtype, g.coeffs, 3 * a.k * a.n);
}

export function checkRasterArgs(kernel: string, a: RasterArgs): void {
  checkDType(kernel, a.dtype);
  if (!isCount(a.n)) throw new Error(`splat ${kernel}: n must be a non-negative integer, got ${a.n}`);
  if (!isCount(a.width) || !isCount(a.height)) throw new Error(`splat ${kernel}: width and height must be non-negative integers, got ${a.width}×${a.height}`);
  if (!isCount(a.tileSize) || a.tileSize < 1) throw new Error(`splat ${kernel}: tileSize must be a positive integer, got ${a.tileSize}`);
  if (!Array.isArray(a.background) || a.background.length !== 3) throw new Error(`splat ${kernel}: background must be 3 numbers, got ${JSON.stringify(a.background)}`);
  checkFloat(kernel, 'means2d', a.dtype, a.means2d, 2 * a.n);
  checkFloat(kernel, 'conics', a.dtype, a.conics, 3 * a.n);
  checkFloat(kernel, 'colors', a.dtype, a.colors, 3 * a.n);
  checkFloat(kernel, 'opacities', a.dtype, a.opacities, a.n);
  checkFloat(kernel, 'depths', a.dtype, a.depths, a.n);
  checkInt(kernel, 'radii', a.radii, a.n);
}

function checkImage(kernel: string, a: RasterArgs, prefix: string, image: FloatArray, alpha: FloatArray, depth: FloatArray): void {
  const px = a.width * a.height;
  checkFloat(kernel, `${prefix}.image`, a.dtype, image, 3 * px);
  checkFloat(kernel, `${prefix}.alpha`, a.dtype, alpha, px);
  checkFloat(kernel, `${prefix}.depth`, a.dtype, depth, px);
}

export function checkRasterOutputs(kernel: string, a: RasterArgs, o: RasterOutputs): void {
  checkImage(kernel, a, 'out', o.image, o.alpha, o.depth);
  checkFloat(kernel, 'out.finalT', a.dtype, o.finalT, a.width * a.height);
  checkInt(kernel, 'out.lastIndex', o.lastIndex, a.width * a.height);
}

export function checkRasterBackward(kernel: string, a: RasterArgs, fwd: { finalT: FloatArray; lastIndex: Int32Array }, ct: RasterCotangents, g: RasterGrads): void {
  checkFloat(kernel, 'fwd.finalT', a.dtype, fwd.finalT, a.width * a.height);
  checkInt(kernel, 'fwd.lastIndex', fwd.lastIndex, a.width * a.height);
  checkImage(kernel, a, 'ct', ct.image, ct.alpha, ct.depth);
  checkFloat(kernel, 'grads.means2d', a.dtype, g.means2d, 2 * a.n);
  checkFloat(kernel, 'grads.conics', a.dtype, g.conics, 3 * a.n);
  checkFloat(kernel, 'grads.colors', a.dtype, g.colors, 3 * a.n);
  checkFloat(kernel, 'grads.opacities', a.dtype, g.opacities, a.n);
  checkFloat(kernel, 'grads.depths', a.dtype, g.depths, a.n);
}
