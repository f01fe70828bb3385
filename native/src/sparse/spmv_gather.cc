// The gather products of CSR A (one output row per matrix row), on the addon's
// thread pool:
//
//   sparseSpmv   (dtype, rows, cols, indptr, indices, data, check, x, y, aRe, aIm, bRe, bIm)
//       y[rows] = alpha · A x + beta · y; returns y
//   sparseSpmvDot(dtype, rows, cols, indptr, indices, data, x, y) -> xᵀy
//       y = A x for square float64 A (CG's q = A p with pᵀq in the same pass);
//       indices checked during the product (y is scratch: partly written when it throws)
//
// Argument rules, the check modes and the no-overlap rule: products.h / spmv.cc.
//
// Rows are cut into chunks of about kChunkWork (nonzeros + rows), by the matrix
// alone, and the pool hands chunks out one at a time: a thread that is slow (a
// core shared with another process) delays the product by at most one chunk, not
// by half of it. Each row is summed by one thread in index order, so y does not
// depend on the thread count; xᵀy is summed per chunk in row order and the chunk
// sums in chunk order, so neither does it.
//
// Index check `during`: a bad index stops its chunk before x is read there
// (an out-of-range index is never dereferenced); after the loop check_indices()
// rescans to throw the same message as the `before` scan.
#include <napi.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <vector>
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#endif

#include "args.h"
#include "binding/kernel.h"
#include "errors.h"
#include "pool/pool.h"
#include "register.h"
#include "sparse/csr.h"
#include "sparse/products.h"

