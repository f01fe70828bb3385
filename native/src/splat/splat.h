// The native splat kernels (the contract is src/splat/kernels/contract.ts;
// the checked TS wrapper src/splat/kernels/native.ts; the JS entry points
// splat_binding.cc). Storage is T = float or double. Projection and binning
// compute in double, as the js reference does, for both. Rasterization of
// float64 does too (bit for bit the reference's); float32 rasterizes in float
// (raster_f32.h), with every skip and stop decision still the reference's.
//
//   project.cc           projectForward / projectBackward, parallel over Gaussians
//   bin.cc               the per-tile lists, sorted by (tile, depth, index)
//   raster.cc            rasterizeForward, parallel over tiles
//   raster_backward.cc   rasterizeBackward, parallel over tiles, then a
//                        per-Gaussian reduction (deterministic)
//   raster_f32.h         the float32 tile passes (raster_f32.cc,
//                        raster_backward_f32.cc, raster_prep_f32.cc)
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace rlx {
namespace splat {

/** One pinhole camera as the binding reads it: 24 numbers (viewmat row-major 4×4, fx, fy, cx, cy, width, height, near, far). */
struct Camera {
  double W[9], w[3], centre[3];
  double fx, fy, cx, cy, width, height, near, far;
  double limXPos, limXNeg, limYPos, limYNeg;
  explicit Camera(const double* p);
};

template <class T>
struct ProjectIn {
  int64_t n;
  int k, shDegree;
  bool antialiased;
  const T *means, *quats, *scales, *opacities, *coeffs;
};

template <class T>
struct ProjectOut {
  T *means2d, *conics, *depths, *colors, *opacities;
  int32_t* radii;
};

/** Project's cotangents (ct) and its input gradients (g). */
template <class T>
struct ProjectGrad {
  const T *ctMeans2d, *ctConics, *ctDepths, *ctColors, *ctOpacities;
  T *means, *quats, *scales, *opacities, *coeffs;
};

template <class T>
struct RasterIn {
  int64_t n;
  int width, height, tileSize;
  double background[3];
  const T *means2d, *conics, *colors, *opacities, *depths;
  const int32_t* radii;
};

template <class T>
struct RasterOut {
  T *image, *alpha, *depth, *finalT;
  int32_t* lastIndex;
};

template <class T>
struct RasterGrad {
  const T *finalT;
  const int32_t* lastIndex;
  const T *ctImage, *ctAlpha, *ctDepth;
  T *means2d, *conics, *colors, *opacities, *depths;
};

/** Milliseconds per stage; the binding copies them into the optional timings array. */
struct Timings {
  double project = 0, bin = 0, sort = 0, raster = 0;
};

/**
 * The per-tile lists: tile t's splats are entries[offsets[t] .. offsets[t+1]),
 * in (depth, index) order. With slots (the backward pass): Gaussian g's
 * entries are numbered
 * firstSlot[g] .. firstSlot[g+1] − 1 (its tiles in row-major order of its
 * rectangle), entry e's number is entrySlots[e], so the backward writes each
 * entry's gradient record at its slot and sums every Gaussian's records
 * from one contiguous run, in that fixed order.
 *
 * Every element is written by bin_splats, so the arrays are allocated without
 * the zero fill a std::vector would do (~30 MB at 1M splats). Shared: the bin
 * cache keeps a forward's lists without copying them (never written after
 * binning).
 */
struct TileBins {
  int tilesX = 0, tilesY = 0;
  std::vector<int64_t> offsets;
  std::shared_ptr<int32_t[]> entries;
  std::shared_ptr<int64_t[]> entrySlots, firstSlot;
};

template <class T>
void project_forward(const ProjectIn<T>& in, const Camera& cam, const ProjectOut<T>& out);
template <class T>
void project_backward(const ProjectIn<T>& in, const Camera& cam, const int32_t* radii, const ProjectGrad<T>& g);

/** Where bin_splats takes its lists from: sorted and binned afresh, or a kept forward's when its inputs equal in's (bin_cache.h). */
enum class BinSource { fresh, recall };

/** The float32 passes' per-splat record (raster_f32.h). */
struct PackedSplat;

/**
 * Builds the lists of `in` (slots too when withSlots); sort: the depth sort's
 * share of the time. With BinSource::recall and `prepared`, a kept forward's
 * float32 records too, when their inputs also equal in's (else left null).
 */
template <class T>
void bin_splats(const RasterIn<T>& in, bool withSlots, TileBins* bins, Timings* tm, BinSource source = BinSource::fresh,
                std::shared_ptr<const PackedSplat[]>* prepared = nullptr);

template <class T>
void rasterize_forward(const RasterIn<T>& in, const RasterOut<T>& out, Timings* tm);
/** Throws RangeErr when a lastIndex exceeds its tile's list (residuals not from this forward). */
template <class T>
void rasterize_backward(const RasterIn<T>& in, const RasterGrad<T>& g, Timings* tm);

/** Throws a ValueError unless every tile list fits lastIndex's Int32 (raster.cc). */
void check_list_lengths(const TileBins& bins);

/** Milliseconds since an arbitrary origin (steady clock). */
double now_ms();

/** JS's Math.min / Math.max: NaN if either is NaN (std::min/max would drop it). */
inline double js_min(double a, double b) { return (a != a || b != b) ? a + b : (a < b ? a : b); }
inline double js_max(double a, double b) { return (a != a || b != b) ? a + b : (a > b ? a : b); }

}  // namespace splat
}  // namespace rlx
