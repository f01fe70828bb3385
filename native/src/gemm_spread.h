// How the products of one GEMM (gemm.cc) are spread over threads.
//
// OpenBLAS 0.3.21 threads each call by itself, which for small models is
// not the best use of the threads (cblas_sgemm in C and through the addon,
// 2-core EPYC VM, old and new addon alternated in one process):
//   - a product of a few hundred thousand multiply-adds is slower on its two
//     threads than on one (the MLP's 128×10×256 logits: 13.6 µs on one
//     thread in C, 21 µs on two), as OpenBLAS goes parallel from 2^18 of them;
//   - a batch of small products (attention's per-head GEMMs) runs one
//     product at a time, each split over the threads with a sync per product:
//     384 products of 128×128×64 (MiniLM at batch 32) took 12.7 ms, 8.7 ms as
//     whole products on the pool's threads.
// So rlx decides per GEMM (spread_for): 'serial' runs a small product on one
// OpenBLAS thread; 'batch' hands whole products of a batch to the pool's
// threads (pool/pool.h), each a one-thread BLAS call; 'blas' (larger
// products, matrix-vector products, one thread configured) leaves
// OpenBLAS's own threading as it was. (Cutting one mid-size product into a
// block of C per pool thread was tried and dropped: OpenBLAS's own two
// threads were as fast or faster, 128×256×784 300-330 µs against 350-520.)
//
// OpenBLAS's thread count is global: the modes other than 'blas' run under
// the exclusive BLAS lock (blas.h's blas_config_mutex) with OpenBLAS set to
// one thread (blas.h's SerialBlas), restored afterwards. Concurrent BLAS calls from
// several threads with one OpenBLAS thread each are what NumPy's threaded
// users do; tests/native/gemm-spread.test.ts checks the results.
#pragma once

#include <cstdint>

#include "blas.h"
#include "gemm.h"

namespace rlx {

enum class Spread { blas, serial, batch };

/** Below this many multiply-adds a product runs on one thread. */
constexpr double kSerialMacs = 2097152;  // 2^21
/** Products of a batch of at least 4 per thread up to this size run one per pool task. */
constexpr double kBatchMaxMacs = 16777216;  // 2^24

struct SpreadPlan {
  Spread mode = Spread::blas;
};

/** How a GEMM of `count` products shaped like `pl`'s runs with `threads` threads (the pool's size). */
inline SpreadPlan spread_for(const GemmPlan& pl, int64_t count, int threads) {
  SpreadPlan s;
  // Matrix-vector products keep their own threading (gemm_blas.h's matvec: rlx's gemv on the pool, or
  // OpenBLAS's gemv; an ODE's A·y: 2 threads are ~1.7× faster there).
  if (threads <= 1 || count < 1 || pl.m <= 1 || pl.n <= 1 || pl.k == 0) return s;
  const double macs = static_cast<double>(pl.m) * static_cast<double>(pl.n) * static_cast<double>(pl.k);
  if (count > 1) {
    // Small products: whole ones per thread beat OpenBLAS's per-product sync. Larger ones only
    // when there are enough to balance (3 products on 2 threads would leave one idle a third).
    if (macs < kSerialMacs || (count >= 4 * threads && macs <= kBatchMaxMacs)) s.mode = Spread::batch;
    return s;
  }
  if (macs < kSerialMacs) s.mode = Spread::serial;
  return s;
}

}  // namespace rlx
