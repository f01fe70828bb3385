// CSR sparse matrix products on the addon's thread pool (interp/pool.h):
//
//   sparseSpmv (dtype, rows, cols, indptr, indices, data, check, x, y, aRe, aIm, bRe, bIm)
//       y[rows]    = alpha · A x + beta · y          (spmv_gather.cc)
//   sparseSpmm (dtype, rows, cols, indptr, indices, data, check, X, k, Y, aRe, aIm, bRe, bIm)
//       Y[rows, k] = alpha · A X + beta · Y        (X [cols, k], Y row-major)
//   sparseSpmvH(dtype, rows, cols, indptr, indices, data, check, x, y, aRe, aIm, bRe, bIm)
//       y[cols]    = alpha · Aᴴ x + beta · y      (Aᵀ for real dtypes)
//
// Each returns y / Y (written in place). Values: Float32Array for float32 and
// complex64, Float64Array otherwise, complex interleaved; every product
// accumulates in double and rounds once into the output. beta = 0 ignores the
// output's old contents (NaN there does not propagate), as in BLAS.
//
// Checks: dtype, every length (x, y exactly; indices/data at least nnz),
// indptr (indptr[0] = 0, non-decreasing, indptr[rows] <= indices.length: O(rows))
// and that the output overlaps no input. The column-index range check is O(nnz);
// `check` (products.h) says when it runs. `true` (skip) is for matrices the TS
// side checked itself when they were built (src/backends/native/sparse.ts): a
// caller that skips with bad indices gets undefined results (out-of-bounds
// reads; for spmvH, writes), so only the TS wrapper, which owns that promise,
// should ever do it. spmm and spmvH scan before the product unless skipped.
//
// Threads (spmm, spmvH): rows are split into contiguous ranges of equal
// (nonzeros + rows), found by binary search in indptr, one range per pool
// thread; below kMinWorkPerThread units of work per thread fewer threads are
// used, and small products run on the calling thread without touching the pool.
// Each row of Y is computed by one thread in a fixed order, so spmm results do
// not depend on the thread count. spmvH scatters: serially into one buffer of
// length cols, or, when nnz >= 16·cols, each thread into a private buffer, then
// the buffers are summed by column ranges (the summation order, hence the last
// bits, then depends on the thread count).
#include <napi.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "args.h"
#include "binding/kernel.h"
#include "errors.h"
#include "pool/pool.h"
#include "register.h"
#include "sparse/csr.h"
#include "sparse/products.h"

namespace rlx::sparse {

// ---- shared with spmv_gather.cc (products.h) --------------------------------------

int64_t parts_for(int64_t work, int64_t max_parts) {
  const int64_t t = Pool::instance().size();
  int64_t p = std::min<int64_t>(t, work / kMinWorkPerThread);
  p = std::min(p, max_parts);
  return p < 1 ? 1 : p;
}

std::vector<int64_t> partition_rows(const int32_t* ip, int64_t rows, int64_t parts) {
  std::vector<int64_t> b(parts + 1);
  b[0] = 0;
  b[parts] = rows;
  const int64_t total = static_cast<int64_t>(ip[rows]) + rows;
  for (int64_t t = 1; t < parts; t++) {
    const int64_t target = total * t / parts;
    int64_t lo = b[t - 1], hi = rows;  // smallest r in [lo, hi] with ip[r] + r >= target
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (static_cast<int64_t>(ip[mid]) + mid >= target) hi = mid;
      else lo = mid + 1;
    }
    b[t] = lo;
  }
  return b;
}

double num(const Napi::Value& v, const char* what) {
  if (!v.IsNumber()) throw TypeErr(std::string(what) + " must be a number, got " + describe(v));
  return v.As<Napi::Number>().DoubleValue();
}

// The caller's "validated" (true/1) is not trusted: JS can write an index array at
// any time, and a wrong index here is an out-of-bounds read (found by the boundary
// fuzz). It checks before the product, as false/0 does; 2 checks inside the loop.
IndexCheck read_check(const Napi::Value& v) {
  if (v.IsBoolean()) return IndexCheck::before;
  const int64_t m = as_int(v, "check (false/0: before, true/1: before as well, 2: during)", 0, 2);
  return m == 2 ? IndexCheck::during : IndexCheck::before;
}

