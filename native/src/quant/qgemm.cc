// The integer GEMM kernels (qgemm.h). Shape of the fast paths:
//
// - A few rows (M ≤ FEW_ROWS: a single token, a small batch) skip packing:
//   quant/qgemv.cc reads the weights in place, since packing them would cost
//   more than the product itself.
// - Packing, once per call (the weights may change between calls, so nothing
//   is cached by address): the weights into column panels of NR columns, each
//   k group padded to a multiple of KG (the k values one 32-bit lane takes)
//   with zero codes, so a group never straddles a lane; the activations into
//   rows with the same padded k layout. Padding multiplies zero weights, so it
//   adds nothing. int8_matmul is the one-group case (group = k).
// - A tile of MR rows × NR columns keeps its int32 sums in registers over a
//   group; at each group's end the int32 tile is final (int8) or converted to
//   float64, scaled by wScale and added to a float64 tile in group order (int4).
// - Tasks of up to 64 rows × 4 panels spread over the addon pool.
//
// VNNI (NR 32, KG 4): vpdpbusd multiplies u8 by s8, so a is stored as a + 128
// (a ^ 0x80) and 128·Σ_{k in group} w[n, k] (per column and group, made while
// packing) is subtracted: Σ (a + 128)·w − 128·Σ w = Σ a·w. The int32 lanes may
// wrap in between (vpdpbusd does not saturate), but wrapping arithmetic is
// exact modulo 2^32 and the true result fits in int32, so it comes out exact.
// AVX2 (NR 16, KG 2): both operands sign-extended to int16, vpmaddwd: each
// pair sum ≤ 2·128·128 fits int32; no saturation anywhere (vpmaddubsw, which
// saturates at int16, is not used).

#include "quant/qgemm.h"

// GCC 12 warns about the intentionally undefined upper lanes inside its own
// AVX-512 cast intrinsics (_mm512_castsi512_si256): a false positive.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <type_traits>
#include <vector>

#include "pool/pool.h"
#include "quant/problem.h"

