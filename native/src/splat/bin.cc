// Tile binning (the rasterize section of src/splat/kernels/contract.ts): each
// splat with radius > 0 is listed on the tiles its box touches, and each
// tile's list is in (depth, index) order.
//
// Tile first, then depth: a counting sort by tile scatters (depth key,
// index) items into per-tile lists in index order, and each tile's list is
// then sorted by key alone with a stable byte-wise radix sort (equal depths
// stay in index order), in the cache, the tiles in parallel. The scatter is
// parallel and deterministic: the splats are cut into index ranges, each
// counts its entries per tile, and prefix sums give every range its own
// write cursor per tile, so a tile's list starts in index order whatever the
// thread count. Every pass over the splats reads them in index order: sorting
// all splats by depth first (the order this file used before) made the
// scatter read each splat's rectangle at random, a cache miss per splat at
// 1M splats. No list has a size limit (offsets are 64-bit).

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "pool/pool.h"
#include "splat/bin_cache.h"
#include "splat/simd.h"
#include "splat/splat.h"

namespace rlx {
namespace splat {
namespace {

/**
 * Splat (u, v, r)'s tile rectangle [x0, x1) × [y0, y1) into r4 (all zero
 * when r is not > 0): the box edges u − r, u + r + ts − 1 (likewise v) over
 * ts, floored, clamped to the tile grid (NaN to 0), four lanes at once.
 *
 * ⌊x / ts⌋ without the division (four a splat were a third of the binning's
 * first pass): x·inv (inv = 1/ts) is within 2⁻⁵¹ relative of x/ts, so its
 * floor is off by at most one, only where x/ts is next to an integer, and the
 * exact products q·ts, (q + 1)·ts say which way (|q| < 2⁵⁰: past that the
 * clamp decides anyway). NaN stays NaN and ±∞ ±∞.
 */
RLX_ALWAYS_INLINE void tile_rect_of(double u, double v, double r, int ts, double inv, int tilesX, int tilesY, int32_t* r4) {
  if (!(r > 0)) {
    r4[0] = r4[1] = r4[2] = r4[3] = 0;
    return;
  }
  const v4d x = {u - r, u + r + ts - 1, v - r, v + r + ts - 1}, d = v4_splat(ts);
  const v4d q = v4_floor(x * inv);
  const v4d f = v4_select(q * d > x, q - 1.0, v4_select((q + 1.0) * d <= x, q + 1.0, q));
  clamp_int4(f[0], f[1], f[2], f[3], tilesX, tilesY, r4);
}

RLX_ALWAYS_INLINE bool listed(const int32_t* r4) { return r4[1] > r4[0] && r4[3] > r4[2]; }

/** Tiles a rectangle covers (0 when empty). */
RLX_ALWAYS_INLINE int64_t area_of(const int32_t* r4) { return listed(r4) ? static_cast<int64_t>(r4[1] - r4[0]) * (r4[3] - r4[2]) : 0; }

/** The rectangles of splats [begin, end) (rect: four int32 a splat); returns the range's entries. */
template <class T>
RLX_ALWAYS_INLINE int64_t rects_body(const RasterIn<T>& in, int64_t begin, int64_t end, int tilesX, int tilesY, int32_t* rect) {
  const int ts = in.tileSize;
  const double inv = 1.0 / ts;
  int64_t entries = 0;
  for (int64_t i = begin; i < end; i++) {
    int32_t* r4 = &rect[4 * i];
    tile_rect_of(in.means2d[2 * i], in.means2d[2 * i + 1], in.radii[i], ts, inv, tilesX, tilesY, r4);
    entries += area_of(r4);
  }
  return entries;
}
template <class T>
int64_t rects_baseline(const RasterIn<T>& in, int64_t begin, int64_t end, int tilesX, int tilesY, int32_t* rect) {
  return rects_body(in, begin, end, tilesX, tilesY, rect);
}
#if RLX_SPLAT_X86_DISPATCH
template <class T>
__attribute__((target("avx2"))) int64_t rects_avx2(const RasterIn<T>& in, int64_t begin, int64_t end, int tilesX, int tilesY, int32_t* rect) {
  return rects_body(in, begin, end, tilesX, tilesY, rect);
}
#endif

/** Order-preserving unsigned bits of a float / double (−0 as +0, so it ties with +0 as in JS). */
inline uint32_t order_bits(float f) {
  f = f + 0.0f;
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
inline uint64_t order_bits(double d) {
  d = d + 0.0;
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return (u & 0x8000000000000000ull) ? ~u : (u | 0x8000000000000000ull);
}

/** A list entry while the lists are sorted: the splat's depth key and index. */
template <class K>
struct Item {
  K key;
  int32_t idx;
};

/**
 * Sorts a[0, m) by key, stably (a tile's list, which starts in index order,
 * ends in (key, index) order), and writes the sorted indices to out:
 * insertion sort for a short list, else a counting pass per key byte that
 * varies within the list (LSD, least significant first; a tile's depths
 * share their top bytes), the bytes counted together in one read of the
 * list, the last pass writing out. tmp is the calling thread's scratch.
 */
template <class K>
void sort_tile(Item<K>* a, int64_t m, std::vector<Item<K>>& tmp, int32_t* out) {
  constexpr int64_t SHORT = 32;
  if (m <= SHORT) {
    for (int64_t j = 1; j < m; j++) {
      const Item<K> x = a[j];
      int64_t k = j;
      for (; k > 0 && a[k - 1].key > x.key; k--) a[k] = a[k - 1];
      a[k] = x;
    }
    for (int64_t j = 0; j < m; j++) out[j] = a[j].idx;
    return;
  }
  K varies = 0;
  for (int64_t j = 1; j < m; j++) varies |= a[j].key ^ a[0].key;
  constexpr int BYTES = sizeof(K);
  unsigned shift[BYTES];
  int passes = 0;
  for (int b = 0; b < BYTES; b++)
    if ((varies >> (8 * b)) & 0xff) shift[passes++] = 8 * b;  // a byte every key shares would move nothing
  if (passes == 0) {
    for (int64_t j = 0; j < m; j++) out[j] = a[j].idx;
    return;
  }
  uint32_t start[BYTES][256];  // m < 2³¹: indices are int32
  std::memset(start, 0, sizeof(uint32_t) * 256 * passes);
  for (int64_t j = 0; j < m; j++)
    for (int k = 0; k < passes; k++) start[k][(a[j].key >> shift[k]) & 0xff]++;
  if (passes > 1 && tmp.size() < static_cast<size_t>(m)) tmp.resize(static_cast<size_t>(m));
  Item<K>* from = a;
  Item<K>* to = tmp.data();
  for (int k = 0; k < passes; k++) {
    uint32_t at = 0;
    for (int b = 0; b < 256; b++) {
      const uint32_t c = start[k][b];
      start[k][b] = at;
      at += c;
    }
    if (k == passes - 1) {
      for (int64_t j = 0; j < m; j++) out[start[k][(from[j].key >> shift[k]) & 0xff]++] = from[j].idx;
      return;
    }
    for (int64_t j = 0; j < m; j++) to[start[k][(from[j].key >> shift[k]) & 0xff]++] = from[j];
    std::swap(from, to);
  }
}

template <class T>
struct KeyOf;
template <>
struct KeyOf<float> {
  using type = uint32_t;
};
template <>
struct KeyOf<double> {
  using type = uint64_t;
};

}  // namespace

template <class T>
void bin_splats(const RasterIn<T>& in, bool withSlots, TileBins* bins, Timings* tm, BinSource source,
                std::shared_ptr<const PackedSplat[]>* prepared) {
  const int ts = in.tileSize;
  const int tilesX = (in.width + ts - 1) / ts, tilesY = (in.height + ts - 1) / ts;
  const int64_t nTiles = static_cast<int64_t>(tilesX) * tilesY;
  const int64_t n = in.n;
  bins->tilesX = tilesX, bins->tilesY = tilesY;
  Pool& pool = Pool::instance();
  double t0 = now_ms();

  // Each splat's tile rectangle [x0, x1) × [y0, y1) (empty when radius ≤ 0), and per chunk its entries.
  std::unique_ptr<int32_t[]> rect(new int32_t[4 * n]);  // every element written below
  constexpr int64_t CHUNK = 4096;
  const int64_t nChunks = (n + CHUNK - 1) / CHUNK;
  std::vector<int64_t> before(nChunks + 1, 0);
  const bool avx2 = has_avx2();
  pool.parallelFor(nChunks, [&](int64_t ch) {
    const int64_t begin = ch * CHUNK, end = std::min(n, begin + CHUNK);
#if RLX_SPLAT_X86_DISPATCH
    if (avx2) {
      before[ch + 1] = rects_avx2(in, begin, end, tilesX, tilesY, rect.get());
      return;
    }
#endif
    before[ch + 1] = rects_baseline(in, begin, end, tilesX, tilesY, rect.get());
  });
  for (int64_t ch = 0; ch < nChunks; ch++) before[ch + 1] += before[ch];
  if (withSlots) {
    bins->firstSlot.reset(new int64_t[n + 1]);  // every element written below
    bins->firstSlot[0] = 0;
    pool.parallelFor(nChunks, [&](int64_t ch) {
      int64_t at = before[ch];
      for (int64_t i = ch * CHUNK; i < std::min(n, (ch + 1) * CHUNK); i++) bins->firstSlot[i + 1] = at += area_of(&rect[4 * i]);
    });
  }
  const auto forTiles = [&](const int32_t* r4, auto&& f) {
    for (int ty = r4[2]; ty < r4[3]; ty++)
      for (int tx = r4[0]; tx < r4[1]; tx++) f(static_cast<int64_t>(ty) * tilesX + tx);
  };
  // Each entry's slot: splat i's tiles numbered in row-major order of its rectangle from firstSlot[i], tile by tile
  // (rect and firstSlot are read at random: fetched ahead).
  const auto numberSlots = [&] {
    bins->entrySlots.reset(new int64_t[bins->offsets[nTiles]]);  // every element written below
    pool.parallelFor(tilesY, [&](int64_t ty) {
      for (int64_t tx = 0; tx < tilesX; tx++) {
        const int64_t t = ty * tilesX + tx, end = bins->offsets[t + 1];
        for (int64_t e = bins->offsets[t]; e < end; e++) {
          if (e + 16 < end) {
            __builtin_prefetch(&rect[4 * static_cast<int64_t>(bins->entries[e + 16])]);
            __builtin_prefetch(&bins->firstSlot[bins->entries[e + 16]]);
          }
          const int32_t i = bins->entries[e];
          const int32_t* r4 = &rect[4 * static_cast<int64_t>(i)];
          bins->entrySlots[e] = bins->firstSlot[i] + (ty - r4[2]) * (r4[1] - r4[0]) + (tx - r4[0]);
        }
      }
    });
  };
  if (source == BinSource::recall && recall_bins(in, bins, prepared)) {  // the forward's lists
    if (withSlots) numberSlots();
    if (tm) tm->bin += now_ms() - t0;
    return;
  }

  // Counting sort by tile, in index ranges (parts): each part's entries per tile, then its cursor per tile.
  const int64_t parts = std::max<int64_t>(1, std::min<int64_t>(4 * pool.size(), (n + 8191) / 8192));
  const int64_t per = (n + parts - 1) / parts;
  std::vector<int64_t> cursor(parts * nTiles, 0);
  pool.parallelFor(parts, [&](int64_t p) {
    int64_t* cnt = &cursor[p * nTiles];
    for (int64_t i = std::min(n, p * per); i < std::min(n, (p + 1) * per); i++) forTiles(&rect[4 * i], [&](int64_t t) { cnt[t]++; });
  });
  bins->offsets.assign(nTiles + 1, 0);
  int64_t total = 0;
  for (int64_t t = 0; t < nTiles; t++) {
    bins->offsets[t] = total;
    for (int64_t p = 0; p < parts; p++) {
      const int64_t k = cursor[p * nTiles + t];
      cursor[p * nTiles + t] = total;
      total += k;
    }
  }
  bins->offsets[nTiles] = total;
  using K = typename KeyOf<T>::type;
  std::unique_ptr<Item<K>[]> items(new Item<K>[total]);  // every element written below
  pool.parallelFor(parts, [&](int64_t p) {
    int64_t* cur = &cursor[p * nTiles];
    for (int64_t i = std::min(n, p * per); i < std::min(n, (p + 1) * per); i++) {
      const int32_t* r4 = &rect[4 * i];
      if (!listed(r4)) continue;
      const Item<K> item{order_bits(in.depths[i]), static_cast<int32_t>(i)};
      forTiles(r4, [&](int64_t t) { items[cur[t]++] = item; });
    }
  });
  double t1 = now_ms();

  // Each tile's list by depth.
  bins->entries.reset(new int32_t[total]);
  pool.parallelFor(nTiles, [&](int64_t t) {
    thread_local std::vector<Item<K>> tmp;
    const int64_t b = bins->offsets[t], m = bins->offsets[t + 1] - b;
    sort_tile(&items[b], m, tmp, &bins->entries[b]);
    if (tmp.capacity() > (size_t(1) << 20)) tmp = {};  // a thread keeps at most a million items' scratch between calls
  });
  double t2 = now_ms();
  if (withSlots) numberSlots();
  if (tm) tm->bin += (t1 - t0) + (now_ms() - t2), tm->sort += t2 - t1;
}

template void bin_splats<float>(const RasterIn<float>&, bool, TileBins*, Timings*, BinSource, std::shared_ptr<const PackedSplat[]>*);
template void bin_splats<double>(const RasterIn<double>&, bool, TileBins*, Timings*, BinSource, std::shared_ptr<const PackedSplat[]>*);

}  // namespace splat
}  // namespace rlx
