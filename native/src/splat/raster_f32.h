// The float32 rasterize passes (dtype float32): float arithmetic in eight
// lanes (simd8.h) instead of the float64 passes' doubles, with every decision
// the contract makes (skip σ < 0, skip α < ALPHA_MIN, stop once
// T·(1 − α) ≤ T_STOP) still taken exactly as the js reference takes it in
// double. How:
//
// * Per splat, once per call (prepare_splats_f32, one 64-byte record): its
//   inputs as floats, its pixel box, and the bands below, from the σ
//   threshold thr = ln(255·o) (α ≥ ALPHA_MIN ⇔ σ ≤ thr, up to the last bits
//   of exp and log: δ) and a bound E on |σ_float − σ_exact| over every lane
//   any tile can evaluate for that splat (4 × 2 pixel blocks over raster_tile.h's
//   box, as floats rounded outwards: |dx| < ex + 4, |dy| < ey + 1).
//   Each of the float σ's operations rounds once (relative 2⁻²⁴); with
//   B = ½(c₀dx² + c₂dy²) + |c₁dx·dy| ≥ |every partial sum|,
//   |error| ≤ 6·2⁻²⁴·B (to first order), and E = SIGMA_REL·B at those
//   largest |dx|, |dy|, SIGMA_REL = 6e-7 > 10·2⁻²⁴. The box the passes
//   visit is then tightened to the ellipse σ ≤ L, L = skipMin +
//   2(skipMin − acceptMax) (with a relative 1e-6 and 1e-4 pixel to spare)
//   ≥ skipMin + 2E: a lane outside it has σ > L, so σ_float > skipMin and the
//   lane test skips it anyway, and every pixel the reference adds (σ ≤ thr)
//   is inside. That drops raster_tile.h's extra pixel on each side (a third
//   of the eight-lane visits on small splats) without changing a decision;
//   it is never wider than raster_tile.h's box, over which E was taken. A
//   tile entry (gather_f32) only clips the box to its tile.
//   The reference's σ is never negative for a trusted splat (its conic is
//   positive definite with ρ = |c₁|/√(c₀c₂) < 1 − 5e-7, so σ ≥ B(1 − ρ)/2,
//   far above double rounding, and its dx, dy are exact), so only α ≥
//   ALPHA_MIN decides: σ_float ≤ thr − E − δ proves the reference adds the
//   splat, σ_float > thr + E + δ that it skips it; a lane between the two
//   (rare: σ within ~1e-6·B of thr) is decided by the js arithmetic itself
//   in double (exact_alpha).
// * The stop test: the float T differs from the reference's by at most
//   Σⱼ Tⱼαⱼ·relⱼ ≤ max relⱼ (to first order; relⱼ = E' + EXP8_REL_ERR bounds
//   α's relative error on the lanes that add, E' = min(E, SIGMA_REL·σmax·
//   (1 + ρ)/(1 − ρ)): such a lane has σ ≤ σmax = skipMin + E, and with
//   ρ = |c₁|/√(c₀c₂), |c₁dx·dy| ≤ ρ·½(c₀dx² + c₂dy²) gives B ≤ σ(1 + ρ)/(1 − ρ);
//   far below the box edge's E for a small splat) plus the rounding of the
//   products (2⁻²² per step).
//   Each lane carries that bound (U ← U·(1 − α) + rel·α·T per added splat).
//   A lane whose T·(1 − α) lies within that band of T_STOP cannot be decided
//   in float: the pixel is marked and, after the tile, recomputed by the js
//   walk in double (the forward's replay). The backward takes lastIndex as
//   given, so only the skip decisions matter there.
// * A tile with a splat these bounds do not cover (non-finite or huge
//   numbers, a badly conditioned conic, lists past 2²⁴; in the backward also
//   an opacity above ALPHA_MAX, whose clamp decides a gradient) runs the
//   float64 pass instead.
//
// So dtype float32's lastIndex is the js reference's exactly and its image,
// alpha, depth and gradients differ from it by float rounding only.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "splat/raster_tile.h"
#include "splat/simd8.h"
#include "splat/splat.h"
#include "splat/splat_constants.h"

