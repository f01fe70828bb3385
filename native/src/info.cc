// Build and BLAS information: version(), blasInfo(), setNumThreads(n).
#include <napi.h>

#include <mutex>
#include <shared_mutex>
#include <string>

#include "args.h"
#include "blas.h"
#include "errors.h"
#include "register.h"

#ifndef RLX_NATIVE_VERSION
#define RLX_NATIVE_VERSION "0.0.0"
#endif

namespace rlx {
std::shared_mutex& blas_config_mutex() {
  static std::shared_mutex m;
  return m;
}
}  // namespace rlx

namespace {

std::string trim(std::string s) {
  const auto b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

}  // namespace

RLX_REGISTER(info) {
  using namespace rlx;
  export_fn(env, exports, "version", [](const Napi::CallbackInfo& info) -> Napi::Value {
    return Napi::String::New(info.Env(), RLX_NATIVE_VERSION);
  });
  export_fn(env, exports, "blasInfo", [](const Napi::CallbackInfo& info) -> Napi::Value {
    Napi::Env e = info.Env();
    Napi::Object o = Napi::Object::New(e);
#if defined(OPENBLAS_VERSION)
    o.Set("vendor", "OpenBLAS");
    o.Set("headerVersion", trim(OPENBLAS_VERSION));
#else
    o.Set("vendor", "unknown");
#endif
    const char* cfg = openblas_get_config();
    const char* core = openblas_get_corename();
    o.Set("config", cfg ? trim(cfg) : "");
    o.Set("corename", core ? core : "");
    o.Set("threads", openblas_get_num_threads());
    o.Set("procs", openblas_get_num_procs());
    // 0: sequential, 1: pthreads, 2: OpenMP.
    const int par = openblas_get_parallel();
    o.Set("parallel", par == 0 ? "sequential" : par == 1 ? "pthreads" : par == 2 ? "openmp" : "unknown");
#if defined(RLX_HAVE_FFTW3)
    o.Set("fftw3", true);
#else
    o.Set("fftw3", false);
#endif
#if defined(RLX_HAVE_UMFPACK)
    o.Set("umfpack", true);
#else
    o.Set("umfpack", false);
#endif
    return o;
  });
  export_fn(env, exports, "setNumThreads", [](const Napi::CallbackInfo& info) -> Napi::Value {
    if (info.Length() != 1) throw TypeErr("expected one argument (thread count), got " + std::to_string(info.Length()));
    const int64_t n = as_int(info[0], "n", 1, 1024);
    // Waits for GEMMs running on the libuv pool to finish.
    std::unique_lock<std::shared_mutex> lock(blas_config_mutex());
    openblas_set_num_threads(static_cast<int>(n));
    return Napi::Number::New(info.Env(), openblas_get_num_threads());
  });
}
