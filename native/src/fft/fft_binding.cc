// JS entry points of the FFTW kernels (fft.h; the contract is
// src/fft/kernels/contract.ts, the checked wrapper src/fft/kernels/native.ts):
//
//   fftC2c(dtype, batch, n, x, out, inverse)   dtype 'complex64' | 'complex128'
//   fftR2c(dtype, batch, n, x, out)            dtype 'float32' | 'float64'
//   fftC2r(dtype, batch, n, x, out)            dtype 'float32' | 'float64'
//   fftC2cNd(dtype, batch, shape, axes, x, out, inverse), fftR2cNd(dtype, batch, shape, axes, x, out),
//   fftC2rNd(dtype, batch, shape, axes, x, out): the n-D forms (fft.h execute_nd)
//
// each returning undefined, each with an Async twin (fftC2cAsync, ...: the
// same arguments and errors, a Promise, the work on a libuv worker;
// binding/kernel.h). Arrays are Float64Array (double precision) or
// Float32Array (single), complex values interleaved; x holds batch rows of
// the input, out batch rows of the output (c2c: 2n scalars a row; r2c: n
// reals in, 2(n/2 + 1) out; c2r the reverse). Everything is checked before
// any memory is touched: the dtype (DTypeError), batch and n (integers, n ≥
// 1: ShapeError), each array's type and exact length, and that out shares no
// memory with x (ValueError).
//
//   fftInfo()        { library, planner, plannerTimeLimit, plans, created, hits, evicted, maxPlans, threads, threadMin, threadsOk }
//   fftClearPlans()  drops the cached plans not in use
//   fftSetPlanner(effort, timeLimit)   FFTW's planner effort for new plans (0 estimate .. 3 exhaustive; fft.h)
//   fftExportWisdom(single) -> string, fftImportWisdom(single, text) -> boolean: FFTW's wisdom
//
// Without FFTW (RLX_HAVE_FFTW3 unset) none of these is exported.
#if defined(RLX_HAVE_FFTW3)

#include <napi.h>

#include <climits>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "args.h"
#include "binding/kernel.h"
#include "binding/reader.h"
#include "errors.h"
#include "fft/fft.h"
#include "register.h"

