// rlx's own matrix-vector product (gemv.h says why and what it guarantees).

#include "gemv.h"

#include <algorithm>
#include <cstring>

#include "pool/pool.h"

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define RLX_GEMV_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define RLX_GEMV_CLONES
#endif

namespace rlx {
namespace {

// 32-byte lanes of T: one AVX register in the AVX2 clone, two SSE2 halves in the baseline one.
template <class T>
struct Lanes;
template <>
struct Lanes<double> {
  typedef double V __attribute__((vector_size(32)));
  static constexpr int n = 4;
};
template <>
struct Lanes<float> {
  typedef float V __attribute__((vector_size(32)));
  static constexpr int n = 8;
};

// Inlined into the clones (a call would run the baseline code in the AVX2 clone).
#define RLX_GEMV_INLINE inline __attribute__((always_inline))

/** The lanes of v summed in a fixed tree (halves added until one is left). */
template <class T>
RLX_GEMV_INLINE T lane_sum(const typename Lanes<T>::V& v) {
  T s[Lanes<T>::n];
  std::memcpy(s, &v, sizeof v);
  for (int w = Lanes<T>::n / 2; w >= 1; w /= 2)
    for (int i = 0; i < w; i++) s[i] = s[i] + s[i + w];
  return s[0];
}

// (By reference: a 32-byte vector returned by value would change the baseline clone's ABI.)
template <class T>
RLX_GEMV_INLINE void load(typename Lanes<T>::V& v, const T* p) {
  std::memcpy(&v, p, sizeof v);
}

/** R consecutive rows of y: each row's lane sums over two column blocks a step, then its lane tree, then its tail in order. */
template <class T, int R>
RLX_GEMV_INLINE void dot_rows(const T* a, int64_t lda, const T* x, int64_t cols, T* y) {
  using V = typename Lanes<T>::V;
  constexpr int L = Lanes<T>::n;
  V s[R];
  for (int r = 0; r < R; r++) s[r] = V{};
  int64_t j = 0;
  V x0, x1, a0, a1;
  for (; j + 2 * L <= cols; j += 2 * L) {
    load<T>(x0, x + j);
    load<T>(x1, x + j + L);
    for (int r = 0; r < R; r++) {
      load<T>(a0, a + r * lda + j);
      load<T>(a1, a + r * lda + j + L);
      s[r] += a0 * x0;
      s[r] += a1 * x1;
    }
  }
  if (j + L <= cols) {
    load<T>(x0, x + j);
    for (int r = 0; r < R; r++) {
      load<T>(a0, a + r * lda + j);
      s[r] += a0 * x0;
    }
    j += L;
  }
  for (int r = 0; r < R; r++) {
    T t = lane_sum<T>(s[r]);
    for (int64_t k = j; k < cols; k++) t += a[r * lda + k] * x[k];
    y[r] = t;
  }
}

template <class T>
RLX_GEMV_CLONES void rows_range(int64_t begin, int64_t end, int64_t cols, const T* a, int64_t lda, const T* x, T* y) {
  int64_t i = begin;
  for (; i + 8 <= end; i += 8) dot_rows<T, 8>(a + i * lda, lda, x, cols, y + i);
  for (; i < end; i++) dot_rows<T, 1>(a + i * lda, lda, x, cols, y + i);
}

// Below this many multiply-adds a product stays on the calling thread (a few
// µs on one core; from here two threads were faster: 256x256 doubles 4.6 µs
// against 6.7 on one).
constexpr int64_t kParallelMacs = int64_t(1) << 15;

}  // namespace

template <class T>
void gemv_rows(int64_t rows, int64_t cols, const T* a, int64_t lda, const T* x, T* y) {
  if (rows <= 0) return;
  Pool& pool = Pool::instance();
  const int64_t threads = pool.size();
  if (threads <= 1 || rows * cols < kParallelMacs) {
    rows_range<T>(0, rows, cols, a, lda, x, y);
    return;
  }
  // Blocks of whole rows (multiples of 8), about eight a thread, taken as the
  // threads come: a thread that starts late (a worker still seeing the job,
  // or preempted) leaves the blocks it has not taken to the others.
  const int64_t block = std::max<int64_t>(8, (rows / (threads * 8) + 7) & ~int64_t(7));
  const int64_t tasks = (rows + block - 1) / block;
  pool.parallelFor(tasks, [&](int64_t t) { rows_range<T>(t * block, std::min(rows, (t + 1) * block), cols, a, lda, x, y); });
}

template void gemv_rows<float>(int64_t, int64_t, const float*, int64_t, const float*, float*);
template void gemv_rows<double>(int64_t, int64_t, const double*, int64_t, const double*, double*);

}  // namespace rlx
