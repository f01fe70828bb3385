// Handle registry and the generic direct-solver entry points (see direct.h).
#include "sparse/direct.h"

#include <cmath>
#include <cstdlib>
#include <mutex>
#include <unordered_set>

#if defined(__linux__)
#include <sys/mman.h>
#endif
#if defined(__GLIBC__)
#include <malloc.h>
#endif

extern "C" {
#include <SuiteSparse_config.h>
}

#include "args.h"
#include "binding/kernel.h"
#include "errors.h"
#include "register.h"

namespace rlx::sparse {
namespace {

std::mutex g_mu;
std::unordered_set<DirectHandle*>& live() {
  static auto* s = new std::unordered_set<DirectHandle*>();  // never destroyed (finalizers may run at exit)
  return *s;
}

// SuiteSparse's large blocks (UMFPACK's numeric workspace is ~250 MB for a
// 512x512 Poisson matrix, CHOLMOD's supernodes similar) are fresh mmaps that
// the factorization touches once: with 4 KiB pages that is ~60k page faults,
// measured at ~20% of UMFPACK's numeric factorization. The 2 MiB-aligned
// interior of every block of at least kHugeMin bytes is advised
// MADV_HUGEPAGE (only advice: the memory is still plain malloc/realloc memory,
// freed by free, so nothing else changes). RLX_SUITESPARSE_HUGEPAGES=0 turns it off.
constexpr size_t kHuge = size_t(2) << 20, kHugeMin = size_t(8) << 20;

// Read at each large allocation (cheap next to it), so the switch can be flipped at run time.
bool off(const char* var) {
  const char* e = std::getenv(var);
  return e && e[0] == '0' && e[1] == 0;
}

void* advised(void* p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (p && bytes >= kHugeMin && !off("RLX_SUITESPARSE_HUGEPAGES")) {
    const uintptr_t b = reinterpret_cast<uintptr_t>(p), lo = (b + kHuge - 1) & ~(uintptr_t(kHuge) - 1), hi = (b + bytes) & ~(uintptr_t(kHuge) - 1);
    if (hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);  // failure is harmless
  }
#endif
  return p;
}
void* ss_malloc(size_t s) { return advised(std::malloc(s), s); }
void* ss_calloc(size_t n, size_t s) { return advised(std::calloc(n, s), n * s); }  // calloc skips zeroing fresh mmaps: advice still applies at first touch
void* ss_realloc(void* p, size_t s) { return advised(std::realloc(p, s), s); }

// Freeing a large factorization trims the heap. The native backend's malloc
// policy (src/backends/native/malloc-policy.ts: M_MMAP_MAX = 0, a 256 MiB
// trim threshold) keeps freed memory mapped for the next kernel outputs, and
// SuiteSparse's blocks come from that heap too: without a trim here, hundreds
// of MB of a disposed factor stay resident until some unrelated allocation
// happens to trim. malloc_trim gives every free page back (free pages inside
// the heap too, not only at its top), keeping kTrimKeep at the top for the
// next outputs (the policy's WARM_HEAP_BYTES).
constexpr int64_t kTrimAfter = int64_t(32) << 20;
constexpr size_t kTrimKeep = size_t(64) << 20;

/** release() and, when it freed a large factorization, malloc_trim (see above). */
void release_and_trim(DirectHandle* h) {
  const int64_t freed = h->bytes();
  h->release();
#if defined(__GLIBC__)
  if (freed >= kTrimAfter) malloc_trim(kTrimKeep);
#else
  (void)freed;
#endif
}

}  // namespace

void use_huge_pages_for_suitesparse() {
  static std::once_flag once;
  std::call_once(once, [] {
    SuiteSparse_config.malloc_func = ss_malloc;
    SuiteSparse_config.calloc_func = ss_calloc;
    SuiteSparse_config.realloc_func = ss_realloc;
  });
}

InUse::InUse(Napi::Env env, DirectHandle* h) : env_(env), h_(h) {
  if (h_) h_->pending++;
}

InUse::~InUse() {
  if (!h_ || --h_->pending > 0 || !h_->release_when_idle) return;
  h_->release_when_idle = false;
  release_and_trim(h_);
  report_bytes(Napi::Env(env_), *h_);
}

void report_bytes(Napi::Env env, DirectHandle& h) {
  const int64_t now = h.disposed ? 0 : h.bytes();
  if (now != h.reported) {
    Napi::MemoryManagement::AdjustExternalMemory(env, now - h.reported);
    h.reported = now;
  }
}

Napi::Value wrap_handle(Napi::Env env, DirectHandle* h) {
  {
    std::lock_guard<std::mutex> lk(g_mu);
    live().insert(h);
  }
  auto ext = Napi::External<DirectHandle>::New(env, h, [](Napi::Env env, DirectHandle* p) {
    {
      std::lock_guard<std::mutex> lk(g_mu);
      live().erase(p);
    }
    if (!p->disposed) release_and_trim(p);
    if (p->reported) napi_adjust_external_memory(env, -p->reported, nullptr);
    delete p;
  });
  report_bytes(env, *h);
  return ext;
}

DirectHandle& handle_of(const Napi::Value& v, const char* what) {
  if (!v.IsExternal()) throw TypeErr(std::string(what) + " must be a sparse factorization handle, got " + describe(v));
  void* p = v.As<Napi::External<void>>().Data();
  DirectHandle* h = static_cast<DirectHandle*>(p);
  {
    std::lock_guard<std::mutex> lk(g_mu);
    if (!live().count(h)) throw TypeErr(std::string(what) + " is not a sparse factorization handle");
  }
  if (h->disposed) throw KindErr("ValueError", std::string(h->kind()) + " factorization has been disposed");
  return *h;
}

double backward_error(const Canonical& a, bool cplx, bool transposed, const double* y, const double* c, double* r, double* w) {
  const int n = a.n;
  const int* P = a.p.data();
  const int* I = a.i.data();
  const double* X = a.x.data();
  if (!cplx) {
    if (!transposed) {
      for (int i = 0; i < n; i++) {
        double s = c[i], m = std::fabs(c[i]);
        for (int k = P[i]; k < P[i + 1]; k++) s -= X[k] * y[I[k]], m += std::fabs(X[k] * y[I[k]]);
        r[i] = s, w[i] = m;
      }
    } else {
      for (int i = 0; i < n; i++) r[i] = c[i], w[i] = std::fabs(c[i]);
      for (int i = 0; i < n; i++)
        for (int k = P[i]; k < P[i + 1]; k++) r[I[k]] -= X[k] * y[i], w[I[k]] += std::fabs(X[k] * y[i]);
    }
  } else {
    auto abs1 = [](double re, double im) { return std::fabs(re) + std::fabs(im); };
    if (!transposed) {
      for (int i = 0; i < n; i++) {
        double sr = c[2 * i], si = c[2 * i + 1], m = abs1(sr, si);
        for (int k = P[i]; k < P[i + 1]; k++) {
          const double ar = X[2 * k], ai = X[2 * k + 1], yr = y[2 * I[k]], yi = y[2 * I[k] + 1];
          sr -= ar * yr - ai * yi, si -= ar * yi + ai * yr;
          m += abs1(ar, ai) * abs1(yr, yi);
        }
        r[2 * i] = sr, r[2 * i + 1] = si, w[i] = m;
      }
    } else {
      for (int i = 0; i < n; i++) r[2 * i] = c[2 * i], r[2 * i + 1] = c[2 * i + 1], w[i] = abs1(c[2 * i], c[2 * i + 1]);
      for (int i = 0; i < n; i++) {
        const double yr = y[2 * i], yi = y[2 * i + 1], ya = abs1(yr, yi);
        for (int k = P[i]; k < P[i + 1]; k++) {
          const double ar = X[2 * k], ai = X[2 * k + 1];
          r[2 * I[k]] -= ar * yr - ai * yi, r[2 * I[k] + 1] -= ar * yi + ai * yr;
          w[I[k]] += abs1(ar, ai) * ya;
        }
      }
    }
  }
  double omega = 0;
  for (int i = 0; i < n; i++) {
    const double ri = cplx ? std::fabs(r[2 * i]) + std::fabs(r[2 * i + 1]) : std::fabs(r[i]);
    if (ri == 0) continue;
    const double q = w[i] > 0 ? ri / w[i] : INFINITY;
    if (!(q <= omega)) omega = q;  // NaN propagates
  }
  return omega;
}

void to_col_major(const double* src, double* dst, int64_t n, int64_t k, int per, bool conj) {
  for (int64_t i = 0; i < n; i++)
    for (int64_t c = 0; c < k; c++) {
      const double* s = src + (i * k + c) * per;
      double* d = dst + (c * n + i) * per;
      d[0] = s[0];
      if (per == 2) d[1] = conj ? -s[1] : s[1];
    }
}

void from_col_major(const double* src, double* dst, int64_t n, int64_t k, int per, bool conj) {
  for (int64_t i = 0; i < n; i++)
    for (int64_t c = 0; c < k; c++) {
      const double* s = src + (c * n + i) * per;
      double* d = dst + (i * k + c) * per;
      d[0] = s[0];
      if (per == 2) d[1] = conj ? -s[1] : s[1];
    }
}

}  // namespace rlx::sparse