namespace rlx::sparse {
namespace {

/** Work units (nonzeros + rows) per chunk: ~0.5 MiB of float64 matrix data, ~30 µs. */
constexpr int64_t kChunkWork = int64_t(1) << 16;

/** Row boundaries of the chunks (a function of the matrix only). */
std::vector<int64_t> chunk_rows(const Csr& a) {
  const int64_t work = a.nnz + a.rows;
  const int64_t n = std::max<int64_t>(1, std::min<int64_t>(a.rows, (work + kChunkWork - 1) / kChunkWork));
  return partition_rows(a.indptr, a.rows, n);
}

/** Runs fn(c, r0, r1) for every chunk c; on the pool when there are several and it has threads. */
template <class F>
void for_chunks(const std::vector<int64_t>& b, F&& fn) {
  const int64_t n = static_cast<int64_t>(b.size()) - 1;
  if (n <= 1 || Pool::instance().size() <= 1) {
    for (int64_t c = 0; c < n; c++) fn(c, b[c], b[c + 1]);
    return;
  }
  Pool::instance().parallelFor(n, [&](int64_t c) { fn(c, b[c], b[c + 1]); });
}

/**
 * Rows per block of the check inside the loop: the block's indices are scanned
 * (a vectorized pass, many loads in flight), then summed while they are still
 * in L1, which also makes the scan work as a prefetch. Measured on
 * poisson2d(1024), one thread, CPU time: no check 4.9 ms, separate scan first
 * 5.7 ms, per-block check 4.5 ms.
 */
constexpr int64_t kCheckRows = 256;
/**
 * Products streaming at least this many bytes of matrix (12 per float64
 * nonzero) store y with non-temporal stores: y would leave the caches before
 * anyone reads it, and a plain store first reads each line of y from memory.
 * Measured on poisson2d(1024) (8 MiB y, 63 MiB of matrix), one thread of a
 * 2-core EPYC VM, CPU time: no check 4.9 -> 4.35 ms, scan first 5.7 -> 4.9 ms.
 * Smaller products keep y cached for the next step (CG reads q = A p right away).
 */
constexpr int64_t kStreamBytes = int64_t(32) << 20;

/** *p = v, bypassing the caches where the target has non-temporal stores. */
template <class T>
inline void store_nt(T* p, T v) {
#if defined(__x86_64__) || defined(_M_X64)
  if constexpr (sizeof(T) == 8) {
    long long b;
    std::memcpy(&b, &v, 8);
    _mm_stream_si64(reinterpret_cast<long long*>(p), b);
  } else {
    int b;
    std::memcpy(&b, &v, 4);
    _mm_stream_si32(reinterpret_cast<int*>(p), b);
  }
#else
  *p = v;
#endif
}

inline void store_fence() {
#if defined(__x86_64__) || defined(_M_X64)
  _mm_sfence();  // non-temporal stores are weakly ordered: make them visible before the pool's join
#endif
}

/** Whether some indices[k], k in [kb, ke), is outside [0, cols) (branch-free: it vectorizes). */
inline bool any_bad(const int32_t* ix, int64_t kb, int64_t ke, uint32_t cols) {
  uint32_t bad = 0;
  for (int64_t k = kb; k < ke; k++) bad |= static_cast<uint32_t>(static_cast<uint32_t>(ix[k]) >= cols);
  return bad != 0;
}

/**
 * y[r] = alpha (A x)[r] + beta y[r] for rows [r0, r1); with Dot (alpha 1, beta 0)
 * also returns Σ x[r] (A x)[r]. With Chk, each block of kCheckRows rows is
 * checked before it is summed; at a bad index it stops and sets *bad. With NT
 * (beta = 0), y is stored non-temporally.
 */
template <class T, bool Chk, bool Dot, bool NT>
double spmv_real(const Csr& a, const T* x, T* y, int64_t r0, int64_t r1, Scal al, Scal be, bool* bad) {
  const T* v = static_cast<const T*>(a.data);
  const int32_t* ip = a.indptr;
  const int32_t* ix = a.indices;
  double d = 0;
  for (int64_t rb = r0; rb < r1; rb += kCheckRows) {
    const int64_t re = std::min(r1, rb + kCheckRows);
    if constexpr (Chk) {
      if (any_bad(ix, ip[rb], ip[re], static_cast<uint32_t>(a.cols))) {
        *bad = true;
        if constexpr (NT) store_fence();
        return d;
      }
    }
    for (int64_t r = rb; r < re; r++) {
      double s = 0;
      for (int32_t k = ip[r], e = ip[r + 1]; k < e; k++) s += static_cast<double>(v[k]) * static_cast<double>(x[ix[k]]);
      if constexpr (Dot) {
        y[r] = static_cast<T>(s);
        d += static_cast<double>(x[r]) * s;
      } else if constexpr (NT) {
        store_nt(y + r, static_cast<T>(al.re * s));  // only with beta = 0
      } else {
        y[r] = static_cast<T>(be.re == 0 ? al.re * s : al.re * s + be.re * static_cast<double>(y[r]));
      }
    }
  }
  if constexpr (NT) store_fence();
  return d;
}

template <class T, bool Chk>
void spmv_cplx(const Csr& a, const T* x, T* y, int64_t r0, int64_t r1, Scal al, Scal be, bool* bad) {
  const T* v = static_cast<const T*>(a.data);
  const int32_t* ip = a.indptr;
  const int32_t* ix = a.indices;
  const bool beta0 = be.re == 0 && be.im == 0;
  for (int64_t rb = r0; rb < r1; rb += kCheckRows) {
    const int64_t re = std::min(r1, rb + kCheckRows);
    if constexpr (Chk) {
      if (any_bad(ix, ip[rb], ip[re], static_cast<uint32_t>(a.cols))) {
        *bad = true;
        return;
      }
    }
    for (int64_t r = rb; r < re; r++) {
      double sr = 0, si = 0;
      for (int32_t k = ip[r], e = ip[r + 1]; k < e; k++) {
        const double ar = v[2 * int64_t(k)], ai = v[2 * int64_t(k) + 1];
        const double xr = x[2 * int64_t(ix[k])], xi = x[2 * int64_t(ix[k]) + 1];
        sr += ar * xr - ai * xi;
        si += ar * xi + ai * xr;
      }
      double yr = al.re * sr - al.im * si, yi = al.re * si + al.im * sr;
      if (!beta0) {
        const double oy = y[2 * r], oyi = y[2 * r + 1];
        yr += be.re * oy - be.im * oyi;
        yi += be.re * oyi + be.im * oy;
      }
      y[2 * r] = static_cast<T>(yr);
      y[2 * r + 1] = static_cast<T>(yi);
    }
  }
}

/** Flags per chunk (plain bools written by one thread each; read after the pool's join). */
struct BadFlags {
  std::vector<char> f;
  explicit BadFlags(size_t n) : f(n, 0) {}
  bool* at(int64_t c) { return reinterpret_cast<bool*>(&f[static_cast<size_t>(c)]); }
  bool any() const { return std::any_of(f.begin(), f.end(), [](char c) { return c != 0; }); }
};

template <class T, bool Chk>
void run_spmv(const Products& p) {
  const Csr& a = p.a;
  const auto b = chunk_rows(a);
  BadFlags bad(b.size());
  const T* x = static_cast<const T*>(p.x.data);
  T* y = static_cast<T*>(p.y.data);
  const bool nt = p.beta.re == 0 && a.nnz * static_cast<int64_t>(sizeof(T) + 4) >= kStreamBytes;
  for_chunks(b, [&](int64_t c, int64_t r0, int64_t r1) {
    if (is_cplx(a.dtype)) spmv_cplx<T, Chk>(a, x, y, r0, r1, p.alpha, p.beta, bad.at(c));
    else if (nt) spmv_real<T, Chk, false, true>(a, x, y, r0, r1, p.alpha, p.beta, bad.at(c));
    else spmv_real<T, Chk, false, false>(a, x, y, r0, r1, p.alpha, p.beta, bad.at(c));
  });
  if (Chk && bad.any()) check_indices(a);  // throws, naming the first bad entry
}

template <class T>
void run_spmv(const Products& p) {
  // `before` scans first, so a user's y is untouched by a failure; the product
  // then runs unchecked (checking again in the loop measured 4% slower on
  // poisson2d(1024): the indices scanned first are no longer in L1).
  if (p.check == IndexCheck::before) check_indices(p.a);
  if (p.check == IndexCheck::during) run_spmv<T, true>(p);
  else run_spmv<T, false>(p);
}

}  // namespace
}  // namespace rlx::sparse

