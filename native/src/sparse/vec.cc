// Dense float64 vector kernels for the Krylov solvers and Lanczos (src/sparse/solvers,
// installed through setVecKernel in src/sparse/solvers/vec.ts). The TS loops are
// scalar; these use SIMD (an AVX2 clone picked at load time) and the addon's
// thread pool, or BLAS for the matrix ones.
//
//   sparseVecDot  (x, y) -> xᵀy
//   sparseVecAxpy (a, x, y): y += a x
//   sparseVecXpby (x, b, y): y = x + b y
//   sparseVecCgStep(a, p, q, x, r) -> ‖r‖²: x += a p, r -= a q, one pass
//   sparseVecGemv (trans, rows, cols, A, x, y, alpha, beta):
//       y = alpha op(A) x + beta y, A row-major rows×cols (its first rows·cols values)
//   sparseVecGemmTN(rows, p, cols, S, A, C, alpha, beta):
//       C = alpha Sᵀ A + beta C, S rows×p, A rows×cols, C p×cols, all row-major
//
// Every argument is a Float64Array; lengths are checked (x, y exactly; matrices at
// least as long as needed) and an output may not overlap an input. Complex
// (interleaved) vectors are passed as real ones by the caller when the scalars are real.
//
// The BLAS-1 operations are not OpenBLAS calls: its ddot/daxpy run on OpenBLAS's
// own threads above 10000 elements, and those threads busy-wait for a long time
// after each call, fighting the addon's pool (the threaded SpMV between two dots)
// for the cores: CG on poisson2d(512) on 2 cores varied between 1 and 2 ms per
// iteration from run to run. Here vectors are cut into chunks of kChunk elements
// (by length only), run on the pool, and a reduction sums each chunk in 8 lanes
// and the chunk sums in chunk order: the same bits on any number of threads.
#include <napi.h>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "args.h"
#include "blas.h"
#include "errors.h"
#include "pool/pool.h"
#include "register.h"
#include "sparse/csr.h"

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define RLX_VEC_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define RLX_VEC_CLONES
#endif

namespace rlx::sparse {
namespace {

TypedMemory f64(const Napi::Value& v, const char* what) { return as_typed(v, what, napi_float64_array); }

double number(const Napi::Value& v, const char* what) {
  if (!v.IsNumber()) throw TypeErr(std::string(what) + " must be a number, got " + describe(v));
  return v.As<Napi::Number>().DoubleValue();
}

void same_len(const TypedMemory& a, const TypedMemory& b, const char* an, const char* bn) {
  if (a.length != b.length)
    throw RangeErr(std::string(an) + " and " + bn + " must have the same length, got " + std::to_string(a.length) + " and " + std::to_string(b.length));
}

void no_overlap(const TypedMemory& out, const TypedMemory& in, const char* on, const char* in_name) {
  if (overlaps(out.data, out.length * 8, in.data, in.length * 8))
    throw RangeErr(std::string(on) + " must not overlap " + in_name, "ValueError");
}

void need(const TypedMemory& m, int64_t n, const char* what) {
  if (static_cast<int64_t>(m.length) < n) throw RangeErr(std::string(what) + " needs at least " + std::to_string(n) + " values, has " + std::to_string(m.length));
}

void exact(const TypedMemory& m, int64_t n, const char* what) {
  if (static_cast<int64_t>(m.length) != n) throw RangeErr(std::string(what) + " must have length " + std::to_string(n) + ", got " + std::to_string(m.length));
}

/** Elements per chunk of the threaded loops and reductions (fixed: the bits do not depend on the thread count). */
constexpr int64_t kChunk = int64_t(1) << 15;
/**
 * Below this length the loops stay on the calling thread. Vectors of CG on
 * poisson2d(512) (2 MiB each) sit in the L3 cache and one of these passes takes
 * 40-80 µs: a second thread saves ~20 µs, but on a loaded machine the pool's
 * worker can be descheduled while holding a chunk and the caller then waits a
 * scheduler slice. Vectors of 8 MiB and more come from memory, where two
 * threads do pay.
 */
constexpr int64_t kParallelMin = int64_t(1) << 20;

/** Runs fn(b, e) over the chunks of [0, n): on the pool when long enough. Returns the chunk count. */
template <class F>
int64_t for_chunks(int64_t n, F&& fn) {
  const int64_t nch = (n + kChunk - 1) / kChunk;
  if (nch <= 1 || n < kParallelMin || Pool::instance().size() <= 1) {
    for (int64_t c = 0; c < nch; c++) fn(c, c * kChunk, std::min(n, (c + 1) * kChunk));
  } else {
    Pool::instance().parallelFor(nch, [&](int64_t c) { fn(c, c * kChunk, std::min(n, (c + 1) * kChunk)); });
  }
  return nch;
}

/** Σ of per-chunk partial sums, in chunk order. */
template <class F>
double reduce_chunks(int64_t n, F&& partial) {
  thread_local std::vector<double> part;
  part.assign(static_cast<size_t>((n + kChunk - 1) / kChunk), 0.0);  // allocate here: nothing may throw on the pool
  double* ps = part.data();
  for_chunks(n, [&](int64_t c, int64_t b, int64_t e) { ps[c] = partial(b, e); });
  double s = 0;
  for (double v : part) s += v;
  return s;
}

inline double lanes8(const double* l) { return ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7])); }

