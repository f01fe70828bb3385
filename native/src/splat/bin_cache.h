// The tile lists of the last few forward rasterizations, kept so that a
// backward pass over the same splats (its inputs equal to a forward's bit for
// bit) takes them instead of sorting and binning again: in a training step
// the backward's lists are the forward's (the contract rebuilds them because
// a residual's size must be known before the kernel runs, and the lists'
// size is not). In float64, equality is checked on a copy of everything the
// lists depend on (n, the image and tile size, means2d, radii, depths), so a
// backward whose splats differ in one bit bins afresh: the cache can only
// save time.
// A float32 forward's per-splat records (raster_f32.h, PackedSplat) are kept
// with them, and a backward takes them too instead of preparing its own: they
// hold a copy of every listed splat's inputs (means, conic, opacity, colour,
// depth), so with them only radii are copied, and equality is checked on
// radii and on each listed splat's inputs against its record; a backward
// whose splats differ in any of those bins and prepares afresh.
//
// Bounded: at most BIN_CACHE_ENTRIES forwards and BIN_CACHE_BYTES of copies
// and records (least recently stored first out). Only the backward looks: a
// forward always bins afresh, so repeating one render gains nothing from it.
#pragma once

#include <cstdint>

#include "splat/splat.h"

namespace rlx {
namespace splat {

constexpr int BIN_CACHE_ENTRIES = 4;
constexpr int64_t BIN_CACHE_BYTES = int64_t(160) << 20;

/**
 * Keeps a copy of in's inputs with its lists (offsets copied, entries
 * shared: never written after binning; slots are not kept) and, when given,
 * its float32 records (shared).
 */
template <class T>
void remember_forward(const RasterIn<T>& in, const TileBins& bins, std::shared_ptr<const PackedSplat[]> prepared);

/**
 * Gives bins the lists (tilesX, tilesY, offsets copied, entries shared) of a
 * remembered forward whose binning inputs equal in's bit for bit, and
 * *prepared (when asked) its records if all their inputs are equal too;
 * false when there is none.
 */
template <class T>
bool recall_bins(const RasterIn<T>& in, TileBins* bins, std::shared_ptr<const PackedSplat[]>* prepared);

}  // namespace splat
}  // namespace rlx
