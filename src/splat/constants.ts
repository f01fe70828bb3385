// Every constant of the splatting semantics in one place (gsplat's classic
// rasterization, so results compare with it). The js reference
// (kernels/js/), the native kernels (native/src/splat/, which repeat these
// values in splat_constants.h; a test reads that header and compares) and the
// docs all use these.

/** Added to both diagonal entries of the 2-D covariance (gsplat's eps2d): a pixel-sized low-pass filter. */
export const COV2D_BLUR = 0.3;
/** The Jacobian's tx/tz, ty/tz are clamped this fraction of tan(fov/2) beyond the image's edges. */
export const CLAMP_MARGIN = 0.3;
/** The radius of a splat in pixels is ⌈RADIUS_SIGMAS · √λ_max⌉ of its 2-D covariance. */
export const RADIUS_SIGMAS = 3;
/** λ_max = b + √max(EIGEN_FLOOR, b² − det), b = (a + c)/2: keeps the radius of a near-isotropic splat finite. */
export const EIGEN_FLOOR = 0.1;
/** α of one splat at one pixel is at most this (so 1 − α never reaches 0 and the backward pass can divide by it). */
export const ALPHA_MAX = 0.999;
/** A splat whose α at a pixel is below this is skipped there. */
export const ALPHA_MIN = 1 / 255;
/** A pixel stops before adding a splat that would bring its transmittance T·(1 − α) to this or below. */
export const T_STOP = 1e-4;
/** Default near plane: Gaussians with camera-space z ≤ near are culled. */
export const DEFAULT_NEAR = 0.01;
/** Default far plane: Gaussians with camera-space z ≥ far are culled. */
export const DEFAULT_FAR = 1e10;
/** Default tile size in pixels (square tiles). */
export const DEFAULT_TILE_SIZE = 16;
/** Pixel (row i, column j) has its centre at image point (j + PIXEL_CENTER, i + PIXEL_CENTER). */
export const PIXEL_CENTER = 0.5;
/** Added to the SH colour before it is clamped at 0 (the DC term is centred on grey). */
export const SH_OFFSET = 0.5;
/** Highest spherical-harmonics degree served (K = (d + 1)² = 16 coefficients). */
export const MAX_SH_DEGREE = 3;

/** Real SH basis constants (the 3DGS reference notes): degree 0. */
export const SH_C0 = 0.28209479177387814;
/** Degree 1: colour += −C1·y·sh1 + C1·z·sh2 − C1·x·sh3. */
export const SH_C1 = 0.4886025119029199;
/** Degree 2: C2[0]·xy, C2[1]·yz, C2[2]·(2z² − x² − y²), C2[3]·xz, C2[4]·(x² − y²). */
export const SH_C2 = [1.0925484305920792, -1.0925484305920792, 0.31539156525252005, -1.0925484305920792, 0.5462742152960396] as const;
/**
 * Degree 3: C3[0]·y(3x² − y²), C3[1]·xyz, C3[2]·y(4z² − x² − y²),
 * C3[3]·z(2z² − 3x² − 3y²), C3[4]·x(4z² − x² − y²), C3[5]·z(x² − y²),
 * C3[6]·x(x² − 3y²).
 */
export const SH_C3 = [-0.5900435899266435, 2.890611442640554, -0.4570457994644658, 0.3731763325901154, -0.4570457994644658, 1.445305721320277, -0.5900435899266435] as const;