Products read_products(const Napi::CallbackInfo& info, bool spmm) {
  const size_t want = spmm ? 14 : 13;
  if (info.Length() != want) throw TypeErr("expected " + std::to_string(want) + " arguments, got " + std::to_string(info.Length()));
  Products p;
  p.check = read_check(info[6]);
  size_t at = 7;
  const Napi::Value xv = info[at++];
  if (spmm) p.k = as_int(info[at++], "k", 0, 2147483647);
  const Napi::Value yv = info[at++];
  p.alpha.re = num(info[at++], "alphaRe"), p.alpha.im = num(info[at++], "alphaIm");
  p.beta.re = num(info[at++], "betaRe"), p.beta.im = num(info[at++], "betaIm");
  // Memory last: nothing runs JS between taking the pointers and the product.
  p.a = read_csr(info, 0, false);
  const napi_typedarray_type st = storage_of(p.a.dtype);
  p.x = as_typed(xv, spmm ? "X" : "x", st);
  p.y = as_typed(yv, spmm ? "Y" : "y", st);
  if (!is_cplx(p.a.dtype) && (p.alpha.im != 0 || p.beta.im != 0)) throw TypeErr("alpha and beta must be real for a real dtype");
  return p;
}

void check_len(const TypedMemory& m, const char* what, int64_t want, const char* expl) {
  if (static_cast<int64_t>(m.length) != want)
    throw RangeErr(std::string(what) + " must have length " + std::to_string(want) + " (" + expl + "), got " + std::to_string(m.length));
}

void check_no_overlap(const Products& p) {
  const size_t es = is_single(p.a.dtype) ? 4 : 8;
  const size_t per = per_elem(p.a.dtype);
  const size_t yb = p.y.length * es;
  if (overlaps(p.y.data, yb, p.x.data, p.x.length * es) || overlaps(p.y.data, yb, p.a.data, p.a.nnz * per * es) ||
      overlaps(p.y.data, yb, p.a.indices, p.a.nnz * 4) || overlaps(p.y.data, yb, p.a.indptr, (p.a.rows + 1) * 4))
    throw RangeErr("the output array overlaps an input (x or the matrix arrays)", "ValueError");
}