RLX_REGISTER(sparse_gather) {
  using namespace rlx;
  using namespace rlx::sparse;
  // sparseSpmv and sparseSpmvAsync (binding/kernel.h).
  struct SpmvJob {
    Products p;
    size_t y_index;
    void run() {
      if (is_single(p.a.dtype)) run_spmv<float>(p);
      else run_spmv<double>(p);
    }
    Napi::Value result(Napi::Env env, Pins& pins) { return pins.value(env, y_index); }
  };
  export_kernel(env, exports, "sparseSpmv", [](const Napi::CallbackInfo& info, Pins& pins) -> SpmvJob {
    Products p = read_products(info, false);
    const int64_t per = per_elem(p.a.dtype);
    check_len(p.x, "x", p.a.cols * per, "cols, times 2 for complex");
    check_len(p.y, "y", p.a.rows * per, "rows, times 2 for complex");
    check_no_overlap(p);
    if (pins.async()) {
      const size_t es = is_single(p.a.dtype) ? 4 : 8;
      pin_csr(p.a, info, 0, pins);
      p.x.data = const_cast<void*>(pins.input(info[7], p.x.data, p.x.length * es));
      p.y.data = pins.output(info[8], p.y.data, p.y.length * es, "y");
    }
    const size_t yi = pins.keep(info[8]);
    return SpmvJob{std::move(p), yi};
  });
  // sparseSpmvDot and sparseSpmvDotAsync: y = A x and xᵀy in one pass.
  struct SpmvDotJob {
    Products p;
    double dot = 0;
    void run() {
      const auto b = chunk_rows(p.a);
      BadFlags bad(b.size());
      thread_local std::vector<double> part;
      part.assign(b.size(), 0.0);  // allocate here: nothing may throw on the pool
      const double* x = static_cast<const double*>(p.x.data);
      double* y = static_cast<double*>(p.y.data);
      double* ps = part.data();
      for_chunks(b, [&](int64_t c, int64_t r0, int64_t r1) { ps[c] = spmv_real<double, true, true, false>(p.a, x, y, r0, r1, {}, {0, 0}, bad.at(c)); });
      if (bad.any()) check_indices(p.a);
      dot = 0;
      for (double s : part) dot += s;
    }
    Napi::Value result(Napi::Env env, Pins&) { return Napi::Number::New(env, dot); }
  };
  export_kernel(env, exports, "sparseSpmvDot", [](const Napi::CallbackInfo& info, Pins& pins) -> SpmvDotJob {
    if (info.Length() != 8) throw TypeErr("expected (dtype, rows, cols, indptr, indices, data, x, y), got " + std::to_string(info.Length()) + " arguments");
    const Napi::Value xv = info[6], yv = info[7];
    Products p;
    p.a = read_csr(info, 0, false);  // memory last: nothing runs JS between taking the pointers and the product
    if (p.a.dtype != SDType::f64) throw TypeErr(std::string("sparseSpmvDot: dtype must be float64, got ") + sdtype_name(p.a.dtype), "DTypeError");
    if (p.a.rows != p.a.cols) throw RangeErr("sparseSpmvDot: A must be square, got " + std::to_string(p.a.rows) + "x" + std::to_string(p.a.cols));
    p.x = as_typed(xv, "x", napi_float64_array);
    p.y = as_typed(yv, "y", napi_float64_array);
    check_len(p.x, "x", p.a.cols, "cols");
    check_len(p.y, "y", p.a.rows, "rows");
    check_no_overlap(p);
    if (pins.async()) {
      pin_csr(p.a, info, 0, pins);
      p.x.data = const_cast<void*>(pins.input(xv, p.x.data, p.x.length * 8));
      p.y.data = pins.output(yv, p.y.data, p.y.length * 8, "y", false);  // every row of y is written
    }
    return SpmvDotJob{std::move(p)};
  });
}