namespace rlx {
namespace splat {

/**
 * The eight lanes of the float passes are a block of BLOCK_W × BLOCK_H pixels
 * (lane l: column l % 4, row l / 4 of the block), not a run of eight in one
 * row: the splats are small (a few pixels across), and on the benchmark
 * scene 4 × 2 blocks cover their boxes in 19 % fewer visits than 8 × 1 runs
 * (886k against 1.09M at 100k splats, 800 × 600). A block reaches 3 columns
 * and 1 row past a box, within the |dx| < ex + 4, |dy| < ey + 1 over which
 * E is taken.
 */
constexpr int BLOCK_W = 4, BLOCK_H = 2;
static_assert(BLOCK_W * BLOCK_H == 8, "a block is one eight-lane vector");
RLX_ALWAYS_INLINE int block_col(int lane) { return lane % BLOCK_W; }
RLX_ALWAYS_INLINE int block_row(int lane) { return lane / BLOCK_W; }
/** Each lane's column and row in its block, as floats. */
RLX_ALWAYS_INLINE v8f block_cols() { return v8f{0, 1, 2, 3, 0, 1, 2, 3}; }
RLX_ALWAYS_INLINE v8f block_rows() { return v8f{0, 0, 0, 0, 1, 1, 1, 1}; }

/** A block's eight values from its two rows of four (p0: row 0, p1: row 1), joined in registers. */
template <class T>
RLX_ALWAYS_INLINE auto block_of(const T* p0, const T* p1) {
  typedef T v4 __attribute__((vector_size(16)));
  v4 a, b;
  std::memcpy(&a, p0, 16);
  std::memcpy(&b, p1, 16);
  return __builtin_shufflevector(a, b, 0, 1, 2, 3, 4, 5, 6, 7);
}

/** A block's three channels from interleaved RGB rows (twelve floats a row at p0, p1), joined in registers. */
RLX_ALWAYS_INLINE void block_channels(const float* p0, const float* p1, v8f out[3]) {
  typedef float v4 __attribute__((vector_size(16)));
  v4 row[2][3];
  for (int k = 0; k < 3; k++) std::memcpy(&row[0][k], p0 + 4 * k, 16), std::memcpy(&row[1][k], p1 + 4 * k, 16);
  v4 ch[2][3];
  for (int y = 0; y < 2; y++) {
    const v8f lo = __builtin_shufflevector(row[y][0], row[y][1], 0, 1, 2, 3, 4, 5, 6, 7);     // x0 … x7
    const v8f hi = __builtin_shufflevector(row[y][2], row[y][2], 0, 1, 2, 3, 0, 1, 2, 3);     // x8 … x11, twice
    ch[y][0] = __builtin_shufflevector(lo, hi, 0, 3, 6, 9);
    ch[y][1] = __builtin_shufflevector(lo, hi, 1, 4, 7, 10);
    ch[y][2] = __builtin_shufflevector(lo, hi, 2, 5, 8, 11);
  }
  for (int c = 0; c < 3; c++) out[c] = __builtin_shufflevector(ch[0][c], ch[1][c], 0, 1, 2, 3, 4, 5, 6, 7);
}

/** One splat's rasterize inputs as the float passes read them (64 bytes: one cache line). */
struct PackedSplat {
  float u, v, c0, c1, c2, o, col[3], z;
  /** Half-extents of the pixel box: the ellipse σ ≤ L's (above), rounded up, at most raster_tile.h's. */
  float ex, ey;
  /** σ ≤ acceptMax: added for sure; σ > skipMin: skipped for sure (bands from E over every lane any tile evaluates). */
  float acceptMax, skipMin;
  /** Bound on α's relative error on those lanes (the stop test's band). */
  float relAlpha;
  /** PACKED_* bits. */
  int32_t flags;
};
static_assert(sizeof(PackedSplat) == 64, "one cache line per splat");

/** The float passes may take this splat (else its tiles run the float64 pass). */
constexpr int32_t PACKED_TRUSTED = 1;
/** Nothing to draw (o < ALPHA_MIN): the box is empty. */
constexpr int32_t PACKED_EMPTY = 2;
/** o > ALPHA_MAX: α can reach the clamp, which changes the backward's gradient; the backward leaves such tiles to the float64 pass. */
constexpr int32_t PACKED_MAY_CLAMP = 4;

/** The packed records of in's splats with radius > 0 (others are never listed and left unset), in parallel. */
std::unique_ptr<PackedSplat[]> prepare_splats_f32(const RasterIn<float>& in);

/** One splat as a tile's float loop reads it, with its certified bands. */
struct TileSplatF {
  float u, v, c0, c1, c2, o, col[3], z;
  /** σ ≤ acceptMax: added for sure; σ > skipMin: skipped for sure. */
  float acceptMax, skipMin;
  /** Bound on α's relative error over the tile's lanes (the stop test's band). */
  float relAlpha;
  /** Tile-local pixel box [x0, x1) × [y0, y1) (may be empty). */
  int x0, x1, y0, y1;
  /** The splat's index (for exact_alpha). */
  int32_t id;
};

/** σ's error bound over B (above): ten roundings of 2⁻²⁴ (the evaluation has at most six). */
constexpr double SIGMA_REL = 6e-7;

/** A float at or above d (or below: float_down), without a libm call: d moved out by two float ulps, then rounded. */
inline float float_up(double d) { return static_cast<float>(d + (std::fabs(d) * 2.4e-7 + 1e-37)); }
inline float float_down(double d) { return static_cast<float>(d - (std::fabs(d) * 2.4e-7 + 1e-37)); }

/**
 * Fills s for splat p as the tile at r sees it (its box clipped to the tile;
 * the bands are the splat's); false if the splat is not trusted, or, for the
 * backward (failFlags = PACKED_MAY_CLAMP), may reach the α clamp. Inline: it runs once per
 * list entry inside the passes' AVX2 clones.
 */
RLX_ALWAYS_INLINE bool gather_f32(const PackedSplat& p, int32_t id, const TileRect& r, TileSplatF& s, int32_t failFlags = 0) {
  if (!(p.flags & PACKED_TRUSTED) || (p.flags & failFlags)) return false;
  s.u = p.u, s.v = p.v, s.c0 = p.c0, s.c1 = p.c1, s.c2 = p.c2, s.o = p.o;
  for (int c = 0; c < 3; c++) s.col[c] = p.col[c];
  s.z = p.z;
  s.acceptMax = p.acceptMax, s.skipMin = p.skipMin, s.relAlpha = p.relAlpha;
  s.id = id;
  s.x0 = s.x1 = s.y0 = s.y1 = 0;
  if (p.flags & PACKED_EMPTY) return true;
  const double u = p.u, v = p.v;
  int box[4];
  clamp_int4(std::ceil(u - p.ex - PIXEL_CENTER) - r.px0, std::floor(u + p.ex - PIXEL_CENTER) - r.px0 + 1, std::ceil(v - p.ey - PIXEL_CENTER) - r.py0,
             std::floor(v + p.ey - PIXEL_CENTER) - r.py0 + 1, r.w, r.h, box);
  s.x0 = box[0], s.y0 = box[2], s.y1 = box[3];
  s.x1 = box[0] >= box[1] || box[2] >= box[3] ? box[0] : box[1];
  return true;
}

/**
 * The js reference's α for pixel (px, py) and this splat, in double with its
 * arithmetic (σ, Math.exp's bits, the clamp); 0 where the reference skips
 * the splat (σ < 0 or α < ALPHA_MIN).
 */
double exact_alpha(const PackedSplat& p, int px, int py);

/** Tile `tile` of the float32 forward; false (nothing written) when it needs the float64 pass. */
bool forward_tile_f32(const RasterIn<float>& in, const RasterOut<float>& out, const TileBins& bins, const PackedSplat* packed, int64_t tile, bool avx2);

/** Per list entry of the backward: ∂L/∂(u, v, c0, c1, c2, o, colour r, g, b, depth) (raster_backward.cc's records). */
constexpr int GRAD_RECORD = 10;

/** Tile `tile` of the float32 backward (records: raster_backward.cc's); false (nothing written) when it needs the float64 pass. */
bool backward_tile_f32(const RasterIn<float>& in, const RasterGrad<float>& g, const TileBins& bins, const PackedSplat* packed, int64_t tile,
                       float* records, bool avx2);

}  // namespace splat
}  // namespace rlx
