// The tile lists of the last few forward rasterizations, kept so that a
// backward pass over the same splats (its inputs equal to a forward's bit for
// bit) takes them instead of sorting and binning again: in a training step
// the backward's lists are the forward's (the contract rebuilds them because
// a residual's size must be known before the kernel runs, and the lists'
// size is not). Equality is checked on a copy of everything the lists depend
// on (n, the image and tile size, means2d, radii, depths), so a backward whose
// splats differ in one bit bins afresh: the cache can only save time.
//
// Bounded: at most BIN_CACHE_ENTRIES lists and BIN_CACHE_BYTES of copies
// (least recently stored first out). Only the backward looks: a forward
// always bins afresh, so repeating one render gains nothing from it.
#pragma once

#include <cstdint>

#include "splat/splat.h"

namespace rlx {
namespace splat {

constexpr int BIN_CACHE_ENTRIES = 4;
constexpr int64_t BIN_CACHE_BYTES = int64_t(64) << 20;

/** Keeps a copy of in's binning inputs with its lists (offsets copied, entries shared: never written after binning; slots are not kept). */
template <class T>
void remember_bins(const RasterIn<T>& in, const TileBins& bins);

/** Gives bins the lists (tilesX, tilesY, offsets copied, entries shared) of a remembered forward whose inputs equal in's bit for bit; false when there is none. */
template <class T>
bool recall_bins(const RasterIn<T>& in, TileBins* bins);

}  // namespace splat
}  // namespace rlx
