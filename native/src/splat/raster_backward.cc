// rasterizeBackward: the exact derivative of rasterizeForward (raster.cc)
// with every skip, stop and the α clamp held fixed, from the cotangents of
// image, alpha and depth.
//
// Each pixel is walked back to front from its lastIndex − 1, recovering
// T_k = T_{k+1}/(1 − α_k) from the forward's final T, with the colour and
// depth still to come behind splat k (S_C, S_D; S_C starts at T_final·bg):
//
//   ∂L/∂colour_k += g_C α_k T_k           ∂L/∂depth_k += g_D α_k T_k
//   ∂L/∂α_k = g_C·(colour_k T_k − S_C/(1 − α_k)) + g_D (z_k T_k − S_D/(1 − α_k))
//             + g_A T_final/(1 − α_k)
//   α = o e^(−σ) (unclamped): ∂α/∂o = e^(−σ), ∂α/∂σ = −α; then σ's
//   derivatives in the mean (d = mean − pixel) and the conic.
//
// Race-free and deterministic: tiles run in parallel (the forward's
// splat-by-splat loop over the box, four pixels at a time; raster_tile.h,
// raster.cc), each splat's gradient summed per lane, the lanes in a fixed
// order, each tile writing one gradient record per list entry at the
// entry's slot (bin.cc: a Gaussian's slots are contiguous, its tiles in a
// fixed order); a second parallel pass sums each Gaussian's run of records
// in that order. The result does not depend on the number of threads.

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <memory>
#include <new>
#include <string>
#include <type_traits>

#include "errors.h"
#include "pool/pool.h"
#include "splat/exp_fdlibm.h"
#include "splat/raster_f32.h"
#include "splat/raster_tile.h"
#include "splat/splat.h"
#include "splat/splat_constants.h"