namespace rlx {
namespace {

/** A parsed call: the transform and its (pinned) arrays; `axes` empty for the 1-D rows of length n. */
struct FftJob {
  fft::Kind kind;
  bool single;
  int64_t batch, n;
  const void* x;
  void* out;
  std::vector<int64_t> shape;
  std::vector<int> axes;
  void run() {
    if (!axes.empty()) {
      if (single) fft::execute_nd<float>(kind, batch, shape, axes, static_cast<const float*>(x), static_cast<float*>(out));
      else fft::execute_nd<double>(kind, batch, shape, axes, static_cast<const double*>(x), static_cast<double*>(out));
    } else if (single) fft::execute<float>(kind, batch, n, static_cast<const float*>(x), static_cast<float*>(out));
    else fft::execute<double>(kind, batch, n, static_cast<const double*>(x), static_cast<double*>(out));
  }
  Napi::Value result(Napi::Env env, Pins&) { return env.Undefined(); }
};

/** batch · per, or RangeErr past what a JS array can index. */
int64_t mul(int64_t batch, int64_t per) {
  int64_t r;
  if (__builtin_mul_overflow(batch, per, &r) || r > kMaxSafeInt)
    throw RangeErr("sizes too large: " + std::to_string(batch) + " rows of " + std::to_string(per) + " scalars");
  return r;
}

/** A number argument that is an integer in [lo, hi] (as_int's acceptance), else false. */
bool quick_int(napi_env env, napi_value v, int64_t lo, int64_t hi, int64_t* out) {
  double d;
  if (napi_get_value_double(env, v, &d) != napi_ok || !std::isfinite(d) || d != std::floor(d) || d < static_cast<double>(lo) || d > static_cast<double>(hi)) return false;
  *out = static_cast<int64_t>(d);
  return true;
}

/** A TypedArray argument of type `want` and exactly `length` elements with memory (typed_memory's acceptance, a detached one excluded), else false. */
bool quick_array(napi_env env, napi_value v, napi_typedarray_type want, int64_t length, void** data) {
  napi_typedarray_type type;
  size_t len = 0;
  void* d = nullptr;
  if (napi_get_typedarray_info(env, v, &type, &len, &d, nullptr, nullptr) != napi_ok || type != want || !d || static_cast<int64_t>(len) != length) return false;
  *data = d;
  return true;
}

/**
 * The sync 1-D call of a well-formed argument list, read with one N-API call
 * an argument and nothing allocated; false for anything else, which the
 * Reader below then reads (and throws its typed error for). It accepts a
 * subset of what the Reader accepts and reads the same values, so results
 * and errors are the same either way. Why: the Reader's per-call costs (the
 * dtype as a std::string, its length asked first; a heap vector for the
 * overlap check; a std::string per argument name) were ~0.2 µs of a
 * small transform's ~0.45 µs binding overhead (perf, 1-point fftC2c).
 */
bool quick_parse(const Napi::CallbackInfo& info, fft::Kind kind, bool c2c, FftJob* job) {
  if (info.Length() != (c2c ? 6u : 5u)) return false;
  const napi_env env = info.Env();
  char dt[16];
  size_t dl = 0;
  if (napi_get_value_string_utf8(env, info[0], dt, sizeof dt, &dl) != napi_ok) return false;
  const char* lo = c2c ? "complex64" : "float32";
  const char* hi = c2c ? "complex128" : "float64";
  // Compared with the length too: a string with an embedded NUL is not a dtype (the Reader's std::string compare).
  const bool single = dl == std::strlen(lo) && std::strcmp(dt, lo) == 0;
  if (!single && !(dl == std::strlen(hi) && std::strcmp(dt, hi) == 0)) return false;
  int64_t batch, n;
  if (!quick_int(env, info[1], 0, INT_MAX, &batch) || !quick_int(env, info[2], 1, INT_MAX, &n)) return false;
  if (c2c) {
    bool inverse;
    if (napi_get_value_bool(env, info[5], &inverse) != napi_ok) return false;
    kind = inverse ? fft::Kind::c2c_inverse : fft::Kind::c2c_forward;
  }
  // batch, n < 2^31: the lengths below are far from overflowing (the Reader's mul() checks them).
  const int64_t half = 2 * (n / 2 + 1), full = c2c ? 2 * n : n;
  const int64_t in_len = batch * (kind == fft::Kind::c2r ? half : full), out_len = batch * (kind == fft::Kind::r2c ? half : full);
  if (in_len > kMaxSafeInt || out_len > kMaxSafeInt || in_len == 0 || out_len == 0) return false;
  const napi_typedarray_type t = single ? napi_float32_array : napi_float64_array;
  void *x, *out;
  if (!quick_array(env, info[3], t, in_len, &x) || !quick_array(env, info[4], t, out_len, &out)) return false;
  const size_t es = single ? sizeof(float) : sizeof(double);
  const char *xl = static_cast<const char*>(x), *ol = static_cast<const char*>(out);
  if (xl < ol + out_len * es && ol < xl + in_len * es) return false;  // overlapping: the Reader's ValueError
  *job = FftJob{kind, single, batch, n, x, out, {}, {}};
  return true;
}

/** The common parse of the three kernels; `complex_dtype`: c2c (complex64/128) or a real transform (float32/64). */
FftJob parse(const Napi::CallbackInfo& info, Pins& pins, fft::Kind kind, bool complex_dtype) {
  const bool c2c = complex_dtype;
  if (!pins.async()) {  // the async twin keeps the Reader (its pins copy the arrays)
    FftJob job;
    if (quick_parse(info, kind, c2c, &job)) return job;
  }
  Reader g(info, pins, c2c ? 6 : 5, c2c ? "dtype, batch, n, x, out, inverse" : "dtype, batch, n, x, out");
  const std::string dtype = g.string(0, "dtype");
  const char* lo = c2c ? "complex64" : "float32";
  const char* hi = c2c ? "complex128" : "float64";
  if (dtype != lo && dtype != hi) throw TypeErr(std::string("dtype must be '") + lo + "' or '" + hi + "', got '" + dtype + "'", "DTypeError");
  const bool single = dtype == lo;
  const int64_t batch = g.integer(1, "batch", 0, INT_MAX);
  const int64_t n = g.integer(2, "n", 1, INT_MAX);
  if (c2c) kind = g.flag(5, "inverse") ? fft::Kind::c2c_inverse : fft::Kind::c2c_forward;
  const int64_t half = mul(n / 2 + 1, 2), full = c2c ? mul(n, 2) : n;
  const int64_t in_len = mul(batch, kind == fft::Kind::c2r ? half : full);
  const int64_t out_len = mul(batch, kind == fft::Kind::r2c ? half : full);
  const napi_typedarray_type t = single ? napi_float32_array : napi_float64_array;
  const auto note = [&] { return std::string(" (dtype ") + dtype + ")"; };
  const void* x = g.input(3, "x", t, in_len, false, note);
  void* out = g.output(4, "out", t, out_len, false, note);
  g.check_no_overlap();
  return FftJob{kind, single, batch, n, x, out, {}, {}};
}

/**
 * The n-D kernels: (dtype, batch, shape, axes, x, out[, inverse]). shape: the
 * core's lengths (c2c: complex; r2c: the real input; c2r: the real output),
 * axes: distinct indices into it, the last one halved for r2c / c2r.
 */
FftJob parse_nd(const Napi::CallbackInfo& info, Pins& pins, fft::Kind kind, bool complex_dtype) {
  const bool c2c = complex_dtype;
  Reader g(info, pins, c2c ? 7 : 6, c2c ? "dtype, batch, shape, axes, x, out, inverse" : "dtype, batch, shape, axes, x, out");
  const std::string dtype = g.string(0, "dtype");
  const char* lo = c2c ? "complex64" : "float32";
  const char* hi = c2c ? "complex128" : "float64";
  if (dtype != lo && dtype != hi) throw TypeErr(std::string("dtype must be '") + lo + "' or '" + hi + "', got '" + dtype + "'", "DTypeError");
  const bool single = dtype == lo;
  const int64_t batch = g.integer(1, "batch", 0, INT_MAX);
  std::vector<int64_t> shape = as_int_array(g[2], "shape", -1, 1, INT_MAX);
  const std::vector<int64_t> ax = as_int_array(g[3], "axes", -1, 0, static_cast<int64_t>(shape.size()) - 1);
  if (shape.empty() || ax.empty() || ax.size() > shape.size()) throw RangeErr("shape and axes must be non-empty, with at most one axis per dim", "ShapeError");
  std::vector<int> axes(ax.begin(), ax.end());
  for (size_t i = 0; i < axes.size(); i++)
    for (size_t j = 0; j < i; j++)
      if (axes[i] == axes[j]) throw RangeErr("axes must be distinct, got " + std::to_string(axes[i]) + " twice", "ShapeError");
  if (c2c) kind = g.flag(6, "inverse") ? fft::Kind::c2c_inverse : fft::Kind::c2c_forward;
  int64_t full = 1, half = 1;
  for (size_t a = 0; a < shape.size(); a++) {
    full = mul(full, shape[a]);
    half = mul(half, static_cast<int>(a) == axes.back() ? shape[a] / 2 + 1 : shape[a]);
  }
  const int64_t in_len = c2c ? mul(batch, mul(full, 2)) : kind == fft::Kind::r2c ? mul(batch, full) : mul(batch, mul(half, 2));
  const int64_t out_len = c2c ? in_len : kind == fft::Kind::r2c ? mul(batch, mul(half, 2)) : mul(batch, full);
  const napi_typedarray_type t = single ? napi_float32_array : napi_float64_array;
  const auto note = [&] { return std::string(" (dtype ") + dtype + ")"; };
  const void* x = g.input(4, "x", t, in_len, false, note);
  void* out = g.output(5, "out", t, out_len, false, note);
  g.check_no_overlap();
  return FftJob{kind, single, batch, 0, x, out, std::move(shape), std::move(axes)};
}

FftJob parse_c2c_nd(const Napi::CallbackInfo& info, Pins& pins) { return parse_nd(info, pins, fft::Kind::c2c_forward, true); }
FftJob parse_r2c_nd(const Napi::CallbackInfo& info, Pins& pins) { return parse_nd(info, pins, fft::Kind::r2c, false); }
FftJob parse_c2r_nd(const Napi::CallbackInfo& info, Pins& pins) { return parse_nd(info, pins, fft::Kind::c2r, false); }

FftJob parse_c2c(const Napi::CallbackInfo& info, Pins& pins) { return parse(info, pins, fft::Kind::c2c_forward, true); }
FftJob parse_r2c(const Napi::CallbackInfo& info, Pins& pins) { return parse(info, pins, fft::Kind::r2c, false); }
FftJob parse_c2r(const Napi::CallbackInfo& info, Pins& pins) { return parse(info, pins, fft::Kind::c2r, false); }

}  // namespace
}  // namespace rlx

