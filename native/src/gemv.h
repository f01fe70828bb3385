// rlx's own matrix-vector product for real matrices whose rows (of op(A))
// are contiguous: y = op(A)·x, the A·y of an ODE right-hand side or a
// batch-1 Linear layer. gemm_blas.h's matvec() sends such products here
// instead of to cblas_?gemv.
//
// Why not OpenBLAS's: the product is bound by how fast the caches deliver
// the matrix (8 MB a call at 1000x1000 doubles, from L3 on the 2-core EPYC
// VM), and eight rows at a time against two column blocks of x reach it
// better than OpenBLAS 0.3.21's dgemv_t (its SKYLAKEX kernel here): 1000x1000
// float64 through the addon 50.8-52.2 µs a call against 55.5-58.3 (medians of
// 20000, processes alternated), 52-54 against 57-59 inside integrate.solveIvp
// (RK45, 1124 products a solve: the benchmark's solve 78.6-80.2 -> 70.4-71.5
// ms); 1800² to 3000² doubles and 4096² floats as fast or faster. Products
// with few rows stay with BLAS (kGemvMinRows). It runs on rlx's pool, whose
// threads setNumThreads sets too. (In a process's first ~100 ms, while V8's
// startup work holds a core, a call can take 2-4x its steady time.)
//
// Determinism: every row is summed by one code path (lanes of 32 bytes, two
// column blocks a step, the lanes combined in a fixed tree, then the tail in
// order), whether it falls in a group of eight rows or alone, and threads
// take whole rows: y's bits do not depend on the thread count, nor on the
// AVX2 or baseline clone (no FMA: -ffp-contract=off).
#pragma once

#include <cstdint>

namespace rlx {

/**
 * y[i] = Σ_j a[i·lda + j]·x[j] for i < rows, j < cols: x and y contiguous, y
 * not overlapping a or x. Float and double.
 */
/** Products with fewer rows than this stay with BLAS (gemm_blas.h's matvec says why). */
constexpr int64_t kGemvMinRows = 32;

template <class T>
void gemv_rows(int64_t rows, int64_t cols, const T* a, int64_t lda, const T* x, T* y);

}  // namespace rlx
