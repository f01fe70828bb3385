// rasterizeForward (the rasterize section of src/splat/kernels/contract.ts):
// bin the splats into sorted per-tile lists (bin.cc), then composite every
// tile front to back, tiles in parallel on the addon's pool.
//
// Within a tile the loop runs splat by splat over the pixels of the splat's
// box (raster_tile.h) with each pixel's state (T, colour, depth, lastIndex)
// kept per pixel, so every pixel sees exactly the sequence the contract's
// per-pixel walk gives, in the same order, with the same arithmetic; the tile
// stops when all of its pixels have stopped. This is the float64 pass (and
// the float32 fallback); dtype float32 tiles normally run raster_f32.cc.

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <climits>
#include <new>
#include <string>
#include <type_traits>

#include "errors.h"

#include "pool/pool.h"
#include "splat/bin_cache.h"
#include "splat/exp_fdlibm.h"
#include "splat/raster_f32.h"
#include "splat/raster_tile.h"
#include "splat/splat.h"
#include "splat/splat_constants.h"

namespace rlx {
namespace splat {

namespace {

/** Four horizontally adjacent pixels of a tile and their compositing state. */
struct PixelQuad {
  v4d T, C[3], D, last;
  /** All ones in a lane that has stopped (or lies past the tile's right edge). */
  v4m done;
};

/**
 * One tile of the forward pass, four pixels of a row at a time.
 *
 * Splat by splat (front to back), over the rows of its box and the quads that
 * overlap the box's columns. A quad's lanes left or right of the box run the
 * contract's exact per-pixel test as well, which the box only shortcuts, so
 * every pixel still adds exactly the splats the contract's walk adds, in the
 * same order and with the js reference's arithmetic (w = α·T, C += colour·w).
 * The state lives per lane and is updated through masks, so no lane's
 * decision branches; α's exp is exp4_nonpositive (Math.exp's bits) unless a
 * lane needs the scalar function's full range.
 */
template <class T>
RLX_ALWAYS_INLINE void forward_tile_body(const RasterIn<T>& in, const RasterOut<T>& out, const TileBins& bins, int64_t tile, std::vector<TileSplat>& splats,
                                         AlignedScratch<PixelQuad>& scratch) {
  const int tx = static_cast<int>(tile % bins.tilesX), ty = static_cast<int>(tile / bins.tilesX);
  const TileRect r = tile_rect(tx, ty, in.tileSize, in.width, in.height);
  const int64_t begin = bins.offsets[tile], len = bins.offsets[tile + 1] - begin;
  const int qw = (r.w + 3) / 4;  // quads per row
  PixelQuad* quads = scratch.get(static_cast<size_t>(qw) * r.h);
  int64_t active = static_cast<int64_t>(r.w) * r.h;
  for (int ly = 0; ly < r.h; ly++)
    for (int q = 0; q < qw; q++) {
      PixelQuad& Q = quads[static_cast<size_t>(ly) * qw + q];
      Q.T = v4_splat(1);
      Q.C[0] = Q.C[1] = Q.C[2] = Q.D = Q.last = v4_splat(0);
      for (int l = 0; l < 4; l++) Q.done[l] = 4 * q + l < r.w ? 0 : -1;
    }
  // Pixel centres of the lanes of quad q of a row.
  const v4d lane = {0, 1, 2, 3};
  splats.resize(static_cast<size_t>(len));
  for (int64_t k = 0; k < len; k++) gather_splat(in, bins.entries[begin + k], r, splats[k]);
  for (int64_t k = 0; k < len && active > 0; k++) {
    const TileSplat& s = splats[k];
    if (s.x0 >= s.x1) continue;
    const int q0 = s.x0 / 4, q1 = (s.x1 + 3) / 4;
    const v4d kNext = v4_splat(static_cast<double>(k + 1));
    for (int ly = s.y0; ly < s.y1; ly++) {
      const double dy = s.v - (r.py0 + ly + PIXEL_CENTER);
      const double c2dy2 = s.c2 * dy * dy;
      for (int q = q0; q < q1; q++) {
        PixelQuad& Q = quads[static_cast<size_t>(ly) * qw + q];
        if (v4_all(Q.done)) continue;
        const v4d dx = s.u - ((static_cast<double>(r.px0 + 4 * q) + lane) + PIXEL_CENTER);
        const v4d sigma = 0.5 * (s.c0 * dx * dx + c2dy2) + s.c1 * dx * dy;
        // The contract's "skip if σ < 0", and the sure α < ALPHA_MIN beyond sigmaSkip (NaN passes both, as in the scalar walk).
        v4m ok = ~Q.done & ~(sigma < 0.0) & ~(sigma > s.sigmaSkip);
        if (!v4_any(ok)) continue;
        const v4d negSigma = v4_select(ok, -sigma, v4_splat(0));
        v4d e;
        if (v4_any((negSigma < EXP4_MIN) | (negSigma != negSigma))) {
          for (int l = 0; l < 4; l++) e[l] = exp_fdlibm(negSigma[l]);
        } else {
          e = exp4_nonpositive(negSigma);
        }
        const v4d oe = s.o * e;
        const v4d alpha = v4_select(oe > ALPHA_MAX, v4_splat(ALPHA_MAX), oe);  // js_min(ALPHA_MAX, oe): NaN stays NaN
        ok &= ~(alpha < ALPHA_MIN);
        if (!v4_any(ok)) continue;
        const v4d next = Q.T * (1.0 - alpha);
        const v4m stopNow = ok & (next <= T_STOP);
        const v4m add = ok & ~stopNow;
        if (const int stopped = v4_bits(stopNow)) {
          Q.done |= stopNow;
          active -= __builtin_popcount(stopped);
        }
        const v4d w = alpha * Q.T;
        for (int c = 0; c < 3; c++) Q.C[c] = v4_select(add, Q.C[c] + s.col[c] * w, Q.C[c]);
        Q.D = v4_select(add, Q.D + s.z * w, Q.D);
        Q.T = v4_select(add, next, Q.T);
        Q.last = v4_select(add, kNext, Q.last);
      }
    }
  }
  for (int ly = 0; ly < r.h; ly++)
    for (int lx = 0; lx < r.w; lx++) {
      const PixelQuad& Q = quads[static_cast<size_t>(ly) * qw + lx / 4];
      const int l = lx % 4;
      const int64_t o = static_cast<int64_t>(r.py0 + ly) * in.width + (r.px0 + lx);
      const double tr = Q.T[l];
      for (int c = 0; c < 3; c++) out.image[3 * o + c] = static_cast<T>(Q.C[c][l] + tr * in.background[c]);
      out.alpha[o] = static_cast<T>(1 - tr);
      out.depth[o] = static_cast<T>(Q.D[l]);
      out.finalT[o] = static_cast<T>(tr);
      out.lastIndex[o] = static_cast<int32_t>(Q.last[l]);
    }
}

/** forward_tile_body as compiled for the baseline (SSE2 on x86-64). */
template <class T>
void forward_tile_baseline(const RasterIn<T>& in, const RasterOut<T>& out, const TileBins& bins, int64_t tile, std::vector<TileSplat>& splats,
                           AlignedScratch<PixelQuad>& scratch) {
  forward_tile_body(in, out, bins, tile, splats, scratch);
}

#if RLX_SPLAT_X86_DISPATCH
/** The same source for AVX2 (four doubles a lane group; no FMA, so the same bits as the baseline). */
template <class T>
__attribute__((target("avx2"))) void forward_tile_avx2(const RasterIn<T>& in, const RasterOut<T>& out, const TileBins& bins, int64_t tile,
                                                       std::vector<TileSplat>& splats, AlignedScratch<PixelQuad>& scratch) {
  forward_tile_body(in, out, bins, tile, splats, scratch);
}
#endif

}  // namespace

/** Throws unless every tile list fits lastIndex's Int32. */
void check_list_lengths(const TileBins& bins) {
  for (size_t t = 0; t + 1 < bins.offsets.size(); t++)
    if (bins.offsets[t + 1] - bins.offsets[t] > INT32_MAX)
      throw KindErr("ValueError", "a tile lists " + std::to_string(bins.offsets[t + 1] - bins.offsets[t]) + " splats, more than lastIndex (Int32) can count");
}

template <class T>
void rasterize_forward(const RasterIn<T>& in, const RasterOut<T>& out, Timings* tm) {
  TileBins bins;
  bin_splats(in, false, &bins, tm, BinSource::fresh);
  check_list_lengths(bins);
  const double t0 = now_ms();
  const int64_t nTiles = static_cast<int64_t>(bins.tilesX) * bins.tilesY;
  std::atomic<bool> failed{false};
  const bool avx2 = has_avx2();
  // dtype float32: the float passes (raster_f32.h) on the splats packed once; a tile they cannot take runs the double pass below.
  std::shared_ptr<const PackedSplat[]> packed;
  if constexpr (std::is_same<T, float>::value) packed = prepare_splats_f32(in);
  Pool::instance().parallelFor(nTiles, [&](int64_t tile) {
    // Scratch reused by the tiles a thread runs; an allocation failure is reported after the join (nothing may throw in a pool task).
    thread_local std::vector<TileSplat> splats;
    thread_local AlignedScratch<PixelQuad> quads;
    try {
      if constexpr (std::is_same<T, float>::value) {
        if (forward_tile_f32(in, out, bins, packed.get(), tile, avx2)) return;
      }
#if RLX_SPLAT_X86_DISPATCH
      if (avx2) {
        forward_tile_avx2(in, out, bins, tile, splats, quads);
        return;
      }
#endif
      forward_tile_baseline(in, out, bins, tile, splats, quads);
    } catch (...) {
      failed = true;
    }
  });
  if (failed) throw std::bad_alloc();
  if (tm) tm->raster += now_ms() - t0;
  // The lists and records, for a backward over the same splats (bin_cache.h).
  const double tk = now_ms();
  remember_forward(in, bins, std::move(packed));
  if (tm) tm->bin += now_ms() - tk;
}

template void rasterize_forward<float>(const RasterIn<float>&, const RasterOut<float>&, Timings*);
template void rasterize_forward<double>(const RasterIn<double>&, const RasterOut<double>&, Timings*);

}  // namespace splat
}  // namespace rlx
