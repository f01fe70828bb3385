// The data-movement kernels (see opaque.h).
#include "opaque.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "pool/pool.h"

namespace rlx::opaque {
namespace {

std::atomic<int64_t> g_threshold{int64_t(1) << 20};

/**
 * Runs fn(r0, r1, c0, c1) over rows [0, rows) x columns [0, cols), where one
 * cell costs about cell_bytes of memory traffic: on the calling thread when
 * the total is small, else split over the pool into row ranges (whole rows)
 * or, when rows are few and long, into single rows cut into column ranges.
 */
template <class F>
void for_rows(int64_t rows, int64_t cols, double cell_bytes, F&& fn) {
  if (rows <= 0 || cols <= 0) return;
  Pool& pool = Pool::instance();
  const int64_t T = pool.size();
  const double total = static_cast<double>(rows) * static_cast<double>(cols) * cell_bytes;
  if (T <= 1 || total < static_cast<double>(g_threshold.load(std::memory_order_relaxed))) {
    fn(int64_t(0), rows, int64_t(0), cols);
    return;
  }
  const int64_t want = T * 4;  // tasks: a few per thread, so uneven ones balance
  const double per_task = total / static_cast<double>(want);
  const double row_bytes = static_cast<double>(cols) * cell_bytes;
  if (rows >= want || row_bytes <= per_task) {
    const int64_t n = std::min(rows, want);
    const int64_t per = (rows + n - 1) / n;
    pool.parallelFor(n, [&](int64_t t) {
      const int64_t r0 = t * per, r1 = std::min(rows, r0 + per);
      if (r0 < r1) fn(r0, r1, int64_t(0), cols);
    });
    return;
  }
  int64_t chunks = std::min<int64_t>(cols, static_cast<int64_t>(row_bytes / per_task) + 1);
  const int64_t cper = (cols + chunks - 1) / chunks;
  chunks = (cols + cper - 1) / cper;
  pool.parallelFor(rows * chunks, [&](int64_t u) {
    const int64_t r = u / chunks, c0 = (u % chunks) * cper;
    fn(r, r + 1, c0, std::min(cols, c0 + cper));
  });
}

inline int64_t norm_index(int32_t i, int64_t n) { return i < 0 ? i + n : i; }

// Sums at the storage type (see opaque.h).
inline double add(double a, double b) { return a + b; }
inline float add(float a, float b) { return a + b; }
inline int32_t add(int32_t a, int32_t b) { return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b)); }
inline uint16_t add(uint16_t a, uint16_t b) { return static_cast<uint16_t>(a + b); }
inline uint8_t add(uint8_t a, uint8_t b) { return static_cast<uint8_t>(a + b); }

template <class T>
void cumsum_t(const T* x, T* out, int64_t outer, int64_t n, int64_t inner) {
  for_rows(outer, inner, static_cast<double>(n) * 2 * sizeof(T), [&](int64_t o0, int64_t o1, int64_t c0, int64_t c1) {
    for (int64_t o = o0; o < o1; o++) {
      const T* xs = x + o * n * inner;
      T* os = out + o * n * inner;
      if (n == 0) continue;
      // The js kernel starts each running sum at 0 (so -0.0 becomes +0.0).
      for (int64_t c = c0; c < c1; c++) os[c] = add(T(0), xs[c]);
      for (int64_t i = 1; i < n; i++) {
        const T* xi = xs + i * inner;
        const T* prev = os + (i - 1) * inner;
        T* oi = os + i * inner;
        for (int64_t c = c0; c < c1; c++) oi[c] = add(prev[c], xi[c]);
      }
    }
  });
}

template <class T>
void scatter_add_t(const T* x, const int32_t* idx, int64_t m, const T* upd, T* out, int64_t outer, int64_t n, int64_t inner, bool to_bool) {
  const double cell = static_cast<double>(2 * n + m) * sizeof(T);
  for_rows(outer, inner, cell, [&](int64_t o0, int64_t o1, int64_t c0, int64_t c1) {
    const size_t w = static_cast<size_t>(c1 - c0) * sizeof(T);
    for (int64_t o = o0; o < o1; o++) {
      T* os = out + o * n * inner;
      if (x != out)
        for (int64_t i = 0; i < n; i++) std::memcpy(os + i * inner + c0, x + (o * n + i) * inner + c0, w);
      for (int64_t j = 0; j < m; j++) {
        T* d = os + norm_index(idx[j], n) * inner;
        const T* s = upd + (o * m + j) * inner;
        for (int64_t c = c0; c < c1; c++) d[c] = add(d[c], s[c]);
      }
      if (to_bool)
        for (int64_t i = 0; i < n; i++)
          for (int64_t c = c0; c < c1; c++) os[i * inner + c] = os[i * inner + c] != 0 ? T(1) : T(0);
    }
  });
}

