// How the products of one GEMM (gemm.cc) are spread over threads.
//
// OpenBLAS 0.3.21 threads each call by itself, and for the products of small
// models it does that badly (measured with cblas_sgemm in C, 2-core EPYC VM):
//   - a product of a few hundred thousand multiply-adds is slower on its two
//     threads than on one (the MLP's 128×10×256 logits: 13.6 µs on one
//     thread, 21 µs on two), since OpenBLAS goes parallel from 2^18 of them;
//   - a mid-size product with a short side is not sped up at all (the
//     Fashion-MNIST MLP's 128×256×784 forward: 550 µs on one thread or two),
//     and its threads then spin in sched_yield while rlx's own kernels run;
//   - a batch of small products (attention's per-head GEMMs) runs one
//     product at a time, each split over threads.
// So rlx decides per GEMM (spread_for): 'serial' runs a small product on one
// OpenBLAS thread; 'split' cuts C into one block of rows or columns per pool
// thread (rlx's pool, pool/pool.h), each block a one-thread BLAS call;
// 'batch' hands whole products of a batch to the pool's threads; 'blas'
// (large products, matrix-vector products, one thread configured) leaves
// OpenBLAS's own threading as it was. Every product computes each element of
// C by one BLAS kernel call over the full k, so a split changes no result
// beyond the kernel choice OpenBLAS makes for the block's size.
//
// OpenBLAS's thread count is global: the modes other than 'blas' run under
// the exclusive BLAS lock (blas.h's blas_config_mutex) with OpenBLAS set to
// one thread (SerialBlas), restored afterwards. Concurrent BLAS calls from
// several threads with one OpenBLAS thread each are what NumPy's threaded
// users do; tests/native/gemm-spread.test.ts checks the results.
#pragma once

#include <algorithm>
#include <cstdint>

#include "blas.h"
#include "gemm.h"
#include "gemm_blas.h"
#include "pool/pool.h"

namespace rlx {

enum class Spread { blas, serial, split, batch };

/** Below this many multiply-adds a product runs on one thread. */
constexpr double kSerialMacs = 2097152;  // 2^21
/** Up to this many a single product is split by rlx; above, OpenBLAS threads it (it packs once for all threads). */
constexpr double kSplitMaxMacs = 134217728;  // 2^27
/** Products of a batch up to this size run one per pool task. */
constexpr double kBatchMaxMacs = 16777216;  // 2^24
/** A split block has at least this many rows (or columns), a multiple of it. */
constexpr int64_t kSplitQuantum = 16;

struct SpreadPlan {
  Spread mode = Spread::blas;
  int parts = 1;           // split: blocks of C
  bool split_rows = true;  // split: blocks of rows of C (else of columns)
};

/** How a GEMM of `count` products shaped like `pl`'s runs with `threads` threads (the pool's size). */
inline SpreadPlan spread_for(const GemmPlan& pl, int64_t count, int threads) {
  SpreadPlan s;
  // Matrix-vector products keep OpenBLAS's gemv threading (an ODE's A·y: 2 threads are ~1.7× faster there).
  if (threads <= 1 || count < 1 || pl.m <= 1 || pl.n <= 1 || pl.k == 0) return s;
  const double macs = static_cast<double>(pl.m) * static_cast<double>(pl.n) * static_cast<double>(pl.k);
  if (count > 1) {
    if (macs <= kBatchMaxMacs) s.mode = Spread::batch;
    return s;
  }
  if (macs < kSerialMacs) {
    s.mode = Spread::serial;
    return s;
  }
  if (macs > kSplitMaxMacs) return s;
  s.split_rows = pl.m >= pl.n;
  const int64_t side = s.split_rows ? pl.m : pl.n;
  s.parts = static_cast<int>(std::min<int64_t>(threads, side / kSplitQuantum));
  if (s.parts >= 2) s.mode = Spread::split;
  return s;
}

/**
 * OpenBLAS on one thread for its lifetime (the previous count restored
 * after). Hold blas_config_mutex() exclusively around it.
 */
class SerialBlas {
 public:
  SerialBlas() : saved_(openblas_get_num_threads()) {
    if (saved_ != 1) openblas_set_num_threads(1);
  }
  ~SerialBlas() {
    if (saved_ != 1) openblas_set_num_threads(saved_);
  }
  SerialBlas(const SerialBlas&) = delete;
  SerialBlas& operator=(const SerialBlas&) = delete;

 private:
  int saved_;
};

/**
 * One product (product()'s arguments) as `parts` blocks of rows or columns of
 * C on the pool, each a one-thread BLAS call. In row-major order row i of C
 * starts at c + i·ldc and row i of op(A) at a + i·lda (untransposed) or a + i
 * (transposed); column j of C at c + j and of op(B) at b + j (untransposed)
 * or b + j·ldb (transposed); column-major swaps the two.
 */
template <class T>
void split_product(CBLAS_ORDER o, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blas_int m, blas_int n, blas_int k, const T* a, blas_int lda,
                   const T* b, blas_int ldb, T* c, blas_int ldc, const SpreadPlan& s) {
  const bool row = o == CblasRowMajor;
  const bool a_trans = ta == CblasTrans || ta == CblasConjTrans, b_trans = tb == CblasTrans || tb == CblasConjTrans;
  const int64_t side = s.split_rows ? m : n;
  // Equal blocks, rounded up to the quantum (the last one takes the rest).
  const int64_t per = ((side + s.parts - 1) / s.parts + kSplitQuantum - 1) / kSplitQuantum * kSplitQuantum;
  const int64_t blocks = (side + per - 1) / per;
  Pool::instance().parallelFor(blocks, [&](int64_t t) {
    const int64_t lo = t * per, len = std::min<int64_t>(per, side - lo);
    if (s.split_rows) {
      const T* ap = a + (row != a_trans ? lo * lda : lo);
      T* cp = c + (row ? lo * ldc : lo);
      product<T>(o, ta, tb, static_cast<blas_int>(len), n, k, ap, lda, b, ldb, cp, ldc);
    } else {
      const T* bp = b + (row == b_trans ? lo * ldb : lo);
      T* cp = c + (row ? lo : lo * ldc);
      product<T>(o, ta, tb, m, static_cast<blas_int>(len), k, a, lda, bp, ldb, cp, ldc);
    }
  });
}

}  // namespace rlx
