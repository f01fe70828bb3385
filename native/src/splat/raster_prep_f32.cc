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
  // raster_tile.h's box, rounded outwards: half-extents √(2 thrM (Q⁻¹)ₓₓ), √(2 thrM (Q⁻¹)ᵧᵧ), as products of square roots
  // (the relative 1e-6 covers their few roundings).
  const double thrM = thr + 1e-6 * (1 + std::fabs(thr));
  const double invDet = 1 / detQ, sx = std::sqrt(c2 * invDet), sy = std::sqrt(c0 * invDet), r1 = std::sqrt(2 * thrM);
  p.ex = float_up(r1 * sx * (1 + 1e-6) + 1);
  p.ey = float_up(r1 * sy * (1 + 1e-6) + 1);
  // σ's error bound over every lane a tile evaluates: 4 × 2 blocks reach 3 pixels past the box's columns and one row past
  // its rows (raster_f32.h, BLOCK_W; 4 and 1 with a pixel to spare in x).
  const double dxm = static_cast<double>(p.ex) + 4, dym = static_cast<double>(p.ey) + 1;
  const double B = 0.5 * (c0 * dxm * dxm + c2 * dym * dym) + std::fabs(c1) * dxm * dym;
  const double E = SIGMA_REL * B + 1e-30;
  const double delta = 1e-12 * (1 + std::fabs(thr));
  p.acceptMax = float_down(thr - E - delta);
  p.skipMin = float_up(thr + E + delta);
  // α's bound is needed on the lanes that add only, where σ ≤ skipMin + E, so B ≤ σ (1 + ρ)/(1 − ρ) (raster_f32.h): far
  // below the box edge's B for a small splat, whose edge lanes are far out in σ.
  // (1 + ρ)/(1 − ρ) = (√(c₀c₂) + |c₁|)²/(c₀c₂ − c₁²): invDet's, no division (c₀c₂ and c₁² are exact in double).
  const double sq = std::sqrt(c0 * c2) + std::fabs(c1);
  const double Eadd = SIGMA_REL * (static_cast<double>(p.skipMin) + E) * (sq * sq * invDet) * (1 + 1e-6);
  p.relAlpha = float_up(std::min(E, Eadd) + EXP8_REL_ERR + 1e-6);
  // The box the passes visit, tightened to the ellipse σ ≤ L with L above every σ whose float value can be ≤ skipMin:
  // σ_float ≤ skipMin ⇒ σ ≤ skipMin + E, and skipMin − acceptMax ≥ 2E. Every lane outside it is one the float test
  // skips, and every pixel the reference adds (σ ≤ thr) is inside, so the box drops only lanes that change nothing
  // (raster_tile.h's box has a pixel more on each side, for the float64 pass). Never wider than that box, over which
  // E was taken.
  const double skipMin = p.skipMin, L = (skipMin + 2 * (skipMin - static_cast<double>(p.acceptMax))) * (1 + 1e-6) + 1e-12;
  const double r2 = std::sqrt(2 * L);
  p.ex = std::min(p.ex, float_up(r2 * sx * (1 + 1e-6) + 1e-4));
  p.ey = std::min(p.ey, float_up(r2 * sy * (1 + 1e-6) + 1e-4));
}

typedef float v4f __attribute__((vector_size(16)));

/** float_up / float_down of four doubles, as floats. */
RLX_ALWAYS_INLINE v4f v4_float_up(v4d d) { return __builtin_convertvector(d + (v4_abs(d) * 2.4e-7 + 1e-37), v4f); }
RLX_ALWAYS_INLINE v4f v4_float_down(v4d d) { return __builtin_convertvector(d - (v4_abs(d) * 2.4e-7 + 1e-37), v4f); }
RLX_ALWAYS_INLINE v4f v4f_min(v4f a, v4f b) { return b < a ? b : a; }  // std::min(a, b)

/** ln(255·o) of an opacity the passes draw (o ≥ ALPHA_MIN; 0 otherwise: unused), as prepare_one computes it. */
inline double log_threshold(double o) { return o >= ALPHA_MIN ? std::log(255.0 * o) : 0; }

/**
 * prepare_one of splats i … i + 3 at once: the same operations in the same
 * order on four lanes (so the same bits), the records of splats with radius
 * > 0 written; logs[l] is log_threshold of splat i + l's opacity, taken
 * beforehand (a libm call here would spill every vector register the lanes
 * hold). The serial chain of one splat (log, then two square roots, then two
 * more) is what took prepare_one's time.
 */