namespace rlx {
namespace quant {
namespace {

std::atomic<int> g_isa{-1};

Isa detect() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vnni")) return Isa::vnni;
  if (__builtin_cpu_supports("avx2")) return Isa::avx2;
  return Isa::scalar;
}

// ---- scalar --------------------------------------------------------------------

void run_scalar(const Problem& p) {
  const int64_t M = p.M, N = p.N, K = p.K;
  std::vector<int8_t> codes;
  const int8_t* B = p.b;
  if (p.w != nullptr) {
    codes.resize(static_cast<size_t>(N * K));
    for (int64_t n = 0; n < N; n++)
      for (int64_t k = 0; k < K; k++) codes[n * K + k] = static_cast<int8_t>(p.code(n, k));
    B = codes.data();
  }
  Pool::instance().parallelFor(M, [&](int64_t i) {
    const int8_t* ai = p.a + i * K;
    for (int64_t j = 0; j < N; j++) {
      const int8_t* bj = B + j * K;
      if (p.w == nullptr) {
        uint32_t s = 0;  // wrapping, as int32 arithmetic in the js kernel (|0)
        for (int64_t k = 0; k < K; k++) s += static_cast<uint32_t>(ai[k] * bj[k]);
        p.out_i[i * N + j] = static_cast<int32_t>(s);
      } else {
        double acc = 0;
        for (int64_t g = 0; g < p.G; g++) {
          int32_t s = 0;  // |s| ≤ 1024·gs ≤ 2^30
          for (int64_t k = g * p.gs; k < (g + 1) * p.gs; k++) s += ai[k] * bj[k];
          acc += static_cast<double>(p.ws[j * p.G + g]) * static_cast<double>(s);
        }
        p.out_f[i * N + j] = static_cast<float>(static_cast<double>(p.as[i]) * acc);
      }
    }
  });
}

// ---- packing ---------------------------------------------------------------------

/**
 * VNNI's int8 weight panels, one group (int8_matmul): panel jp holds, per k
 * step q, the 4-byte words q of its 32 rows (columns of the product) in
 * order, so each step is two 16-lane gathers of words (row offsets as
 * indices) instead of 32 × 4 byte moves; the correction 128·Σ_k b[n, k] falls
 * out of the same registers (vpdpbusd of 128s with the gathered words, one
 * lane per column). Rows past N repeat the last row (their results are never
 * stored); a partial last step is assembled bytewise with zeros.
 */
__attribute__((target("avx512f,avx512bw,avx512vnni"))) void pack_b_vnni_int8_panel(const Problem& p, int8_t* B, int32_t* corr, int64_t KQ, int64_t jp) {
  constexpr int NR = 32;
  const int64_t whole = p.K / 4;
  int8_t* panel = B + jp * KQ * NR * 4;
  const int64_t n0 = jp * NR, cols = std::min<int64_t>(NR, p.N - n0);
  alignas(64) int32_t off[NR];
  for (int c = 0; c < NR; c++) off[c] = static_cast<int32_t>(std::min<int64_t>(c, cols - 1) * p.K);  // < 32·131071: fits
  const __m512i i0 = _mm512_load_si512(off), i1 = _mm512_load_si512(off + 16);
  const __m512i c128 = _mm512_set1_epi8(static_cast<char>(0x80));
  __m512i s0 = _mm512_setzero_si512(), s1 = _mm512_setzero_si512();
  const int8_t* base = p.b + n0 * p.K;
  for (int64_t q = 0; q < whole; q++) {
    const __m512i g0 = _mm512_i32gather_epi32(i0, base + q * 4, 1), g1 = _mm512_i32gather_epi32(i1, base + q * 4, 1);
    _mm512_storeu_si512(panel + q * NR * 4, g0);
    _mm512_storeu_si512(panel + q * NR * 4 + 64, g1);
    s0 = _mm512_dpbusd_epi32(s0, c128, g0);
    s1 = _mm512_dpbusd_epi32(s1, c128, g1);
  }
  if (whole < KQ) {  // K % 4 bytes left: one zero-padded step
    int8_t* dst = panel + whole * NR * 4;
    for (int c = 0; c < NR; c++)
      for (int e = 0; e < 4; e++) dst[c * 4 + e] = whole * 4 + e < p.K ? base[off[c] + whole * 4 + e] : 0;
    const __m512i t0 = _mm512_loadu_si512(dst), t1 = _mm512_loadu_si512(dst + 64);
    s0 = _mm512_dpbusd_epi32(s0, c128, t0);
    s1 = _mm512_dpbusd_epi32(s1, c128, t1);
  }
  _mm512_storeu_si512(corr + jp * NR, s0);
  _mm512_storeu_si512(corr + jp * NR + 16, s1);
}

void pack_b_vnni_int8(const Problem& p, int8_t* B, int32_t* corr, int64_t KQ, int64_t NP) {
  Pool::instance().parallelFor(NP, [&](int64_t jp) { pack_b_vnni_int8_panel(p, B, corr, KQ, jp); });
}

/**
 * The packed operands of one call. A: M rows of Kp elements (AT); B: Np/NR
 * panels, each Kp/KG steps of NR columns × KG elements (BT); per panel and
 * group, NR int32 corrections (VNNI) and NR float64 weight scales (int4).
 */
template <int NR, int KG, typename AT, typename BT>
struct Packed {
  int64_t gp, Kp, KQ, gq, NP;
  std::vector<AT> A;
  std::vector<BT> B;
  std::vector<int32_t> corr;
  std::vector<double> wsd;

