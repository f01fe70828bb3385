// The kernel contract of the splat module: what the js reference
// (kernels/js/, the specification) and the native C++ kernels
// (native/src/splat/) both implement, so the IR ops (ops/) run either.
//
// Rendering one camera is two stages, each a forward and a backward kernel
// (gsplat's split, so each stage's derivative is written once):
//
//   project     Gaussians (means, quats, scales, opacities, colours or SH) and
//               one camera → per-Gaussian 2-D splats (means2d, conics, depths,
//               radii, colours, opacities)
//   rasterize   2-D splats → image, alpha, depth (and the residuals the
//               backward pass needs: final transmittance, per-pixel stop index)
//
// All arrays are contiguous row-major storage of `dtype` (float32 or float64;
// radii and lastIndex are Int32Array). A kernel writes every element of
// every output, gradient outputs included (written, not accumulated into
// caller data): outputs may arrive unzeroed (the ops declare writesAll, so
// the native backend skips zeroing them; tests/splat/native-kernels.test.ts
// fills them with a sentinel). Kernels never throw for numerical content (NaN propagates
// as the arithmetic does); a wrong length or dtype is a caller bug and an
// Error. The constants are in ../constants.ts.
//
// ## project (per Gaussian i; culled ⇒ radius 0 and every output of i is 0)
// 1. q = quats[i] / |q| (w, x, y, z first); R(q) as in the 3DGS notes;
//    M = R·diag(scales[i]); Σ = M Mᵀ.
// 2. t = W μ + w (W, w: the camera's rotation rows and translation column of
//    viewmat, row-major 4×4 world → camera, OpenCV axes: x right, y down, z
//    forward). Culled if t_z ≤ near or t_z ≥ far.
// 3. Clamp: lim⁺ₓ = (width − cx)/fx + CLAMP_MARGIN·tanₓ, lim⁻ₓ = cx/fx +
//    CLAMP_MARGIN·tanₓ with tanₓ = ½·width/fx; t'ₓ = t_z·clamp(tₓ/t_z, −lim⁻ₓ,
//    lim⁺ₓ) (same for y with height, fy, cy). J = [[fx/t_z, 0, −fx·t'ₓ/t_z²],
//    [0, fy/t_z, −fy·t'_y/t_z²]]. Σ₂ = J W Σ Wᵀ Jᵀ = [[a, b], [b, c]].
// 4. det₀ = ac − b²; a += COV2D_BLUR, c += COV2D_BLUR; det = ac − b².
//    Culled if det ≤ 0. conic = (c/det, −b/det, a/det).
//    opacity' = opacity·√max(0, det₀/det) when antialiased, else opacity
//    (where det₀/det ≤ 0 the compensation is 0 and passes no gradient).
// 5. mid = (a + c)/2; λ = mid + √max(EIGEN_FLOOR, mid² − det);
//    radius = ⌈RADIUS_SIGMAS·√λ⌉, stored as min(radius, 2³¹ − 1) (a finite
//    radius past int32 is clamped, never converted out of range; the box
//    cull of step 6 uses the unclamped value).
// 6. means2d = (fx·tₓ/t_z + cx, fy·t_y/t_z + cy) (unclamped t); depth = t_z.
//    Culled if the box [u − r, u + r] × [v − r, v + r] misses the image
//    (u + r ≤ 0 or u − r ≥ width or v + r ≤ 0 or v − r ≥ height).
// 7. colour: shDegree = −1: coeffs[i] (k = 1) as given. Otherwise
//    d = normalize(μ − camera centre) (centre = −Wᵀw), colour_c =
//    Σ_{j < (shDegree+1)²} basis_j(d)·coeffs[i, j, c] + SH_OFFSET, then
//    max(0, ·) (the backward pass zeroes the gradient of a clamped channel;
//    a NaN channel stays NaN: C++'s std::max would drop it, JS's would not).
// 8. Non-finite input: Gaussian i is culled when any of its means, quats,
//    scales or opacity is NaN or ±∞, when |q| = 0, or when a computed depth,
//    det or radius is not finite (so no int conversion of NaN anywhere);
//    non-finite colour/SH coefficients propagate into the image as NaN.
//    (A quaternion whose norm overflows to ∞ counts as non-finite.)
//    rasterize is only fed by project, which never emits a non-finite
//    position, conic, opacity or depth for a drawn splat; its behaviour on
//    such input is unspecified (the js and C++ kernels may differ there).
//
// ## rasterize
// Tiles of tileSize² pixels, tilesX = ⌈width/tileSize⌉, tilesY likewise.
// Splat i (radius r > 0, means2d (u, v)) is listed on the tiles
// x ∈ [clamp(⌊(u − r)/ts⌋, 0, tilesX), clamp(⌊(u + r + ts − 1)/ts⌋, 0, tilesX))
// and y likewise. Each tile's list is sorted by (depth, i) ascending (ties by
// index: every implementation gives the same order). Lists have no size
// limit. Pixel (row py, column px) has its centre at p = (px + PIXEL_CENTER,
// py + PIXEL_CENTER) and walks its tile's list front to back, T = 1:
//   d = means2d − p; σ = ½(c₀dₓ² + c₂d_y²) + c₁dₓd_y; skip if σ < 0;
//   α = min(ALPHA_MAX, o·e^(−σ)); skip if α < ALPHA_MIN;
//   if T·(1 − α) ≤ T_STOP stop (this splat is not added);
//   C += colour·α·T; D += depth·α·T; T ·= 1 − α; lastIndex = position + 1.
// image = C + T·background; alpha = 1 − T; depth = D (expected depth, not
// divided by alpha); finalT = T; lastIndex = one past the list position of
// the last splat added (0 if none).
//
// ## Backward kernels
// The exact derivatives of the forward maps above (almost everywhere: the
// clamps, culls and thresholds are held fixed; in particular the clamped
// t'ₓ = t_z·L passes no gradient to tₓ and L to t_z, which is exact where
// gsplat keeps a 2·fx·t'ₓ/t_z³ term), written into the gradient
// arrays from the output cotangents. rasterizeBackward walks each pixel's
// list from lastIndex − 1 down to 0, recovering T by division by 1 − α.

