// What the rasterize passes (raster.cc, raster_backward.cc) share: one
// tile's splats gathered into a contiguous array of doubles, each with the
// pixel box (in tile-local pixels) outside which it is skipped at every pixel
// anyway (α < ALPHA_MIN), so the passes loop splat by splat over only the
// pixels it can reach, and never change which splats a pixel adds.
//
// The box is conservative: from σ = ½ dᵀQd ≤ ln(255·o) (the α ≥ 1/255
// region, an ellipse whose half-extent in x is √(2 ln(255·o)·(Q⁻¹)ₓₓ)) with a
// relative margin and one extra pixel on each side. Where the ellipse cannot
// be trusted (non-finite or huge numbers, a conic that is not well
// conditioned positive definite) the box is the whole tile and the per-pixel
// test decides, as the contract states it.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "splat/splat.h"
#include "splat/splat_constants.h"

namespace rlx {
namespace splat {

struct TileSplat {
  double u, v, c0, c1, c2, o, col[3], z;
  /** σ above this ⇒ α < ALPHA_MIN for sure (+∞ when unknown: the exact test runs). */
  double sigmaSkip;
  /** Tile-local pixel box [x0, x1) × [y0, y1) (may be empty). */
  int x0, x1, y0, y1;
};

/** The pixel rectangle of tile (tx, ty), clipped to the image. */
struct TileRect {
  int px0, py0, w, h;
};

inline TileRect tile_rect(int tx, int ty, int ts, int width, int height) {
  const int px0 = tx * ts, py0 = ty * ts;
  return {px0, py0, std::min(ts, width - px0), std::min(ts, height - py0)};
}

inline int clamp_int(double v, int lo, int hi) {
  if (!(v > lo)) return lo;
  if (!(v < hi)) return hi;
  return static_cast<int>(v);
}

/** Gathers splat i as seen by the tile at `r`. */
template <class T>
inline void gather_splat(const RasterIn<T>& in, int32_t i, const TileRect& r, TileSplat& s) {
  s.u = in.means2d[2 * i], s.v = in.means2d[2 * i + 1];
  s.c0 = in.conics[3 * i], s.c1 = in.conics[3 * i + 1], s.c2 = in.conics[3 * i + 2];
  s.o = in.opacities[i];
  for (int c = 0; c < 3; c++) s.col[c] = in.colors[3 * i + c];
  s.z = in.depths[i];
  // Whole tile unless the ellipse bound is safe to use.
  s.sigmaSkip = INFINITY;
  s.x0 = 0, s.x1 = r.w, s.y0 = 0, s.y1 = r.h;
  const double big = 1e12;
  const double detQ = s.c0 * s.c2 - s.c1 * s.c1;
  if (!(std::fabs(s.u) < big && std::fabs(s.v) < big && s.c0 > 0 && s.c2 > 0 && s.c0 < big && s.c2 < big && std::fabs(s.c1) < big &&
        std::isfinite(s.o) && detQ > 1e-6 * s.c0 * s.c2))
    return;
  if (s.o < ALPHA_MIN) {  // α ≤ o < ALPHA_MIN wherever σ ≥ 0 (and σ < 0 is skipped)
    s.x1 = s.x0, s.y1 = s.y0;
    return;
  }
  const double thr = std::log(255.0 * s.o);
  const double thrM = thr + 1e-6 * (1 + std::fabs(thr));
  s.sigmaSkip = thrM;
  const double ex = std::sqrt(2 * thrM * s.c2 / detQ) * (1 + 1e-6) + 1;
  const double ey = std::sqrt(2 * thrM * s.c0 / detQ) * (1 + 1e-6) + 1;
  // Pixel px's centre px + PIXEL_CENTER within [u − ex, u + ex].
  s.x0 = clamp_int(std::ceil(s.u - ex - PIXEL_CENTER) - r.px0, 0, r.w);
  s.x1 = clamp_int(std::floor(s.u + ex - PIXEL_CENTER) - r.px0 + 1, 0, r.w);
  s.y0 = clamp_int(std::ceil(s.v - ey - PIXEL_CENTER) - r.py0, 0, r.h);
  s.y1 = clamp_int(std::floor(s.v + ey - PIXEL_CENTER) - r.py0 + 1, 0, r.h);
}

}  // namespace splat
}  // namespace rlx
