// The per-splat and per-tile-entry preparation of the float32 rasterize
// passes (raster_f32.h explains the bounds): packed records, the certified
// σ bands of a tile entry, and the js reference's exact α for the lanes the
// bands cannot decide.

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
  p.ex = p.ey = 0;
  p.thr = -INFINITY;
  p.empty = 0;
  const double c0 = p.c0, c1 = p.c1, c2 = p.c2, o = p.o;
  const double detQ = c0 * c2 - c1 * c1;
  const double big = 1e12, huge = 1e30;
  p.trusted = finite_below(p.u, 1e7) && finite_below(p.v, 1e7) && c0 > 0 && c2 > 0 && c0 < big && c2 < big && finite_below(c1, big) &&
              detQ > 1e-6 * c0 * c2 && finite_below(o, huge) && finite_below(p.col[0], huge) && finite_below(p.col[1], huge) &&
              finite_below(p.col[2], huge) && finite_below(p.z, huge);
  if (!p.trusted) return;
  if (!(o >= ALPHA_MIN)) {  // α ≤ o < ALPHA_MIN wherever σ ≥ 0 (σ < 0 is skipped)
    p.empty = 1;
    return;
  }
  p.thr = std::log(255.0 * o);
  // raster_tile.h's box, rounded outwards.
  const double thrM = p.thr + 1e-6 * (1 + std::fabs(p.thr));
  p.ex = float_up(std::sqrt(2 * thrM * c2 / detQ) * (1 + 1e-6) + 1);
  p.ey = float_up(std::sqrt(2 * thrM * c0 / detQ) * (1 + 1e-6) + 1);
}

}  // namespace

void prepare_splats_f32(const RasterIn<float>& in, std::vector<PackedSplat>& packed) {
  packed.resize(static_cast<size_t>(in.n));
  constexpr int64_t CHUNK = 8192;
  Pool::instance().parallelFor((in.n + CHUNK - 1) / CHUNK, [&](int64_t ch) {
    const int64_t end = std::min(in.n, (ch + 1) * CHUNK);
    for (int64_t i = ch * CHUNK; i < end; i++)
      if (in.radii[i] > 0) prepare_one(in, i, packed[i]);
  });
}

double exact_alpha(const PackedSplat& p, int px, int py, bool* clamped) {
  const double dx = static_cast<double>(p.u) - (px + PIXEL_CENTER), dy = static_cast<double>(p.v) - (py + PIXEL_CENTER);
  const double c0 = p.c0, c1 = p.c1, c2 = p.c2;
  const double sigma = 0.5 * (c0 * dx * dx + c2 * dy * dy) + c1 * dx * dy;
  *clamped = false;
  if (sigma < 0) return 0;
  const double raw = static_cast<double>(p.o) * exp_fdlibm(-sigma);
  *clamped = raw > ALPHA_MAX;
  const double alpha = js_min(ALPHA_MAX, raw);
  return alpha < ALPHA_MIN ? 0 : alpha;
}

double exact_alpha(const PackedSplat& p, int px, int py) {
  bool clamped;
  return exact_alpha(p, px, py, &clamped);
}

}  // namespace splat
}  // namespace rlx
