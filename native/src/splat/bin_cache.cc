// bin_cache.h: the remembered tile lists (and float32 records) and their exact-match lookup.

#include "splat/bin_cache.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <list>
#include <memory>
#include <mutex>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "pool/pool.h"
#include "splat/raster_f32.h"

namespace rlx {
namespace splat {
namespace {

struct Entry {
  int64_t n = 0;
  int width = 0, height = 0, tileSize = 0, itemBytes = 0;
  /**
   * The inputs as the forward had them: means2d, radii, depths; with records,
   * radii only (the records hold the rest of every listed splat's inputs).
   */
  std::unique_ptr<char[]> inputs;
  int64_t inputBytes = 0;
  int tilesX = 0, tilesY = 0;
  std::vector<int64_t> offsets;
  /** The forward's own list (shared, never written after binning). */
  std::shared_ptr<int32_t[]> entries;
  /** The float32 forward's records (shared); null for float64. */
  std::shared_ptr<const PackedSplat[]> prepared;
  int64_t bytes() const {
    const int64_t records = prepared ? static_cast<int64_t>(sizeof(PackedSplat)) * n : 0;
    return inputBytes + records + static_cast<int64_t>(8 * offsets.size() + 4 * (offsets.empty() ? 0 : offsets.back()));
  }
};

std::mutex& lock() {
  static std::mutex m;
  return m;
}
std::list<std::shared_ptr<const Entry>>& entries() {
  static std::list<std::shared_ptr<const Entry>> l;  // most recent first
  return l;
}

using Parts = std::array<std::pair<const char*, size_t>, 3>;

/** The three arrays the lists depend on, as (pointer, bytes). */
template <class T>
Parts bin_inputs(const RasterIn<T>& in) {
  const size_t n = static_cast<size_t>(in.n);
  return {{{reinterpret_cast<const char*>(in.means2d), sizeof(T) * 2 * n},
           {reinterpret_cast<const char*>(in.radii), 4 * n},
           {reinterpret_cast<const char*>(in.depths), sizeof(T) * n}}};
}
/** radii alone (with the records). */
template <class T>
Parts radii_input(const RasterIn<T>& in) {
  return {{{reinterpret_cast<const char*>(in.radii), 4 * static_cast<size_t>(in.n)}, {nullptr, 0}, {nullptr, 0}}};
}
size_t bytes_of(const Parts& parts) { return parts[0].second + parts[1].second + parts[2].second; }

/** f(offset in the copy, source pointer, bytes) over pieces of ≤ 1 MiB of `parts` laid end to end, in parallel (tens of MB at a million splats). */
template <class F>
void for_pieces(const Parts& parts, F&& f) {
  constexpr size_t PIECE = size_t(1) << 20;
  std::vector<std::tuple<size_t, const char*, size_t>> pieces;
  size_t base = 0;
  for (const auto& part : parts) {
    for (size_t o = 0; o < part.second; o += PIECE) pieces.emplace_back(base + o, part.first + o, std::min(PIECE, part.second - o));
    base += part.second;
  }
  Pool::instance().parallelFor(static_cast<int64_t>(pieces.size()), [&](int64_t k) { f(std::get<0>(pieces[k]), std::get<1>(pieces[k]), std::get<2>(pieces[k])); });
}

std::unique_ptr<char[]> copy_of(const Parts& parts) {
  std::unique_ptr<char[]> c(new char[bytes_of(parts)]);
  for_pieces(parts, [&](size_t at, const char* p, size_t bytes) { std::memcpy(c.get() + at, p, bytes); });
  return c;
}
bool equals(const Parts& parts, const char* copy) {
  std::atomic<bool> differ{false};
  for_pieces(parts, [&](size_t at, const char* p, size_t bytes) {
    if (!differ.load(std::memory_order_relaxed) && std::memcmp(copy + at, p, bytes) != 0) differ = true;
  });
  return !differ;
}

/** The bits of a float; as equal_bits compares them (NaNs with their payloads, −0 against +0 unequal). */
inline uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

/**
 * Every listed splat's (radius > 0) inputs equal its record's copy of them
 * bit for bit: u, v, conic, opacity, colour, depth (prepare_splats_f32 copies
 * them as given); culled splats have no record and change neither the lists
 * nor the pass.
 */
bool records_match(const RasterIn<float>& in, const PackedSplat* records) {
  constexpr int64_t CHUNK = 16384;
  std::atomic<bool> differ{false};
  Pool::instance().parallelFor((in.n + CHUNK - 1) / CHUNK, [&](int64_t ch) {
    if (differ.load(std::memory_order_relaxed)) return;
    uint32_t d = 0;
    for (int64_t i = ch * CHUNK; i < std::min(in.n, (ch + 1) * CHUNK); i++) {
      if (!(in.radii[i] > 0)) continue;
      const PackedSplat& p = records[i];
      d |= (bits(p.u) ^ bits(in.means2d[2 * i])) | (bits(p.v) ^ bits(in.means2d[2 * i + 1])) | (bits(p.z) ^ bits(in.depths[i])) |
           (bits(p.o) ^ bits(in.opacities[i]));
      for (int c = 0; c < 3; c++) d |= bits(p.col[c]) ^ bits(in.colors[3 * i + c]);
      d |= (bits(p.c0) ^ bits(in.conics[3 * i])) | (bits(p.c1) ^ bits(in.conics[3 * i + 1])) | (bits(p.c2) ^ bits(in.conics[3 * i + 2]));
    }
    if (d != 0) differ = true;
  });
  return !differ;
}

/** in's inputs equal e's forward's, as e keeps them. */
template <class T>
bool same_inputs(const RasterIn<T>& in, const Entry& e) {
  if constexpr (std::is_same<T, float>::value)
    if (e.prepared) return equals(radii_input(in), e.inputs.get()) && records_match(in, e.prepared.get());
  return equals(bin_inputs(in), e.inputs.get());
}

template <class T>
bool same_shape(const RasterIn<T>& in, const Entry& e) {
  return e.n == in.n && e.width == in.width && e.height == in.height && e.tileSize == in.tileSize && e.itemBytes == static_cast<int>(sizeof(T));
}

}  // namespace

template <class T>
void remember_forward(const RasterIn<T>& in, const TileBins& bins, std::shared_ptr<const PackedSplat[]> prepared) {
  auto e = std::make_shared<Entry>();
  e->n = in.n, e->width = in.width, e->height = in.height, e->tileSize = in.tileSize, e->itemBytes = sizeof(T);
  e->inputBytes = static_cast<int64_t>(bytes_of(bin_inputs(in)));
  e->tilesX = bins.tilesX, e->tilesY = bins.tilesY;
  e->offsets = bins.offsets;
  e->entries = bins.entries;
  e->prepared = std::move(prepared);
  if (e->prepared) e->inputBytes = static_cast<int64_t>(bytes_of(radii_input(in)));
  if (e->bytes() > BIN_CACHE_BYTES) return;  // too large to keep
  e->inputs = copy_of(e->prepared ? radii_input(in) : bin_inputs(in));
  std::lock_guard<std::mutex> g(lock());
  auto& l = entries();
  l.push_front(std::move(e));
  int64_t bytes = 0;
  int count = 0;
  for (auto it = l.begin(); it != l.end();) {
    bytes += (*it)->bytes();
    if (++count > BIN_CACHE_ENTRIES || bytes > BIN_CACHE_BYTES) it = l.erase(it);
    else ++it;
  }
}

template <class T>
bool recall_bins(const RasterIn<T>& in, TileBins* bins, std::shared_ptr<const PackedSplat[]>* prepared) {
  std::vector<std::shared_ptr<const Entry>> sized;  // compared outside the lock: an entry is immutable, and kept alive here if evicted meanwhile
  {
    std::lock_guard<std::mutex> g(lock());
    for (const auto& e : entries())
      if (same_shape(in, *e)) sized.push_back(e);
  }
  std::shared_ptr<const Entry> hit;
  for (const auto& e : sized)  // another camera's splats differ within the first bytes: memcmp stops there
    if (same_inputs(in, *e)) {
      hit = e;
      break;
    }
  if (!hit) return false;
  bins->tilesX = hit->tilesX, bins->tilesY = hit->tilesY;
  bins->offsets = hit->offsets;
  bins->entries = hit->entries;
  if (prepared) *prepared = hit->prepared;
  return true;
}

template void remember_forward<float>(const RasterIn<float>&, const TileBins&, std::shared_ptr<const PackedSplat[]>);
template void remember_forward<double>(const RasterIn<double>&, const TileBins&, std::shared_ptr<const PackedSplat[]>);
template bool recall_bins<float>(const RasterIn<float>&, TileBins*, std::shared_ptr<const PackedSplat[]>*);
template bool recall_bins<double>(const RasterIn<double>&, TileBins*, std::shared_ptr<const PackedSplat[]>*);

}  // namespace splat
}  // namespace rlx