namespace {

// ---- Y = alpha A X + beta Y (X [cols, k], Y [rows, k]) ------------------------

template <class T, bool C>
void spmm_rows(const Csr& a, const T* X, T* Y, int64_t k, int64_t r0, int64_t r1, Scal al, Scal be, double* acc) {
  const T* v = static_cast<const T*>(a.data);
  const int32_t* ip = a.indptr;
  const int32_t* ix = a.indices;
  constexpr int P = C ? 2 : 1;
  const bool beta0 = be.re == 0 && be.im == 0;
  for (int64_t r = r0; r < r1; r++) {
    std::fill(acc, acc + P * k, 0.0);
    for (int32_t q = ip[r], e = ip[r + 1]; q < e; q++) {
      const T* xr = X + static_cast<int64_t>(ix[q]) * k * P;
      if constexpr (!C) {
        const double av = v[q];
        for (int64_t c = 0; c < k; c++) acc[c] += av * static_cast<double>(xr[c]);
      } else {
        const double ar = v[2 * q], ai = v[2 * q + 1];
        for (int64_t c = 0; c < k; c++) {
          const double br = xr[2 * c], bi = xr[2 * c + 1];
          acc[2 * c] += ar * br - ai * bi;
          acc[2 * c + 1] += ar * bi + ai * br;
        }
      }
    }
    T* yr = Y + r * k * P;
    for (int64_t c = 0; c < k; c++) {
      if constexpr (!C) {
        yr[c] = static_cast<T>(beta0 ? al.re * acc[c] : al.re * acc[c] + be.re * static_cast<double>(yr[c]));
      } else {
        const double sr = acc[2 * c], si = acc[2 * c + 1];
        double o_r = al.re * sr - al.im * si, o_i = al.re * si + al.im * sr;
        if (!beta0) {
          const double oy = yr[2 * c], oyi = yr[2 * c + 1];
          o_r += be.re * oy - be.im * oyi;
          o_i += be.re * oyi + be.im * oy;
        }
        yr[2 * c] = static_cast<T>(o_r);
        yr[2 * c + 1] = static_cast<T>(o_i);
      }
    }
  }
}

// ---- y = alpha Aᴴ x + beta y (scatter) ---------------------------------------

template <class T, bool C>
void spmvh_scatter(const Csr& a, const T* x, int64_t r0, int64_t r1, double* acc) {
  const T* v = static_cast<const T*>(a.data);
  const int32_t* ip = a.indptr;
  const int32_t* ix = a.indices;
  for (int64_t r = r0; r < r1; r++) {
    if constexpr (!C) {
      const double xv = x[r];
      for (int32_t k = ip[r], e = ip[r + 1]; k < e; k++) acc[ix[k]] += static_cast<double>(v[k]) * xv;
    } else {
      const double xr = x[2 * r], xi = x[2 * r + 1];
      for (int32_t k = ip[r], e = ip[r + 1]; k < e; k++) {
        const double ar = v[2 * k], ai = v[2 * k + 1];  // conj(a) · x
        acc[2 * ix[k]] += ar * xr + ai * xi;
        acc[2 * ix[k] + 1] += ar * xi - ai * xr;
      }
    }
  }
}

template <class T, bool C>
void spmvh_finish(const std::vector<std::vector<double>>& acc, T* y, int64_t c0, int64_t c1, Scal al, Scal be) {
  const bool beta0 = be.re == 0 && be.im == 0;
  for (int64_t j = c0; j < c1; j++) {
    if constexpr (!C) {
      double s = 0;
      for (const auto& b : acc) s += b[j];
      y[j] = static_cast<T>(beta0 ? al.re * s : al.re * s + be.re * static_cast<double>(y[j]));
    } else {
      double sr = 0, si = 0;
      for (const auto& b : acc) sr += b[2 * j], si += b[2 * j + 1];
      double o_r = al.re * sr - al.im * si, o_i = al.re * si + al.im * sr;
      if (!beta0) {
        const double oy = y[2 * j], oyi = y[2 * j + 1];
        o_r += be.re * oy - be.im * oyi;
        o_i += be.re * oyi + be.im * oy;
      }
      y[2 * j] = static_cast<T>(o_r);
      y[2 * j + 1] = static_cast<T>(o_i);
    }
  }
}

template <class T, bool C>
void run_spmm(const Products& p) {
  const Csr& a = p.a;
  const int64_t per = C ? 2 : 1;
  const auto b = partition_rows(a.indptr, a.rows, parts_for((a.nnz + a.rows) * std::max<int64_t>(p.k, 1), a.rows));
  const int64_t parts = static_cast<int64_t>(b.size()) - 1;
  std::vector<double> acc(static_cast<size_t>(parts * per * p.k));
  const T* X = static_cast<const T*>(p.x.data);
  T* Y = static_cast<T*>(p.y.data);
  for_row_parts(b, [&](int64_t t, int64_t r0, int64_t r1) { spmm_rows<T, C>(a, X, Y, p.k, r0, r1, p.alpha, p.beta, acc.data() + t * per * p.k); });
}

template <class T, bool C>
void run_spmvh(const Products& p) {
  const Csr& a = p.a;
  const int64_t per = C ? 2 : 1;
  // Private accumulators cost parts · cols to clear and sum: only worth it when
  // the scatter (nnz) dominates. Measured on poisson2d(1024) (nnz = 5·cols, 2
  // threads on a 2-core VM): serial 5.9-6.1 ms, private accumulators 6.5-6.7 ms,
  // so the threaded scatter is used only from nnz >= 16·cols on.
  int64_t parts = parts_for(a.nnz + a.rows, a.rows);
  if (parts > 1 && a.nnz < 16 * a.cols) parts = 1;
  const auto b = partition_rows(a.indptr, a.rows, parts);
  // Scratch kept on the calling thread between calls (fresh large allocations
  // page-fault on every call); dropped when it would pin more than 64 MiB.
  thread_local std::vector<std::vector<double>> scratch;
  std::vector<std::vector<double>>& acc = scratch;
  acc.resize(static_cast<size_t>(parts));
  for (auto& v : acc) v.resize(static_cast<size_t>(a.cols * per));  // allocate here: nothing may throw on the pool
  const T* x = static_cast<const T*>(p.x.data);
  T* y = static_cast<T*>(p.y.data);
  for_row_parts(b, [&](int64_t t, int64_t r0, int64_t r1) {
    std::fill(acc[t].begin(), acc[t].end(), 0.0);  // cleared by the thread that fills it (first touch)
    spmvh_scatter<T, C>(a, x, r0, r1, acc[t].data());
  });
  const int64_t cparts = parts_for(a.cols * parts, a.cols);
  if (cparts == 1) {
    spmvh_finish<T, C>(acc, y, 0, a.cols, p.alpha, p.beta);
  } else {
    Pool::instance().parallelFor(
        cparts, [&](int64_t t) { spmvh_finish<T, C>(acc, y, a.cols * t / cparts, a.cols * (t + 1) / cparts, p.alpha, p.beta); });
  }
  size_t kept = 0;
  for (const auto& v : acc) kept += v.capacity() * sizeof(double);
  if (kept > (size_t(64) << 20)) std::vector<std::vector<double>>().swap(acc);
}

}  // namespace
}  // namespace rlx::sparse