namespace rlx {
namespace splat {
namespace {

/** Per list entry: ∂L/∂(u, v, c0, c1, c2, o, colour r, g, b, depth). */
constexpr int REC = 10;
static_assert(REC == GRAD_RECORD, "the float32 pass writes the same records");

/** Four horizontally adjacent pixels of a tile and their backward state. */
struct BackQuad {
  /** T (recovered back to front), S_C (3), S_D, T_final, lastIndex, cotangents g_C (3), g_A, g_D. */
  v4d T, SC[3], SD, TN, last, GC[3], GA, GD;
};

/** The sum of the four lanes (in a fixed order: results do not depend on the thread count). */
RLX_ALWAYS_INLINE double lane_sum(v4d v) { return (v[0] + v[1]) + (v[2] + v[3]); }

/**
 * One tile of the backward pass, four pixels of a row at a time (the
 * forward's layout, raster.cc): splat by splat back to front, each lane
 * doing the scalar walk's arithmetic under masks (lanes outside the splat's
 * bounds run the exact per-pixel tests too), the splat's gradient summed per
 * lane and the lanes added at the end of the splat.
 */
template <class T>
RLX_ALWAYS_INLINE void backward_tile_body(const RasterIn<T>& in, const RasterGrad<T>& g, const TileBins& bins, int64_t tile, T* records,
                                          std::vector<TileSplat>& splats, AlignedScratch<BackQuad>& scratch) {
  const int tx = static_cast<int>(tile % bins.tilesX), ty = static_cast<int>(tile / bins.tilesX);
  const TileRect r = tile_rect(tx, ty, in.tileSize, in.width, in.height);
  const int64_t begin = bins.offsets[tile], len = bins.offsets[tile + 1] - begin;
  const int qw = (r.w + 3) / 4;  // quads per row
  BackQuad* quads = scratch.get(static_cast<size_t>(qw) * r.h);
  int64_t maxLast = 0;
  for (int ly = 0; ly < r.h; ly++)
    for (int q = 0; q < qw; q++) {
      BackQuad& Q = quads[static_cast<size_t>(ly) * qw + q];
      for (int l = 0; l < 4; l++) {
        const int lx = 4 * q + l;
        if (lx >= r.w) {  // padding: lastIndex 0 keeps the lane out of every splat
          Q.T[l] = Q.TN[l] = Q.SD[l] = Q.last[l] = Q.GA[l] = Q.GD[l] = 0;
          for (int c = 0; c < 3; c++) Q.SC[c][l] = Q.GC[c][l] = 0;
          continue;
        }
        const int64_t o = static_cast<int64_t>(r.py0 + ly) * in.width + (r.px0 + lx);
        Q.T[l] = Q.TN[l] = g.finalT[o];
        for (int c = 0; c < 3; c++) Q.SC[c][l] = Q.T[l] * in.background[c], Q.GC[c][l] = g.ctImage[3 * o + c];
        Q.SD[l] = 0;
        Q.GA[l] = g.ctAlpha[o];
        Q.GD[l] = g.ctDepth[o];
        Q.last[l] = g.lastIndex[o];
        maxLast = std::max<int64_t>(maxLast, g.lastIndex[o]);
      }
    }
  splats.resize(static_cast<size_t>(maxLast));
  for (int64_t k = 0; k < maxLast; k++) gather_splat(in, bins.entries[begin + k], r, splats[k]);
  for (int64_t k = maxLast; k < len; k++) std::fill_n(records + REC * bins.entrySlots[begin + k], REC, T(0));
  const v4d lane = {0, 1, 2, 3}, zero = v4_splat(0);
  for (int64_t k = maxLast - 1; k >= 0; k--) {
    if (k >= 4) {  // the records are written at their slots, at random: fetch the lines a few splats ahead
      const T* ahead = records + REC * bins.entrySlots[begin + k - 4];
      __builtin_prefetch(ahead, 1), __builtin_prefetch(ahead + REC - 1, 1);
    }
    const TileSplat& s = splats[k];
    v4d gu = zero, gv = zero, gc0 = zero, gc1 = zero, gc2 = zero, go = zero, gcol[3] = {zero, zero, zero}, gz = zero;
    const v4d kk = v4_splat(static_cast<double>(k));
    for (int ly = s.y0; ly < s.y1; ly++) {
      const double dy = s.v - (r.py0 + ly + PIXEL_CENTER);
      const double c2dy2 = s.c2 * dy * dy;
      for (int q = s.x0 / 4; q < (s.x1 + 3) / 4; q++) {
        BackQuad& Q = quads[static_cast<size_t>(ly) * qw + q];
        v4m m = kk < Q.last;  // the lanes whose walk reached splat k
        if (!v4_any(m)) continue;
        const v4d dx = s.u - ((static_cast<double>(r.px0 + 4 * q) + lane) + PIXEL_CENTER);
        const v4d sigma = 0.5 * (s.c0 * dx * dx + c2dy2) + s.c1 * dx * dy;
        m &= ~(sigma < 0.0) & ~(sigma > s.sigmaSkip);
        if (!v4_any(m)) continue;
        const v4d negSigma = v4_select(m, -sigma, zero);
        v4d G;
        if (v4_any((negSigma < EXP4_MIN) | (negSigma != negSigma))) {
          for (int l = 0; l < 4; l++) G[l] = exp_fdlibm(negSigma[l]);
        } else {
          G = exp4_nonpositive(negSigma);  // the forward's exp (Math.exp's bits), so α and its skip test match it
        }
        const v4d oG = s.o * G;
        const v4d alpha = v4_select(oG > ALPHA_MAX, v4_splat(ALPHA_MAX), oG);
        m &= ~(alpha < ALPHA_MIN);
        if (!v4_any(m)) continue;
        const v4d oneMinus = 1.0 - alpha;
        const v4d Tk = Q.T / oneMinus;
        const v4d wgt = alpha * Tk;
        v4d gAlpha = Q.GA * Q.TN / oneMinus;
        for (int c = 0; c < 3; c++) {
          gcol[c] += v4_select(m, Q.GC[c] * wgt, zero);
          gAlpha += Q.GC[c] * (s.col[c] * Tk - Q.SC[c] / oneMinus);
          Q.SC[c] = v4_select(m, Q.SC[c] + s.col[c] * wgt, Q.SC[c]);
        }
        gz += v4_select(m, Q.GD * wgt, zero);
        gAlpha += Q.GD * (s.z * Tk - Q.SD / oneMinus);
        Q.SD = v4_select(m, Q.SD + s.z * wgt, Q.SD);
        Q.T = v4_select(m, Tk, Q.T);
        const v4m mg = m & ~(oG > ALPHA_MAX);  // α clamped: no gradient to o or σ
        go += v4_select(mg, gAlpha * G, zero);
        const v4d gSigma = -gAlpha * alpha;
        gu += v4_select(mg, gSigma * (s.c0 * dx + s.c1 * dy), zero);
        gv += v4_select(mg, gSigma * (s.c2 * dy + s.c1 * dx), zero);
        gc0 += v4_select(mg, gSigma * 0.5 * dx * dx, zero);
        gc1 += v4_select(mg, gSigma * dx * dy, zero);
        gc2 += v4_select(mg, gSigma * 0.5 * dy * dy, zero);
      }
    }
    T* rec = records + REC * bins.entrySlots[begin + k];
    const double vals[REC] = {lane_sum(gu), lane_sum(gv), lane_sum(gc0), lane_sum(gc1), lane_sum(gc2), lane_sum(go), lane_sum(gcol[0]), lane_sum(gcol[1]), lane_sum(gcol[2]), lane_sum(gz)};
    for (int j = 0; j < REC; j++) rec[j] = static_cast<T>(vals[j]);
  }
}

/** backward_tile_body as compiled for the baseline (SSE2 on x86-64). */
template <class T>
void backward_tile_baseline(const RasterIn<T>& in, const RasterGrad<T>& g, const TileBins& bins, int64_t tile, T* records, std::vector<TileSplat>& splats,
                            AlignedScratch<BackQuad>& scratch) {
  backward_tile_body(in, g, bins, tile, records, splats, scratch);
}

#if RLX_SPLAT_X86_DISPATCH
/** The same source for AVX2 (no FMA: the same bits as the baseline). */
template <class T>
__attribute__((target("avx2"))) void backward_tile_avx2(const RasterIn<T>& in, const RasterGrad<T>& g, const TileBins& bins, int64_t tile, T* records,
                                                        std::vector<TileSplat>& splats, AlignedScratch<BackQuad>& scratch) {
  backward_tile_body(in, g, bins, tile, records, splats, scratch);
}
#endif

}  // namespace

template <class T>
void rasterize_backward(const RasterIn<T>& in, const RasterGrad<T>& g, Timings* tm) {
  TileBins bins;
  // The forward's lists, and its float32 records, when its splats equal these (bin_cache.h).
  std::shared_ptr<const PackedSplat[]> packed;
  bin_splats(in, true, &bins, tm, BinSource::recall, std::is_same<T, float>::value ? &packed : nullptr);
  check_list_lengths(bins);
  // lastIndex comes from the caller: each must lie within its tile's list (else it is not this forward's residual).
  // Row by row, tile by tile (no division per pixel: this runs on one thread over every pixel).
  for (int y = 0; y < in.height; y++) {
    const int64_t rowTiles = static_cast<int64_t>(y / in.tileSize) * bins.tilesX;
    const int32_t* row = g.lastIndex + static_cast<int64_t>(y) * in.width;
    for (int tx = 0; tx < bins.tilesX; tx++) {
      const int64_t t = rowTiles + tx;
      const int64_t len = bins.offsets[t + 1] - bins.offsets[t];
      const int x1 = std::min(in.width, (tx + 1) * in.tileSize);
      bool ok = true;
      for (int x = tx * in.tileSize; x < x1; x++) ok &= row[x] >= 0 && row[x] <= len;
      if (ok) continue;
      for (int x = tx * in.tileSize; x < x1; x++)
        if (row[x] < 0 || row[x] > len)
          throw KindErr("ValueError", "lastIndex[" + std::to_string(y) + ", " + std::to_string(x) + "] = " + std::to_string(row[x]) +
                                          " is outside its tile's list of " + std::to_string(len) +
                                          " splats (not the residual of a forward pass with these arguments)");
    }
  }
  const double t0 = now_ms();
  const int64_t nTiles = static_cast<int64_t>(bins.tilesX) * bins.tilesY;
  // Every record is written by its tile (the float32 and float64 passes alike), so the array starts uninitialised.
  std::unique_ptr<T[]> records(new T[static_cast<size_t>(bins.offsets[nTiles]) * REC]);
  std::atomic<bool> failed{false};
  Pool& pool = Pool::instance();
  const bool avx2 = has_avx2();
  // dtype float32: the float passes (raster_f32.h); a tile they cannot take runs the double pass below.
  if constexpr (std::is_same<T, float>::value)
    if (!packed) packed = prepare_splats_f32(in);
  pool.parallelFor(nTiles, [&](int64_t tile) {
    thread_local std::vector<TileSplat> splats;
    thread_local AlignedScratch<BackQuad> quads;
    try {
      if constexpr (std::is_same<T, float>::value) {
        if (backward_tile_f32(in, g, bins, packed.get(), tile, records.get(), avx2)) return;
      }
#if RLX_SPLAT_X86_DISPATCH
      if (avx2) {
        backward_tile_avx2(in, g, bins, tile, records.get(), splats, quads);
        return;
      }
#endif
      backward_tile_baseline(in, g, bins, tile, records.get(), splats, quads);
    } catch (...) {
      failed = true;
    }
  });
  if (failed) throw std::bad_alloc();
  // Per Gaussian: the sum of its records, in slot order (one contiguous run).
  constexpr int64_t CHUNK = 2048;
  pool.parallelFor((in.n + CHUNK - 1) / CHUNK, [&](int64_t ch) {
    const int64_t end = std::min(in.n, (ch + 1) * CHUNK);
    for (int64_t i = ch * CHUNK; i < end; i++) {
      double acc[REC] = {0};
      for (int64_t sl = bins.firstSlot[i]; sl < bins.firstSlot[i + 1]; sl++) {
        const T* rec = &records[REC * sl];
        for (int j = 0; j < REC; j++) acc[j] += static_cast<double>(rec[j]);
      }
      g.means2d[2 * i] = static_cast<T>(acc[0]), g.means2d[2 * i + 1] = static_cast<T>(acc[1]);
      for (int j = 0; j < 3; j++) g.conics[3 * i + j] = static_cast<T>(acc[2 + j]);
      g.opacities[i] = static_cast<T>(acc[5]);
      for (int c = 0; c < 3; c++) g.colors[3 * i + c] = static_cast<T>(acc[6 + c]);
      g.depths[i] = static_cast<T>(acc[9]);
    }
  });
  if (tm) tm->raster += now_ms() - t0;
}

template void rasterize_backward<float>(const RasterIn<float>&, const RasterGrad<float>&, Timings*);
template void rasterize_backward<double>(const RasterIn<double>&, const RasterGrad<double>&, Timings*);

}  // namespace splat
}  // namespace rlx
