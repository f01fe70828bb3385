// JS entry points of the splat kernels (splat.h; the contract is
// src/splat/kernels/contract.ts, the checked wrapper src/splat/kernels/native.ts):
//
//   splatProjectForward(dtype, n, k, shDegree, antialiased, camera,
//       means, quats, scales, opacities, coeffs,
//       means2d, conics, depths, radii, colors, outOpacities)
//   splatProjectBackward(dtype, n, k, shDegree, antialiased, camera,
//       means, quats, scales, opacities, coeffs, radii,
//       ctMeans2d, ctConics, ctDepths, ctColors, ctOpacities,
//       gMeans, gQuats, gScales, gOpacities, gCoeffs)
//   splatRasterizeForward(dtype, n, width, height, tileSize, background,
//       means2d, conics, colors, opacities, depths, radii,
//       image, alpha, depth, finalT, lastIndex, timings)
//   splatRasterizeBackward(dtype, n, width, height, tileSize, background,
//       means2d, conics, colors, opacities, depths, radii, finalT, lastIndex,
//       ctImage, ctAlpha, ctDepth,
//       gMeans2d, gConics, gColors, gOpacities, gDepths, timings)
//
// each returning undefined, each with an Async twin (binding/kernel.h).
// dtype 'float32' | 'float64' picks Float32Array / Float64Array for every
// float array; radii and lastIndex are Int32Array; camera is a Float64Array
// of 24 numbers (viewmat row-major 4×4, fx, fy, cx, cy, width, height, near,
// far), background a Float64Array of 3, timings null or a Float64Array of 4
// (project, bin, sort, raster ms; the stages the call measured are added).
// Everything is checked before any memory is touched: dtype (DTypeError),
// sizes (ShapeError), each array's type and exact length, and that no output
// overlaps another array (ValueError).

#include <napi.h>

#include <climits>
#include <string>

#include "args.h"
#include "binding/kernel.h"
#include "binding/reader.h"
#include "errors.h"
#include "register.h"
#include "splat/splat.h"

