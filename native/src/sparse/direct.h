// Handles of the SuiteSparse direct solvers (umfpack.cc, klu.cc, cholmod.cc).
//
// A factorization lives in a C++ object owned by a JS External. Its
// SuiteSparse memory is freed by directDispose(h) at once, or by the External's
// finalizer when the handle is garbage collected; release() is idempotent, so
// dispose-then-finalize frees once. A method on a disposed handle throws
// "... has been disposed". Every handle is registered in a process-wide set
// while alive, and an External is only used after its pointer is found there
// (so a foreign External, or one of another kind, is refused, never
// dereferenced). The bytes a factorization holds are reported to V8
// (napi_adjust_external_memory) so that forgotten handles are collected soon.
//
// Generic entry points (direct.cc):
//   directSolve(h, b, x, nrhs, trans)   x[n, nrhs] = op(A)⁻¹ b[n, nrhs] (row-major,
//        Float64Array, complex interleaved; trans 0: A, 1: Aᵀ, 2: Aᴴ); returns x
//   directLogDet(h) -> [signRe, signIm, logAbsDet]
//   directDispose(h), directInfo(h) -> { kind, dtype, n, disposed, bytes, method }
#pragma once

#include <napi.h>

#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>

#include "errors.h"
#include "sparse/csr.h"

namespace rlx::sparse {

class DirectHandle {
 public:
  virtual ~DirectHandle() = default;
  /** Frees the SuiteSparse memory; idempotent. */
  virtual void release() = 0;
  virtual const char* kind() const = 0;
  /** x = op(A)^-1 b for nrhs right-hand sides, row-major [n, nrhs] (complex interleaved). */
  virtual void solve(const double* b, double* x, int64_t nrhs, int trans) = 0;
  /** {signRe, signIm, log|det|}. */
  virtual void logdet(double out[3]) { throw std::runtime_error(std::string(kind()) + " does not compute determinants"); }
  /** How it factored (e.g. CHOLMOD's "supernodal LL'"), for directInfo. */
  virtual std::string method() const { return ""; }
  /** What the triangular solves run on: the library's own solve ("library") or factors copied out of it ("extracted"). */
  virtual const char* solves() const { return "library"; }
  /** Bytes the factorization holds now (for V8's external memory accounting). */
  virtual int64_t bytes() const = 0;

  SDType dtype = SDType::f64;
  int n = 0;
  bool disposed = false;
  int64_t reported = 0;  // bytes currently reported to V8
  /** Held while the factorization is used (solve, logdet, refactor): SuiteSparse's solves write per-factor workspace. */
  std::mutex busy;
  /** Async calls in flight (main thread only); directDispose meanwhile only marks the handle disposed. */
  int pending = 0;
  bool release_when_idle = false;
};

/**
 * Marks `h` as used by an async call from its parse step until the job is
 * destroyed (both on the main thread): a directDispose() in between makes
 * the handle refuse new calls at once but frees it when the last such call has
 * settled, so the worker never runs on freed memory. Null `h` (a sync call): nothing.
 */
class InUse {
 public:
  InUse(Napi::Env env, DirectHandle* h);
  InUse(InUse&& o) noexcept : env_(o.env_), h_(o.h_) { o.h_ = nullptr; }
  InUse(const InUse&) = delete;
  InUse& operator=(const InUse&) = delete;
  InUse& operator=(InUse&&) = delete;
  ~InUse();

 private:
  napi_env env_;
  DirectHandle* h_;
};

/** Wraps `h` (owned from now on) in a registered External. */
Napi::Value wrap_handle(Napi::Env env, DirectHandle* h);

/** The live, undisposed handle `v` of kind T, or a TypeErr / Error saying what is wrong. */
DirectHandle& handle_of(const Napi::Value& v, const char* what);
template <class T>
T& handle_as(const Napi::Value& v, const char* what) {
  DirectHandle& h = handle_of(v, what);
  T* t = dynamic_cast<T*>(&h);
  if (!t) throw TypeErr(std::string(what) + " is a " + h.kind() + " handle, expected another kind");
  return *t;
}

/** Re-reports h.bytes() to V8 after the factorization's size changed. */
void report_bytes(Napi::Env env, DirectHandle& h);

/** Sets SuiteSparse's allocator hooks (once) so that large blocks get transparent huge pages; see direct.cc. */
void use_huge_pages_for_suitesparse();

/**
 * Componentwise backward error of y for op(A) y = c, A the canonical CSR `a`
 * (op = A, or Aᵀ when `transposed`): r = c − op(A) y (written to r) and
 * max_i |r_i| / (|op(A)| |y| + |c|)_i (complex moduli as |re| + |im|, as
 * LAPACK's CABS1); w is workspace of length n. A zero denominator with a
 * nonzero residual gives +Infinity.
 */
double backward_error(const Canonical& a, bool cplx, bool transposed, const double* y, const double* c, double* r, double* w);

/** Row-major [n, k] <-> column-major copies, per = 1 (real) or 2 (complex interleaved); conj flips imaginary parts. */
void to_col_major(const double* src, double* dst, int64_t n, int64_t k, int per, bool conj);
void from_col_major(const double* src, double* dst, int64_t n, int64_t k, int per, bool conj);

}  // namespace rlx::sparse