RLX_REGISTER(fft) {
  using namespace rlx;
  fft::init();
  export_kernel(env, exports, "fftC2c", parse_c2c);
  export_kernel(env, exports, "fftR2c", parse_r2c);
  export_kernel(env, exports, "fftC2r", parse_c2r);
  export_kernel(env, exports, "fftC2cNd", parse_c2c_nd);
  export_kernel(env, exports, "fftR2cNd", parse_r2c_nd);
  export_kernel(env, exports, "fftC2rNd", parse_c2r_nd);
  export_fn(env, exports, "fftInfo", [](const Napi::CallbackInfo& info) -> Napi::Value {
    const fft::Stats s = fft::stats();
    Napi::Object o = Napi::Object::New(info.Env());
    o.Set("library", "FFTW 3");
    static const char* const kEfforts[4] = {"estimate", "measure", "patient", "exhaustive"};
    o.Set("planner", kEfforts[fft::planner_effort()]);
    const double limit = fft::planner_time_limit();
    o.Set("plannerTimeLimit", limit < 0 ? info.Env().Null() : Napi::Number::New(info.Env(), limit));
    o.Set("plans", static_cast<double>(s.plans));
    o.Set("created", static_cast<double>(s.created));
    o.Set("hits", static_cast<double>(s.hits));
    o.Set("evicted", static_cast<double>(s.evicted));
    o.Set("maxPlans", s.max_plans);
    o.Set("threads", s.threads);
    o.Set("threadMin", static_cast<double>(s.thread_min));
    o.Set("threadsOk", s.threads_ok);
    return o;
  });
  export_fn(env, exports, "fftClearPlans", [](const Napi::CallbackInfo& info) -> Napi::Value {
    fft::clear_plans();
    return info.Env().Undefined();
  });
  // fftSetPlanner(effort 0..3, timeLimit seconds or a negative number for none)
  export_fn(env, exports, "fftSetPlanner", [](const Napi::CallbackInfo& info) -> Napi::Value {
    if (info.Length() != 2 || !info[0].IsNumber() || !info[1].IsNumber()) throw TypeErr("fftSetPlanner: expected (effort: number, timeLimit: number)");
    const double e = info[0].As<Napi::Number>().DoubleValue(), t = info[1].As<Napi::Number>().DoubleValue();
    if (!(e >= 0 && e <= 3 && e == static_cast<int>(e))) throw RangeErr("fftSetPlanner: effort must be an integer 0..3, got " + std::to_string(e), "ValueError");
    if (std::isnan(t)) throw RangeErr("fftSetPlanner: timeLimit must be a number, got NaN", "ValueError");
    fft::set_planner(static_cast<int>(e), t);
    return info.Env().Undefined();
  });
  // fftExportWisdom(single: boolean) -> string
  export_fn(env, exports, "fftExportWisdom", [](const Napi::CallbackInfo& info) -> Napi::Value {
    if (info.Length() != 1 || !info[0].IsBoolean()) throw TypeErr("fftExportWisdom: expected (single: boolean)");
    return Napi::String::New(info.Env(), fft::export_wisdom(info[0].As<Napi::Boolean>().Value()));
  });
  // fftImportWisdom(single: boolean, text: string) -> boolean (false: FFTW rejected the text)
  export_fn(env, exports, "fftImportWisdom", [](const Napi::CallbackInfo& info) -> Napi::Value {
    if (info.Length() != 2 || !info[0].IsBoolean() || !info[1].IsString()) throw TypeErr("fftImportWisdom: expected (single: boolean, text: string)");
    const std::string text = info[1].As<Napi::String>().Utf8Value();
    if (text.find('\0') != std::string::npos) return Napi::Boolean::New(info.Env(), false);
    return Napi::Boolean::New(info.Env(), fft::import_wisdom(info[0].As<Napi::Boolean>().Value(), text));
  });
}

#endif  // RLX_HAVE_FFTW3