/** Writes `count` copies of the elem-byte pattern at `fill` to dst. */
template <size_t E>
void fill_fixed(char* dst, int64_t count, const void* fill) {
  char pat[E];
  std::memcpy(pat, fill, E);
  for (int64_t i = 0; i < count; i++) std::memcpy(dst + i * E, pat, E);
}

void fill_elems(char* dst, int64_t count, const void* fill, size_t elem, bool zero) {
  if (count <= 0) return;
  if (zero) {
    std::memset(dst, 0, static_cast<size_t>(count) * elem);
    return;
  }
  switch (elem) {
    case 1: std::memset(dst, *static_cast<const unsigned char*>(fill), static_cast<size_t>(count)); return;
    case 2: fill_fixed<2>(dst, count, fill); return;
    case 4: fill_fixed<4>(dst, count, fill); return;
    case 8: fill_fixed<8>(dst, count, fill); return;
    case 16: fill_fixed<16>(dst, count, fill); return;
    default:
      for (int64_t i = 0; i < count; i++) std::memcpy(dst + i * elem, fill, elem);
  }
}

}  // namespace

size_t bytes_of(Storage s) {
  switch (s) {
    case Storage::u8: return 1;
    case Storage::u16: return 2;
    case Storage::i32:
    case Storage::f32: return 4;
    case Storage::f64: return 8;
  }
  return 8;
}

const char* storage_name(Storage s) {
  switch (s) {
    case Storage::u8: return "Uint8Array";
    case Storage::u16: return "Uint16Array";
    case Storage::i32: return "Int32Array";
    case Storage::f32: return "Float32Array";
    case Storage::f64: return "Float64Array";
  }
  return "TypedArray";
}

int64_t check_indices(const int32_t* idx, int64_t m, int64_t n) {
  for (int64_t j = 0; j < m; j++) {
    const int64_t k = norm_index(idx[j], n);
    if (k < 0 || k >= n) return j;
  }
  return -1;
}

void cumsum(Storage st, const void* x, void* out, int64_t outer, int64_t n, int64_t inner) {
  switch (st) {
    case Storage::f64: return cumsum_t(static_cast<const double*>(x), static_cast<double*>(out), outer, n, inner);
    case Storage::f32: return cumsum_t(static_cast<const float*>(x), static_cast<float*>(out), outer, n, inner);
    case Storage::i32: return cumsum_t(static_cast<const int32_t*>(x), static_cast<int32_t*>(out), outer, n, inner);
    case Storage::u16: return cumsum_t(static_cast<const uint16_t*>(x), static_cast<uint16_t*>(out), outer, n, inner);
    case Storage::u8: return cumsum_t(static_cast<const uint8_t*>(x), static_cast<uint8_t*>(out), outer, n, inner);
  }
}

void gather(size_t sb, const void* x, const int32_t* idx, int64_t m, void* out, int64_t outer, int64_t n, int64_t inner) {
  const char* xs = static_cast<const char*>(x);
  char* os = static_cast<char*>(out);
  const int64_t row = inner * static_cast<int64_t>(sb);
  for_rows(outer * m, inner, 2.0 * static_cast<double>(sb), [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
    const size_t off = static_cast<size_t>(c0) * sb, w = static_cast<size_t>(c1 - c0) * sb;
    for (int64_t r = r0; r < r1; r++) {
      const int64_t o = r / m, j = r % m;
      std::memcpy(os + r * row + off, xs + (o * n + norm_index(idx[j], n)) * row + off, w);
    }
  });
}

