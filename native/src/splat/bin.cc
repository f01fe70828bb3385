// Tile binning (the rasterize section of src/splat/kernels/contract.ts): each
// splat with radius > 0 is listed on the tiles its box touches, and each
// tile's list is in (depth, index) order.
//
// That is an LSD radix sort of (tile, depth, index) keys done in two steps:
// first the splats are sorted once by depth (a stable byte-wise radix sort of
// the depth's order-preserving bits, starting from index order, so equal
// depths stay in index order), then a counting sort by tile scatters them in
// that order into per-tile lists. The scatter is parallel and deterministic:
// the depth-sorted sequence is cut into chunks, each chunk counts its entries
// per tile, and prefix sums give every chunk its own write cursor per tile.
// No list has a size limit (offsets are 64-bit).

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

/** How many splats of a range are listed (a non-empty rectangle), and their list entries (tiles) in all. */
struct RangeCount {
  int64_t listed = 0, entries = 0;
};

/** The rectangles of splats [begin, end) (rect: four int32 a splat). */
template <class T>
RLX_ALWAYS_INLINE RangeCount rects_body(const RasterIn<T>& in, int64_t begin, int64_t end, int tilesX, int tilesY, int32_t* rect) {
  const int ts = in.tileSize;
  const double inv = 1.0 / ts;
  RangeCount c;
  for (int64_t i = begin; i < end; i++) {
    int32_t* r4 = &rect[4 * i];
    tile_rect_of(in.means2d[2 * i], in.means2d[2 * i + 1], in.radii[i], ts, inv, tilesX, tilesY, r4);
    c.listed += listed(r4);
    c.entries += area_of(r4);
  }
  return c;
}
template <class T>
RangeCount rects_baseline(const RasterIn<T>& in, int64_t begin, int64_t end, int tilesX, int tilesY, int32_t* rect) {
  return rects_body(in, begin, end, tilesX, tilesY, rect);
}
#if RLX_SPLAT_X86_DISPATCH
template <class T>
__attribute__((target("avx2"))) RangeCount rects_avx2(const RasterIn<T>& in, int64_t begin, int64_t end, int tilesX, int tilesY, int32_t* rect) {
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

/**
 * Turns count[p * 256 + b] (part p's elements with byte b) into where they
 * start in the pass's output: bytes in order, parts in order within a byte.
 * True when one byte holds all m elements (the pass would move nothing).
 */
bool bucket_starts(std::vector<int64_t>& count, int64_t parts, int64_t m) {
  bool trivial = false;
  int64_t total = 0;
  for (int b = 0; b < 256; b++) {
    int64_t inByte = 0;
    for (int64_t p = 0; p < parts; p++) {
      const int64_t k = count[p * 256 + b];
      count[p * 256 + b] = total;
      total += k;
      inByte += k;
    }
    trivial |= inByte == m;
  }
  return trivial;
}

/**
 * Stable LSD radix sort of the pairs (keys[j], idx[j]) by key, one byte a
 * pass (a pass where every key has the same byte is skipped), in parallel:
 * the array is cut into one part per thread; each pass counts the bytes per
 * part, and part p's elements of a byte go after those of parts < p, so the
 * result is the serial sort's whatever the thread count.
 */
template <class K>
void radix_sort_pairs(std::vector<int32_t>& idx, std::vector<K>& keys, Pool& pool) {
  const int64_t m = static_cast<int64_t>(idx.size());
  const int64_t parts = std::max<int64_t>(1, std::min<int64_t>(pool.size(), m / 32768));
  auto lo = [&](int64_t p) { return m * p / parts; };
  std::vector<int32_t> tmp(m);
  std::vector<K> ktmp(m);
  std::vector<int64_t> count(parts * 256);
  for (unsigned shift = 0; shift < 8 * sizeof(K); shift += 8) {
    std::fill(count.begin(), count.end(), 0);
    pool.parallelFor(parts, [&](int64_t p) {
      int64_t* c = &count[p * 256];
      for (int64_t j = lo(p); j < lo(p + 1); j++) c[(keys[j] >> shift) & 0xff]++;
    });
    const bool trivial = bucket_starts(count, parts, m);
    if (trivial) continue;
    pool.parallelFor(parts, [&](int64_t p) {
      int64_t* c = &count[p * 256];
      for (int64_t j = lo(p); j < lo(p + 1); j++) {
        const int64_t to = c[(keys[j] >> shift) & 0xff]++;
        tmp[to] = idx[j];
        ktmp[to] = keys[j];
      }
    });
    idx.swap(tmp);
    keys.swap(ktmp);
  }
}

/**
 * radix_sort_pairs for 32-bit keys, each pair packed in one word (key << 32 |
 * index): a pass moves one 8-byte word per element into 256 write streams
 * (not two arrays into 512), and counts the next pass's bytes per part of
 * its output as it writes, so only the first pass reads the array just to
 * count. The same stable order as radix_sort_pairs (the words start in input
 * order).
 */
void radix_sort_packed(std::vector<uint64_t>& a, Pool& pool) {
  const int64_t m = static_cast<int64_t>(a.size());
  const int64_t parts = std::max<int64_t>(1, std::min<int64_t>(pool.size(), m / 32768));
  std::vector<int64_t> bound(parts + 1);
  for (int64_t p = 0; p <= parts; p++) bound[p] = m * p / parts;
  std::vector<uint64_t> tmp(m);
  // count[q * 256 + b]: elements of part q with byte b (this pass); seen[(p * parts + q) * 256 + b]: the same for the
  // next pass, as writer p saw them (each thread its own rows, summed after the pass).
  std::vector<int64_t> count(parts * 256, 0), seen(parts * parts * 256);
  pool.parallelFor(parts, [&](int64_t p) {
    int64_t* c = &count[p * 256];
    for (int64_t j = bound[p]; j < bound[p + 1]; j++) c[(a[j] >> 32) & 0xff]++;
  });
  for (unsigned shift = 32; shift < 64; shift += 8) {
    const bool trivial = bucket_starts(count, parts, m);
    const bool last = shift == 56;
    std::fill(seen.begin(), seen.end(), 0);
    const unsigned nextShift = last ? shift : shift + 8;
    if (trivial) {  // nothing moves: the next pass's counts from the array as it stands
      if (!last)
        pool.parallelFor(parts, [&](int64_t p) {
          int64_t* c = &seen[(p * parts + p) * 256];
          for (int64_t j = bound[p]; j < bound[p + 1]; j++) c[(a[j] >> nextShift) & 0xff]++;
        });
    } else {
      pool.parallelFor(parts, [&](int64_t p) {
        int64_t* c = &count[p * 256];
        int64_t* s = &seen[p * parts * 256];
        for (int64_t j = bound[p]; j < bound[p + 1]; j++) {
          const uint64_t x = a[j];
          const int64_t to = c[(x >> shift) & 0xff]++;
          tmp[to] = x;
          int64_t q = 0;  // the part of the output that holds `to` (parts is at most the thread count)
          for (int64_t r = 1; r < parts; r++) q += to >= bound[r];
          s[q * 256 + ((x >> nextShift) & 0xff)]++;
        }
      });
      a.swap(tmp);
    }
    if (last) break;
    for (int64_t q = 0; q < parts; q++)
      for (int b = 0; b < 256; b++) {
        int64_t k = 0;
        for (int64_t p = 0; p < parts; p++) k += seen[(p * parts + q) * 256 + b];
        count[q * 256 + b] = k;
      }
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

  // Each splat's tile rectangle [x0, x1) × [y0, y1) (empty when radius ≤ 0), and per chunk how many splats it lists
  // and their entries.
  std::unique_ptr<int32_t[]> rect(new int32_t[4 * n]);  // every element written below
  constexpr int64_t CHUNK = 4096;
  const int64_t nRectChunks = (n + CHUNK - 1) / CHUNK;
  std::vector<RangeCount> before(nRectChunks + 1);
  const bool avx2 = has_avx2();
  pool.parallelFor(nRectChunks, [&](int64_t ch) {
    const int64_t begin = ch * CHUNK, end = std::min(n, begin + CHUNK);
#if RLX_SPLAT_X86_DISPATCH
    if (avx2) {
      before[ch + 1] = rects_avx2(in, begin, end, tilesX, tilesY, rect.get());
      return;
    }
#endif
    before[ch + 1] = rects_baseline(in, begin, end, tilesX, tilesY, rect.get());
  });
  for (int64_t ch = 0; ch < nRectChunks; ch++) before[ch + 1].listed += before[ch].listed, before[ch + 1].entries += before[ch].entries;
  if (withSlots) {
    bins->firstSlot.reset(new int64_t[n + 1]);  // every element written below
    bins->firstSlot[0] = 0;
    pool.parallelFor(nRectChunks, [&](int64_t ch) {
      int64_t at = before[ch].entries;
      for (int64_t i = ch * CHUNK; i < std::min(n, (ch + 1) * CHUNK); i++) bins->firstSlot[i + 1] = at += area_of(&rect[4 * i]);
    });
  }
  if (source == BinSource::recall && recall_bins(in, bins, prepared)) {
    // The forward's lists; each entry's slot as the scatter below numbers them (splat i's tiles in row-major order of
    // its rectangle), tile by tile (rect and firstSlot are read at random: fetched ahead).
    if (withSlots) {
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
    }
    if (tm) tm->bin += now_ms() - t0;
    return;
  }

  // The listed splats in (depth, index) order.
  double t1 = now_ms();
  std::vector<int32_t> order;
  {
    using K = typename KeyOf<T>::type;
    order.resize(before[nRectChunks].listed);
    if constexpr (sizeof(K) == 4) {  // float depths: (key, index) in one word
      std::vector<uint64_t> words(order.size());
      pool.parallelFor(nRectChunks, [&](int64_t ch) {
        int64_t j = before[ch].listed;
        for (int64_t i = ch * CHUNK; i < std::min(n, (ch + 1) * CHUNK); i++)
          if (listed(&rect[4 * i])) words[j++] = static_cast<uint64_t>(order_bits(in.depths[i])) << 32 | static_cast<uint32_t>(i);
      });
      radix_sort_packed(words, pool);
      pool.parallelFor(nRectChunks, [&](int64_t ch) {
        const int64_t end = std::min<int64_t>(static_cast<int64_t>(order.size()), (ch + 1) * CHUNK);
        for (int64_t j = ch * CHUNK; j < end; j++) order[j] = static_cast<int32_t>(static_cast<uint32_t>(words[j]));
      });
    } else {
      std::vector<K> keys(order.size());
      pool.parallelFor(nRectChunks, [&](int64_t ch) {
        int64_t j = before[ch].listed;
        for (int64_t i = ch * CHUNK; i < std::min(n, (ch + 1) * CHUNK); i++)
          if (listed(&rect[4 * i])) order[j] = static_cast<int32_t>(i), keys[j++] = order_bits(in.depths[i]);
      });
      radix_sort_pairs(order, keys, pool);
    }
  }
  double t2 = now_ms();

  // Counting sort by tile, in chunks of the depth order.
  const int64_t m = static_cast<int64_t>(order.size());
  const int64_t nChunks = std::max<int64_t>(1, std::min<int64_t>(4 * pool.size(), (m + 1023) / 1024));
  const int64_t per = (m + nChunks - 1) / std::max<int64_t>(1, nChunks);
  std::vector<int64_t> cursor(nChunks * nTiles, 0);
  // The rectangles (and first slots) in depth order: the scatter reads them in order, only the count pass at random.
  struct Sorted {
    int32_t r4[4];
    int64_t slot;
  };
  std::unique_ptr<Sorted[]> sorted(new Sorted[m]);  // every element written below
  auto forTiles = [&](const int32_t* r4, auto&& f) {
    for (int ty = r4[2]; ty < r4[3]; ty++)
      for (int tx = r4[0]; tx < r4[1]; tx++) f(static_cast<int64_t>(ty) * tilesX + tx);
  };
  pool.parallelFor(nChunks, [&](int64_t c) {
    int64_t* cnt = &cursor[c * nTiles];
    const int64_t end = std::min(m, (c + 1) * per);
    for (int64_t j = c * per; j < end; j++) {
      // order is depth order, so rect is read at random: fetch ahead (a miss per splat otherwise stalls the loop).
      if (j + 16 < end) {
        __builtin_prefetch(&rect[4 * static_cast<int64_t>(order[j + 16])]);
        if (withSlots) __builtin_prefetch(&bins->firstSlot[order[j + 16]]);
      }
      const int64_t i = order[j];
      Sorted& s = sorted[j];
      std::memcpy(s.r4, &rect[4 * i], 16);
      s.slot = withSlots ? bins->firstSlot[i] : 0;
      forTiles(s.r4, [&](int64_t t) { cnt[t]++; });
    }
  });
  bins->offsets.assign(nTiles + 1, 0);
  int64_t total = 0;
  for (int64_t t = 0; t < nTiles; t++) {
    bins->offsets[t] = total;
    for (int64_t c = 0; c < nChunks; c++) {
      const int64_t k = cursor[c * nTiles + t];
      cursor[c * nTiles + t] = total;
      total += k;
    }
  }
  bins->offsets[nTiles] = total;
  bins->entries.reset(new int32_t[total]);
  if (withSlots) bins->entrySlots.reset(new int64_t[total]);
  pool.parallelFor(nChunks, [&](int64_t c) {
    int64_t* cur = &cursor[c * nTiles];
    const int64_t end = std::min(m, (c + 1) * per);
    for (int64_t j = c * per; j < end; j++) {
      const int32_t i = order[j];
      int64_t slot = sorted[j].slot;
      forTiles(sorted[j].r4, [&](int64_t t) {
        const int64_t e = cur[t]++;
        bins->entries[e] = i;
        if (withSlots) bins->entrySlots[e] = slot++;
      });
    }
  });
  double t3 = now_ms();
  if (tm) tm->bin += (t1 - t0) + (t3 - t2), tm->sort += t2 - t1;
}

template void bin_splats<float>(const RasterIn<float>&, bool, TileBins*, Timings*, BinSource, std::shared_ptr<const PackedSplat[]>*);
template void bin_splats<double>(const RasterIn<double>&, bool, TileBins*, Timings*, BinSource, std::shared_ptr<const PackedSplat[]>*);

}  // namespace splat
}  // namespace rlx
