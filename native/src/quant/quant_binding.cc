// JS entry points of the integer GEMM kernels (qgemm.h; the contract is
// src/quant/kernels/contract.ts, the checked wrapper src/quant/kernels/native.ts):
//
//   quantInt8Matmul(batch, m, n, k, a, b, out)                               a, b Int8Array; out Int32Array
//   quantInt4Matmul(batch, m, n, k, group, a, aScale, w, wScale, out)        a Int8Array; aScale, wScale, out
//                                                                            Float32Array; w Uint8Array
//
// each returning undefined, each with an Async twin (binding/kernel.h: the
// same arguments and errors, a Promise, the work on a libuv worker). Problem
// i of the batch reads a[i·m·k ..], b[i·n·k ..] (w[i·n·k/2 ..], aScale[i·m ..],
// wScale[i·n·(k/group) ..]) and writes out[i·m·n ..]. Everything is checked
// before memory is touched: sizes (integers; k ≤ 131071 for int8; group even,
// ≥ 2, ≤ 2^20, dividing k: ShapeError / ValueError), each array's type
// (DTypeError) and exact length (ShapeError), and that out shares no memory
// with an input (ValueError).
//
//   quantInfo()           { isa, best }: the SIMD path in use and the best this CPU has
//   quantSetIsa(name)     'avx512vnni' | 'avx2' | 'scalar' (capped at the best): for tests; returns the one in use
#include <napi.h>

#include <climits>
#include <string>

#include "args.h"
#include "binding/kernel.h"
#include "binding/reader.h"
#include "errors.h"
#include "quant/qgemm.h"
#include "register.h"

namespace rlx {
namespace {

constexpr int64_t kMaxK8 = 131071;  // 128·128·k ≤ 2^31 − 1

int64_t mul3(int64_t a, int64_t b, int64_t c) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r) || __builtin_mul_overflow(r, c, &r) || r > kMaxSafeInt)
    throw RangeErr("sizes too large: " + std::to_string(a) + " × " + std::to_string(b) + " × " + std::to_string(c));
  return r;
}

struct Int8Job {
  int64_t batch, m, n, k;
  const int8_t* a;
  const int8_t* b;
  int32_t* out;
  void run() {
    for (int64_t i = 0; i < batch; i++) quant::int8_matmul(m, n, k, a + i * m * k, b + i * n * k, out + i * m * n);
  }
  Napi::Value result(Napi::Env env, Pins&) { return env.Undefined(); }
};

struct Int4Job {
  int64_t batch, m, n, k, group;
  const int8_t* a;
  const float* as;
  const uint8_t* w;
  const float* ws;
  float* out;
  void run() {
    const int64_t G = k / group;
    for (int64_t i = 0; i < batch; i++)
      quant::int4_matmul(m, n, k, group, a + i * m * k, as + i * m, w + i * n * k / 2, ws + i * n * G, out + i * m * n);
  }
  Napi::Value result(Napi::Env env, Pins&) { return env.Undefined(); }
};

const auto kNoNote = [] { return std::string(); };

Int8Job parse_int8(const Napi::CallbackInfo& info, Pins& pins) {
  Reader g(info, pins, 7, "batch, m, n, k, a, b, out");
  const int64_t batch = g.integer(0, "batch", 0, INT_MAX), m = g.integer(1, "m", 0, INT_MAX), n = g.integer(2, "n", 0, INT_MAX);
  const int64_t k = g.integer(3, "k", 0, kMaxK8);
  const void* a = g.input(4, "a", napi_int8_array, mul3(batch, m, k), false, kNoNote);
  const void* b = g.input(5, "b", napi_int8_array, mul3(batch, n, k), false, kNoNote);
  void* out = g.output(6, "out", napi_int32_array, mul3(batch, m, n), false, kNoNote);
  g.check_no_overlap();
  return Int8Job{batch, m, n, k, static_cast<const int8_t*>(a), static_cast<const int8_t*>(b), static_cast<int32_t*>(out)};
}

Int4Job parse_int4(const Napi::CallbackInfo& info, Pins& pins) {
  Reader g(info, pins, 10, "batch, m, n, k, group, a, aScale, w, wScale, out");
  const int64_t batch = g.integer(0, "batch", 0, INT_MAX), m = g.integer(1, "m", 0, INT_MAX), n = g.integer(2, "n", 0, INT_MAX);
  const int64_t k = g.integer(3, "k", 0, INT_MAX);
  const int64_t group = g.integer(4, "group", 2, 1 << 20);
  if (group % 2 != 0) throw TypeErr("group must be even, got " + std::to_string(group));
  if (k % group != 0) throw RangeErr("group " + std::to_string(group) + " must divide k = " + std::to_string(k));
  const void* a = g.input(5, "a", napi_int8_array, mul3(batch, m, k), false, kNoNote);
  const void* as = g.input(6, "aScale", napi_float32_array, mul3(batch, m, 1), false, kNoNote);
  const void* w = g.input(7, "w", napi_uint8_array, mul3(batch, n, k / 2), false, kNoNote);
  const void* ws = g.input(8, "wScale", napi_float32_array, mul3(batch, n, k / group), false, kNoNote);
  void* out = g.output(9, "out", napi_float32_array, mul3(batch, m, n), false, kNoNote);
  g.check_no_overlap();
  return Int4Job{batch, m, n, k, group, static_cast<const int8_t*>(a), static_cast<const float*>(as), static_cast<const uint8_t*>(w),
                 static_cast<const float*>(ws), static_cast<float*>(out)};
}

}  // namespace
}  // namespace rlx

RLX_REGISTER(quant) {
  using namespace rlx;
  export_kernel(env, exports, "quantInt8Matmul", parse_int8);
  export_kernel(env, exports, "quantInt4Matmul", parse_int4);
  export_fn(env, exports, "quantInfo", [](const Napi::CallbackInfo& info) -> Napi::Value {
    Napi::Object o = Napi::Object::New(info.Env());
    o.Set("isa", quant::isa_name(quant::current_isa()));
    o.Set("best", quant::isa_name(quant::best_isa()));
    return o;
  });
  export_fn(env, exports, "quantSetIsa", [](const Napi::CallbackInfo& info) -> Napi::Value {
    const std::string name = as_string(info[0], "isa");
    quant::Isa want;
    if (name == "avx512vnni") want = quant::Isa::vnni;
    else if (name == "avx2") want = quant::Isa::avx2;
    else if (name == "scalar") want = quant::Isa::scalar;
    else throw TypeErr("isa must be 'avx512vnni', 'avx2' or 'scalar', got '" + name + "'");
    return Napi::String::New(info.Env(), quant::isa_name(quant::set_isa(want)));
  });
}
