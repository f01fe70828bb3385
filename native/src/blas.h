// The BLAS/LAPACK headers in one place, plus the OpenBLAS extras we call.
// On Debian the cblas.h found first may be the alternatives link; OpenBLAS's
// own functions are declared here so that any cblas.h works.
#pragma once

#include <cblas.h>

#include <shared_mutex>

extern "C" {
void openblas_set_num_threads(int num_threads);
int openblas_get_num_threads(void);
int openblas_get_num_procs(void);
char* openblas_get_config(void);
char* openblas_get_corename(void);
int openblas_get_parallel(void);
}

namespace rlx {
/**
 * Held shared by every BLAS computation (main thread or libuv pool) and
 * exclusively by setNumThreads: OpenBLAS must not change its thread count
 * while a call is running in another thread.
 */
std::shared_mutex& blas_config_mutex();

/** BLAS's integer type: sizes and leading dimensions must fit in it. */
#if defined(OPENBLAS_VERSION)
using blas_int = blasint;
#else
using blas_int = int;
#endif

/**
 * OpenBLAS's cblas accepts CblasConjNoTrans (conj(A) without transposing);
 * the reference CBLAS does not, and there a conjugated untransposed operand
 * is copied with the conjugation applied.
 */
#if defined(OPENBLAS_VERSION)
constexpr bool kBlasHasConjNoTrans = true;
constexpr CBLAS_TRANSPOSE kConjNoTrans = CblasConjNoTrans;
#else
constexpr bool kBlasHasConjNoTrans = false;
constexpr CBLAS_TRANSPOSE kConjNoTrans = CblasNoTrans;
#endif

/**
 * OpenBLAS on one thread for this object's lifetime, the previous count
 * restored after: for calls too small to gain from OpenBLAS's threads (small
 * GEMMs: gemm_spread.h; small LUs: lapack/det_inv.cc) or run on rlx's own
 * threads. The count is global, so hold blas_config_mutex() exclusively
 * around it (no BLAS call runs on another thread meanwhile).
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
}  // namespace rlx
