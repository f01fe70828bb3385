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
// each returning a fresh Int32Array of b infos, and each with an Async twin
// (linalgSvdAsync, ...: same arguments, a Promise of the same result, the work
// on a libuv worker; binding/kernel.h). Everything is checked before
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
#include "binding/kernel.h"
#include "binding/reader.h"
#include "errors.h"
#include "lapack/lapack.h"
#include "lapack/lapack_impl.h"
#include "register.h"

namespace rlx {
namespace {

constexpr int64_t kMaxDim = std::numeric_limits<int32_t>::max();

/** One call's arguments in order (binding/reader.h) plus the dtype's storage; arrays go through the call's Pins. */
class Args : public Reader {
 public:
  Args(const Napi::CallbackInfo& info, Pins& pins, size_t count, const char* signature) : Reader(info, pins, count, signature) {
    dtype = parse_gemm_dtype(string(0, "dtype"));
    storage_ = (dtype == DType::f32 || dtype == DType::c64) ? napi_float32_array : napi_float64_array;
    per_ = is_complex(dtype) ? 2 : 1;
  }

  DType dtype;

  int64_t size(size_t i, const char* name) const { return integer(i, name, 0, kMaxDim); }

  /** A matrix array in the dtype's storage holding `elements` (complex) elements. */
  const void* mat(size_t i, const char* name, int64_t elements) {
    return input(i, name, storage_, elements * per_, false, [this] { return dtype_note(); });
  }
  void* mat_out(size_t i, const char* name, int64_t elements, bool nullable = false) {
    return output(i, name, storage_, elements * per_, nullable, [this] { return dtype_note(); });
  }
  /** A real array (eigenvalues, singular values) of the dtype's precision. */
  void* real_out(size_t i, const char* name, int64_t elements) {
    return output(i, name, storage_, elements, false, [] { return std::string(); });
  }
  /** A complex array of the dtype's precision (eig's outputs for real input too). */
  void* cplx_out(size_t i, const char* name, int64_t elements, bool nullable = false) {
    return output(i, name, storage_, elements * 2, nullable, [] { return std::string(" (complex)"); });
  }
  int32_t* ints_out(size_t i, const char* name, int64_t elements) {
    return static_cast<int32_t*>(output(i, name, napi_int32_array, elements, false, [] { return std::string(); }));
  }

