// The module entry point: runs every feature's registration (see register.h).
#include "register.h"

#include "interp/register.h"

namespace rlx {

// Constant-initialized, so it is null before any Registration constructor runs.
static Registration* g_head = nullptr;

Registration::Registration(const char* name_, InitFn fn_) : name(name_), fn(fn_), next(g_head) { g_head = this; }

void init_all(Napi::Env env, Napi::Object exports) {
  for (Registration* r = g_head; r; r = r->next) r->fn(env, exports);
}

}  // namespace rlx

// The block interpreter (native/src/interp) keeps its own hook.
RLX_REGISTER(interp) { RegisterInterp(env, exports); }

static Napi::Object Init(Napi::Env env, Napi::Object exports) {
  rlx::init_all(env, exports);
  return exports;
}

NODE_API_MODULE(rlx_native, Init)
