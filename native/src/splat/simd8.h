// Eight-lane float vectors for the float32 rasterize passes (raster_f32.cc,
// raster_backward_f32.cc), as simd.h gives four-lane doubles to the float64
// ones: GCC/Clang vector extensions, lowered to SSE2 pairs in the baseline
// build and to one AVX register in the AVX2 clone; no FMA in either, so both
// clones give the same bits.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "splat/simd.h"

namespace rlx {
namespace splat {

/** Eight floats, their comparison masks (all ones / zero per lane) and eight int32s. */
typedef float v8f __attribute__((vector_size(32)));
typedef int32_t v8m __attribute__((vector_size(32)));

RLX_ALWAYS_INLINE v8f v8_splat(float x) { return v8f{x, x, x, x, x, x, x, x}; }

/**
 * The instruction set a float pass's body is compiled for: its AVX2 clone or
 * the x86-64 baseline (simd.h). The body is a template over it for the one
 * operation GCC's vector extensions cannot say: a mask's sign bits, which
 * AVX takes from the whole register at once (vmovmskps) and SSE2 half by
 * half. The mask tests of a block visit were a fifth of its instructions.
 */
struct IsaBaseline {};
struct IsaAvx2 {};

/** The lanes of a comparison mask as eight bits (movmskps on x86), to branch on a mask. */
template <class Isa>
RLX_ALWAYS_INLINE int v8_bits(v8m m) {
#if RLX_SPLAT_X86_DISPATCH
  if constexpr (std::is_same<Isa, IsaAvx2>::value) {  // only ever inlined into the AVX2 clone, where m is one ymm register
    int b;
    asm("vmovmskps %1, %0" : "=r"(b) : "x"(m));
    return b;
  } else {
    typedef float v4f __attribute__((vector_size(16)));
    v4f lo, hi;
    split_halves(m, lo, hi);
    return __builtin_ia32_movmskps(lo) | (__builtin_ia32_movmskps(hi) << 4);
  }
#else
  int b = 0;
  for (int l = 0; l < 8; l++) b |= m[l] ? 1 << l : 0;
  return b;
#endif
}
template <class Isa>
RLX_ALWAYS_INLINE bool v8_any(v8m m) {
  return v8_bits<Isa>(m) != 0;
}
template <class Isa>
RLX_ALWAYS_INLINE bool v8_all(v8m m) {
  return v8_bits<Isa>(m) == 255;
}

/** m ? a : b per lane (m from a comparison): one blend in AVX, and/andnot/or in SSE2. */
RLX_ALWAYS_INLINE v8f v8_select(v8m m, v8f a, v8f b) { return m ? a : b; }
/** a where m, else 0. */
RLX_ALWAYS_INLINE v8f v8_and(v8m m, v8f a) { return m ? a : v8_splat(0); }

/** The sum of the eight lanes in a fixed order (results do not depend on the thread count): halves, then pairs. */
RLX_ALWAYS_INLINE float v8_sum_float(v8f v) {
  typedef float v4f __attribute__((vector_size(16)));
  v4f lo, hi;
  split_halves(v, lo, hi);
  const v4f a = lo + hi;
  return (a[0] + a[1]) + (a[2] + a[3]);
}

/**
 * e^x for x in [−87, 0] (the caller clamps), eight lanes: Cephes' expf
 * (x = n ln 2 + r with ln 2 split in two, a degree-5 polynomial for e^r,
 * 2^n from its bits). Relative error below 2.5e-7 (about 2 ulp) on that
 * range; EXP8_REL_ERR is the bound the certified tests use (raster_f32.h).
 */
constexpr double EXP8_REL_ERR = 1e-6;
RLX_ALWAYS_INLINE v8f exp8_nonpositive(v8f x) {
  const v8f t = x * 1.44269504088896341f - 0.5f;
  const v8m n = __builtin_convertvector(t, v8m);  // x ≤ 0: truncation of t − ½ rounds x·log2(e) to nearest
  const v8f fn = __builtin_convertvector(n, v8f);
  v8f r = x - fn * 0.693359375f;
  r = r - fn * -2.12194440e-4f;
  // The polynomial 1 + r + r²·(P0 + P1 r + … + P5 r⁵) in Estrin's order (pairs, then powers of r²): a shorter dependency chain than Horner's.
  const v8f r2 = r * r, r4 = r2 * r2;
  const v8f p01 = 5.0000001201e-1f + 1.6666665459e-1f * r, p23 = 4.1665795894e-2f + 8.3334519073e-3f * r, p45 = 1.3981999507e-3f + 1.9875691500e-4f * r;
  const v8f p = p01 + r2 * p23 + r4 * p45;
  const v8f y = (r + 1.0f) + p * r2;
  const v8m bits = (n + 127) << 23;
  v8f scale;
  std::memcpy(&scale, &bits, 32);
  return y * scale;
}

}  // namespace splat
}  // namespace rlx
