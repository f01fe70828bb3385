// project (steps 1–8 of src/splat/kernels/contract.ts): Gaussians and one
// camera → 2-D splats, and its exact backward (clamps and culls held fixed).
// Parallel over Gaussians on the addon's pool; each Gaussian is independent,
// so both passes write their outputs without any reduction.
//
// project_math.h computes the projection keeping every intermediate
// (project_lanes), and runs the chain rule back through the same numbers
// (backward_lanes), as the js reference does (src/splat/kernels/js/projection.ts);
// the forward stores what the contract lists and the backward recomputes it.
// Both run four Gaussians at a time (V = v4d), the last few of a chunk one
// by one (V = double): the same bits either way.

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <type_traits>

#include "pool/pool.h"
#include "splat/project_math.h"
#include "splat/sh.h"
#include "splat/simd.h"
#include "splat/splat.h"
#include "splat/splat_constants.h"

namespace rlx {
namespace splat {

double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

Camera::Camera(const double* p) {
  const double W_[9] = {p[0], p[1], p[2], p[4], p[5], p[6], p[8], p[9], p[10]};
  std::copy(W_, W_ + 9, W);
  w[0] = p[3], w[1] = p[7], w[2] = p[11];
  for (int k = 0; k < 3; k++) centre[k] = -(W[k] * w[0] + W[3 + k] * w[1] + W[6 + k] * w[2]);
  fx = p[16], fy = p[17], cx = p[18], cy = p[19], width = p[20], height = p[21], near = p[22], far = p[23];
  const double tanX = (0.5 * width) / fx, tanY = (0.5 * height) / fy;
  limXPos = (width - cx) / fx + CLAMP_MARGIN * tanX;
  limXNeg = cx / fx + CLAMP_MARGIN * tanX;
  limYPos = (height - cy) / fy + CLAMP_MARGIN * tanY;
  limYNeg = cy / fy + CLAMP_MARGIN * tanY;
}

namespace {

using namespace project_detail;

/** Gaussians per pool task: enough work to amortise the dispatch. */
constexpr int64_t CHUNK = 1024;

/** Gaussian i's outputs from lane l of its projection and its colour, or all zeros when culled. */
template <class V, class T>
RLX_ALWAYS_INLINE void store_forward(const ProjectOut<T>& out, int64_t i, const ProjT<V>& p, int l, const Shade& sh) {
  const auto lane = [l](const V& x) -> double {
    if constexpr (std::is_same<V, double>::value) return x;
    else return x[l];
  };
  bool visible;
  if constexpr (std::is_same<V, double>::value) visible = p.alive;
  else visible = p.alive[l] != 0;
  // Outputs may arrive unzeroed (the op declares writesAll), and the contract says every output of a culled i is 0.
  if (!visible) {
    out.means2d[2 * i] = out.means2d[2 * i + 1] = 0;
    out.conics[3 * i] = out.conics[3 * i + 1] = out.conics[3 * i + 2] = 0;
    out.depths[i] = 0;
    out.radii[i] = 0;
    out.colors[3 * i] = out.colors[3 * i + 1] = out.colors[3 * i + 2] = 0;
    out.opacities[i] = 0;
    return;
  }
  out.means2d[2 * i] = static_cast<T>(lane(p.u)), out.means2d[2 * i + 1] = static_cast<T>(lane(p.v));
  for (int k = 0; k < 3; k++) out.conics[3 * i + k] = static_cast<T>(lane(p.conic[k]));
  out.depths[i] = static_cast<T>(lane(p.t[2]));
  out.radii[i] = static_cast<int32_t>(std::min(lane(p.radius), MAX_RADIUS));
  for (int c = 0; c < 3; c++) out.colors[3 * i + c] = static_cast<T>(sh.color[c]);
  out.opacities[i] = static_cast<T>(lane(p.opacity));
}

/** Pool task ch (Gaussians ch·CHUNK …) of the forward (inlined into a baseline and an AVX2 build: same arithmetic, no FMA, same bits; AVX2 rounds ceil in one instruction). */
template <class T>
RLX_ALWAYS_INLINE void forward_chunk(const ProjectIn<T>& in, const Camera& cam, const ProjectOut<T>& out, int64_t ch) {
  Shade sh{};
  ProjT<v4d> p4;
  ProjT<double> p1;
  const int64_t end = std::min(in.n, (ch + 1) * CHUNK);
  int64_t i = ch * CHUNK;
  for (; i + 4 <= end; i += 4) {
    project_lanes(in, cam, i, p4);
    for (int l = 0; l < 4; l++) {
      if (p4.alive[l]) shade_one(in, cam, i + l, sh);
      store_forward(out, i + l, p4, l, sh);
    }
  }
  for (; i < end; i++) {
    project_lanes(in, cam, i, p1);
    if (p1.alive) shade_one(in, cam, i, sh);
    store_forward(out, i, p1, 0, sh);
  }
}
template <class T>
void forward_chunk_baseline(const ProjectIn<T>& in, const Camera& cam, const ProjectOut<T>& out, int64_t ch) {
  forward_chunk(in, cam, out, ch);
}
#if RLX_SPLAT_X86_DISPATCH
template <class T>
__attribute__((target("avx2"))) void forward_chunk_avx2(const ProjectIn<T>& in, const Camera& cam, const ProjectOut<T>& out, int64_t ch) {
  forward_chunk(in, cam, out, ch);
}
#endif

}  // namespace

template <class T>
void project_forward(const ProjectIn<T>& in, const Camera& cam, const ProjectOut<T>& out) {
  const int64_t chunks = (in.n + CHUNK - 1) / CHUNK;
  const bool avx2 = has_avx2();
  Pool::instance().parallelFor(chunks, [&](int64_t ch) {
#if RLX_SPLAT_X86_DISPATCH
    if (avx2) return forward_chunk_avx2(in, cam, out, ch);
#endif
    forward_chunk_baseline(in, cam, out, ch);
  });
}

/** Zeros every gradient of Gaussian i (culled: by the forward's radii, or again now). */
template <class T>
RLX_ALWAYS_INLINE void zero_gradients(const ProjectGrad<T>& g, int64_t i, int64_t perCoeffs) {
  for (int k = 0; k < 3; k++) g.means[3 * i + k] = 0, g.scales[3 * i + k] = 0;
  for (int k = 0; k < 4; k++) g.quats[4 * i + k] = 0;
  g.opacities[i] = 0;
  for (int64_t k = 0; k < perCoeffs; k++) g.coeffs[i * perCoeffs + k] = 0;
}

/** Pool task ch of the backward, built twice as forward_chunk is: Gaussians recomputed four at a time, then one by one. */
template <class T>
RLX_ALWAYS_INLINE void backward_chunk(const ProjectIn<T>& in, const Camera& cam, const int32_t* radii, const ProjectGrad<T>& g, int64_t ch) {
  const int64_t perCoeffs = static_cast<int64_t>(in.k) * 3;
  Shade sh{};
  ProjT<v4d> p4;
  ProjT<double> p1;
  // One visible Gaussian's colour step: its coefficients' gradient, and what it passes to ∂L/∂mean (gm).
  const auto colour = [&](int64_t j, double gm[3]) {
    shade_one(in, cam, j, sh);
    for (int64_t k = 0; k < perCoeffs; k++) g.coeffs[j * perCoeffs + k] = 0;  // the bands past shDegree
    gm[0] = gm[1] = gm[2] = 0;
    colour_backward(in, g, j, sh, gm);
  };
  const auto store = [&](int64_t j, double means[3], double scales[3], double quats[4], double opacity) {
    for (int k = 0; k < 3; k++) g.means[3 * j + k] = static_cast<T>(means[k]), g.scales[3 * j + k] = static_cast<T>(scales[k]);
    for (int k = 0; k < 4; k++) g.quats[4 * j + k] = static_cast<T>(quats[k]);
    g.opacities[j] = static_cast<T>(opacity);
  };
  const int64_t end = std::min(in.n, (ch + 1) * CHUNK);
  int64_t i = ch * CHUNK;
  for (; i + 4 <= end; i += 4) {
    project_lanes(in, cam, i, p4);
    bool visible[4], any = false;
    v4d gm4[3] = {};
    for (int l = 0; l < 4; l++) {
      const int64_t j = i + l;
      visible[l] = radii[j] > 0 && p4.alive[l] != 0;  // culled by the forward's radii, or again now: every gradient of j is 0
      any |= visible[l];
      if (!visible[l]) {
        zero_gradients(g, j, perCoeffs);
        continue;
      }
      double gm[3];
      colour(j, gm);
      for (int k = 0; k < 3; k++) gm4[k][l] = gm[k];
    }
    if (!any) continue;
    GradT<v4d> d;
    backward_lanes(in, cam, g, i, p4, gm4, d);
    for (int l = 0; l < 4; l++) {
      if (!visible[l]) continue;
      double means[3], scales[3], quats[4];
      for (int k = 0; k < 3; k++) means[k] = d.means[k][l], scales[k] = d.scales[k][l];
      for (int k = 0; k < 4; k++) quats[k] = d.quats[k][l];
      store(i + l, means, scales, quats, d.opacity[l]);
    }
  }
  for (; i < end; i++) {
    project_lanes(in, cam, i, p1);
    if (!(radii[i] > 0 && p1.alive)) {
      zero_gradients(g, i, perCoeffs);
      continue;
    }
    double gm[3];
    colour(i, gm);
    GradT<double> d;
    backward_lanes(in, cam, g, i, p1, gm, d);
    store(i, d.means, d.scales, d.quats, d.opacity);
  }
}
template <class T>
void backward_chunk_baseline(const ProjectIn<T>& in, const Camera& cam, const int32_t* radii, const ProjectGrad<T>& g, int64_t ch) {
  backward_chunk(in, cam, radii, g, ch);
}
#if RLX_SPLAT_X86_DISPATCH
template <class T>
__attribute__((target("avx2"))) void backward_chunk_avx2(const ProjectIn<T>& in, const Camera& cam, const int32_t* radii, const ProjectGrad<T>& g, int64_t ch) {
  backward_chunk(in, cam, radii, g, ch);
}
#endif

template <class T>
void project_backward(const ProjectIn<T>& in, const Camera& cam, const int32_t* radii, const ProjectGrad<T>& g) {
  const int64_t chunks = (in.n + CHUNK - 1) / CHUNK;
  const bool avx2 = has_avx2();
  Pool::instance().parallelFor(chunks, [&](int64_t ch) {
#if RLX_SPLAT_X86_DISPATCH
    if (avx2) return backward_chunk_avx2(in, cam, radii, g, ch);
#endif
    backward_chunk_baseline(in, cam, radii, g, ch);
  });
}

template void project_forward<float>(const ProjectIn<float>&, const Camera&, const ProjectOut<float>&);
template void project_forward<double>(const ProjectIn<double>&, const Camera&, const ProjectOut<double>&);
template void project_backward<float>(const ProjectIn<float>&, const Camera&, const int32_t*, const ProjectGrad<float>&);
template void project_backward<double>(const ProjectIn<double>&, const Camera&, const int32_t*, const ProjectGrad<double>&);

}  // namespace splat
}  // namespace rlx
