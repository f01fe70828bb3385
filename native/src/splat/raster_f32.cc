// The float32 forward rasterize of a tile (raster_f32.h: why its decisions
// are the js reference's): raster.cc's loop (splat by splat over the pixels
// of the splat's box, per-pixel state updated under masks) in eight float
// lanes, each a block of 4 × 2 pixels (raster_f32.h, PixelBlock), then the
// exact double walk of the js reference for the few pixels whose stop test
// the float T could not decide.

#include <algorithm>
#include <cmath>
#include <cstring>

#include "splat/exp_fdlibm.h"
#include "splat/raster_f32.h"
#include "splat/splat_constants.h"

namespace rlx {
namespace splat {
namespace {

/** A 4 × 2 block of a tile's pixels (lane l: column l % 4, row l / 4) and their compositing state. */
struct PixelOct {
  v8f T, C[3], D, last;
  /** A bound on |T − T_js| (first order): U ← U·(1 − α) + rel·α·T per added splat (raster_f32.h). */
  v8f U;
  /** All ones in a lane that has stopped, waits for the replay, or lies past the tile's right edge. */
  v8m done;
  /** All ones in a lane whose pixel the replay recomputes. */
  v8m replay;
};

/**
 * The js reference's walk for pixel (lx, ly) of the tile at r over the
 * tile's gathered list, in double (its arithmetic and decisions); a splat
 * whose box leaves the pixel out is skipped without its exp (the reference
 * skips it too: raster_tile.h).
 */
void replay_pixel(const RasterIn<float>& in, const RasterOut<float>& out, const PackedSplat* packed, const std::vector<TileSplatF>& splats,
                  const TileRect& r, int lx, int ly) {
  const int px = r.px0 + lx, py = r.py0 + ly;
  double T = 1, C[3] = {0, 0, 0}, D = 0;
  int64_t last = 0;
  for (int64_t k = 0; k < static_cast<int64_t>(splats.size()); k++) {
    const TileSplatF& s = splats[k];
    if (lx < s.x0 || lx >= s.x1 || ly < s.y0 || ly >= s.y1) continue;
    const PackedSplat& p = packed[s.id];
    const double alpha = exact_alpha(p, px, py);
    if (alpha == 0) continue;
    const double next = T * (1 - alpha);
    if (next <= T_STOP) break;
    const double w = alpha * T;
    for (int c = 0; c < 3; c++) C[c] += static_cast<double>(p.col[c]) * w;
    D += static_cast<double>(p.z) * w;
    T = next;
    last = k + 1;
  }
  const int64_t o = static_cast<int64_t>(py) * in.width + px;
  for (int c = 0; c < 3; c++) out.image[3 * o + c] = static_cast<float>(C[c] + T * in.background[c]);
  out.alpha[o] = static_cast<float>(1 - T);
  out.depth[o] = static_cast<float>(D);
  out.finalT[o] = static_cast<float>(T);
  out.lastIndex[o] = static_cast<int32_t>(last);
}

/** Scratch a thread reuses across tiles. */
struct ForwardScratch {
  std::vector<TileSplatF> splats;
  AlignedScratch<PixelOct> octs;
  /** Per block column q of the tile, each lane's pixel-centre x (the same float operations the visits did per block). */
  AlignedScratch<v8f> colCentres;
};

template <class Isa>
RLX_ALWAYS_INLINE bool forward_body(const RasterIn<float>& in, const RasterOut<float>& out, const TileBins& bins, const PackedSplat* packed,
                                    int64_t tile, ForwardScratch& sc) {
  const int tx = static_cast<int>(tile % bins.tilesX), ty = static_cast<int>(tile / bins.tilesX);
  const TileRect r = tile_rect(tx, ty, in.tileSize, in.width, in.height);
  const int64_t begin = bins.offsets[tile], len = bins.offsets[tile + 1] - begin;
  if (len >= (int64_t(1) << 24)) return false;  // lastIndex lanes are floats
  sc.splats.resize(static_cast<size_t>(len));
  for (int64_t k = 0; k < len; k++) {
    if (k + 16 < len) __builtin_prefetch(&packed[bins.entries[begin + k + 16]]);
    const int32_t id = bins.entries[begin + k];
    if (!gather_f32(packed[id], id, r, sc.splats[k])) return false;
  }
  const int qw = (r.w + BLOCK_W - 1) / BLOCK_W, qh = (r.h + BLOCK_H - 1) / BLOCK_H;  // blocks per row, block rows
  PixelOct* octs = sc.octs.get(static_cast<size_t>(qw) * qh);
  int64_t active = static_cast<int64_t>(r.w) * r.h;
  for (int by = 0; by < qh; by++)
    for (int q = 0; q < qw; q++) {
      PixelOct& P = octs[static_cast<size_t>(by) * qw + q];
      P.T = v8_splat(1);
      P.C[0] = P.C[1] = P.C[2] = P.D = P.last = P.U = v8_splat(0);
      // Lanes past the tile's edge start done (a vector compare: lane stores would make the first visit wait for them).
      P.done = (v8m{0, 1, 2, 3, 0, 1, 2, 3} + BLOCK_W * q >= r.w) | (v8m{0, 0, 0, 0, 1, 1, 1, 1} + BLOCK_H * by >= r.h);
      P.replay = P.done & 0;
    }
  const v8f laneCol = block_cols(), laneRow = block_rows();
  v8f* colCentre = sc.colCentres.get(static_cast<size_t>(qw));
  for (int q = 0; q < qw; q++) colCentre[q] = (static_cast<float>(r.px0 + BLOCK_W * q) + laneCol) + static_cast<float>(PIXEL_CENTER);
  const v8f tStop = v8_splat(static_cast<float>(T_STOP));
  for (int64_t k = 0; k < len && active > 0; k++) {
    const TileSplatF& s = sc.splats[k];
    if (s.x0 >= s.x1) continue;
    // The stop test's band beyond U: the rounding of the k + 1 products of T and of T_STOP itself (2⁻²² each, generously).
    const float roundBand = static_cast<float>(T_STOP * (k + 3) * 2.4e-7);
    const int q0 = s.x0 / BLOCK_W, q1 = (s.x1 + BLOCK_W - 1) / BLOCK_W;
    const v8f kNext = v8_splat(static_cast<float>(k + 1));
    for (int by = s.y0 / BLOCK_H; by < (s.y1 + BLOCK_H - 1) / BLOCK_H; by++) {
      // Per lane, the float values the one-row loop computed per row: the pixel centres are exact in float.
      const v8f dy = s.v - ((static_cast<float>(r.py0 + BLOCK_H * by) + laneRow) + static_cast<float>(PIXEL_CENTER));
      const v8f c2dy2 = s.c2 * dy * dy;
      const v8f c1dy = s.c1 * dy;
      for (int q = q0; q < q1; q++) {
        PixelOct& P = octs[static_cast<size_t>(by) * qw + q];
        if (v8_all<Isa>(P.done)) continue;
        const v8f dx = s.u - colCentre[q];
        const v8f sigma = 0.5f * (s.c0 * dx * dx + c2dy2) + c1dy * dx;
        // Trusted splats have a positive definite conic, so the reference's σ is never negative (raster_f32.h): α ≥ ALPHA_MIN decides.
        const v8m live = ~P.done;
        const v8m maybe = live & (sigma <= s.skipMin);
        if (!v8_any<Isa>(maybe)) continue;
        v8m ok = maybe & (sigma <= s.acceptMax);
        const v8m unsure = maybe & ~ok;
        v8f exactAlpha = v8_splat(0);
        const bool patch = v8_any<Isa>(unsure);
        if (patch) {  // rare: σ within ~1e-6·B of thr; the js arithmetic decides
          for (int l = 0; l < 8; l++) {
            if (!unsure[l]) continue;
            const double a = exact_alpha(packed[s.id], r.px0 + BLOCK_W * q + block_col(l), r.py0 + BLOCK_H * by + block_row(l));
            if (a > 0) ok[l] = -1, exactAlpha[l] = static_cast<float>(a);
          }
          if (!v8_any<Isa>(ok)) continue;
        }
        // −σ ≥ −skipMin > −76 on the lanes that add (trusted: o < 1e30), 0 elsewhere: exp8's range.
        const v8f e = exp8_nonpositive(v8_select(ok, -sigma, v8_splat(0)));
        const v8f oe = s.o * e;
        v8f alpha = v8_select(oe > static_cast<float>(ALPHA_MAX), v8_splat(static_cast<float>(ALPHA_MAX)), oe);
        if (patch) alpha = v8_select(exactAlpha > 0.0f, exactAlpha, alpha);
        // α = 0 on the lanes that do not add, which makes their update below an exact no-op (T·1, C + colour·0 with C
        // never −0, U·1 + rel·0), so the state needs no selects but lastIndex's.
        alpha = v8_and(ok, alpha);
        v8f oneMinus = 1.0f - alpha;
        v8f next = P.T * oneMinus;
        v8f w = alpha * P.T;
        v8f U = P.U * oneMinus + s.relAlpha * w;  // the error bound of next
        const v8f band = U + roundBand;
        v8m add = ok;
        if (v8_any<Isa>(ok & (next <= tStop + band))) {  // stops now, or the float T cannot tell: the pixel is replayed
          const v8m ended = ok & (next <= tStop + band);
          P.done |= ended;
          P.replay |= ended & (next > tStop - band);
          add &= ~ended;
          active -= __builtin_popcount(v8_bits<Isa>(ended));
          alpha = v8_and(add, alpha);  // the ended lanes keep their state too; the others' values are unchanged
          oneMinus = 1.0f - alpha;
          next = P.T * oneMinus;
          w = alpha * P.T;
          U = P.U * oneMinus + s.relAlpha * w;
        }
        for (int c = 0; c < 3; c++) P.C[c] = P.C[c] + s.col[c] * w;
        P.D = P.D + s.z * w;
        P.T = next;
        P.U = U;
        P.last = v8_select(add, kNext, P.last);
      }
    }
  }
  const float bg[3] = {static_cast<float>(in.background[0]), static_cast<float>(in.background[1]), static_cast<float>(in.background[2])};
  float *const image = out.image, *const alphaOut = out.alpha, *const depthOut = out.depth, *const finalT = out.finalT;
  int32_t* const lastIndex = out.lastIndex;
  for (int by = 0; by < qh; by++)
    for (int q = 0; q < qw; q++) {
      const PixelOct& P = octs[static_cast<size_t>(by) * qw + q];
      const int lx0 = BLOCK_W * q, ly0 = BLOCK_H * by;
      if (lx0 + BLOCK_W <= r.w && ly0 + BLOCK_H <= r.h && !v8_any<Isa>(P.replay)) {  // the whole block, the same float operations per lane
        const v8f tr = P.T;
        const v8f rgb[3] = {P.C[0] + tr * bg[0], P.C[1] + tr * bg[1], P.C[2] + tr * bg[2]};
        const v8f a = 1.0f - tr;
        const v8m li = __builtin_convertvector(P.last, v8m);  // exact: the lanes hold small integers
        for (int row = 0; row < BLOCK_H; row++) {
          const int64_t o = static_cast<int64_t>(r.py0 + ly0 + row) * in.width + r.px0 + lx0;
          const int l0 = BLOCK_W * row;
          for (int l = 0; l < BLOCK_W; l++)
            for (int c = 0; c < 3; c++) image[3 * (o + l) + c] = rgb[c][l0 + l];
          std::memcpy(alphaOut + o, reinterpret_cast<const float*>(&a) + l0, 4 * BLOCK_W);
          std::memcpy(depthOut + o, reinterpret_cast<const float*>(&P.D) + l0, 4 * BLOCK_W);
          std::memcpy(finalT + o, reinterpret_cast<const float*>(&tr) + l0, 4 * BLOCK_W);
          std::memcpy(lastIndex + o, reinterpret_cast<const int32_t*>(&li) + l0, 4 * BLOCK_W);
        }
        continue;
      }
      for (int l = 0; l < 8; l++) {
        const int lx = lx0 + block_col(l), ly = ly0 + block_row(l);
        if (lx >= r.w || ly >= r.h) continue;
        if (P.replay[l]) {
          replay_pixel(in, out, packed, sc.splats, r, lx, ly);
          continue;
        }
        const int64_t o = static_cast<int64_t>(r.py0 + ly) * in.width + r.px0 + lx;
        const float tr = P.T[l];
        for (int c = 0; c < 3; c++) image[3 * o + c] = P.C[c][l] + tr * bg[c];
        alphaOut[o] = 1 - tr;
        depthOut[o] = P.D[l];
        finalT[o] = tr;
        lastIndex[o] = static_cast<int32_t>(P.last[l]);
      }
    }
  return true;
}

bool forward_baseline(const RasterIn<float>& in, const RasterOut<float>& out, const TileBins& bins, const PackedSplat* packed, int64_t tile,
                      ForwardScratch& sc) {
  return forward_body<IsaBaseline>(in, out, bins, packed, tile, sc);
}

#if RLX_SPLAT_X86_DISPATCH
__attribute__((target("avx2"))) bool forward_avx2(const RasterIn<float>& in, const RasterOut<float>& out, const TileBins& bins,
                                                  const PackedSplat* packed, int64_t tile, ForwardScratch& sc) {
  return forward_body<IsaAvx2>(in, out, bins, packed, tile, sc);
}
#endif

}  // namespace

bool forward_tile_f32(const RasterIn<float>& in, const RasterOut<float>& out, const TileBins& bins, const PackedSplat* packed, int64_t tile,
                      bool avx2) {
  thread_local ForwardScratch sc;
#if RLX_SPLAT_X86_DISPATCH
  if (avx2) return forward_avx2(in, out, bins, packed, tile, sc);
#endif
  return forward_baseline(in, out, bins, packed, tile, sc);
}

}  // namespace splat
}  // namespace rlx
