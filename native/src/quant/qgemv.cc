// Few-row integer GEMM kernels (problem.h's run_few_rows): a single token or a
// small batch (M ≤ FEW_ROWS) against a weight matrix. Packing the weights into
// panels (qgemm.cc) reads and writes all of them once per call, which for one
// row costs several times the product itself (1024×1024 int8: ~0.4 ms of
// packing for ~0.05 ms of arithmetic), so here the weight rows are read in
// place, each once per tile of up to 4 activation rows, while it sits in L1.
//
// int8 on VNNI hosts: vpdpbusd, 64 k a step (below). Otherwise (int4, AVX2)
// both operands are sign-extended to int16 and multiplied with vpmaddwd (pair
// sums ≤ 2·128·128: exact in int32), the int32 lanes accumulate with wrapping
// adds and are summed at each group's end: exact modulo 2³², and the true sum
// fits in int32 (INT8_MATMUL_MAX_K), so these are the same integers as every
// other path. int4 weights are decoded in registers: 16 bytes become 16 int32
// lanes (sign-extended), whose low nibble (x << 28 >> 28) and high nibble
// (x >> 4) are the int16 pair (k even, k odd) of that lane, i.e. the codes in
// k order. The float steps of int4 are qgemm.cc's: per group
// dacc + double(wScale)·double(s) in ascending group order, then
// float(double(aScale)·dacc).

// GCC 12 warns about the intentionally undefined lanes inside its own AVX-512
// intrinsics (as in qgemm.cc): a false positive.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

#include <immintrin.h>

#include <algorithm>
#include <vector>

#include "pool/pool.h"
#include "quant/problem.h"

namespace rlx {
namespace quant {
namespace {

constexpr int ROW_TILE = 4;
constexpr int64_t COLS_PER_TASK = 32;

// ---- AVX-512BW: 32 k a step, masked loads for a group's tail --------------------

template <int R, bool INT4>
__attribute__((target("avx512f,avx512bw,avx512vl"))) void column_avx512(const Problem& p, const int16_t* A16, int64_t i0, int64_t n) {
  double dacc[R];
  for (int r = 0; r < R; r++) dacc[r] = 0.0;
  for (int64_t g = 0; g < p.G; g++) {
    const int64_t k0 = g * p.gs, k1 = k0 + p.gs;
    __m512i acc[R];
    for (int r = 0; r < R; r++) acc[r] = _mm512_setzero_si512();
    for (int64_t t = k0; t < k1; t += 32) {
      const int64_t rem = std::min<int64_t>(32, k1 - t);
      const __mmask32 m = rem == 32 ? static_cast<__mmask32>(0xFFFFFFFFu) : static_cast<__mmask32>((1u << rem) - 1);
      __m512i bv;
      if (!INT4) {
        bv = _mm512_cvtepi8_epi16(_mm256_maskz_loadu_epi8(m, p.b + n * p.K + t));
      } else {
        // rem is even (groups and steps start at even k): rem / 2 bytes.
        const __mmask16 mb = rem == 32 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << (rem / 2)) - 1);
        const __m512i v = _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(mb, p.w + (n * p.K + t) / 2));
        const __m512i lo = _mm512_srai_epi32(_mm512_slli_epi32(v, 28), 28);
        const __m512i hi = _mm512_srai_epi32(v, 4);
        bv = _mm512_or_si512(_mm512_and_si512(lo, _mm512_set1_epi32(0xFFFF)), _mm512_slli_epi32(hi, 16));
      }
      for (int r = 0; r < R; r++) acc[r] = _mm512_add_epi32(acc[r], _mm512_madd_epi16(_mm512_maskz_loadu_epi16(m, A16 + (i0 + r) * p.K + t), bv));
    }
    for (int r = 0; r < R; r++) {
      const int32_t s = _mm512_reduce_add_epi32(acc[r]);
      if (!INT4) p.out_i[(i0 + r) * p.N + n] = s;
      else dacc[r] = dacc[r] + static_cast<double>(p.ws[n * p.G + g]) * static_cast<double>(s);
    }
  }
  if (INT4)
    for (int r = 0; r < R; r++) p.out_f[(i0 + r) * p.N + n] = static_cast<float>(static_cast<double>(p.as[i0 + r]) * dacc[r]);
}