  Packed(const Problem& p, bool shift) {
    gp = (p.gs + KG - 1) / KG * KG;
    Kp = p.G * gp;
    KQ = Kp / KG;
    gq = gp / KG;
    NP = (p.N + NR - 1) / NR;
    A.assign(static_cast<size_t>(p.M * Kp), AT(0));
    B.assign(static_cast<size_t>(NP * KQ * NR * KG), BT(0));
    if (shift) corr.assign(static_cast<size_t>(NP * p.G * NR), 0);
    if (p.w != nullptr) wsd.assign(static_cast<size_t>(NP * p.G * NR), 0.0);
    Pool& pool = Pool::instance();
    bool packed_b = false;
    if constexpr (std::is_same_v<BT, int8_t> && NR == 32 && KG == 4) {
      if (shift && p.w == nullptr && p.G == 1) {
        pack_b_vnni_int8(p, B.data(), corr.data(), KQ, NP);
        packed_b = true;
      }
    }
    if (!packed_b) pool.parallelFor(NP, [&](int64_t jp) {
      BT* panel = B.data() + jp * KQ * NR * KG;
      std::vector<int8_t> decoded(p.w != nullptr ? static_cast<size_t>(p.K) : 0);
      for (int c = 0; c < NR; c++) {
        const int64_t n = jp * NR + c;
        if (n >= p.N) break;
        // The column's codes as a contiguous int8 row (int4: decoded from its K/2 bytes).
        const int8_t* row;
        if (p.w == nullptr) row = p.b + n * p.K;
        else {
          const uint8_t* wr = p.w + n * p.K / 2;
          for (int64_t i = 0; i < p.K / 2; i++) {
            decoded[2 * i] = static_cast<int8_t>(static_cast<int8_t>(wr[i] << 4) >> 4);
            decoded[2 * i + 1] = static_cast<int8_t>(static_cast<int8_t>(wr[i]) >> 4);
          }
          row = decoded.data();
        }
        for (int64_t g = 0; g < p.G; g++) {
          const int8_t* src = row + g * p.gs;
          int32_t sum = 0;
          for (int64_t t = 0; t < p.gs; t++) sum += src[t];
          BT* dst = panel + (g * gp / KG) * NR * KG + c * KG;  // the group starts a k step (gp is a multiple of KG)
          int64_t t = 0;
          for (; t + KG <= p.gs; t += KG, dst += NR * KG)
            for (int e = 0; e < KG; e++) dst[e] = static_cast<BT>(src[t + e]);
          for (int e = 0; t < p.gs; t++, e++) dst[e] = static_cast<BT>(src[t]);  // a partial last step, zero-padded
          if (shift) corr[(jp * p.G + g) * NR + c] = 128 * sum;
          if (p.w != nullptr) wsd[(jp * p.G + g) * NR + c] = static_cast<double>(p.ws[n * p.G + g]);
        }
      }
    });
    pool.parallelFor((p.M + 63) / 64, [&](int64_t blk) {
      for (int64_t i = blk * 64; i < std::min(p.M, blk * 64 + 64); i++) {
        const int8_t* ai = p.a + i * p.K;
        AT* dst = A.data() + i * Kp;
        // Two plain loops over locals, which the compiler vectorizes (as written before, a select inside one
        // loop bounded by p.gs, which a byte store may alias, stayed scalar: 12% of a 1024³ call).
        const int64_t G = p.G, gs = p.gs;
        for (int64_t g = 0; g < G; g++) {
          const int8_t* src = ai + g * gs;
          AT* d = dst + g * gp;
          if (shift)
            for (int64_t t = 0; t < gs; t++) d[t] = static_cast<AT>(static_cast<uint8_t>(src[t]) ^ 0x80);  // a + 128 as u8
          else
            for (int64_t t = 0; t < gs; t++) d[t] = static_cast<AT>(src[t]);
        }
      }
    });
  }
};

inline int32_t load32(const void* p) {
  int32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// ---- AVX-512 VNNI ----------------------------------------------------------------

using PackedVnni = Packed<32, 4, uint8_t, int8_t>;

template <int MR, bool INT4>
__attribute__((target("avx512f,avx512bw,avx512vnni"))) void tile_vnni(const Problem& p, const PackedVnni& q, int64_t i0, int64_t jp) {
  constexpr int NR = 32;
  const int64_t cols = std::min<int64_t>(NR, p.N - jp * NR);
  const uint8_t* A = q.A.data() + i0 * q.Kp;
  const int8_t* B = q.B.data() + jp * q.KQ * NR * 4;
  alignas(64) double dacc[MR][NR];
  if (INT4)
    for (int r = 0; r < MR; r++)
      for (int c = 0; c < NR; c++) dacc[r][c] = 0.0;
  for (int64_t g = 0; g < p.G; g++) {
    __m512i acc[MR][2];
    for (int r = 0; r < MR; r++) acc[r][0] = acc[r][1] = _mm512_setzero_si512();
    const int8_t* bp = B + g * q.gq * NR * 4;
    const uint8_t* ap = A + g * q.gp;
    for (int64_t kq = 0; kq < q.gq; kq++) {
      const __m512i b0 = _mm512_loadu_si512(bp + kq * 128);
      const __m512i b1 = _mm512_loadu_si512(bp + kq * 128 + 64);
      for (int r = 0; r < MR; r++) {
        const __m512i av = _mm512_set1_epi32(load32(ap + r * q.Kp + kq * 4));
        acc[r][0] = _mm512_dpbusd_epi32(acc[r][0], av, b0);
        acc[r][1] = _mm512_dpbusd_epi32(acc[r][1], av, b1);
      }
    }
    const int32_t* cp = q.corr.data() + (jp * p.G + g) * NR;
    const __m512i c0 = _mm512_loadu_si512(cp), c1 = _mm512_loadu_si512(cp + 16);
    if (!INT4) {
      alignas(64) int32_t tmp[NR];
      for (int r = 0; r < MR; r++) {
        _mm512_store_si512(tmp, _mm512_sub_epi32(acc[r][0], c0));
        _mm512_store_si512(tmp + 16, _mm512_sub_epi32(acc[r][1], c1));
        std::memcpy(p.out_i + (i0 + r) * p.N + jp * NR, tmp, static_cast<size_t>(cols) * 4);
      }
    } else {
      const double* wp = q.wsd.data() + (jp * p.G + g) * NR;
      __m512d w[4];
      for (int h = 0; h < 4; h++) w[h] = _mm512_loadu_pd(wp + 8 * h);
      for (int r = 0; r < MR; r++) {
        const __m512i s0 = _mm512_sub_epi32(acc[r][0], c0), s1 = _mm512_sub_epi32(acc[r][1], c1);
        const __m512d d[4] = {_mm512_cvtepi32_pd(_mm512_castsi512_si256(s0)), _mm512_cvtepi32_pd(_mm512_extracti64x4_epi64(s0, 1)),
                              _mm512_cvtepi32_pd(_mm512_castsi512_si256(s1)), _mm512_cvtepi32_pd(_mm512_extracti64x4_epi64(s1, 1))};
        for (int h = 0; h < 4; h++) _mm512_store_pd(&dacc[r][8 * h], _mm512_add_pd(_mm512_load_pd(&dacc[r][8 * h]), _mm512_mul_pd(w[h], d[h])));
      }
    }
  }
  if (INT4) {
    alignas(64) float tmp[NR];
    for (int r = 0; r < MR; r++) {
      const __m512d sc = _mm512_set1_pd(static_cast<double>(p.as[i0 + r]));
      for (int h = 0; h < 4; h++) _mm256_store_ps(tmp + 8 * h, _mm512_cvtpd_ps(_mm512_mul_pd(sc, _mm512_load_pd(&dacc[r][8 * h]))));
      std::memcpy(p.out_f + (i0 + r) * p.N + jp * NR, tmp, static_cast<size_t>(cols) * 4);
    }
  }
}

// ---- AVX2 --------------------------------------------------------------------------

using PackedAvx2 = Packed<16, 2, int16_t, int16_t>;

template <int MR, bool INT4>
__attribute__((target("avx2"))) void tile_avx2(const Problem& p, const PackedAvx2& q, int64_t i0, int64_t jp) {
  constexpr int NR = 16;
  const int64_t cols = std::min<int64_t>(NR, p.N - jp * NR);
  const int16_t* A = q.A.data() + i0 * q.Kp;
  const int16_t* B = q.B.data() + jp * q.KQ * NR * 2;
  alignas(32) double dacc[MR][NR];
  if (INT4)
    for (int r = 0; r < MR; r++)
      for (int c = 0; c < NR; c++) dacc[r][c] = 0.0;
  for (int64_t g = 0; g < p.G; g++) {
    __m256i acc[MR][2];
    for (int r = 0; r < MR; r++) acc[r][0] = acc[r][1] = _mm256_setzero_si256();
    const int16_t* bp = B + g * q.gq * NR * 2;
    const int16_t* ap = A + g * q.gp;
    for (int64_t kq = 0; kq < q.gq; kq++) {
      const __m256i b0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bp + kq * 32));
      const __m256i b1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bp + kq * 32 + 16));
      for (int r = 0; r < MR; r++) {
        const __m256i av = _mm256_set1_epi32(load32(ap + r * q.Kp + kq * 2));
        acc[r][0] = _mm256_add_epi32(acc[r][0], _mm256_madd_epi16(av, b0));
        acc[r][1] = _mm256_add_epi32(acc[r][1], _mm256_madd_epi16(av, b1));
      }
    }
    if (!INT4) {
      alignas(32) int32_t tmp[NR];
      for (int r = 0; r < MR; r++) {
        _mm256_store_si256(reinterpret_cast<__m256i*>(tmp), acc[r][0]);
        _mm256_store_si256(reinterpret_cast<__m256i*>(tmp + 8), acc[r][1]);
        std::memcpy(p.out_i + (i0 + r) * p.N + jp * NR, tmp, static_cast<size_t>(cols) * 4);
      }
    } else {
      const double* wp = q.wsd.data() + (jp * p.G + g) * NR;
      __m256d w[4];
      for (int h = 0; h < 4; h++) w[h] = _mm256_loadu_pd(wp + 4 * h);
      for (int r = 0; r < MR; r++) {
        const __m256d d[4] = {_mm256_cvtepi32_pd(_mm256_castsi256_si128(acc[r][0])), _mm256_cvtepi32_pd(_mm256_extracti128_si256(acc[r][0], 1)),
                              _mm256_cvtepi32_pd(_mm256_castsi256_si128(acc[r][1])), _mm256_cvtepi32_pd(_mm256_extracti128_si256(acc[r][1], 1))};
        for (int h = 0; h < 4; h++) _mm256_store_pd(&dacc[r][4 * h], _mm256_add_pd(_mm256_load_pd(&dacc[r][4 * h]), _mm256_mul_pd(w[h], d[h])));
      }
    }
  }
  if (INT4) {
    alignas(32) float tmp[NR];
    for (int r = 0; r < MR; r++) {
      const __m256d sc = _mm256_set1_pd(static_cast<double>(p.as[i0 + r]));
      for (int h = 0; h < 4; h++) _mm_store_ps(tmp + 4 * h, _mm256_cvtpd_ps(_mm256_mul_pd(sc, _mm256_load_pd(&dacc[r][4 * h]))));
      std::memcpy(p.out_f + (i0 + r) * p.N + jp * NR, tmp, static_cast<size_t>(cols) * 4);
    }
  }
}