/** Σ x[i] y[i] in 8 lanes (element i to lane i % 8): independent accumulators, so it vectorizes without reassociation flags. */
RLX_VEC_CLONES double dot_chunk(const double* __restrict x, const double* __restrict y, int64_t n) {
  double l[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int k = 0; k < 8; k++) l[k] += x[i + k] * y[i + k];
  for (; i < n; i++) l[i & 7] += x[i] * y[i];
  return lanes8(l);
}

RLX_VEC_CLONES void axpy_chunk(int64_t n, double a, const double* __restrict x, double* __restrict y) {
  for (int64_t i = 0; i < n; i++) y[i] += a * x[i];
}

RLX_VEC_CLONES void xpby_chunk(int64_t n, const double* __restrict x, double b, double* __restrict y) {
  for (int64_t i = 0; i < n; i++) y[i] = x[i] + b * y[i];
}

/** x += a p; r -= a q; returns Σ r² (8 lanes, as dot_chunk). */
RLX_VEC_CLONES double cg_step_chunk(int64_t n, double a, const double* __restrict p, const double* __restrict q, double* __restrict x,
                                    double* __restrict r) {
  double l[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    for (int k = 0; k < 8; k++) {
      x[i + k] += a * p[i + k];
      const double rk = r[i + k] - a * q[i + k];
      r[i + k] = rk;
      l[k] += rk * rk;
    }
  }
  for (; i < n; i++) {
    x[i] += a * p[i];
    const double ri = r[i] - a * q[i];
    r[i] = ri;
    l[i & 7] += ri * ri;
  }
  return lanes8(l);
}

blas_int bi(int64_t v, const char* what) {
  if (v > static_cast<int64_t>(std::numeric_limits<blas_int>::max())) throw RangeErr(std::string(what) + " is too large for BLAS");
  return static_cast<blas_int>(v);
}

}  // namespace
}  // namespace rlx::sparse