// ---- AVX-512 VNNI, int8: 64 k a step ---------------------------------------------
//
// vpdpbusd multiplies u8 by s8, so the activations are stored as a + 128 and
// 128·Σ_k b[n, k] (vpdpbusd of 128s with the same weight bytes, once per column
// for all rows) is subtracted, as in qgemm.cc.

template <int R>
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni"))) void column_vnni_int8(const Problem& p, const uint8_t* Au8, int64_t i0, int64_t n) {
  __m512i acc[R];
  for (int r = 0; r < R; r++) acc[r] = _mm512_setzero_si512();
  __m512i corr = _mm512_setzero_si512();
  const __m512i c128 = _mm512_set1_epi8(static_cast<char>(0x80));
  const int8_t* bn = p.b + n * p.K;
  for (int64_t t = 0; t < p.K; t += 64) {
    const int64_t rem = std::min<int64_t>(64, p.K - t);
    const __mmask64 m = rem == 64 ? ~__mmask64(0) : ((__mmask64(1) << rem) - 1);
    const __m512i bv = _mm512_maskz_loadu_epi8(m, bn + t);
    corr = _mm512_dpbusd_epi32(corr, c128, bv);
    for (int r = 0; r < R; r++) acc[r] = _mm512_dpbusd_epi32(acc[r], _mm512_maskz_loadu_epi8(m, Au8 + (i0 + r) * p.K + t), bv);
  }
  const uint32_t c = static_cast<uint32_t>(_mm512_reduce_add_epi32(corr));
  for (int r = 0; r < R; r++) p.out_i[(i0 + r) * p.N + n] = static_cast<int32_t>(static_cast<uint32_t>(_mm512_reduce_add_epi32(acc[r])) - c);  // wrapping
}

// ---- AVX2: 16 k a step, a scalar tail ----------------------------------------------

__attribute__((target("avx2"))) inline uint32_t hsum_avx2(__m256i v) {
  alignas(32) uint32_t l[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(l), v);
  uint32_t s = 0;
  for (int i = 0; i < 8; i++) s += l[i];
  return s;
}

template <int R, bool INT4>
__attribute__((target("avx2"))) void column_avx2(const Problem& p, const int16_t* A16, int64_t i0, int64_t n) {
  double dacc[R];
  for (int r = 0; r < R; r++) dacc[r] = 0.0;
  for (int64_t g = 0; g < p.G; g++) {
    const int64_t k0 = g * p.gs, k1 = k0 + p.gs;
    __m256i acc[R];
    for (int r = 0; r < R; r++) acc[r] = _mm256_setzero_si256();
    int64_t t = k0;
    for (; t + 16 <= k1; t += 16) {
      __m256i bv;
      if (!INT4) {
        bv = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p.b + n * p.K + t)));
      } else {
        const __m256i v = _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p.w + (n * p.K + t) / 2)));
        const __m256i lo = _mm256_srai_epi32(_mm256_slli_epi32(v, 28), 28);
        const __m256i hi = _mm256_srai_epi32(v, 4);
        bv = _mm256_or_si256(_mm256_and_si256(lo, _mm256_set1_epi32(0xFFFF)), _mm256_slli_epi32(hi, 16));
      }
      for (int r = 0; r < R; r++)
        acc[r] = _mm256_add_epi32(acc[r], _mm256_madd_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(A16 + (i0 + r) * p.K + t)), bv));
    }
    for (int r = 0; r < R; r++) {
      uint32_t s = hsum_avx2(acc[r]);  // wrapping, as everywhere
      for (int64_t k = t; k < k1; k++) s += static_cast<uint32_t>(A16[(i0 + r) * p.K + k] * p.code(n, k));
      if (!INT4) p.out_i[(i0 + r) * p.N + n] = static_cast<int32_t>(s);
      else dacc[r] = dacc[r] + static_cast<double>(p.ws[n * p.G + g]) * static_cast<double>(static_cast<int32_t>(s));
    }
  }
  if (INT4)
    for (int r = 0; r < R; r++) p.out_f[(i0 + r) * p.N + n] = static_cast<float>(static_cast<double>(p.as[i0 + r]) * dacc[r]);
}