// ---- drivers -------------------------------------------------------------------------

template <int MR, bool INT4>
void tile(const Problem& p, const PackedVnni& q, int64_t i0, int64_t jp) { tile_vnni<MR, INT4>(p, q, i0, jp); }
template <int MR, bool INT4>
void tile(const Problem& p, const PackedAvx2& q, int64_t i0, int64_t jp) { tile_avx2<MR, INT4>(p, q, i0, jp); }

/** Rows i0 .. i0 + rows of panel jp, rows ≤ MAXR, through the tile of that many rows. */
template <int MAXR, bool INT4, class Q>
void tile_rows(const Problem& p, const Q& q, int64_t i0, int64_t rows, int64_t jp) {
  if constexpr (MAXR >= 1) {
    if (rows == MAXR) tile<MAXR, INT4>(p, q, i0, jp);
    else tile_rows<MAXR - 1, INT4>(p, q, i0, rows, jp);
  }
}

template <int MR, bool INT4, class Q>
void run_tiles(const Problem& p, const Q& q) {
  constexpr int64_t MC = 64, PC = 4;  // a task: up to 64 rows × 4 panels
  const int64_t rb = (p.M + MC - 1) / MC, pb = (q.NP + PC - 1) / PC;
  Pool::instance().parallelFor(rb * pb, [&](int64_t t) {
    const int64_t r0 = (t / pb) * MC, p0 = (t % pb) * PC;
    for (int64_t jp = p0; jp < std::min(q.NP, p0 + PC); jp++)
      for (int64_t i0 = r0; i0 < std::min(p.M, r0 + MC); i0 += MR) tile_rows<MR, INT4>(p, q, i0, std::min<int64_t>(MR, p.M - i0), jp);
  });
}