void scatter_add(Storage st, const void* x, const int32_t* idx, int64_t m, const void* upd, void* out, int64_t outer, int64_t n, int64_t inner) {
  switch (st) {
    case Storage::f64:
      return scatter_add_t(static_cast<const double*>(x), idx, m, static_cast<const double*>(upd), static_cast<double*>(out), outer, n, inner, false);
    case Storage::f32:
      return scatter_add_t(static_cast<const float*>(x), idx, m, static_cast<const float*>(upd), static_cast<float*>(out), outer, n, inner, false);
    case Storage::i32:
      return scatter_add_t(static_cast<const int32_t*>(x), idx, m, static_cast<const int32_t*>(upd), static_cast<int32_t*>(out), outer, n, inner, false);
    case Storage::u16:
      return scatter_add_t(static_cast<const uint16_t*>(x), idx, m, static_cast<const uint16_t*>(upd), static_cast<uint16_t*>(out), outer, n, inner, false);
    case Storage::u8:
      return scatter_add_t(static_cast<const uint8_t*>(x), idx, m, static_cast<const uint8_t*>(upd), static_cast<uint8_t*>(out), outer, n, inner, true);
  }
}

void concat(size_t sb, const void* const* ins, const int64_t* widths, int64_t k, void* out, int64_t outer) {
  int64_t total = 0;
  for (int64_t i = 0; i < k; i++) total += widths[i];
  char* os = static_cast<char*>(out);
  for_rows(outer, total, 2.0 * static_cast<double>(sb), [&](int64_t o0, int64_t o1, int64_t c0, int64_t c1) {
    for (int64_t o = o0; o < o1; o++) {
      int64_t at = 0;  // column where input i starts
      for (int64_t i = 0; i < k && at < c1; i++) {
        const int64_t w = widths[i];
        const int64_t lo = std::max(c0, at), hi = std::min(c1, at + w);
        if (lo < hi)
          std::memcpy(os + (o * total + lo) * static_cast<int64_t>(sb), static_cast<const char*>(ins[i]) + (o * w + lo - at) * static_cast<int64_t>(sb),
                      static_cast<size_t>(hi - lo) * sb);
        at += w;
      }
    }
  });
}

void pad(size_t E, const void* x, void* out, const int64_t* shape, const int64_t* before, const int64_t* after, int r, const void* fill) {
  const char* xs = static_cast<const char*>(x);
  char* os = static_cast<char*>(out);
  if (r == 0) {
    std::memcpy(os, xs, E);
    return;
  }
  bool zero = true;
  for (size_t b = 0; b < E; b++) zero = zero && static_cast<const unsigned char*>(fill)[b] == 0;
  int64_t oshape[64];
  for (int i = 0; i < r; i++) oshape[i] = shape[i] + before[i] + after[i];
  int64_t rows = 1;
  for (int i = 0; i < r - 1; i++) rows *= oshape[i];
  const int64_t ocols = oshape[r - 1], icols = shape[r - 1], bl = before[r - 1];
  const int64_t e = static_cast<int64_t>(E);
  for_rows(rows, ocols, static_cast<double>(E) * 2, [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
    // Multi-index of output row r0 over the leading r - 1 dims, then an odometer.
    int64_t at[64];
    int64_t f = r0;
    for (int i = r - 2; i >= 0; i--) at[i] = f % oshape[i], f /= oshape[i];
    for (int64_t row = r0; row < r1; row++) {
      char* dst = os + row * ocols * e;
      bool inside = true;
      int64_t src = 0;  // input row
      for (int i = 0; i < r - 1 && inside; i++) {
        const int64_t k = at[i] - before[i];
        inside = k >= 0 && k < shape[i];
        src = src * shape[i] + k;
      }
      if (!inside) {
        fill_elems(dst + c0 * e, c1 - c0, fill, E, zero);
      } else {
        const int64_t a = std::min(c1, bl), b0 = std::max(c0, bl), b1 = std::min(c1, bl + icols), z = std::max(c0, bl + icols);
        fill_elems(dst + c0 * e, a - c0, fill, E, zero);
        if (b0 < b1) std::memcpy(dst + b0 * e, xs + (src * icols + b0 - bl) * e, static_cast<size_t>(b1 - b0) * E);
        fill_elems(dst + z * e, c1 - z, fill, E, zero);
      }
      for (int i = r - 2; i >= 0; i--) {
        if (++at[i] < oshape[i]) break;
        at[i] = 0;
      }
    }
  });
}

void set_parallel_threshold(int64_t bytes) { g_threshold.store(bytes < 0 ? 0 : bytes); }
int64_t parallel_threshold() { return g_threshold.load(); }

}  // namespace rlx::opaque
