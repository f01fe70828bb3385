// Four-lane double vectors for the rasterize passes (GCC/Clang vector
// extensions: one source that the compiler lowers to SSE2 pairs, AVX2 or
// NEON), and the run-time choice of the AVX2 build of a kernel.
//
// A kernel body is written once as an always-inline template and compiled
// twice: plainly (the x86-64 baseline, SSE2) and inside a function with
// __attribute__((target("avx2"))); has_avx2() picks one per call. Neither
// enables FMA and the build forbids contraction (-ffp-contract=off), so both
// give the same bits: the choice is speed only.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#if !(defined(__GNUC__) || defined(__clang__))
#error "the splat rasterizer needs GCC or Clang vector extensions"
#endif

#if defined(__x86_64__) || defined(__i386__)
#define RLX_SPLAT_X86_DISPATCH 1
#else
#define RLX_SPLAT_X86_DISPATCH 0
#endif

namespace rlx {
namespace splat {

#define RLX_ALWAYS_INLINE inline __attribute__((always_inline))
// 32-byte vectors in a build without AVX: GCC warns that passing them by value
// would change the ABI; every function taking them here is always inlined.
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

/** Four doubles, their comparison masks (all ones / zero per lane) and four int32s. */
typedef double v4d __attribute__((vector_size(32)));
typedef int64_t v4m __attribute__((vector_size(32)));
typedef int32_t v4i __attribute__((vector_size(16)));

RLX_ALWAYS_INLINE v4d v4_splat(double x) { return v4d{x, x, x, x}; }

/**
 * The low and high 16 bytes of a 32-byte vector (two SSE registers; in the
 * AVX2 clone, one register's halves), and back. The join is a shuffle, not a
 * memcpy: GCC lowers a memcpy join to two 16-byte stores and a 32-byte load,
 * which the stores cannot forward to, and that stalled v4_sqrt's consumers
 * (the projection's divisions, the float passes' preparation) for ~15 cycles
 * each: the projection ran 12-16 % faster without it, same bits. (A split by
 * shuffles measured the same as this memcpy split.)
 */
template <class Half, class Whole>
RLX_ALWAYS_INLINE void split_halves(const Whole& w, Half& lo, Half& hi) {
  static_assert(sizeof(Whole) == 32 && sizeof(Half) == 16, "a 32-byte vector into two 16-byte ones");
  std::memcpy(&lo, &w, 16);
  std::memcpy(&hi, reinterpret_cast<const char*>(&w) + 16, 16);
}
template <class Half>
RLX_ALWAYS_INLINE auto join_halves(const Half& lo, const Half& hi) {
  static_assert(sizeof(Half) == 16, "two 16-byte vectors into a 32-byte one");
  constexpr int N = sizeof(Half) / sizeof(lo[0]);
  static_assert(N == 2 || N == 4, "two or four lanes a half");
  if constexpr (N == 2) return __builtin_shufflevector(lo, hi, 0, 1, 2, 3);
  else return __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7);
}
/** The lanes of a comparison mask as four bits (two movmskpd on x86: much cheaper than extracting the lanes), to branch on a mask. */
RLX_ALWAYS_INLINE int v4_bits(v4m m) {
#if RLX_SPLAT_X86_DISPATCH
  typedef double v2d __attribute__((vector_size(16)));
  v2d lo, hi;
  split_halves(m, lo, hi);
  return __builtin_ia32_movmskpd(lo) | (__builtin_ia32_movmskpd(hi) << 2);
#else
  return (m[0] ? 1 : 0) | (m[1] ? 2 : 0) | (m[2] ? 4 : 0) | (m[3] ? 8 : 0);
#endif
}
RLX_ALWAYS_INLINE bool v4_any(v4m m) { return v4_bits(m) != 0; }
RLX_ALWAYS_INLINE bool v4_all(v4m m) { return v4_bits(m) == 15; }

/** m ? a : b per lane (m from a comparison). */
RLX_ALWAYS_INLINE v4d v4_select(v4m m, v4d a, v4d b) {
  v4m ai, bi;
  std::memcpy(&ai, &a, 32);
  std::memcpy(&bi, &b, 32);
  const v4m r = (ai & m) | (bi & ~m);
  v4d out;
  std::memcpy(&out, &r, 32);
  return out;
}

RLX_ALWAYS_INLINE v4d v4_abs(v4d x) { return v4_select(x < 0.0, -x, x); }

/**
 * √x per lane, correctly rounded (as std::sqrt). A lane loop: with
 * -fno-math-errno (CMakeLists.txt) GCC makes it one vsqrtpd in the AVX2 clone
 * and two sqrtpd in the baseline, all in registers.
 */
RLX_ALWAYS_INLINE v4d v4_sqrt(v4d x) {
  for (int l = 0; l < 4; l++) x[l] = __builtin_sqrt(x[l]);
  return x;
}

/** ⌈x⌉ per lane (std::ceil: one rounding instruction a lane in the AVX2 clone). */
RLX_ALWAYS_INLINE v4d v4_ceil(v4d x) {
  for (int l = 0; l < 4; l++) x[l] = std::ceil(x[l]);
  return x;
}

/** ⌊x⌋ per lane (std::floor, likewise). */
RLX_ALWAYS_INLINE v4d v4_floor(v4d x) {
  for (int l = 0; l < 4; l++) x[l] = std::floor(x[l]);
  return x;
}

/**
 * raster_tile.h's clamp_int of four values at once, without branches (vector
 * selects): the same ints for every input, NaN included (lo: the first
 * select keeps lo where v > lo is false).
 */
RLX_ALWAYS_INLINE void clamp_int4(double v0, double v1, double v2, double v3, int hiX, int hiY, int out[4]) {
  const v4d v = {v0, v1, v2, v3}, lo = {0, 0, 0, 0}, hi = {static_cast<double>(hiX), static_cast<double>(hiX), static_cast<double>(hiY), static_cast<double>(hiY)};
  v4d a = v > lo ? v : lo;
  a = a < hi ? a : hi;
  const v4i r = __builtin_convertvector(a, v4i);
  out[0] = r[0], out[1] = r[1], out[2] = r[2], out[3] = r[3];
}

/** All ones where x is finite (not ±∞, not NaN). */
RLX_ALWAYS_INLINE v4m v4_finite(v4d x) { return v4_abs(x) < __builtin_inf(); }

/** splat.h's js_min / js_max per lane (NaN in either gives a + b, else the smaller / larger, b on ties). */
RLX_ALWAYS_INLINE v4d v4_js_min(v4d a, v4d b) { return v4_select((a != a) | (b != b), a + b, v4_select(a < b, a, b)); }
RLX_ALWAYS_INLINE v4d v4_js_max(v4d a, v4d b) { return v4_select((a != a) | (b != b), a + b, v4_select(a > b, a, b)); }

/**
 * Scratch of n Items (made of the vector types above) aligned for them, reused
 * by the tiles a thread runs. Held as doubles and aligned by hand: std::vector
 * of an over-aligned type is not reliably aligned in every toolchain the
 * addon is built with.
 */
template <class Item>
class AlignedScratch {
 public:
  Item* get(size_t n) {
    static_assert(alignof(Item) <= 32 && sizeof(Item) % sizeof(double) == 0, "Item must be made of doubles");
    buf_.resize(n * (sizeof(Item) / sizeof(double)) + 32 / sizeof(double));
    const uintptr_t p = reinterpret_cast<uintptr_t>(buf_.data());
    return reinterpret_cast<Item*>((p + 31) & ~static_cast<uintptr_t>(31));
  }

 private:
  std::vector<double> buf_;
};

/** Whether this CPU (and OS) runs AVX2 code; RLX_SPLAT_BASELINE=1 in the environment says no (to test the baseline build on an AVX2 machine). */
inline bool has_avx2() {
#if RLX_SPLAT_X86_DISPATCH
  static const bool yes = __builtin_cpu_supports("avx2") && !(std::getenv("RLX_SPLAT_BASELINE") && std::getenv("RLX_SPLAT_BASELINE")[0] == '1');
  return yes;
#else
  return false;
#endif
}

}  // namespace splat
}  // namespace rlx