RLX_ALWAYS_INLINE void prepare_four(const RasterIn<float>& in, int64_t i, const double* logs, PackedSplat* out) {
  v4d u, v, c0, c1, c2, o, col[3], z;
  for (int l = 0; l < 4; l++) {
    const int64_t j = i + l;
    u[l] = in.means2d[2 * j], v[l] = in.means2d[2 * j + 1];
    c0[l] = in.conics[3 * j], c1[l] = in.conics[3 * j + 1], c2[l] = in.conics[3 * j + 2];
    o[l] = in.opacities[j];
    for (int c = 0; c < 3; c++) col[c][l] = in.colors[3 * j + c];
    z[l] = in.depths[j];
  }
  const v4d detQ = c0 * c2 - c1 * c1;
  const double big = 1e12, huge = 1e30;
  const v4m trusted = (v4_abs(u) < 1e7) & (v4_abs(v) < 1e7) & (c0 > 0.0) & (c2 > 0.0) & (c0 < big) & (c2 < big) & (v4_abs(c1) < big) &
                      (detQ > 1e-6 * c0 * c2) & (v4_abs(o) < huge) & (v4_abs(col[0]) < huge) & (v4_abs(col[1]) < huge) &
                      (v4_abs(col[2]) < huge) & (v4_abs(z) < huge);
  const v4m drawn = trusted & (o >= ALPHA_MIN);
  v4d logs4;
  std::memcpy(&logs4, logs, 32);
  const v4d thr = v4_select(drawn, logs4, v4_splat(0));
  const v4d thrM = thr + 1e-6 * (1 + v4_abs(thr));
  const v4d invDet = 1 / detQ, sx = v4_sqrt(c2 * invDet), sy = v4_sqrt(c0 * invDet), r1 = v4_sqrt(2 * thrM);
  v4f ex = v4_float_up(r1 * sx * (1 + 1e-6) + 1), ey = v4_float_up(r1 * sy * (1 + 1e-6) + 1);
  const v4d dxm = __builtin_convertvector(ex, v4d) + 4, dym = __builtin_convertvector(ey, v4d) + 1;
  const v4d B = 0.5 * (c0 * dxm * dxm + c2 * dym * dym) + v4_abs(c1) * dxm * dym;
  const v4d E = SIGMA_REL * B + 1e-30;
  const v4d delta = 1e-12 * (1 + v4_abs(thr));
  const v4f acceptMax = v4_float_down(thr - E - delta), skipMin = v4_float_up(thr + E + delta);
  const v4d skipMinD = __builtin_convertvector(skipMin, v4d);
  const v4d sq = v4_sqrt(c0 * c2) + v4_abs(c1);
  const v4d Eadd = SIGMA_REL * (skipMinD + E) * (sq * sq * invDet) * (1 + 1e-6);
  const v4f relAlpha = v4_float_up((Eadd < E ? Eadd : E) + EXP8_REL_ERR + 1e-6);
  const v4d L = (skipMinD + 2 * (skipMinD - __builtin_convertvector(acceptMax, v4d))) * (1 + 1e-6) + 1e-12;
  const v4d r2 = v4_sqrt(2 * L);
  ex = v4f_min(ex, v4_float_up(r2 * sx * (1 + 1e-6) + 1e-4));
  ey = v4f_min(ey, v4_float_up(r2 * sy * (1 + 1e-6) + 1e-4));
  for (int l = 0; l < 4; l++) {
    const int64_t j = i + l;
    if (!(in.radii[j] > 0)) continue;
    PackedSplat& p = out[j];
    p.u = in.means2d[2 * j], p.v = in.means2d[2 * j + 1];
    p.c0 = in.conics[3 * j], p.c1 = in.conics[3 * j + 1], p.c2 = in.conics[3 * j + 2];
    p.o = in.opacities[j];
    for (int c = 0; c < 3; c++) p.col[c] = in.colors[3 * j + c];
    p.z = in.depths[j];
    if (drawn[l]) {
      p.ex = ex[l], p.ey = ey[l], p.acceptMax = acceptMax[l], p.skipMin = skipMin[l], p.relAlpha = relAlpha[l];
      p.flags = PACKED_TRUSTED | (o[l] > ALPHA_MAX ? PACKED_MAY_CLAMP : 0);
    } else {
      p.ex = p.ey = p.acceptMax = p.skipMin = p.relAlpha = 0;
      p.flags = trusted[l] ? PACKED_TRUSTED | PACKED_EMPTY : 0;  // o < ALPHA_MIN: never above ALPHA_MAX
    }
  }
}

RLX_ALWAYS_INLINE void prepare_body(const RasterIn<float>& in, int64_t begin, int64_t end, PackedSplat* out) {
  constexpr int64_t RUN = 64;  // the logs of a run first, then its vector passes without calls
  double logs[RUN];
  int64_t i = begin;
  while (i + 4 <= end) {
    const int64_t run = std::min(RUN, (end - i) & ~int64_t(3));
    for (int64_t j = 0; j < run; j++) logs[j] = log_threshold(in.opacities[i + j]);
    for (int64_t j = 0; j < run; j += 4) prepare_four(in, i + j, logs + j, out);
    i += run;
  }
  for (; i < end; i++)
    if (in.radii[i] > 0) prepare_one(in, i, out[i]);
}

void prepare_baseline(const RasterIn<float>& in, int64_t begin, int64_t end, PackedSplat* out) { prepare_body(in, begin, end, out); }

#if RLX_SPLAT_X86_DISPATCH
__attribute__((target("avx2"))) void prepare_avx2(const RasterIn<float>& in, int64_t begin, int64_t end, PackedSplat* out) {
  prepare_body(in, begin, end, out);
}
#endif

}  // namespace

std::unique_ptr<PackedSplat[]> prepare_splats_f32(const RasterIn<float>& in) {
  // Uninitialised: only splats with radius > 0 are ever listed, and those are all written.
  std::unique_ptr<PackedSplat[]> packed(new PackedSplat[static_cast<size_t>(in.n)]);
  PackedSplat* out = packed.get();
  constexpr int64_t CHUNK = 8192;
  const bool avx2 = has_avx2();
  Pool::instance().parallelFor((in.n + CHUNK - 1) / CHUNK, [&](int64_t ch) {
    const int64_t end = std::min(in.n, (ch + 1) * CHUNK);
#if RLX_SPLAT_X86_DISPATCH
    if (avx2) return prepare_avx2(in, ch * CHUNK, end, out);
#endif
    prepare_baseline(in, ch * CHUNK, end, out);
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
