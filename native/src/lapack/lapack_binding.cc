// JS entry points of the dense linalg kernels (src/linalg/kernels/contract.ts,
// wrapped by src/backends/native/lapack.ts). Positional arguments, as the
// contract's methods:
//
//   linalgCholesky(dtype, b, n, a, out, lower)
//   linalgTriangularSolve(dtype, b, n, k, a, rhs, out, lower, trans, unitDiagonal)
//   linalgLu(dtype, b, m, n, a, lu, piv, perm)
//   linalgSolve(dtype, b, n, k, a, rhs, out)
//   linalgDet(dtype, b, n, a, out, logabs | null)
//   linalgInv(dtype, b, n, a, out)
//   linalgQr(dtype, b, m, n, a, q | null, r, complete)
//   linalgEigh(dtype, b, n, a, w, v | null, lower)
//   linalgSvd(dtype, b, m, n, a, s, u | null, vh | null, full)
//   linalgEig(dtype, b, n, a, w, vr | null)
//   linalgLstsq(dtype, b, m, n, k, a, rhs, x, s, rank, rcond)
//
// each returning a fresh Int32Array of b infos. Everything is checked before
// any memory is touched: the argument count, dtype, sizes (integers in
// [0, 2^31 - 1], each matrix small enough for 32-bit LAPACK), every array's
// type and exact length, and that no output shares memory with another array.
#include <napi.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <vector>

#include "args.h"
#include "errors.h"
#include "lapack/lapack.h"
#include "lapack/lapack_impl.h"
#include "register.h"

namespace rlx {
namespace {

constexpr int64_t kMaxDim = std::numeric_limits<int32_t>::max();

/** Parses one call's arguments in order; remembers every array for the overlap check. */
class Args {
 public:
  Args(const Napi::CallbackInfo& info, size_t count, const char* signature) : info_(info) {
    if (info.Length() != count)
      throw TypeErr("expected " + std::to_string(count) + " arguments (" + signature + "), got " + std::to_string(info.Length()));
    dtype = parse_gemm_dtype(as_string(info[0], "dtype"));
    storage_ = (dtype == DType::f32 || dtype == DType::c64) ? napi_float32_array : napi_float64_array;
    per_ = is_complex(dtype) ? 2 : 1;
  }

  DType dtype;

  int64_t size(size_t i, const char* name) { return as_int(info_[i], name, 0, kMaxDim); }

  bool flag(size_t i, const char* name) {
    if (!info_[i].IsBoolean()) throw TypeErr(std::string(name) + " must be a boolean, got " + describe(info_[i]));
    return info_[i].As<Napi::Boolean>().Value();
  }

  double number(size_t i, const char* name) {
    if (!info_[i].IsNumber()) throw TypeErr(std::string(name) + " must be a number, got " + describe(info_[i]));
    const double d = info_[i].As<Napi::Number>().DoubleValue();
    if (std::isnan(d)) throw RangeErr(std::string(name) + " must not be NaN", "ValueError");
    return d;
  }

  /** A matrix array in the dtype's storage holding `elements` (complex) elements. */
  void* mat(size_t i, const char* name, int64_t elements, bool output, bool nullable = false) {
    return take(i, name, storage_, elements * per_, output, nullable, [this] { return std::string(" (dtype ") + dtype_name(dtype) + ")"; });
  }
  /** A real array (eigenvalues, singular values) of the dtype's precision. */
  void* real(size_t i, const char* name, int64_t elements, bool output) {
    return take(i, name, storage_, elements, output, false, [] { return std::string(); });
  }
  /** A complex array of the dtype's precision (eig's outputs for real input too). */
  void* cplx(size_t i, const char* name, int64_t elements, bool output, bool nullable = false) {
    return take(i, name, storage_, elements * 2, output, nullable, [] { return std::string(" (complex)"); });
  }
  int32_t* ints(size_t i, const char* name, int64_t elements, bool output) {
    return static_cast<int32_t*>(take(i, name, napi_int32_array, elements, output, false, [] { return std::string(); }));
  }

  /** Throws unless no output shares memory with any other array. Call after the last array. */
  void check_no_overlap() const {
    for (size_t i = 0; i < mem_.size(); i++) {
      if (!mem_[i].output) continue;
      for (size_t j = 0; j < mem_.size(); j++) {
        if (i == j || (j < i && mem_[j].output)) continue;
        const auto &x = mem_[i], &y = mem_[j];
        if (x.lo < y.hi && y.lo < x.hi)
          throw RangeErr(std::string(x.name) + " shares memory with " + y.name + "; outputs must not overlap any other array", "ValueError");
      }
    }
  }