namespace rlx {
namespace {

using splat::Timings;

/** n · per, or a ShapeError past what a JS array can index. */
int64_t mul(int64_t n, int64_t per) {
  int64_t r;
  if (__builtin_mul_overflow(n, per, &r) || r > kMaxSafeInt) throw RangeErr("sizes too large: " + std::to_string(n) + " × " + std::to_string(per));
  return r;
}

bool read_dtype(Reader& g) {
  const std::string dtype = g.string(0, "dtype");
  if (dtype != "float32" && dtype != "float64") throw TypeErr("dtype must be 'float32' or 'float64', got '" + dtype + "'", "DTypeError");
  return dtype == "float32";
}

/** The float arrays of one call, typed once the dtype is known. */
struct Arrays {
  napi_typedarray_type t;
  std::string note;
  Reader& g;
  const void* in(size_t i, const char* name, int64_t len) {
    return g.input(i, name, t, len, false, [&] { return note; });
  }
  void* out(size_t i, const char* name, int64_t len) { return g.output(i, name, t, len, false, [&] { return note; }); }
  const int32_t* in_i32(size_t i, const char* name, int64_t len) {
    return static_cast<const int32_t*>(g.input(i, name, napi_int32_array, len, false, [] { return std::string(); }));
  }
  int32_t* out_i32(size_t i, const char* name, int64_t len) {
    return static_cast<int32_t*>(g.output(i, name, napi_int32_array, len, false, [] { return std::string(); }));
  }
  const double* f64(size_t i, const char* name, int64_t len) {
    return static_cast<const double*>(g.input(i, name, napi_float64_array, len, false, [] { return std::string(); }));
  }
  double* timings(size_t i) {
    return static_cast<double*>(g.output(i, "timings", napi_float64_array, 4, true, [] { return std::string(); }));
  }
};

Arrays arrays(Reader& g, bool single) {
  return Arrays{single ? napi_float32_array : napi_float64_array, single ? " (dtype float32)" : " (dtype float64)", g};
}

/** Adds a call's stage times into the caller's timings array (if any). */
void add_timings(double* out, const Timings& tm) {
  if (!out) return;
  out[0] += tm.project, out[1] += tm.bin, out[2] += tm.sort, out[3] += tm.raster;
}

// --- project -------------------------------------------------------------

struct ProjectHead {
  bool single, antialiased;
  int64_t n;
  int k, shDegree;
  const double* camera;
};

/** The scalar arguments and the camera (dtype already read: `single`). */
ProjectHead project_head(Reader& g, Arrays& a, bool single) {
  ProjectHead h;
  h.single = single;
  h.n = g.integer(1, "n", 0, INT32_MAX);
  h.k = static_cast<int>(g.integer(2, "k", 1, 1 << 24));
  h.shDegree = static_cast<int>(g.integer(3, "shDegree", -1, 3));
  if (h.shDegree < 0 && h.k != 1) throw RangeErr("k must be 1 for colours (shDegree -1), got " + std::to_string(h.k));
  if ((h.shDegree + 1) * (h.shDegree + 1) > h.k)
    throw RangeErr("shDegree " + std::to_string(h.shDegree) + " needs k >= " + std::to_string((h.shDegree + 1) * (h.shDegree + 1)) + ", got " + std::to_string(h.k));
  h.antialiased = g.flag(4, "antialiased");
  h.camera = a.f64(5, "camera", 24);
  return h;
}

template <class T>
splat::ProjectIn<T> project_in(Arrays& a, const ProjectHead& h) {
  splat::ProjectIn<T> in;
  in.n = h.n, in.k = h.k, in.shDegree = h.shDegree, in.antialiased = h.antialiased;
  in.means = static_cast<const T*>(a.in(6, "means", mul(h.n, 3)));
  in.quats = static_cast<const T*>(a.in(7, "quats", mul(h.n, 4)));
  in.scales = static_cast<const T*>(a.in(8, "scales", mul(h.n, 3)));
  in.opacities = static_cast<const T*>(a.in(9, "opacities", h.n));
  in.coeffs = static_cast<const T*>(a.in(10, "coeffs", mul(h.n, 3 * h.k)));
  return in;
}

struct ProjectForwardJob {
  bool single;
  double camera[24];
  splat::ProjectIn<float> inF;
  splat::ProjectOut<float> outF;
  splat::ProjectIn<double> inD;
  splat::ProjectOut<double> outD;
  void run() {
    const splat::Camera cam(camera);
    if (single) splat::project_forward(inF, cam, outF);
    else splat::project_forward(inD, cam, outD);
  }
  Napi::Value result(Napi::Env env, Pins&) { return env.Undefined(); }
};

template <class T>
splat::ProjectOut<T> project_out(Arrays& a, int64_t n) {
  splat::ProjectOut<T> o;
  o.means2d = static_cast<T*>(a.out(11, "means2d", mul(n, 2)));
  o.conics = static_cast<T*>(a.out(12, "conics", mul(n, 3)));
  o.depths = static_cast<T*>(a.out(13, "depths", n));
  o.radii = a.out_i32(14, "radii", n);
  o.colors = static_cast<T*>(a.out(15, "colors", mul(n, 3)));
  o.opacities = static_cast<T*>(a.out(16, "outOpacities", n));
  return o;
}

ProjectForwardJob parse_project_forward(const Napi::CallbackInfo& info, Pins& pins) {
  Reader g(info, pins, 17,
           "dtype, n, k, shDegree, antialiased, camera, means, quats, scales, opacities, coeffs, means2d, conics, depths, radii, colors, outOpacities");
  const bool single = read_dtype(g);
  Arrays arr = arrays(g, single), *a = &arr;
  const ProjectHead h = project_head(g, arr, single);
  ProjectForwardJob job{};
  job.single = h.single;
  std::copy(h.camera, h.camera + 24, job.camera);
  if (h.single) job.inF = project_in<float>(*a, h), job.outF = project_out<float>(*a, h.n);
  else job.inD = project_in<double>(*a, h), job.outD = project_out<double>(*a, h.n);
  g.check_no_overlap();
  return job;
}

struct ProjectBackwardJob {
  bool single;
  double camera[24];
  const int32_t* radii;
  splat::ProjectIn<float> inF;
  splat::ProjectGrad<float> gF;
  splat::ProjectIn<double> inD;
  splat::ProjectGrad<double> gD;
  void run() {
    const splat::Camera cam(camera);
    if (single) splat::project_backward(inF, cam, radii, gF);
    else splat::project_backward(inD, cam, radii, gD);
  }
  Napi::Value result(Napi::Env env, Pins&) { return env.Undefined(); }
};

template <class T>
splat::ProjectGrad<T> project_grad(Arrays& a, int64_t n, int k) {
  splat::ProjectGrad<T> g;
  g.ctMeans2d = static_cast<const T*>(a.in(12, "ctMeans2d", mul(n, 2)));
  g.ctConics = static_cast<const T*>(a.in(13, "ctConics", mul(n, 3)));
  g.ctDepths = static_cast<const T*>(a.in(14, "ctDepths", n));
  g.ctColors = static_cast<const T*>(a.in(15, "ctColors", mul(n, 3)));
  g.ctOpacities = static_cast<const T*>(a.in(16, "ctOpacities", n));
  g.means = static_cast<T*>(a.out(17, "gMeans", mul(n, 3)));
  g.quats = static_cast<T*>(a.out(18, "gQuats", mul(n, 4)));
  g.scales = static_cast<T*>(a.out(19, "gScales", mul(n, 3)));
  g.opacities = static_cast<T*>(a.out(20, "gOpacities", n));
  g.coeffs = static_cast<T*>(a.out(21, "gCoeffs", mul(n, 3 * k)));
  return g;
}

ProjectBackwardJob parse_project_backward(const Napi::CallbackInfo& info, Pins& pins) {
  Reader g(info, pins, 22,
           "dtype, n, k, shDegree, antialiased, camera, means, quats, scales, opacities, coeffs, radii, ctMeans2d, ctConics, ctDepths, "
           "ctColors, ctOpacities, gMeans, gQuats, gScales, gOpacities, gCoeffs");
  const bool single = read_dtype(g);
  Arrays arr = arrays(g, single), *a = &arr;
  const ProjectHead h = project_head(g, arr, single);
  ProjectBackwardJob job{};
  job.single = h.single;
  std::copy(h.camera, h.camera + 24, job.camera);
  if (h.single) job.inF = project_in<float>(*a, h);
  else job.inD = project_in<double>(*a, h);
  job.radii = a->in_i32(11, "radii", h.n);
  if (h.single) job.gF = project_grad<float>(*a, h.n, h.k);
  else job.gD = project_grad<double>(*a, h.n, h.k);
  g.check_no_overlap();
  return job;
}

// --- rasterize -----------------------------------------------------------

template <class T>
splat::RasterIn<T> raster_in(Reader& g, Arrays& a) {
  splat::RasterIn<T> in;
  in.n = g.integer(1, "n", 0, INT32_MAX);
  in.width = static_cast<int>(g.integer(2, "width", 0, 1 << 20));
  in.height = static_cast<int>(g.integer(3, "height", 0, 1 << 20));
  in.tileSize = static_cast<int>(g.integer(4, "tileSize", 1, 1 << 16));
  mul(mul(in.width, in.height), 3);
  const double* bg = a.f64(5, "background", 3);
  for (int c = 0; c < 3; c++) in.background[c] = bg[c];
  in.means2d = static_cast<const T*>(a.in(6, "means2d", mul(in.n, 2)));
  in.conics = static_cast<const T*>(a.in(7, "conics", mul(in.n, 3)));
  in.colors = static_cast<const T*>(a.in(8, "colors", mul(in.n, 3)));
  in.opacities = static_cast<const T*>(a.in(9, "opacities", in.n));
  in.depths = static_cast<const T*>(a.in(10, "depths", in.n));
  in.radii = a.in_i32(11, "radii", in.n);
  return in;
}

struct RasterForwardJob {
  bool single;
  splat::RasterIn<float> inF;
  splat::RasterOut<float> outF;
  splat::RasterIn<double> inD;
  splat::RasterOut<double> outD;
  double* timings;
  void run() {
    Timings tm;
    if (single) splat::rasterize_forward(inF, outF, &tm);
    else splat::rasterize_forward(inD, outD, &tm);
    add_timings(timings, tm);
  }
  Napi::Value result(Napi::Env env, Pins&) { return env.Undefined(); }
};

template <class T>
splat::RasterOut<T> raster_out(Arrays& a, int64_t px) {
  splat::RasterOut<T> o;
  o.image = static_cast<T*>(a.out(12, "image", mul(px, 3)));
  o.alpha = static_cast<T*>(a.out(13, "alpha", px));
  o.depth = static_cast<T*>(a.out(14, "depth", px));
  o.finalT = static_cast<T*>(a.out(15, "finalT", px));
  o.lastIndex = a.out_i32(16, "lastIndex", px);
  return o;
}

RasterForwardJob parse_raster_forward(const Napi::CallbackInfo& info, Pins& pins) {
  Reader g(info, pins, 18,
           "dtype, n, width, height, tileSize, background, means2d, conics, colors, opacities, depths, radii, image, alpha, depth, finalT, "
           "lastIndex, timings");
  const bool single = read_dtype(g);
  Arrays a = arrays(g, single);
  RasterForwardJob job{};
  job.single = single;
  if (single) {
    job.inF = raster_in<float>(g, a);
    job.outF = raster_out<float>(a, static_cast<int64_t>(job.inF.width) * job.inF.height);
  } else {
    job.inD = raster_in<double>(g, a);
    job.outD = raster_out<double>(a, static_cast<int64_t>(job.inD.width) * job.inD.height);
  }
  job.timings = a.timings(17);
  g.check_no_overlap();
  return job;
}

struct RasterBackwardJob {
  bool single;
  splat::RasterIn<float> inF;
  splat::RasterGrad<float> gF;
  splat::RasterIn<double> inD;
  splat::RasterGrad<double> gD;
  double* timings;
  void run() {
    Timings tm;
    if (single) splat::rasterize_backward(inF, gF, &tm);
    else splat::rasterize_backward(inD, gD, &tm);
    add_timings(timings, tm);
  }
  Napi::Value result(Napi::Env env, Pins&) { return env.Undefined(); }
};

template <class T>
splat::RasterGrad<T> raster_grad(Arrays& a, int64_t n, int64_t px) {
  splat::RasterGrad<T> o;
  o.finalT = static_cast<const T*>(a.in(12, "finalT", px));
  o.lastIndex = a.in_i32(13, "lastIndex", px);
  o.ctImage = static_cast<const T*>(a.in(14, "ctImage", mul(px, 3)));
  o.ctAlpha = static_cast<const T*>(a.in(15, "ctAlpha", px));
  o.ctDepth = static_cast<const T*>(a.in(16, "ctDepth", px));
  o.means2d = static_cast<T*>(a.out(17, "gMeans2d", mul(n, 2)));
  o.conics = static_cast<T*>(a.out(18, "gConics", mul(n, 3)));
  o.colors = static_cast<T*>(a.out(19, "gColors", mul(n, 3)));
  o.opacities = static_cast<T*>(a.out(20, "gOpacities", n));
  o.depths = static_cast<T*>(a.out(21, "gDepths", n));
  return o;
}

RasterBackwardJob parse_raster_backward(const Napi::CallbackInfo& info, Pins& pins) {
  Reader g(info, pins, 23,
           "dtype, n, width, height, tileSize, background, means2d, conics, colors, opacities, depths, radii, finalT, lastIndex, ctImage, "
           "ctAlpha, ctDepth, gMeans2d, gConics, gColors, gOpacities, gDepths, timings");
  const bool single = read_dtype(g);
  Arrays a = arrays(g, single);
  RasterBackwardJob job{};
  job.single = single;
  if (single) {
    job.inF = raster_in<float>(g, a);
    job.gF = raster_grad<float>(a, job.inF.n, static_cast<int64_t>(job.inF.width) * job.inF.height);
  } else {
    job.inD = raster_in<double>(g, a);
    job.gD = raster_grad<double>(a, job.inD.n, static_cast<int64_t>(job.inD.width) * job.inD.height);
  }
  job.timings = a.timings(22);
  g.check_no_overlap();
  return job;
}

}  // namespace
}  // namespace rlx

RLX_REGISTER(splat) {
  using namespace rlx;
  export_kernel(env, exports, "splatProjectForward", parse_project_forward);
  export_kernel(env, exports, "splatProjectBackward", parse_project_backward);
  export_kernel(env, exports, "splatRasterizeForward", parse_raster_forward);
  export_kernel(env, exports, "splatRasterizeBackward", parse_raster_backward);
}
