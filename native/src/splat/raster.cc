// rasterizeForward (the rasterize section of src/splat/kernels/contract.ts):
// bin the splats into sorted per-tile lists (bin.cc), then composite every
// tile front to back, tiles in parallel on the addon's pool.
//
// Within a tile the loop runs splat by splat over the pixels of the splat's
// box (raster_tile.h) with each pixel's state (T, colour, depth, lastIndex)
// kept per pixel, so every pixel sees exactly the sequence the contract's
// per-pixel walk gives, in the same order, with the same arithmetic; the tile
// stops when all of its pixels have stopped.

#include <algorithm>
#include <atomic>
#include <cmath>
#include <climits>
#include <new>
#include <string>

#include "errors.h"

#include "pool/pool.h"
#include "splat/raster_tile.h"
#include "splat/splat.h"
#include "splat/splat_constants.h"

namespace rlx {
namespace splat {

namespace {

/** One tile of the forward pass. */
template <class T>
void forward_tile(const RasterIn<T>& in, const RasterOut<T>& out, const TileBins& bins, int64_t tile, std::vector<TileSplat>& splats,
                  std::vector<double>& state) {
  const int tx = static_cast<int>(tile % bins.tilesX), ty = static_cast<int>(tile / bins.tilesX);
  const TileRect r = tile_rect(tx, ty, in.tileSize, in.width, in.height);
  const int64_t begin = bins.offsets[tile], len = bins.offsets[tile + 1] - begin;
  const int npx = r.w * r.h;
  // Per pixel: T, C (3), D, lastIndex, stopped.
  state.assign(static_cast<size_t>(npx) * 7, 0);
  double *Tp = state.data(), *Cp = Tp + npx, *Dp = Cp + 3 * npx, *Lp = Dp + npx, *stop = Lp + npx;
  for (int p = 0; p < npx; p++) Tp[p] = 1;
  int active = npx;
  splats.resize(static_cast<size_t>(len));
  for (int64_t k = 0; k < len; k++) gather_splat(in, bins.entries[begin + k], r, splats[k]);
  for (int64_t k = 0; k < len && active > 0; k++) {
    const TileSplat& s = splats[k];
    for (int ly = s.y0; ly < s.y1; ly++) {
      const double dy = s.v - (r.py0 + ly + PIXEL_CENTER);
      for (int lx = s.x0; lx < s.x1; lx++) {
        const int p = ly * r.w + lx;
        if (stop[p] != 0) continue;
        const double dx = s.u - (r.px0 + lx + PIXEL_CENTER);
        const double sigma = 0.5 * (s.c0 * dx * dx + s.c2 * dy * dy) + s.c1 * dx * dy;
        if (sigma < 0 || sigma > s.sigmaSkip) continue;
        const double alpha = js_min(ALPHA_MAX, s.o * std::exp(-sigma));
        if (alpha < ALPHA_MIN) continue;
        const double tr = Tp[p];
        const double next = tr * (1 - alpha);
        if (next <= T_STOP) {
          stop[p] = 1;
          active--;
          continue;
        }
        for (int c = 0; c < 3; c++) Cp[3 * p + c] += s.col[c] * alpha * tr;
        Dp[p] += s.z * alpha * tr;
        Tp[p] = next;
        Lp[p] = static_cast<double>(k + 1);
      }
    }
  }
  for (int ly = 0; ly < r.h; ly++)
    for (int lx = 0; lx < r.w; lx++) {
      const int p = ly * r.w + lx;
      const int64_t o = static_cast<int64_t>(r.py0 + ly) * in.width + (r.px0 + lx);
      const double tr = Tp[p];
      for (int c = 0; c < 3; c++) out.image[3 * o + c] = static_cast<T>(Cp[3 * p + c] + tr * in.background[c]);
      out.alpha[o] = static_cast<T>(1 - tr);
      out.depth[o] = static_cast<T>(Dp[p]);
      out.finalT[o] = static_cast<T>(tr);
      out.lastIndex[o] = static_cast<int32_t>(Lp[p]);
    }
}

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
  bin_splats(in, false, &bins, tm);
  check_list_lengths(bins);
  const double t0 = now_ms();
  const int64_t nTiles = static_cast<int64_t>(bins.tilesX) * bins.tilesY;
  std::atomic<bool> failed{false};
  Pool::instance().parallelFor(nTiles, [&](int64_t tile) {
    // Scratch reused by the tiles a thread runs; an allocation failure is reported after the join (nothing may throw in a pool task).
    thread_local std::vector<TileSplat> splats;
    thread_local std::vector<double> state;
    try {
      forward_tile(in, out, bins, tile, splats, state);
    } catch (...) {
      failed = true;
    }
  });
  if (failed) throw std::bad_alloc();
  if (tm) tm->raster += now_ms() - t0;
}

template void rasterize_forward<float>(const RasterIn<float>&, const RasterOut<float>&, Timings*);
template void rasterize_forward<double>(const RasterIn<double>&, const RasterOut<double>&, Timings*);

}  // namespace splat
}  // namespace rlx