void run(const Problem& p) {
  if (p.M == 0 || p.N == 0) return;
  if (p.K == 0) {  // no products: 0, and aScale·0 for int4 (NaN for an infinite scale, as in the js kernel)
    for (int64_t i = 0; i < p.M; i++)
      for (int64_t j = 0; j < p.N; j++) {
        if (p.w == nullptr) p.out_i[i * p.N + j] = 0;
        else p.out_f[i * p.N + j] = static_cast<float>(static_cast<double>(p.as[i]) * 0.0);
      }
    return;
  }
  if (run_few_rows(p, current_isa())) return;  // M ≤ FEW_ROWS: no packing (quant/qgemv.cc)
  switch (current_isa()) {
    case Isa::vnni: {
      const PackedVnni q(p, true);
      if (p.w == nullptr) run_tiles<8, false>(p, q);
      else run_tiles<8, true>(p, q);
      return;
    }
    case Isa::avx2: {
      const PackedAvx2 q(p, false);
      if (p.w == nullptr) run_tiles<6, false>(p, q);
      else run_tiles<6, true>(p, q);
      return;
    }
    default: run_scalar(p);
  }
}

}  // namespace

Isa best_isa() {
  static const Isa b = detect();
  return b;
}

Isa current_isa() {
  const int v = g_isa.load(std::memory_order_relaxed);
  return v < 0 ? best_isa() : static_cast<Isa>(v);
}

Isa set_isa(Isa isa) {
  const Isa u = static_cast<int>(isa) > static_cast<int>(best_isa()) ? best_isa() : isa;
  g_isa.store(static_cast<int>(u), std::memory_order_relaxed);
  return u;
}

const char* isa_name(Isa isa) { return isa == Isa::vnni ? "avx512vnni" : isa == Isa::avx2 ? "avx2" : "scalar"; }

void int8_matmul(int64_t m, int64_t n, int64_t k, const int8_t* a, const int8_t* b, int32_t* out) {
  run(Problem{m, n, k, k, k > 0 ? 1 : 0, a, b, nullptr, nullptr, nullptr, out, nullptr});
}

void int4_matmul(int64_t m, int64_t n, int64_t k, int64_t group, const int8_t* a, const float* a_scale, const uint8_t* w, const float* w_scale, float* out) {
  run(Problem{m, n, k, group, k / group, a, nullptr, w, a_scale, w_scale, nullptr, out});
}

}  // namespace quant
}  // namespace rlx