 private:
  struct Mem {
    const char* name;
    const uint8_t* lo;
    const uint8_t* hi;
    bool output;
  };

  // `note()` completes the array's name in messages: built only when one is thrown.
  template <class Note>
  void* take(size_t i, const char* name, napi_typedarray_type want, int64_t length, bool output, bool nullable, Note note) {
    const Napi::Value v = info_[i];
    if (nullable && v.IsNull()) return nullptr;
    TypedMemory m;
    if (!typed_memory(v, want, &m)) m = as_typed(v, std::string(name) + note() + (nullable ? " or null" : ""), want);  // throws
    if (static_cast<int64_t>(m.length) != length)
      throw RangeErr(std::string(name) + note() + " must have length " + std::to_string(length) + ", got " + std::to_string(m.length));
    if (length > 0) {
      const size_t bytes = static_cast<size_t>(length) * (want == napi_float64_array ? 8 : 4);
      const uint8_t* lo = static_cast<const uint8_t*>(m.data);
      mem_.push_back({name, lo, lo + bytes, output});
    }
    return m.data;
  }

  const Napi::CallbackInfo& info_;
  napi_typedarray_type storage_;
  int64_t per_;
  std::vector<Mem> mem_;
};

/** x · y, or RangeErr when it exceeds what a JS array can index. */
int64_t mul(int64_t x, int64_t y) {
  int64_t r;
  if (__builtin_mul_overflow(x, y, &r) || r > kMaxSafeInt) throw RangeErr("sizes too large: " + std::to_string(x) + " × " + std::to_string(y) + " elements");
  return r;
}

/** Each matrix must be indexable by LAPACK's 32-bit integers. */
void lapack_sized(int64_t elements, const char* what) {
  if (elements > kMaxDim) throw RangeErr(std::string(what) + " has " + std::to_string(elements) + " elements per matrix; LAPACK (32-bit) allows at most 2^31 - 1");
}

/** Runs a kernel; allocation failures become RangeError, like any size problem. */
template <class F> Napi::Value run(Napi::Env env, int64_t b, F&& kernel) {
  Napi::Int32Array info = Napi::Int32Array::New(env, static_cast<size_t>(b));
  try {
    kernel(info.Data());
  } catch (const std::bad_alloc&) {
    throw RangeErr("out of memory allocating LAPACK workspace");
  }
  return info;
}

Napi::Value cholesky(const Napi::CallbackInfo& info) {
  Args g(info, 6, "dtype, b, n, a, out, lower");
  const int64_t b = g.size(1, "b"), n = g.size(2, "n");
  lapack_sized(mul(n, n), "a");
  const bool lower = g.flag(5, "lower");
  const int64_t len = mul(b, mul(n, n));
  const void* a = g.mat(3, "a", len, false);
  void* out = g.mat(4, "out", len, true);
  g.check_no_overlap();
  return run(info.Env(), b, [&](int32_t* inf) { linalg::cholesky(g.dtype, b, n, a, out, lower, inf); });
}

Napi::Value triangular_solve(const Napi::CallbackInfo& info) {
  Args g(info, 10, "dtype, b, n, k, a, rhs, out, lower, trans, unitDiagonal");
  const int64_t b = g.size(1, "b"), n = g.size(2, "n"), k = g.size(3, "k");
  lapack_sized(mul(n, n), "a"), lapack_sized(mul(n, k), "rhs");
  const bool lower = g.flag(7, "lower");
  const int trans = static_cast<int>(as_int(info[8], "trans", 0, 2));
  const bool unit = g.flag(9, "unitDiagonal");
  const void* a = g.mat(4, "a", mul(b, mul(n, n)), false);
  const void* rhs = g.mat(5, "rhs", mul(b, mul(n, k)), false);
  void* out = g.mat(6, "out", mul(b, mul(n, k)), true);
  g.check_no_overlap();
  return run(info.Env(), b, [&](int32_t* inf) { linalg::triangular_solve(g.dtype, b, n, k, a, rhs, out, lower, trans, unit, inf); });
}

Napi::Value lu(const Napi::CallbackInfo& info) {
  Args g(info, 8, "dtype, b, m, n, a, lu, piv, perm");
  const int64_t b = g.size(1, "b"), m = g.size(2, "m"), n = g.size(3, "n");
  lapack_sized(mul(m, n), "a");
  const void* a = g.mat(4, "a", mul(b, mul(m, n)), false);
  void* out = g.mat(5, "lu", mul(b, mul(m, n)), true);
  int32_t* piv = g.ints(6, "piv", mul(b, std::min(m, n)), true);
  int32_t* perm = g.ints(7, "perm", mul(b, m), true);
  g.check_no_overlap();
  return run(info.Env(), b, [&](int32_t* inf) { linalg::lu(g.dtype, b, m, n, a, out, piv, perm, inf); });
}

Napi::Value solve(const Napi::CallbackInfo& info) {
  Args g(info, 7, "dtype, b, n, k, a, rhs, out");
  const int64_t b = g.size(1, "b"), n = g.size(2, "n"), k = g.size(3, "k");
  lapack_sized(mul(n, n), "a"), lapack_sized(mul(n, k), "rhs");
  const void* a = g.mat(4, "a", mul(b, mul(n, n)), false);
  const void* rhs = g.mat(5, "rhs", mul(b, mul(n, k)), false);
  void* out = g.mat(6, "out", mul(b, mul(n, k)), true);
  g.check_no_overlap();
  return run(info.Env(), b, [&](int32_t* inf) { linalg::solve(g.dtype, b, n, k, a, rhs, out, inf); });
}

Napi::Value det(const Napi::CallbackInfo& info) {
  Args g(info, 6, "dtype, b, n, a, out, logabs");
  const int64_t b = g.size(1, "b"), n = g.size(2, "n");
  lapack_sized(mul(n, n), "a");
  const void* a = g.mat(3, "a", mul(b, mul(n, n)), false);
  void* out = g.mat(4, "out", b, true);
  void* logabs = info[5].IsNull() ? nullptr : g.real(5, "logabs", b, true);
  g.check_no_overlap();
  return run(info.Env(), b, [&](int32_t* inf) { linalg::det(g.dtype, b, n, a, out, logabs, inf); });
}

Napi::Value inv(const Napi::CallbackInfo& info) {
  Args g(info, 5, "dtype, b, n, a, out");
  const int64_t b = g.size(1, "b"), n = g.size(2, "n");
  lapack_sized(mul(n, n), "a");
  const void* a = g.mat(3, "a", mul(b, mul(n, n)), false);
  void* out = g.mat(4, "out", mul(b, mul(n, n)), true);
  g.check_no_overlap();
  return run(info.Env(), b, [&](int32_t* inf) { linalg::inv(g.dtype, b, n, a, out, inf); });
}

Napi::Value qr(const Napi::CallbackInfo& info) {
  Args g(info, 8, "dtype, b, m, n, a, q, r, complete");
  const int64_t b = g.size(1, "b"), m = g.size(2, "m"), n = g.size(3, "n");
  const bool complete = g.flag(7, "complete");
  const int64_t kk = std::min(m, n), rows = complete ? m : kk;
  lapack_sized(mul(m, n), "a"), lapack_sized(mul(m, rows), "q");
  const void* a = g.mat(4, "a", mul(b, mul(m, n)), false);
  void* q = g.mat(5, "q", mul(b, mul(m, rows)), true, true);
  void* r = g.mat(6, "r", mul(b, mul(rows, n)), true);
  g.check_no_overlap();
  return run(info.Env(), b, [&](int32_t* inf) { linalg::qr(g.dtype, b, m, n, a, q, r, complete, inf); });
}

Napi::Value eigh(const Napi::CallbackInfo& info) {
  Args g(info, 7, "dtype, b, n, a, w, v, lower");
  const int64_t b = g.size(1, "b"), n = g.size(2, "n");
  lapack_sized(mul(n, n), "a");
  const bool lower = g.flag(6, "lower");
  const void* a = g.mat(3, "a", mul(b, mul(n, n)), false);
  void* w = g.real(4, "w", mul(b, n), true);
  void* v = g.mat(5, "v", mul(b, mul(n, n)), true, true);
  g.check_no_overlap();
  return run(info.Env(), b, [&](int32_t* inf) { linalg::eigh(g.dtype, b, n, a, w, v, lower, inf); });
}

Napi::Value svd(const Napi::CallbackInfo& info) {
  Args g(info, 9, "dtype, b, m, n, a, s, u, vh, full");
  const int64_t b = g.size(1, "b"), m = g.size(2, "m"), n = g.size(3, "n");
  const bool full = g.flag(8, "full");
  const int64_t kk = std::min(m, n), ucols = full ? m : kk, vrows = full ? n : kk;
  lapack_sized(mul(m, n), "a"), lapack_sized(mul(m, ucols), "u"), lapack_sized(mul(vrows, n), "vh");
  const void* a = g.mat(4, "a", mul(b, mul(m, n)), false);
  void* s = g.real(5, "s", mul(b, kk), true);
  void* u = g.mat(6, "u", mul(b, mul(m, ucols)), true, true);
  void* vh = g.mat(7, "vh", mul(b, mul(vrows, n)), true, true);
  // An empty typed array may have no backing store (data == nullptr), e.g. vh [0, 0] of a
  // full SVD of a 3x0 matrix: decide "vectors or not" from the JS values, and give an empty
  // output a non-null address (nothing is written through it), since the kernel reads
  // u != nullptr as "compute the vectors".
  const bool u_null = info[6].IsNull(), vh_null = info[7].IsNull();
  if (u_null != vh_null) throw TypeErr("u and vh must both be arrays or both be null");
  static double empty_output[2];
  if (!u_null && u == nullptr) u = empty_output;
  if (!vh_null && vh == nullptr) vh = empty_output;
  g.check_no_overlap();
  return run(info.Env(), b, [&](int32_t* inf) { linalg::svd(g.dtype, b, m, n, a, s, u, vh, full, inf); });
}

Napi::Value eig(const Napi::CallbackInfo& info) {
  Args g(info, 6, "dtype, b, n, a, w, vr");
  const int64_t b = g.size(1, "b"), n = g.size(2, "n");
  lapack_sized(mul(n, n), "a");
  const void* a = g.mat(3, "a", mul(b, mul(n, n)), false);
  void* w = g.cplx(4, "w", mul(b, n), true);
  void* vr = g.cplx(5, "vr", mul(b, mul(n, n)), true, true);
  g.check_no_overlap();
  return run(info.Env(), b, [&](int32_t* inf) { linalg::eig(g.dtype, b, n, a, w, vr, inf); });
}

Napi::Value lstsq(const Napi::CallbackInfo& info) {
  Args g(info, 11, "dtype, b, m, n, k, a, rhs, x, s, rank, rcond");
  const int64_t b = g.size(1, "b"), m = g.size(2, "m"), n = g.size(3, "n"), k = g.size(4, "k");
  lapack_sized(mul(m, n), "a"), lapack_sized(mul(std::max(m, n), k), "rhs");
  const double rcond = g.number(10, "rcond");
  const void* a = g.mat(5, "a", mul(b, mul(m, n)), false);
  const void* rhs = g.mat(6, "rhs", mul(b, mul(m, k)), false);
  void* x = g.mat(7, "x", mul(b, mul(n, k)), true);
  void* s = g.real(8, "s", mul(b, std::min(m, n)), true);
  int32_t* rank = g.ints(9, "rank", b, true);
  g.check_no_overlap();
  return run(info.Env(), b, [&](int32_t* inf) { linalg::lstsq(g.dtype, b, m, n, k, a, rhs, x, s, rank, rcond, inf); });
}

}  // namespace
}  // namespace rlx

RLX_REGISTER(lapack) {
  using namespace rlx;
  // NaNs go to LAPACK as they are (as NumPy's calls do) instead of LAPACKE
  // reporting them as an illegal argument.
  LAPACKE_set_nancheck(0);
  export_fn(env, exports, "linalgCholesky", cholesky);
  export_fn(env, exports, "linalgTriangularSolve", triangular_solve);
  export_fn(env, exports, "linalgLu", lu);
  export_fn(env, exports, "linalgSolve", solve);
  export_fn(env, exports, "linalgDet", det);
  export_fn(env, exports, "linalgInv", inv);
  export_fn(env, exports, "linalgQr", qr);
  export_fn(env, exports, "linalgEigh", eigh);
  export_fn(env, exports, "linalgSvd", svd);
  export_fn(env, exports, "linalgEig", eig);
  export_fn(env, exports, "linalgLstsq", lstsq);
}
