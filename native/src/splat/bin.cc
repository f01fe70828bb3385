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
#include "splat/splat.h"

namespace rlx {
namespace splat {
namespace {

/** v as an int in [lo, hi]; NaN gives lo (never converts NaN or ±∞ to int). */
inline int clamp_to_int(double v, int lo, int hi) {
  if (!(v > lo)) return lo;
  if (!(v < hi)) return hi;
  return static_cast<int>(v);
}

/**
 * ⌊x / d⌋ for an integer d > 0 with inv = 1/d, without the division (four a
 * splat were a third of the binning's first pass): x·inv is within 2⁻⁵¹
 * relative of x/d, so its floor is off by at most one, only where x/d is
 * next to an integer, and the exact products q·d, (q + 1)·d say which way
 * (|q| < 2⁵⁰: past that the callers clamp anyway). NaN stays NaN and ±∞ ±∞.
 */
inline double floor_div(double x, double d, double inv) {
  double q = std::floor(x * inv);
  if (q * d > x) q -= 1;
  else if ((q + 1) * d <= x) q += 1;
  return q;
}

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
void bin_splats(const RasterIn<T>& in, bool withSlots, TileBins* bins, Timings* tm, BinSource source) {
  const int ts = in.tileSize;
  const int tilesX = (in.width + ts - 1) / ts, tilesY = (in.height + ts - 1) / ts;
  const int64_t nTiles = static_cast<int64_t>(tilesX) * tilesY;
  const int64_t n = in.n;
  bins->tilesX = tilesX, bins->tilesY = tilesY;
  Pool& pool = Pool::instance();

  // Each splat's tile rectangle [x0, x1) × [y0, y1) (empty when radius ≤ 0).
  double t0 = now_ms();
  std::unique_ptr<int32_t[]> rect(new int32_t[4 * n]);  // every element written below
  const double inv = 1.0 / ts;
  constexpr int64_t CHUNK = 4096;
  pool.parallelFor((n + CHUNK - 1) / CHUNK, [&](int64_t ch) {
    const int64_t end = std::min(n, (ch + 1) * CHUNK);
    for (int64_t i = ch * CHUNK; i < end; i++) {
      int32_t* r4 = &rect[4 * i];
      const double r = in.radii[i];
      if (!(r > 0)) {
        r4[0] = r4[1] = r4[2] = r4[3] = 0;
        continue;
      }
      const double u = in.means2d[2 * i], v = in.means2d[2 * i + 1];
      r4[0] = clamp_to_int(floor_div(u - r, ts, inv), 0, tilesX);
      r4[1] = clamp_to_int(floor_div(u + r + ts - 1, ts, inv), 0, tilesX);
      r4[2] = clamp_to_int(floor_div(v - r, ts, inv), 0, tilesY);
      r4[3] = clamp_to_int(floor_div(v + r + ts - 1, ts, inv), 0, tilesY);
    }
  });
  auto area = [&](int64_t i) -> int64_t {
    const int32_t* r4 = &rect[4 * i];
    return r4[1] > r4[0] && r4[3] > r4[2] ? static_cast<int64_t>(r4[1] - r4[0]) * (r4[3] - r4[2]) : 0;
  };
  if (withSlots) {
    bins->firstSlot.assign(n + 1, 0);
    for (int64_t i = 0; i < n; i++) bins->firstSlot[i + 1] = bins->firstSlot[i] + area(i);
  }
  if (source == BinSource::recall && recall_bins(in, bins)) {
    // The forward's lists; the slots as the scatter below numbers them: splat i's tiles in row-major order of its rectangle.
    if (withSlots) {
      bins->slotEntries.reset(new int64_t[bins->offsets[nTiles]]);
      pool.parallelFor(tilesY, [&](int64_t ty) {
        for (int64_t tx = 0; tx < tilesX; tx++) {
          const int64_t t = ty * tilesX + tx;
          for (int64_t e = bins->offsets[t]; e < bins->offsets[t + 1]; e++) {
            const int32_t i = bins->entries[e];
            const int32_t* r4 = &rect[4 * static_cast<int64_t>(i)];
            bins->slotEntries[bins->firstSlot[i] + (ty - r4[2]) * (r4[1] - r4[0]) + (tx - r4[0])] = e;
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
    std::vector<K> keys;
    order.reserve(n), keys.reserve(n);
    for (int64_t i = 0; i < n; i++)
      if (area(i) > 0) order.push_back(static_cast<int32_t>(i)), keys.push_back(order_bits(in.depths[i]));
    radix_sort_pairs(order, keys, pool);
  }
  double t2 = now_ms();

  // Counting sort by tile, in chunks of the depth order.
  const int64_t m = static_cast<int64_t>(order.size());
  const int64_t nChunks = std::max<int64_t>(1, std::min<int64_t>(4 * pool.size(), (m + 1023) / 1024));
  const int64_t per = (m + nChunks - 1) / std::max<int64_t>(1, nChunks);
  std::vector<int64_t> cursor(nChunks * nTiles, 0);
  auto forTiles = [&](int32_t i, auto&& f) {
    const int32_t* r4 = &rect[4 * static_cast<int64_t>(i)];
    for (int ty = r4[2]; ty < r4[3]; ty++)
      for (int tx = r4[0]; tx < r4[1]; tx++) f(static_cast<int64_t>(ty) * tilesX + tx);
  };
  pool.parallelFor(nChunks, [&](int64_t c) {
    int64_t* cnt = &cursor[c * nTiles];
    const int64_t end = std::min(m, (c + 1) * per);
    for (int64_t j = c * per; j < end; j++) {
      // order is depth order, so rect is read at random: fetch ahead (a miss per splat otherwise stalls the loop).
      if (j + 16 < end) __builtin_prefetch(&rect[4 * static_cast<int64_t>(order[j + 16])]);
      forTiles(order[j], [&](int64_t t) { cnt[t]++; });
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
  if (withSlots) bins->slotEntries.reset(new int64_t[total]);
  pool.parallelFor(nChunks, [&](int64_t c) {
    int64_t* cur = &cursor[c * nTiles];
    const int64_t end = std::min(m, (c + 1) * per);
    for (int64_t j = c * per; j < end; j++) {
      if (j + 16 < end) {
        __builtin_prefetch(&rect[4 * static_cast<int64_t>(order[j + 16])]);
        if (withSlots) __builtin_prefetch(&bins->firstSlot[order[j + 16]]);
      }
      const int32_t i = order[j];
      int64_t slot = withSlots ? bins->firstSlot[i] : 0;
      forTiles(i, [&](int64_t t) {
        const int64_t e = cur[t]++;
        bins->entries[e] = i;
        if (withSlots) bins->slotEntries[slot++] = e;
      });
    }
  });
  if (source == BinSource::remember) remember_bins(in, *bins);
  double t3 = now_ms();
  if (tm) tm->bin += (t1 - t0) + (t3 - t2), tm->sort += t2 - t1;
}

template void bin_splats<float>(const RasterIn<float>&, bool, TileBins*, Timings*, BinSource);
template void bin_splats<double>(const RasterIn<double>&, bool, TileBins*, Timings*, BinSource);

}  // namespace splat
}  // namespace rlx