RLX_REGISTER(sparse_vec) {
  using namespace rlx;
  using namespace rlx::sparse;
  export_fn(env, exports, "sparseVecDot", [](const Napi::CallbackInfo& info) -> Napi::Value {
    if (info.Length() != 2) throw TypeErr("expected (x, y)");
    const TypedMemory x = f64(info[0], "x"), y = f64(info[1], "y");
    same_len(x, y, "x", "y");
    const double* xd = static_cast<const double*>(x.data);
    const double* yd = static_cast<const double*>(y.data);
    const double s = reduce_chunks(static_cast<int64_t>(x.length), [&](int64_t b, int64_t e) { return dot_chunk(xd + b, yd + b, e - b); });
    return Napi::Number::New(info.Env(), s);
  });
  export_fn(env, exports, "sparseVecAxpy", [](const Napi::CallbackInfo& info) -> Napi::Value {
    if (info.Length() != 3) throw TypeErr("expected (a, x, y)");
    const double a = number(info[0], "a");
    const TypedMemory x = f64(info[1], "x"), y = f64(info[2], "y");
    same_len(x, y, "x", "y");
    no_overlap(y, x, "y", "x");
    const double* xd = static_cast<const double*>(x.data);
    double* yd = static_cast<double*>(y.data);
    for_chunks(static_cast<int64_t>(x.length), [&](int64_t, int64_t b, int64_t e) { axpy_chunk(e - b, a, xd + b, yd + b); });
    return info.Env().Undefined();
  });
  export_fn(env, exports, "sparseVecXpby", [](const Napi::CallbackInfo& info) -> Napi::Value {
    if (info.Length() != 3) throw TypeErr("expected (x, b, y)");
    const double b = number(info[1], "b");
    const TypedMemory x = f64(info[0], "x"), y = f64(info[2], "y");
    same_len(x, y, "x", "y");
    no_overlap(y, x, "y", "x");
    const double* xd = static_cast<const double*>(x.data);
    double* yd = static_cast<double*>(y.data);
    for_chunks(static_cast<int64_t>(x.length), [&](int64_t, int64_t lo, int64_t hi) { xpby_chunk(hi - lo, xd + lo, b, yd + lo); });
    return info.Env().Undefined();
  });
  export_fn(env, exports, "sparseVecCgStep", [](const Napi::CallbackInfo& info) -> Napi::Value {
    if (info.Length() != 5) throw TypeErr("expected (a, p, q, x, r)");
    const double a = number(info[0], "a");
    const TypedMemory p = f64(info[1], "p"), q = f64(info[2], "q"), x = f64(info[3], "x"), r = f64(info[4], "r");
    same_len(p, q, "p", "q"), same_len(p, x, "p", "x"), same_len(p, r, "p", "r");
    no_overlap(x, p, "x", "p"), no_overlap(x, q, "x", "q"), no_overlap(x, r, "x", "r");
    no_overlap(r, p, "r", "p"), no_overlap(r, q, "r", "q");
    const double* pd = static_cast<const double*>(p.data);
    const double* qd = static_cast<const double*>(q.data);
    double* xd = static_cast<double*>(x.data);
    double* rd = static_cast<double*>(r.data);
    const double s = reduce_chunks(static_cast<int64_t>(p.length), [&](int64_t b, int64_t e) { return cg_step_chunk(e - b, a, pd + b, qd + b, xd + b, rd + b); });
    return Napi::Number::New(info.Env(), s);
  });
  export_fn(env, exports, "sparseVecGemv", [](const Napi::CallbackInfo& info) -> Napi::Value {
    if (info.Length() != 8) throw TypeErr("expected (trans, rows, cols, A, x, y, alpha, beta)");
    const bool trans = as_bool(info[0], "trans", false);
    const int64_t rows = as_int(info[1], "rows", 0), cols = as_int(info[2], "cols", 0);
    const double alpha = number(info[6], "alpha"), beta = number(info[7], "beta");
    const TypedMemory A = f64(info[3], "A"), x = f64(info[4], "x"), y = f64(info[5], "y");
    need(A, rows * cols, "A");
    exact(x, trans ? rows : cols, "x");
    exact(y, trans ? cols : rows, "y");
    no_overlap(y, A, "y", "A"), no_overlap(y, x, "y", "x");
    const blas_int m = bi(rows, "rows"), n = bi(cols, "cols");
    if (m > 0 && n > 0) {
      std::shared_lock<std::shared_mutex> lock(blas_config_mutex());
      cblas_dgemv(CblasRowMajor, trans ? CblasTrans : CblasNoTrans, m, n, alpha, static_cast<const double*>(A.data), n,
                  static_cast<const double*>(x.data), 1, beta, static_cast<double*>(y.data), 1);
    } else if (y.length > 0) {
      double* yd = static_cast<double*>(y.data);
      for (size_t i = 0; i < y.length; i++) yd[i] = beta == 0 ? 0.0 : beta * yd[i];
    }
    return info.Env().Undefined();
  });
  export_fn(env, exports, "sparseVecGemmTN", [](const Napi::CallbackInfo& info) -> Napi::Value {
    if (info.Length() != 8) throw TypeErr("expected (rows, p, cols, S, A, C, alpha, beta)");
    const int64_t rows = as_int(info[0], "rows", 0), p = as_int(info[1], "p", 0), cols = as_int(info[2], "cols", 0);
    const double alpha = number(info[6], "alpha"), beta = number(info[7], "beta");
    const TypedMemory S = f64(info[3], "S"), A = f64(info[4], "A"), C = f64(info[5], "C");
    need(S, rows * p, "S"), need(A, rows * cols, "A"), need(C, p * cols, "C");
    no_overlap(C, S, "C", "S"), no_overlap(C, A, "C", "A");
    const blas_int m = bi(p, "p"), n = bi(cols, "cols"), k = bi(rows, "rows");
    if (m > 0 && n > 0) {
      if (k == 0) {
        double* cd = static_cast<double*>(C.data);
        for (int64_t i = 0; i < p * cols; i++) cd[i] = beta == 0 ? 0.0 : beta * cd[i];
      } else {
        std::shared_lock<std::shared_mutex> lock(blas_config_mutex());
        cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, m, n, k, alpha, static_cast<const double*>(S.data), m,
                    static_cast<const double*>(A.data), n, beta, static_cast<double*>(C.data), n);
      }
    }
    return info.Env().Undefined();
  });
}
