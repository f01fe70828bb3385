// The float32 backward rasterize of a tile (raster_f32.h: why its skip
// decisions are the js reference's): raster_backward.cc's loop, back
// to front splat by splat over the splat's box, in eight float lanes (a block
// of 4 × 2 pixels: raster_f32.h, BLOCK_W); each splat's gradient is summed
// per lane and the lanes are added in a fixed order into the splat's record.

#include <algorithm>
#include <cmath>
#include <cstring>

#include "splat/raster_f32.h"
#include "splat/splat_constants.h"

namespace rlx {
namespace splat {
namespace {

/**
 * A 4 × 2 block of pixels and their backward state. raster_backward.cc's
 * BackQuad keeps the colour and depth accumulated behind the current splat
 * (S_c, S_d) and forms ∂L/∂α_k = T_N·g_α/(1 − α) + Σ_c g_c(col_c·T_k − S_c/(1 − α))
 * + g_d(z·T_k − S_d/(1 − α)); here only the one combination of them that
 * enters it is kept, PS = Σ_c g_c·S_c + g_d·S_d − g_α·T_N, so that
 * ∂L/∂α_k = T_k·Q_k − PS/(1 − α) with Q_k = Σ_c g_c·col_c + g_d·z, and PS
 * grows by w_k·Q_k when splat k is added: the same quantity in about half
 * the operations (float rounding aside).
 */
struct BackOct {
  v8f T, PS, last, GC[3], GD;
};

struct BackwardScratch {
  std::vector<TileSplatF> splats;
  AlignedScratch<BackOct> octs;
  /** Per block column q of the tile, each lane's pixel-centre x (the forward's float operations, raster_f32.cc). */
  AlignedScratch<v8f> colCentres;
};

template <class Isa>
RLX_ALWAYS_INLINE bool backward_body(const RasterIn<float>& in, const RasterGrad<float>& g, const TileBins& bins, const PackedSplat* packed,
                                     int64_t tile, float* records, BackwardScratch& sc) {
  const int tx = static_cast<int>(tile % bins.tilesX), ty = static_cast<int>(tile / bins.tilesX);
  const TileRect r = tile_rect(tx, ty, in.tileSize, in.width, in.height);
  const int64_t begin = bins.offsets[tile], len = bins.offsets[tile + 1] - begin;
  if (len >= (int64_t(1) << 24)) return false;  // lastIndex lanes are floats
  // The pixels' state first (which also gives the longest walk, maxLast), then the splats up to there.
  const int qw = (r.w + BLOCK_W - 1) / BLOCK_W, qh = (r.h + BLOCK_H - 1) / BLOCK_H;  // blocks per row, block rows
  BackOct* octs = sc.octs.get(static_cast<size_t>(qw) * qh);
  const float bg[3] = {static_cast<float>(in.background[0]), static_cast<float>(in.background[1]), static_cast<float>(in.background[2])};
  v8m lastMax = v8m{0, 0, 0, 0, 0, 0, 0, 0};
  for (int by = 0; by < qh; by++)
    for (int q = 0; q < qw; q++) {
      BackOct& Q = octs[static_cast<size_t>(by) * qw + q];
      if (BLOCK_W * q + BLOCK_W <= r.w && BLOCK_H * by + BLOCK_H <= r.h) {  // the whole block: its rows' runs of four at once
        // Rows of four loaded as 16-byte vectors and joined in registers (filling a vector's halves through memory
        // made every later read of it wait for the stores: ~15 cycles each).
        const int64_t o0 = static_cast<int64_t>(r.py0 + BLOCK_H * by) * in.width + r.px0 + BLOCK_W * q, o1 = o0 + in.width;
        static_assert(BLOCK_W == 4 && BLOCK_H == 2, "a block is two rows of four");
        const v8f t = block_of(g.finalT + o0, g.finalT + o1), ga = block_of(g.ctAlpha + o0, g.ctAlpha + o1);
        const v8f gd = block_of(g.ctDepth + o0, g.ctDepth + o1);
        const v8m li = block_of(g.lastIndex + o0, g.lastIndex + o1);
        block_channels(g.ctImage + 3 * o0, g.ctImage + 3 * o1, Q.GC);
        Q.T = t;
        Q.PS = Q.GC[0] * (t * bg[0]) + Q.GC[1] * (t * bg[1]) + Q.GC[2] * (t * bg[2]) - ga * t;
        Q.GD = gd;
        Q.last = __builtin_convertvector(li, v8f);
        lastMax = lastMax > li ? lastMax : li;
        continue;
      }
      for (int l = 0; l < 8; l++) {
        const int lx = BLOCK_W * q + block_col(l), ly = BLOCK_H * by + block_row(l);
        if (lx >= r.w || ly >= r.h) {  // padding: lastIndex 0 keeps the lane out of every splat
          Q.T[l] = Q.PS[l] = Q.last[l] = Q.GD[l] = 0;
          for (int c = 0; c < 3; c++) Q.GC[c][l] = 0;
          continue;
        }
        const int64_t o = static_cast<int64_t>(r.py0 + ly) * in.width + r.px0 + lx;
        const float t = g.finalT[o];
        Q.T[l] = t;
        for (int c = 0; c < 3; c++) Q.GC[c][l] = g.ctImage[3 * o + c];
        Q.PS[l] = Q.GC[0][l] * (t * bg[0]) + Q.GC[1][l] * (t * bg[1]) + Q.GC[2][l] * (t * bg[2]) - g.ctAlpha[o] * t;
        Q.GD[l] = g.ctDepth[o];
        Q.last[l] = static_cast<float>(g.lastIndex[o]);
        lastMax[l] = std::max(lastMax[l], g.lastIndex[o]);
      }
    }
  int64_t maxLast = 0;
  for (int l = 0; l < 8; l++) maxLast = std::max<int64_t>(maxLast, lastMax[l]);
  sc.splats.resize(static_cast<size_t>(maxLast));
  for (int64_t k = 0; k < maxLast; k++) {
    if (k + 16 < len) __builtin_prefetch(&packed[bins.entries[begin + k + 16]]);
    const int32_t id = bins.entries[begin + k];
    if (!gather_f32(packed[id], id, r, sc.splats[k], PACKED_MAY_CLAMP)) return false;
  }
  for (int64_t k = maxLast; k < len; k++) std::fill_n(records + GRAD_RECORD * bins.entrySlots[begin + k], GRAD_RECORD, 0.0f);
  const v8f laneCol = block_cols(), laneRow = block_rows(), zero = v8_splat(0);
  v8f* colCentre = sc.colCentres.get(static_cast<size_t>(qw));
  for (int q = 0; q < qw; q++) colCentre[q] = (static_cast<float>(r.px0 + BLOCK_W * q) + laneCol) + static_cast<float>(PIXEL_CENTER);
  for (int64_t k = maxLast - 1; k >= 0; k--) {
    if (k >= 4) {  // the records are written at their slots, at random: fetch the lines a few splats ahead
      const float* ahead = records + GRAD_RECORD * bins.entrySlots[begin + k - 4];
      __builtin_prefetch(ahead, 1), __builtin_prefetch(ahead + GRAD_RECORD - 1, 1);
    }
    const TileSplatF& s = sc.splats[k];
    v8f gu = zero, gv = zero, gc0 = zero, gc1 = zero, gc2 = zero, go = zero, gcol[3] = {zero, zero, zero}, gz = zero;
    const v8f kk = v8_splat(static_cast<float>(k));
    const int q0 = s.x0 / BLOCK_W, q1 = (s.x1 + BLOCK_W - 1) / BLOCK_W;
    for (int by = s.y0 / BLOCK_H; by < (s.y1 + BLOCK_H - 1) / BLOCK_H; by++) {
      // The forward's σ per lane (raster_f32.cc): the same float operations.
      const v8f dy = s.v - ((static_cast<float>(r.py0 + BLOCK_H * by) + laneRow) + static_cast<float>(PIXEL_CENTER));
      const v8f c2dy2 = s.c2 * dy * dy;
      const v8f c1dy = s.c1 * dy;
      for (int q = q0; q < q1; q++) {
        BackOct& Q = octs[static_cast<size_t>(by) * qw + q];
        const v8m reached = kk < Q.last;  // the lanes whose walk reached splat k
        if (!v8_any<Isa>(reached)) continue;
        const v8f dx = s.u - colCentre[q];
        const v8f sigma = 0.5f * (s.c0 * dx * dx + c2dy2) + c1dy * dx;
        // As in the forward (raster_f32.cc): σ ≤ acceptMax adds, σ > skipMin skips, the band between is decided exactly.
        const v8m maybe = reached & (sigma <= s.skipMin);
        if (!v8_any<Isa>(maybe)) continue;
        v8m m = maybe & (sigma <= s.acceptMax);
        const v8m unsure = maybe & ~m;
        v8f exactAlpha = zero;
        const bool patch = v8_any<Isa>(unsure);
        if (patch) {  // rare: the js arithmetic decides (raster_f32.h)
          for (int l = 0; l < 8; l++) {
            if (!unsure[l]) continue;
            const double a = exact_alpha(packed[s.id], r.px0 + BLOCK_W * q + block_col(l), r.py0 + BLOCK_H * by + block_row(l));
            m[l] = a > 0 ? -1 : 0;
            exactAlpha[l] = static_cast<float>(a);
          }
          if (!v8_any<Isa>(m)) continue;
        }
        const v8f G = exp8_nonpositive(v8_select(m, -sigma, zero));
        const v8f oG = s.o * G;
        v8f alpha = v8_select(oG > static_cast<float>(ALPHA_MAX), v8_splat(static_cast<float>(ALPHA_MAX)), oG);
        if (patch) alpha = v8_select(exactAlpha > 0.0f, exactAlpha, alpha);
        // One division: the float pass need not round as the reference does (it cannot anyway), only closely.
        const v8f inv = 1.0f / (1.0f - alpha);
        const v8f Tk = Q.T * inv;
        const v8f wgt = alpha * Tk;
        const v8f Qk = Q.GC[0] * s.col[0] + Q.GC[1] * s.col[1] + Q.GC[2] * s.col[2] + Q.GD * s.z;
        const v8f gAlpha = Tk * Qk - Q.PS * inv;
        for (int c = 0; c < 3; c++) gcol[c] += v8_and(m, Q.GC[c] * wgt);
        gz += v8_and(m, Q.GD * wgt);
        Q.PS = v8_select(m, Q.PS + wgt * Qk, Q.PS);
        Q.T = v8_select(m, Tk, Q.T);
        // No clamp here (o ≤ ALPHA_MAX in the tiles this pass takes), so every added lane passes its gradient to o and σ.
        const v8m mg = m;
        go += v8_and(mg, gAlpha * G);
        const v8f gSigma = -gAlpha * alpha;
        const v8f dyv = dy;
        // ∂σ/∂(u, v, c0, c1, c2) = (c0·dx + c1·dy, c2·dy + c1·dx, dx²/2, dx·dy, dy²/2): the five sums of gσ times
        // dx, dy, dx², dx·dy, dy², the splat's conic applied once per splat (below) instead of once per visit.
        const v8f gSdx = v8_and(mg, gSigma) * dx, gSdy = v8_and(mg, gSigma) * dyv;
        gu += gSdx;
        gv += gSdy;
        gc0 += gSdx * dx;
        gc1 += gSdx * dyv;
        gc2 += gSdy * dyv;
      }
    }
    float* rec = records + GRAD_RECORD * bins.entrySlots[begin + k];
    const v8f sums[GRAD_RECORD] = {gu, gv, gc0, gc1, gc2, go, gcol[0], gcol[1], gcol[2], gz};
    for (int j = 0; j < GRAD_RECORD; j++) rec[j] = v8_sum_float(sums[j]);
    const float sdx = rec[0], sdy = rec[1];  // Σ gσ·dx, Σ gσ·dy
    rec[0] = s.c0 * sdx + s.c1 * sdy, rec[1] = s.c2 * sdy + s.c1 * sdx, rec[2] *= 0.5f, rec[4] *= 0.5f;
  }
  return true;
}

bool backward_baseline(const RasterIn<float>& in, const RasterGrad<float>& g, const TileBins& bins, const PackedSplat* packed, int64_t tile,
                       float* records, BackwardScratch& sc) {
  return backward_body<IsaBaseline>(in, g, bins, packed, tile, records, sc);
}

#if RLX_SPLAT_X86_DISPATCH
__attribute__((target("avx2"))) bool backward_avx2(const RasterIn<float>& in, const RasterGrad<float>& g, const TileBins& bins,
                                                   const PackedSplat* packed, int64_t tile, float* records, BackwardScratch& sc) {
  return backward_body<IsaAvx2>(in, g, bins, packed, tile, records, sc);
}
#endif

}  // namespace

bool backward_tile_f32(const RasterIn<float>& in, const RasterGrad<float>& g, const TileBins& bins, const PackedSplat* packed, int64_t tile,
                       float* records, bool avx2) {
  thread_local BackwardScratch sc;
#if RLX_SPLAT_X86_DISPATCH
  if (avx2) return backward_avx2(in, g, bins, packed, tile, records, sc);
#endif
  return backward_baseline(in, g, bins, packed, tile, records, sc);
}

}  // namespace splat
}  // namespace rlx