RLX_REGISTER(sparse_products) {
  using namespace rlx;
  using namespace rlx::sparse;
  // sparseSpmm / sparseSpmmAsync and sparseSpmvH / sparseSpmvHAsync (binding/kernel.h):
  // the index check (unless skipped) runs with the product, before any output is written.
  struct ProductJob {
    Products p;
    bool spmm;
    size_t y_index;
    void run() {
      if (p.check != IndexCheck::skip) check_indices(p.a);
      switch (p.a.dtype) {
        case SDType::f32: spmm ? run_spmm<float, false>(p) : run_spmvh<float, false>(p); break;
        case SDType::f64: spmm ? run_spmm<double, false>(p) : run_spmvh<double, false>(p); break;
        case SDType::c64: spmm ? run_spmm<float, true>(p) : run_spmvh<float, true>(p); break;
        case SDType::c128: spmm ? run_spmm<double, true>(p) : run_spmvh<double, true>(p); break;
      }
    }
    Napi::Value result(Napi::Env env, Pins& pins) { return pins.value(env, y_index); }
  };
  // x at argument ix, y at iy; pinned (private copies) for an async call.
  auto pin = [](Products& p, const Napi::CallbackInfo& info, size_t ix, size_t iy, Pins& pins) {
    if (pins.async()) {
      const size_t es = is_single(p.a.dtype) ? 4 : 8;
      pin_csr(p.a, info, 0, pins);
      p.x.data = const_cast<void*>(pins.input(info[ix], p.x.data, p.x.length * es));
      p.y.data = pins.output(info[iy], p.y.data, p.y.length * es, iy == 9 ? "Y" : "y");
    }
    return pins.keep(info[iy]);
  };
  export_kernel(env, exports, "sparseSpmm", [pin](const Napi::CallbackInfo& info, Pins& pins) -> ProductJob {
    Products p = read_products(info, true);
    const int64_t per = per_elem(p.a.dtype);
    check_len(p.x, "X", p.a.cols * p.k * per, "cols * k, times 2 for complex");
    check_len(p.y, "Y", p.a.rows * p.k * per, "rows * k, times 2 for complex");
    check_no_overlap(p);
    const size_t yi = pin(p, info, 7, 9, pins);
    return ProductJob{std::move(p), true, yi};
  });
  export_kernel(env, exports, "sparseSpmvH", [pin](const Napi::CallbackInfo& info, Pins& pins) -> ProductJob {
    Products p = read_products(info, false);
    const int64_t per = per_elem(p.a.dtype);
    check_len(p.x, "x", p.a.rows * per, "rows, times 2 for complex");
    check_len(p.y, "y", p.a.cols * per, "cols, times 2 for complex");
    check_no_overlap(p);
    const size_t yi = pin(p, info, 7, 8, pins);
    return ProductJob{std::move(p), false, yi};
  });
}
