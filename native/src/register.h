// Feature registration. Each feature file (gemm_binding.cc, info.cc, the
// interpreter under interp/) adds its exports with
//
//   RLX_REGISTER(gemm) { exports.Set("gemm", ...); }
//
// and addon.cc calls every registered function when the module loads, so a new
// feature is a new file and nothing else changes.
#pragma once

#include <napi.h>

namespace rlx {

using InitFn = void (*)(Napi::Env, Napi::Object);

/** One node of the registration list; constructed by RLX_REGISTER at static-init time. */
struct Registration {
  const char* name;
  InitFn fn;
  Registration* next;
  Registration(const char* name, InitFn fn);
};

/** Runs every registered init function on `exports`. */
void init_all(Napi::Env env, Napi::Object exports);

}  // namespace rlx

#define RLX_REGISTER(NAME)                                                                   \
  static void rlx_init_##NAME(Napi::Env env, Napi::Object exports);                          \
  static ::rlx::Registration rlx_registration_##NAME(#NAME, rlx_init_##NAME);                \
  static void rlx_init_##NAME([[maybe_unused]] Napi::Env env, [[maybe_unused]] Napi::Object exports)