// ---- driver ------------------------------------------------------------------------

using ColumnFn = void (*)(const Problem&, const int16_t*, int64_t, int64_t);
using ColumnU8Fn = void (*)(const Problem&, const uint8_t*, int64_t, int64_t);

/** The VNNI int8 path: activations shifted to u8 once, then columns × row tiles. */
bool run_vnni_int8(const Problem& p) {
  std::vector<uint8_t> Au8(static_cast<size_t>(p.M * p.K));
  for (int64_t i = 0; i < p.M * p.K; i++) Au8[i] = static_cast<uint8_t>(p.a[i] + 128);
  // Tiles of up to 8 rows: 8 accumulators, the correction and the weights fit in zmm registers.
  constexpr int TILE = 8;
  const ColumnU8Fn fns[TILE] = {column_vnni_int8<1>, column_vnni_int8<2>, column_vnni_int8<3>, column_vnni_int8<4>,
                                column_vnni_int8<5>, column_vnni_int8<6>, column_vnni_int8<7>, column_vnni_int8<8>};
  const int64_t tasks = (p.N + COLS_PER_TASK - 1) / COLS_PER_TASK;
  Pool::instance().parallelFor(tasks, [&](int64_t task) {
    const int64_t n1 = std::min(p.N, (task + 1) * COLS_PER_TASK);
    for (int64_t n = task * COLS_PER_TASK; n < n1; n++)
      for (int64_t i0 = 0; i0 < p.M; i0 += TILE) fns[std::min<int64_t>(TILE, p.M - i0) - 1](p, Au8.data(), i0, n);
  });
  return true;
}

template <bool INT4>
ColumnFn column_fn(Isa isa, int rows) {
  if (isa == Isa::vnni) {  // VNNI hosts have AVX-512BW/VL (detect() checks avx512bw)
    switch (rows) {
      case 1: return column_avx512<1, INT4>;
      case 2: return column_avx512<2, INT4>;
      case 3: return column_avx512<3, INT4>;
      default: return column_avx512<4, INT4>;
    }
  }
  switch (rows) {
    case 1: return column_avx2<1, INT4>;
    case 2: return column_avx2<2, INT4>;
    case 3: return column_avx2<3, INT4>;
    default: return column_avx2<4, INT4>;
  }
}

}  // namespace

bool run_few_rows(const Problem& p, Isa isa) {
  if (p.M > FEW_ROWS || (isa != Isa::vnni && isa != Isa::avx2)) return false;
  if (isa == Isa::vnni && p.w == nullptr) return run_vnni_int8(p);
  std::vector<int16_t> A16(static_cast<size_t>(p.M * p.K));
  for (int64_t i = 0; i < p.M * p.K; i++) A16[i] = p.a[i];
  const bool int4 = p.w != nullptr;
  ColumnFn fns[ROW_TILE];
  for (int r = 1; r <= ROW_TILE; r++) fns[r - 1] = int4 ? column_fn<true>(isa, r) : column_fn<false>(isa, r);
  const int64_t tasks = (p.N + COLS_PER_TASK - 1) / COLS_PER_TASK;
  Pool::instance().parallelFor(tasks, [&](int64_t task) {
    const int64_t n1 = std::min(p.N, (task + 1) * COLS_PER_TASK);
    for (int64_t n = task * COLS_PER_TASK; n < n1; n++)
      for (int64_t i0 = 0; i0 < p.M; i0 += ROW_TILE) fns[std::min<int64_t>(ROW_TILE, p.M - i0) - 1](p, A16.data(), i0, n);
  });
  return true;
}

}  // namespace quant
}  // namespace rlx
