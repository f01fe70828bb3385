// The per-splat preparation of the float32 rasterize passes (raster_f32.h
// explains the bounds): packed records with their boxes and certified σ
// bands, and the js reference's exact α for the lanes the bands cannot
// decide.

#include <algorithm>
#include <cmath>
#include <cstring>

#include "pool/pool.h"
#include "splat/exp_fdlibm.h"
#include "splat/raster_f32.h"
#include "splat/splat_constants.h"

namespace rlx {
namespace splat {
namespace {

inline bool finite_below(double x, double lim) { return std::fabs(x) < lim; }  // false for NaN and ±∞

void prepare_one(const RasterIn<float>& in, int64_t i, PackedSplat& p) {
  p.u = in.means2d[2 * i], p.v = in.means2d[2 * i + 1];
  p.c0 = in.conics[3 * i], p.c1 = in.conics[3 * i + 1], p.c2 = in.conics[3 * i + 2];
  p.o = in.opacities[i];
  for (int c = 0; c < 3; c++) p.col[c] = in.colors[3 * i + c];
  p.z = in.depths[i];
  p.ex = p.ey = p.acceptMax = p.skipMin = p.relAlpha = 0;
  p.flags = 0;
  const double c0 = p.c0, c1 = p.c1, c2 = p.c2, o = p.o;
  const double detQ = c0 * c2 - c1 * c1;
  const double big = 1e12, huge = 1e30;
  const bool trusted = finite_below(p.u, 1e7) && finite_below(p.v, 1e7) && c0 > 0 && c2 > 0 && c0 < big && c2 < big && finite_below(c1, big) &&
                       detQ > 1e-6 * c0 * c2 && finite_below(o, huge) && finite_below(p.col[0], huge) && finite_below(p.col[1], huge) &&
                       finite_below(p.col[2], huge) && finite_below(p.z, huge);
  if (!trusted) return;
  p.flags = PACKED_TRUSTED | (o > ALPHA_MAX ? PACKED_MAY_CLAMP : 0);
  if (!(o >= ALPHA_MIN)) {  // α ≤ o < ALPHA_MIN wherever σ ≥ 0 (σ < 0 is skipped)
    p.flags |= PACKED_EMPTY;
    return;
  }
  const double thr = std::log(255.0 * o);
  // raster_tile.h's box, rounded outwards.
  const double thrM = thr + 1e-6 * (1 + std::fabs(thr));
  p.ex = float_up(std::sqrt(2 * thrM * c2 / detQ) * (1 + 1e-6) + 1);
  p.ey = float_up(std::sqrt(2 * thrM * c0 / detQ) * (1 + 1e-6) + 1);
  // σ's error bound over every lane a tile evaluates: eight-lane groups reach 7 pixels past the box's columns.
  const double dxm = static_cast<double>(p.ex) + 8, dym = static_cast<double>(p.ey) + 1;
  const double B = 0.5 * (c0 * dxm * dxm + c2 * dym * dym) + std::fabs(c1) * dxm * dym;
  const double E = SIGMA_REL * B + 1e-30;
  const double delta = 1e-12 * (1 + std::fabs(thr));
  p.acceptMax = float_down(thr - E - delta);
  p.skipMin = float_up(thr + E + delta);
  p.relAlpha = float_up(E + EXP8_REL_ERR + 1e-6);
  // The box the passes visit, tightened to the ellipse σ ≤ L with L above every σ whose float value can be ≤ skipMin:
  // σ_float ≤ skipMin ⇒ σ ≤ skipMin + E, and skipMin − acceptMax ≥ 2E. Every lane outside it is one the float test
  // skips, and every pixel the reference adds (σ ≤ thr) is inside, so the box drops only lanes that change nothing
  // (raster_tile.h's box has a pixel more on each side, for the float64 pass). Never wider than that box, over which
  // E was taken.
  const double skipMin = p.skipMin, L = (skipMin + 2 * (skipMin - static_cast<double>(p.acceptMax))) * (1 + 1e-6) + 1e-12;
  p.ex = std::min(p.ex, float_up(std::sqrt(2 * L * c2 / detQ) * (1 + 1e-6) + 1e-4));
  p.ey = std::min(p.ey, float_up(std::sqrt(2 * L * c0 / detQ) * (1 + 1e-6) + 1e-4));
}

}  // namespace

std::unique_ptr<PackedSplat[]> prepare_splats_f32(const RasterIn<float>& in) {
  // Uninitialised: only splats with radius > 0 are ever listed, and those are all written.
  std::unique_ptr<PackedSplat[]> packed(new PackedSplat[static_cast<size_t>(in.n)]);
  PackedSplat* out = packed.get();
  constexpr int64_t CHUNK = 8192;
  Pool::instance().parallelFor((in.n + CHUNK - 1) / CHUNK, [&](int64_t ch) {
    const int64_t end = std::min(in.n, (ch + 1) * CHUNK);
    for (int64_t i = ch * CHUNK; i < end; i++)
      if (in.radii[i] > 0) prepare_one(in, i, out[i]);
  });
  return packed;
}

double exact_alpha(const PackedSplat& p, int px, int py) {
  const double dx = static_cast<double>(p.u) - (px + PIXEL_CENTER), dy = static_cast<double>(p.v) - (py + PIXEL_CENTER);
  const double c0 = p.c0, c1 = p.c1, c2 = p.c2;
  const double sigma = 0.5 * (c0 * dx * dx + c2 * dy * dy) + c1 * dx * dy;
  if (sigma < 0) return 0;
  const double alpha = js_min(ALPHA_MAX, static_cast<double>(p.o) * exp_fdlibm(-sigma));
  return alpha < ALPHA_MIN ? 0 : alpha;
}

}  // namespace splat
}  // namespace rlx