RLX_REGISTER(sparse_direct) {
  using namespace rlx;
  using namespace rlx::sparse;
  use_huge_pages_for_suitesparse();
  // directSolve and directSolveAsync (binding/kernel.h).
  struct SolveJob {
    DirectHandle* h;
    const double* b;
    double* x;
    int64_t nrhs, want;
    int trans;
    size_t x_index;
    InUse use;
    void run() {
      if (!want) return;
      std::lock_guard<std::mutex> lk(h->busy);
      h->solve(b, x, nrhs, trans);
    }
    Napi::Value result(Napi::Env env, Pins& pins) { return pins.value(env, x_index); }
  };
  export_kernel(env, exports, "directSolve", [](const Napi::CallbackInfo& info, Pins& pins) -> SolveJob {
    if (info.Length() != 5) throw TypeErr("expected (handle, b, x, nrhs, trans), got " + std::to_string(info.Length()) + " arguments");
    const int64_t nrhs = as_int(info[3], "nrhs", 0, 2147483647);
    const int trans = static_cast<int>(as_int(info[4], "trans", 0, 2));
    DirectHandle& h = handle_of(info[0], "handle");
    const TypedMemory b = as_typed(info[1], "b", napi_float64_array);
    const TypedMemory x = as_typed(info[2], "x", napi_float64_array);
    const int64_t want = int64_t(h.n) * nrhs * per_elem(h.dtype);
    if (static_cast<int64_t>(b.length) != want || static_cast<int64_t>(x.length) != want)
      throw RangeErr("b and x must have length n * nrhs" + std::string(is_cplx(h.dtype) ? " * 2" : "") + " = " + std::to_string(want) +
                     ", got " + std::to_string(b.length) + " and " + std::to_string(x.length));
    if (overlaps(b.data, b.length * 8, x.data, x.length * 8)) throw RangeErr("x must not overlap b", "ValueError");
    pins.keep(info[0]);  // the External: not finalized while an async solve runs
    const double* bp = static_cast<const double*>(pins.input(info[1], b.data, b.length * 8));
    double* xp = static_cast<double*>(pins.output(info[2], x.data, x.length * 8, "x"));
    const size_t xi = pins.keep(info[2]);
    return SolveJob{&h, bp, xp, nrhs, want, trans, xi, InUse(info.Env(), pins.async() ? &h : nullptr)};
  });
  // directLogDet and directLogDetAsync: [sign, signIm, log|det|] from the factors.
  struct LogDetJob {
    DirectHandle* h;
    double o[3] = {0, 0, 0};
    InUse use;
    void run() {
      std::lock_guard<std::mutex> lk(h->busy);
      h->logdet(o);
    }
    Napi::Value result(Napi::Env env, Pins&) {
      Napi::Array a = Napi::Array::New(env, 3);
      for (uint32_t i = 0; i < 3; i++) a.Set(i, o[i]);
      return a;
    }
  };
  export_kernel(env, exports, "directLogDet", [](const Napi::CallbackInfo& info, Pins& pins) -> LogDetJob {
    DirectHandle& h = handle_of(info[0], "handle");
    pins.keep(info[0]);  // the External: not finalized while an async call runs
    return LogDetJob{&h, {0, 0, 0}, InUse(info.Env(), pins.async() ? &h : nullptr)};
  });
  export_fn(env, exports, "directDispose", [](const Napi::CallbackInfo& info) -> Napi::Value {
    if (!info[0].IsExternal()) throw TypeErr("handle must be a sparse factorization handle, got " + describe(info[0]));
    DirectHandle* h = static_cast<DirectHandle*>(info[0].As<Napi::External<void>>().Data());
    {
      std::lock_guard<std::mutex> lk(g_mu);
      if (!live().count(h)) throw TypeErr("handle is not a sparse factorization handle");
    }
    if (!h->disposed && h->pending > 0) {
      h->disposed = true;  // new calls throw now; the last async call in flight frees it (InUse)
      h->release_when_idle = true;
    } else if (!h->disposed) {
      release_and_trim(h);
      h->disposed = true;
      report_bytes(info.Env(), *h);
    }
    return info.Env().Undefined();
  });
  export_fn(env, exports, "directInfo", [](const Napi::CallbackInfo& info) -> Napi::Value {
    if (!info[0].IsExternal()) throw TypeErr("handle must be a sparse factorization handle, got " + describe(info[0]));
    DirectHandle* h = static_cast<DirectHandle*>(info[0].As<Napi::External<void>>().Data());
    {
      std::lock_guard<std::mutex> lk(g_mu);
      if (!live().count(h)) throw TypeErr("handle is not a sparse factorization handle");
    }
    Napi::Object o = Napi::Object::New(info.Env());
    o.Set("kind", h->kind());
    o.Set("dtype", sdtype_name(h->dtype));
    o.Set("n", h->n);
    o.Set("disposed", h->disposed);
    o.Set("bytes", static_cast<double>(h->disposed ? 0 : h->bytes()));
    o.Set("method", h->disposed ? std::string() : h->method());
    o.Set("solves", h->disposed ? "" : h->solves());
    return o;
  });
}
