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
// Race-free and deterministic: tiles run in parallel (same splat-by-splat
// loop over the box as the forward, raster_tile.h), each writing one gradient
// record per list entry into its own slot (bin.cc's Gaussian-major slots);
// a second parallel pass sums each Gaussian's records in slot order. The
// result does not depend on the number of threads.

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <new>
#include <string>

#include "errors.h"
#include "pool/pool.h"
#include "splat/exp_fdlibm.h"
#include "splat/raster_tile.h"
#include "splat/splat.h"
#include "splat/splat_constants.h"

namespace rlx {
namespace splat {
namespace {

/** Per list entry: ∂L/∂(u, v, c0, c1, c2, o, colour r, g, b, depth). */
constexpr int REC = 10;

template <class T>
void backward_tile(const RasterIn<T>& in, const RasterGrad<T>& g, const TileBins& bins, int64_t tile, T* records, std::vector<TileSplat>& splats,
                   std::vector<double>& state) {
  const int tx = static_cast<int>(tile % bins.tilesX), ty = static_cast<int>(tile / bins.tilesX);
  const TileRect r = tile_rect(tx, ty, in.tileSize, in.width, in.height);
  const int64_t begin = bins.offsets[tile], len = bins.offsets[tile + 1] - begin;
  const int npx = r.w * r.h;
  // Per pixel: T, S_C (3), S_D, T_final, lastIndex, cotangents g_C (3), g_A, g_D.
  state.assign(static_cast<size_t>(npx) * 12, 0);
  double *Tp = state.data(), *SC = Tp + npx, *SD = SC + 3 * npx, *TN = SD + npx, *Lp = TN + npx, *GC = Lp + npx, *GA = GC + 3 * npx,
         *GD = GA + npx;
  int64_t maxLast = 0;
  for (int ly = 0; ly < r.h; ly++)
    for (int lx = 0; lx < r.w; lx++) {
      const int p = ly * r.w + lx;
      const int64_t o = static_cast<int64_t>(r.py0 + ly) * in.width + (r.px0 + lx);
      Tp[p] = TN[p] = g.finalT[o];
      for (int c = 0; c < 3; c++) SC[3 * p + c] = Tp[p] * in.background[c], GC[3 * p + c] = g.ctImage[3 * o + c];
      GA[p] = g.ctAlpha[o];
      GD[p] = g.ctDepth[o];
      Lp[p] = g.lastIndex[o];
      maxLast = std::max<int64_t>(maxLast, g.lastIndex[o]);
    }
  splats.resize(static_cast<size_t>(maxLast));
  for (int64_t k = 0; k < maxLast; k++) gather_splat(in, bins.entries[begin + k], r, splats[k]);
  for (int64_t k = maxLast; k < len; k++) std::fill_n(records + REC * bins.slots[begin + k], REC, T(0));
  for (int64_t k = maxLast - 1; k >= 0; k--) {
    const TileSplat& s = splats[k];
    double gu = 0, gv = 0, gc0 = 0, gc1 = 0, gc2 = 0, go = 0, gcol[3] = {0, 0, 0}, gz = 0;
    const double kk = static_cast<double>(k);
    for (int ly = s.y0; ly < s.y1; ly++) {
      const double dy = s.v - (r.py0 + ly + PIXEL_CENTER);
      for (int lx = s.x0; lx < s.x1; lx++) {
        const int p = ly * r.w + lx;
        if (!(kk < Lp[p])) continue;
        const double dx = s.u - (r.px0 + lx + PIXEL_CENTER);
        const double sigma = 0.5 * (s.c0 * dx * dx + s.c2 * dy * dy) + s.c1 * dx * dy;
        if (sigma < 0 || sigma > s.sigmaSkip) continue;
        const double G = exp_fdlibm(-sigma);  // the forward's exp (Math.exp's bits), so α and its skip test match it
        const double oG = s.o * G;
        const double alpha = js_min(ALPHA_MAX, oG);
        if (alpha < ALPHA_MIN) continue;
        const double oneMinus = 1 - alpha;
        const double Tk = Tp[p] / oneMinus;
        const double wgt = alpha * Tk;
        double gAlpha = GA[p] * TN[p] / oneMinus;
        for (int c = 0; c < 3; c++) {
          gcol[c] += GC[3 * p + c] * wgt;
          gAlpha += GC[3 * p + c] * (s.col[c] * Tk - SC[3 * p + c] / oneMinus);
          SC[3 * p + c] += s.col[c] * wgt;
        }
        gz += GD[p] * wgt;
        gAlpha += GD[p] * (s.z * Tk - SD[p] / oneMinus);
        SD[p] += s.z * wgt;
        Tp[p] = Tk;
        if (oG > ALPHA_MAX) continue;  // α clamped: no gradient to o or σ
        go += gAlpha * G;
        const double gSigma = -gAlpha * alpha;
        gu += gSigma * (s.c0 * dx + s.c1 * dy);
        gv += gSigma * (s.c2 * dy + s.c1 * dx);
        gc0 += gSigma * 0.5 * dx * dx;
        gc1 += gSigma * dx * dy;
        gc2 += gSigma * 0.5 * dy * dy;
      }
    }
    T* rec = records + REC * bins.slots[begin + k];
    const double vals[REC] = {gu, gv, gc0, gc1, gc2, go, gcol[0], gcol[1], gcol[2], gz};
    for (int j = 0; j < REC; j++) rec[j] = static_cast<T>(vals[j]);
  }
}

}  // namespace

template <class T>
void rasterize_backward(const RasterIn<T>& in, const RasterGrad<T>& g, Timings* tm) {
  TileBins bins;
  bin_splats(in, true, &bins, tm);
  check_list_lengths(bins);
  // lastIndex comes from the caller: each must lie within its tile's list (else it is not this forward's residual).
  for (int y = 0; y < in.height; y++)
    for (int x = 0; x < in.width; x++) {
      const int64_t t = static_cast<int64_t>(y / in.tileSize) * bins.tilesX + x / in.tileSize;
      const int32_t L = g.lastIndex[static_cast<int64_t>(y) * in.width + x];
      if (L < 0 || L > bins.offsets[t + 1] - bins.offsets[t])
        throw KindErr("ValueError", "lastIndex[" + std::to_string(y) + ", " + std::to_string(x) + "] = " + std::to_string(L) +
                                        " is outside its tile's list of " + std::to_string(bins.offsets[t + 1] - bins.offsets[t]) +
                                        " splats (not the residual of a forward pass with these arguments)");
    }
  const double t0 = now_ms();
  const int64_t nTiles = static_cast<int64_t>(bins.tilesX) * bins.tilesY;
  std::vector<T> records(static_cast<size_t>(bins.firstSlot[in.n]) * REC);
  std::atomic<bool> failed{false};
  Pool& pool = Pool::instance();
  pool.parallelFor(nTiles, [&](int64_t tile) {
    thread_local std::vector<TileSplat> splats;
    thread_local std::vector<double> state;
    try {
      backward_tile(in, g, bins, tile, records.data(), splats, state);
    } catch (...) {
      failed = true;
    }
  });
  if (failed) throw std::bad_alloc();
  // Per Gaussian: the sum of its records, in slot order.
  constexpr int64_t CHUNK = 2048;
  pool.parallelFor((in.n + CHUNK - 1) / CHUNK, [&](int64_t ch) {
    const int64_t end = std::min(in.n, (ch + 1) * CHUNK);
    for (int64_t i = ch * CHUNK; i < end; i++) {
      double acc[REC] = {0};
      for (int64_t sl = bins.firstSlot[i]; sl < bins.firstSlot[i + 1]; sl++)
        for (int j = 0; j < REC; j++) acc[j] += static_cast<double>(records[REC * sl + j]);
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