 private:
  std::string dtype_note() const { return std::string(" (dtype ") + dtype_name(dtype) + ")"; }
  napi_typedarray_type storage_;
  int64_t per_;
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

/** A parsed call: the kernel (which captured everything it needs by value) and the info array it fills. */
template <class K>
struct Job {
  K kernel;
  int32_t* info;
  size_t info_index;
  /** Allocation failures become RangeError, like any size problem. */
  void run() {
    try {
      kernel(info);
    } catch (const std::bad_alloc&) {
      throw RangeErr("out of memory allocating LAPACK workspace");
    }
  }
  Napi::Value result(Napi::Env env, Pins& pins) { return pins.value(env, info_index); }
};

/** The job of a call over `b` matrices: a fresh Int32Array of b infos, written in place (only this call holds it). */
template <class K>
Job<K> job(Args& g, int64_t b, K kernel) {
  Napi::Int32Array info = Napi::Int32Array::New(g.info().Env(), static_cast<size_t>(b));
  const size_t index = g.pins().fresh(info);
  return Job<K>{std::move(kernel), info.Data(), index};
}

auto cholesky(const Napi::CallbackInfo& info, Pins& pins) {
  Args g(info, pins, 6, "dtype, b, n, a, out, lower");
  const int64_t b = g.size(1, "b"), n = g.size(2, "n");
  lapack_sized(mul(n, n), "a");
  const bool lower = g.flag(5, "lower");
  const int64_t len = mul(b, mul(n, n));
  const void* a = g.mat(3, "a", len);
  void* out = g.mat_out(4, "out", len);
  g.check_no_overlap();
  return job(g, b, [=, dtype = g.dtype](int32_t* inf) { linalg::cholesky(dtype, b, n, a, out, lower, inf); });
}

auto triangular_solve(const Napi::CallbackInfo& info, Pins& pins) {
  Args g(info, pins, 10, "dtype, b, n, k, a, rhs, out, lower, trans, unitDiagonal");
  const int64_t b = g.size(1, "b"), n = g.size(2, "n"), k = g.size(3, "k");
  lapack_sized(mul(n, n), "a"), lapack_sized(mul(n, k), "rhs");
  const bool lower = g.flag(7, "lower");
  const int trans = static_cast<int>(as_int(info[8], "trans", 0, 2));
  const bool unit = g.flag(9, "unitDiagonal");
  const void* a = g.mat(4, "a", mul(b, mul(n, n)));
  const void* rhs = g.mat(5, "rhs", mul(b, mul(n, k)));
  void* out = g.mat_out(6, "out", mul(b, mul(n, k)));
  g.check_no_overlap();
  return job(g, b, [=, dtype = g.dtype](int32_t* inf) { linalg::triangular_solve(dtype, b, n, k, a, rhs, out, lower, trans, unit, inf); });
}

auto lu(const Napi::CallbackInfo& info, Pins& pins) {
  Args g(info, pins, 8, "dtype, b, m, n, a, lu, piv, perm");
  const int64_t b = g.size(1, "b"), m = g.size(2, "m"), n = g.size(3, "n");
  lapack_sized(mul(m, n), "a");
  const void* a = g.mat(4, "a", mul(b, mul(m, n)));
  void* out = g.mat_out(5, "lu", mul(b, mul(m, n)));
  int32_t* piv = g.ints_out(6, "piv", mul(b, std::min(m, n)));
  int32_t* perm = g.ints_out(7, "perm", mul(b, m));
  g.check_no_overlap();
  return job(g, b, [=, dtype = g.dtype](int32_t* inf) { linalg::lu(dtype, b, m, n, a, out, piv, perm, inf); });
}

auto solve(const Napi::CallbackInfo& info, Pins& pins) {
  Args g(info, pins, 7, "dtype, b, n, k, a, rhs, out");
  const int64_t b = g.size(1, "b"), n = g.size(2, "n"), k = g.size(3, "k");
  lapack_sized(mul(n, n), "a"), lapack_sized(mul(n, k), "rhs");
  const void* a = g.mat(4, "a", mul(b, mul(n, n)));
  const void* rhs = g.mat(5, "rhs", mul(b, mul(n, k)));
  void* out = g.mat_out(6, "out", mul(b, mul(n, k)));
  g.check_no_overlap();
  return job(g, b, [=, dtype = g.dtype](int32_t* inf) { linalg::solve(dtype, b, n, k, a, rhs, out, inf); });
}

auto det(const Napi::CallbackInfo& info, Pins& pins) {
  Args g(info, pins, 6, "dtype, b, n, a, out, logabs");
  const int64_t b = g.size(1, "b"), n = g.size(2, "n");
  lapack_sized(mul(n, n), "a");
  const void* a = g.mat(3, "a", mul(b, mul(n, n)));
  void* out = g.mat_out(4, "out", b);
  void* logabs = info[5].IsNull() ? nullptr : g.real_out(5, "logabs", b);
  g.check_no_overlap();
  return job(g, b, [=, dtype = g.dtype](int32_t* inf) { linalg::det(dtype, b, n, a, out, logabs, inf); });
}

auto inv(const Napi::CallbackInfo& info, Pins& pins) {
  Args g(info, pins, 5, "dtype, b, n, a, out");
  const int64_t b = g.size(1, "b"), n = g.size(2, "n");
  lapack_sized(mul(n, n), "a");
  const void* a = g.mat(3, "a", mul(b, mul(n, n)));
  void* out = g.mat_out(4, "out", mul(b, mul(n, n)));
  g.check_no_overlap();
  return job(g, b, [=, dtype = g.dtype](int32_t* inf) { linalg::inv(dtype, b, n, a, out, inf); });
}

auto qr(const Napi::CallbackInfo& info, Pins& pins) {
  Args g(info, pins, 8, "dtype, b, m, n, a, q, r, complete");
  const int64_t b = g.size(1, "b"), m = g.size(2, "m"), n = g.size(3, "n");
  const bool complete = g.flag(7, "complete");
  const int64_t kk = std::min(m, n), rows = complete ? m : kk;
  lapack_sized(mul(m, n), "a"), lapack_sized(mul(m, rows), "q");
  const void* a = g.mat(4, "a", mul(b, mul(m, n)));
  void* q = g.mat_out(5, "q", mul(b, mul(m, rows)), true);
  void* r = g.mat_out(6, "r", mul(b, mul(rows, n)));
  g.check_no_overlap();
  return job(g, b, [=, dtype = g.dtype](int32_t* inf) { linalg::qr(dtype, b, m, n, a, q, r, complete, inf); });
}

auto eigh(const Napi::CallbackInfo& info, Pins& pins) {
  Args g(info, pins, 7, "dtype, b, n, a, w, v, lower");
  const int64_t b = g.size(1, "b"), n = g.size(2, "n");
  lapack_sized(mul(n, n), "a");
  const bool lower = g.flag(6, "lower");
  const void* a = g.mat(3, "a", mul(b, mul(n, n)));
  void* w = g.real_out(4, "w", mul(b, n));
  void* v = g.mat_out(5, "v", mul(b, mul(n, n)), true);
  g.check_no_overlap();
  return job(g, b, [=, dtype = g.dtype](int32_t* inf) { linalg::eigh(dtype, b, n, a, w, v, lower, inf); });
}

auto svd(const Napi::CallbackInfo& info, Pins& pins) {
  Args g(info, pins, 9, "dtype, b, m, n, a, s, u, vh, full");
  const int64_t b = g.size(1, "b"), m = g.size(2, "m"), n = g.size(3, "n");
  const bool full = g.flag(8, "full");
  const int64_t kk = std::min(m, n), ucols = full ? m : kk, vrows = full ? n : kk;
  lapack_sized(mul(m, n), "a"), lapack_sized(mul(m, ucols), "u"), lapack_sized(mul(vrows, n), "vh");
  const void* a = g.mat(4, "a", mul(b, mul(m, n)));
  void* s = g.real_out(5, "s", mul(b, kk));
  void* u = g.mat_out(6, "u", mul(b, mul(m, ucols)), true);
  void* vh = g.mat_out(7, "vh", mul(b, mul(vrows, n)), true);
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
  return job(g, b, [=, dtype = g.dtype](int32_t* inf) { linalg::svd(dtype, b, m, n, a, s, u, vh, full, inf); });
}

auto eig(const Napi::CallbackInfo& info, Pins& pins) {
  Args g(info, pins, 6, "dtype, b, n, a, w, vr");
  const int64_t b = g.size(1, "b"), n = g.size(2, "n");
  lapack_sized(mul(n, n), "a");
  const void* a = g.mat(3, "a", mul(b, mul(n, n)));
  void* w = g.cplx_out(4, "w", mul(b, n));
  void* vr = g.cplx_out(5, "vr", mul(b, mul(n, n)), true);
  g.check_no_overlap();
  return job(g, b, [=, dtype = g.dtype](int32_t* inf) { linalg::eig(dtype, b, n, a, w, vr, inf); });
}

auto lstsq(const Napi::CallbackInfo& info, Pins& pins) {
  Args g(info, pins, 11, "dtype, b, m, n, k, a, rhs, x, s, rank, rcond");
  const int64_t b = g.size(1, "b"), m = g.size(2, "m"), n = g.size(3, "n"), k = g.size(4, "k");
  lapack_sized(mul(m, n), "a"), lapack_sized(mul(std::max(m, n), k), "rhs");
  const double rcond = g.number(10, "rcond");
  const void* a = g.mat(5, "a", mul(b, mul(m, n)));
  const void* rhs = g.mat(6, "rhs", mul(b, mul(m, k)));
  void* x = g.mat_out(7, "x", mul(b, mul(n, k)));
  void* s = g.real_out(8, "s", mul(b, std::min(m, n)));
  int32_t* rank = g.ints_out(9, "rank", b);
  g.check_no_overlap();
  return job(g, b, [=, dtype = g.dtype](int32_t* inf) { linalg::lstsq(dtype, b, m, n, k, a, rhs, x, s, rank, rcond, inf); });
}

}  // namespace
}  // namespace rlx

RLX_REGISTER(lapack) {
  using namespace rlx;
  // NaNs go to LAPACK as they are (as NumPy's calls do) instead of LAPACKE
  // reporting them as an illegal argument.
  LAPACKE_set_nancheck(0);
  export_kernel(env, exports, "linalgCholesky", cholesky);
  export_kernel(env, exports, "linalgTriangularSolve", triangular_solve);
  export_kernel(env, exports, "linalgLu", lu);
  export_kernel(env, exports, "linalgSolve", solve);
  export_kernel(env, exports, "linalgDet", det);
  export_kernel(env, exports, "linalgInv", inv);
  export_kernel(env, exports, "linalgQr", qr);
  export_kernel(env, exports, "linalgEigh", eigh);
  export_kernel(env, exports, "linalgSvd", svd);
  export_kernel(env, exports, "linalgEig", eig);
  export_kernel(env, exports, "linalgLstsq", lstsq);
}