/** Storage of the float arrays. */
export type SplatDType = 'float32' | 'float64';
export type FloatArray = Float32Array | Float64Array;

/** One pinhole camera, as numbers (cameras are not differentiated). */
export interface SplatCamera {
  /** World → camera, row-major 4×4 (16 numbers; the last row is 0 0 0 1). */
  viewmat: readonly number[];
  fx: number;
  fy: number;
  cx: number;
  cy: number;
  width: number;
  height: number;
  near: number;
  far: number;
}

/** The inputs of project for n Gaussians. */
export interface ProjectArgs {
  dtype: SplatDType;
  n: number;
  /** [n, 3] */
  means: FloatArray;
  /** [n, 4] (w, x, y, z), not necessarily normalized */
  quats: FloatArray;
  /** [n, 3], activated (positive) */
  scales: FloatArray;
  /** [n], activated (in (0, 1)) */
  opacities: FloatArray;
  /** [n, k, 3]: colours (k = 1, shDegree −1) or SH coefficients */
  coeffs: FloatArray;
  /** Coefficients per Gaussian: 1 for colours, (d + 1)² for SH of degree d. */
  k: number;
  /** −1: coeffs are colours used as given; 0..3: the SH bands used ((shDegree + 1)² ≤ k). */
  shDegree: number;
  camera: SplatCamera;
  antialiased: boolean;
}

/** project's outputs (per Gaussian; zero where culled). */
export interface ProjectOutputs {
  /** [n, 2] image point (u, v) */
  means2d: FloatArray;
  /** [n, 3] inverse 2-D covariance (c₀, c₁, c₂) = (c/det, −b/det, a/det) */
  conics: FloatArray;
  /** [n] camera-space z */
  depths: FloatArray;
  /** [n] pixels; 0 = culled */
  radii: Int32Array;
  /** [n, 3] */
  colors: FloatArray;
  /** [n] opacity (antialiasing compensation applied) */
  opacities: FloatArray;
}

/** Cotangents of project's float outputs (same shapes). */
export type ProjectCotangents = Omit<ProjectOutputs, 'radii'>;

/** Gradients of project's inputs (same shapes as ProjectArgs' arrays). */
export interface ProjectGrads {
  means: FloatArray;
  quats: FloatArray;
  scales: FloatArray;
  opacities: FloatArray;
  coeffs: FloatArray;
}

/** The inputs of rasterize: n splats (project's outputs) onto one image. */
export interface RasterArgs {
  dtype: SplatDType;
  n: number;
  width: number;
  height: number;
  tileSize: number;
  /** 3 numbers (RGB) */
  background: readonly number[];
  means2d: FloatArray;
  conics: FloatArray;
  colors: FloatArray;
  opacities: FloatArray;
  depths: FloatArray;
  radii: Int32Array;
}

/** rasterize's outputs. */
export interface RasterOutputs {
  /** [height, width, 3] */
  image: FloatArray;
  /** [height, width] 1 − final T */
  alpha: FloatArray;
  /** [height, width] Σ depth·α·T */
  depth: FloatArray;
  /** [height, width] final transmittance (a residual: alpha would lose it to rounding in float32) */
  finalT: FloatArray;
  /** [height, width] one past the tile-list position of the last splat added (a residual) */
  lastIndex: Int32Array;
}

/** Cotangents of rasterize's user-visible outputs. */
export interface RasterCotangents {
  image: FloatArray;
  alpha: FloatArray;
  depth: FloatArray;
}

/** Gradients of rasterize's float inputs. */
export interface RasterGrads {
  means2d: FloatArray;
  conics: FloatArray;
  colors: FloatArray;
  opacities: FloatArray;
  depths: FloatArray;
}

/** Where the time of a call went (milliseconds), for the benchmarks' breakdown; kernels fill what they measure. */
export interface SplatTimings {
  project?: number;
  bin?: number;
  sort?: number;
  raster?: number;
}

export interface SplatKernels {
  projectForward(a: ProjectArgs, out: ProjectOutputs): void;
  /** radii: the forward's (culled Gaussians get zero gradients). */
  projectBackward(a: ProjectArgs, radii: Int32Array, ct: ProjectCotangents, grads: ProjectGrads): void;
  rasterizeForward(a: RasterArgs, out: RasterOutputs, timings?: SplatTimings): void;
  /** fwd: the forward's residuals; lists are rebuilt from a (same order: sorted by (depth, index)). */
  rasterizeBackward(a: RasterArgs, fwd: { finalT: FloatArray; lastIndex: Int32Array }, ct: RasterCotangents, grads: RasterGrads, timings?: SplatTimings): void;
}
