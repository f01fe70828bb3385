// Four-lane exp, erf, gelu and sigmoid for the block interpreter (vmath.h).
//
// Each function is the scalar one (expJs, special.cc erf/erfc, scalar.h
// gelu/sigmoid) with its branches turned into lanes, so that each lane sees
// exactly the IEEE operations of its scalar branch, in the same order (the
// build forbids FMA contraction):
// - exp and sigmoid: fdlibm's exp branches differ only in a few selects, so
//   every group of four takes them all (blockBody);
// - erf and gelu: each branch (|x| small, near one, the erfc tail) is a
//   group function run only over the values of that branch: a block's
//   values are first sorted by branch (sortedBody; with AVX2 four at a time
//   by a permute table), each branch runs over its own, and the results go
//   back to their places. Computing every branch for a mixed group, as exp
//   does, costs more than the scalar code (the tail alone is 5 divisions).
// Values outside the ranges handled here (NaN, ±inf, exp's |x| > 708 where
// fdlibm scales subnormal or overflowing results, erf's |x| >= 6, erfc's
// far tail) are computed by the scalar function.
//
// The bodies are always-inline templates compiled twice, for the x86-64
// baseline (SSE2 pairs) and in __attribute__((target("avx2"))) wrappers, and
// picked once per process.
//
// fdlibm's notice (e_exp.c, s_erf.c), which its licence asks us to keep with
// its algorithms and coefficients:
//   Copyright (C) 1993, 2004 by Sun Microsystems, Inc. All rights reserved.
//   Permission to use, copy, modify, and distribute this software is freely
//   granted, provided that this notice is preserved.

#include "fp.h"
#include "vmath.h"
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include "scalar.h"
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace rlx::interp {
namespace {

// GCC/Clang vector extensions (the addon needs GCC or Clang: splat/simd.h).
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
#define VINLINE inline __attribute__((always_inline))

typedef double v4d __attribute__((vector_size(32)));
typedef int64_t v4m __attribute__((vector_size(32)));
typedef int32_t v4i __attribute__((vector_size(16)));
typedef float v4f __attribute__((vector_size(16)));

VINLINE v4d splat(double x) { return v4d{x, x, x, x}; }
VINLINE v4d load(const double* p) {
  v4d v;
  std::memcpy(&v, p, 32);
  return v;
}
VINLINE void storeTo(double* p, v4d v) { std::memcpy(p, &v, 32); }
VINLINE v4m bitsOf(v4d x) {
  v4m m;
  std::memcpy(&m, &x, 32);
  return m;
}
VINLINE v4d fromBits(v4m m) {
  v4d x;
  std::memcpy(&x, &m, 32);
  return x;
}
VINLINE double dbl(uint64_t bits) {
  double x;
  std::memcpy(&x, &bits, 8);
  return x;
}
/** m ? a : b per lane (m all ones or zero per lane). */
VINLINE v4d sel(v4m m, v4d a, v4d b) { return fromBits((bitsOf(a) & m) | (bitsOf(b) & ~m)); }
/** The lanes of a mask as four bits (splat/simd.h's v4_bits: two movmskpd on x86). */
VINLINE int lanes(v4m m) { return splat::v4_bits(m); }
VINLINE v4d vabs(v4d x) { return fromBits(bitsOf(x) & 0x7fffffffffffffffll); }
VINLINE v4m signOf(v4d x) { return bitsOf(x) & static_cast<int64_t>(0x8000000000000000ull); }
template <bool R>
VINLINE v4d rounded(v4d y) {
  if constexpr (R) return __builtin_convertvector(__builtin_convertvector(y, v4f), v4d);
  return y;
}

// --- exp ----------------------------------------------------------------
namespace fd = splat::fdlibm;

/**
 * fdlibm's exp on lanes with |x| <= 708 (no overflow, no subnormal result):
 * |x| < 2^-28 gives 1 + x; |x| <= ½ ln 2 (high word <= 0x3fd62e42) takes
 * k = 0, hi = x, lo = +0, where 1 − ((lo − q/(2 − c)) − hi) is fdlibm's
 * 1 − (q/(c − 2) − x) exactly; otherwise k = (int)(x/ln2 ± ½) (truncation),
 * which is ±1 with fdlibm's own hi and lo on ½ ln 2 < |x| < 1.5 ln 2; 2^k
 * scales exactly (k >= −1021). x = 1 gives Math.E, as V8's exp.
 */
VINLINE v4d exp4(v4d x) {
  const v4d ax = vabs(x);
  const v4m reduce = ax >= dbl(0x3fd62e4300000000ull);
  const v4m tiny = ax < dbl(0x3e30000000000000ull);
  const v4d half = fromBits(bitsOf(splat(0.5)) | signOf(x));
  const v4i k = __builtin_convertvector(fd::invln2 * x + half, v4i);
  const v4d t = sel(reduce, __builtin_convertvector(k, v4d), splat(0.0));
  const v4d hi = sel(reduce, x - t * fd::ln2HI, x);
  const v4d lo = t * fd::ln2LO;
  const v4d r = hi - lo;
  const v4d rr = r * r;
  const v4d c = r - rr * (fd::P1 + rr * (fd::P2 + rr * (fd::P3 + rr * (fd::P4 + rr * fd::P5))));
  const v4d y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
  const v4m kk = __builtin_convertvector(k, v4m) & reduce;
  return sel(tiny, 1.0 + x, sel(x == 1.0, splat(kE), y * fromBits((kk + 1023) << 52)));
}
constexpr double kExpFast = 708.0;

// --- erf / erfc pieces (special.cc) ---------------------------------------
#include "erf_coeffs.h"  // EFX, PP*, QQ*, ERX, PA*, QA*, RA*, SA*, RB*, SB*

/** special.cc erfSmallR: R(x²) with erf(x) = x + x·R (|x| < 0.84375); even in x, so a = |x| serves. */
VINLINE v4d smallR(v4d a) {
  const v4d z = a * a;
  const v4d r = PP0 + z * (PP1 + z * (PP2 + z * (PP3 + z * PP4)));
  const v4d s = 1.0 + z * (QQ1 + z * (QQ2 + z * (QQ3 + z * (QQ4 + z * QQ5))));
  return r / s;
}
/** erfNearOne: P/Q at s = a − 1 (0.84375 <= a < 1.25). */
VINLINE v4d nearOne(v4d a) {
  const v4d s = a - 1.0;
  const v4d p = PA0 + s * (PA1 + s * (PA2 + s * (PA3 + s * (PA4 + s * (PA5 + s * PA6)))));
  const v4d q = 1.0 + s * (QA1 + s * (QA2 + s * (QA3 + s * (QA4 + s * (QA5 + s * QA6)))));
  return p / q;
}
/**
 * erfcTail for 1.25 <= a < 26 (both exp arguments then within exp4's
 * range). The two rational functions as one with per-lane coefficients: the
 * shorter (a >= 1/0.35) gets a zero top coefficient, and c + s·0 is c
 * exactly (s > 0), so each lane computes its own polynomial's bits.
 */
VINLINE v4d tail(v4d a) {
  const v4d s = 1.0 / (a * a);
  const v4m m = a < 2.857142857142857;
  auto k = [&](double ca, double cb) { return sel(m, splat(ca), splat(cb)); };
  const v4d r = k(RA0, RB0) + s * (k(RA1, RB1) + s * (k(RA2, RB2) + s * (k(RA3, RB3) + s * (k(RA4, RB4) + s * (k(RA5, RB5) + s * (k(RA6, RB6) + s * k(RA7, 0.0)))))));
  const v4d q = 1.0 + s * (k(SA1, SB1) + s * (k(SA2, SB2) + s * (k(SA3, SB3) + s * (k(SA4, SB4) + s * (k(SA5, SB5) + s * (k(SA6, SB6) + s * (k(SA7, SB7) + s * k(SA8, 0.0))))))));
  const v4d z = fromBits(bitsOf(a) & static_cast<int64_t>(0xffffffff00000000ull));
  return (exp4(-z * z - 0.5625) * exp4((z - a) * (z + a) + r / q)) / a;
}
constexpr double kTailFast = 26.0;  // tail() is used below it

// erf and gelu: one group function per branch (small |x|, near one, the
// tail), each run only on lanes of its branch (sortedBody).

/** v with the sign of x flipped in when x is negative (−0 too). */
VINLINE v4d withSignOf(v4d v, v4d x) { return fromBits(bitsOf(v) ^ signOf(x)); }
// erf is odd and each branch is exact under a sign flip: x + x·R(x) is
// −(a + a·R(a)) for x = −a (−0 included), the others return x < 0 ? −v : v.
VINLINE v4d erfSmall(v4d x) {
  const v4d a = vabs(x);
  return withSignOf(sel(a < 3.725290298461914e-9, a + EFX * a, a + a * smallR(a)), x);
}
VINLINE v4d erfMid(v4d x) { return withSignOf(ERX + nearOne(vabs(x)), x); }
VINLINE v4d erfTail(v4d x) { return withSignOf(1.0 - tail(vabs(x)), x); }
/** 0: |x| < 0.84375, 1: < 1.25, 2: < 6, 3: the rest and NaN (the scalar erf: ±1, NaN). */
VINLINE int erfClass(double x) {
  const double a = x < 0 ? -x : x;
  return !(a < 0.84375) + !(a < 1.25) + !(a < 6.0);
}

// scalar.h gelu: 0.5·x·erfc(a) for x < 0 and 0.5·x·(1 + erf(a)) otherwise,
// a = |x·SQRT1_2| (−x·SQRT1_2 for x < 0; erf(±0) only enters as 1 + erf).
constexpr double kSqrt1_2 = 0.70710678118654757;  // Math.SQRT1_2
VINLINE v4d geluSmall(v4d x) {
  const v4d a = vabs(x * kSqrt1_2), R = smallR(a);
  const v4d erfc = sel(a < 1.3877787807814457e-17, 1.0 - a, sel(a < 0.25, 1.0 - (a + a * R), 0.5 - (a * R + (a - 0.5))));
  const v4d erf = sel(a < 3.725290298461914e-9, a + EFX * a, a + a * R);
  return 0.5 * x * sel(x < 0.0, erfc, 1.0 + erf);
}
VINLINE v4d geluMid(v4d x) {
  const v4d pq = nearOne(vabs(x * kSqrt1_2));
  return 0.5 * x * sel(x < 0.0, 1.0 - ERX - pq, 1.0 + (ERX + pq));
}
VINLINE v4d geluTail(v4d x) {
  const v4d t = tail(vabs(x * kSqrt1_2));
  return 0.5 * x * sel(x < 0.0, t, 1.0 + (1.0 - t));
}
/** erfClass on four lanes: the four classes' masks. */
VINLINE void erfClassV(v4d x, v4m* m) {
  const v4d a = vabs(x);
  const v4m l0 = a < 0.84375, l1 = a < 1.25, l2 = a < 6.0;
  m[0] = l0, m[1] = ~l0 & l1, m[2] = ~l1 & l2, m[3] = ~l2;
}
/** 0: a < 0.84375, 1: < 1.25, 2: the tail (erfc's below kTailFast, erf's below 6), 3: the rest, ±inf, NaN. */
VINLINE int geluClass(double x) {
  const double u = x * kSqrt1_2, a = u < 0 ? -u : u;
  const double tailEnd = 6.0 + (kTailFast - 6.0) * static_cast<double>(x < 0);  // no branch on the sign
  return !(a < 0.84375) + !(a < 1.25) + !(a < tailEnd);
}
/** geluClass on four lanes: the four classes' masks. */
VINLINE void geluClassV(v4d x, v4m* m) {
  const v4d a = vabs(x * kSqrt1_2);
  const v4m l0 = a < 0.84375, l1 = a < 1.25, l2 = a < sel(x < 0.0, splat(kTailFast), splat(6.0));
  m[0] = l0, m[1] = ~l0 & l1, m[2] = ~l1 & l2, m[3] = ~l2;
}

// --- exp and sigmoid on one group of four ---------------------------------
// Each returns the lanes' values and sets `slow` to the lanes the caller
// must recompute with the scalar function.

VINLINE v4d expGroup(v4d x, int& slow) {
  slow = lanes(~(vabs(x) <= kExpFast));
  return exp4(x);
}
/** scalar.h sigmoid: e = exp(−|x|) is exp(−x) for x >= 0 and exp(x) below. */
VINLINE v4d sigmoidGroup(v4d x, int& slow) {
  const v4d e = exp4(-vabs(x));
  slow = lanes(~(vabs(x) <= kExpFast));
  return sel(x >= 0.0, 1.0 / (1.0 + e), e / (1.0 + e));
}

template <double (*Scalar)(double), v4d (*Group)(v4d, int&), bool A2, bool R>
VINLINE void blockBody(double* d, const double* x, int n) {
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    const v4d xv = load(x + i);
    int slow;
    v4d y = Group(xv, slow);
    if (slow) {
      for (int l = 0; l < 4; l++)
        if (slow & (1 << l)) y[l] = Scalar(xv[l]);
    }
    storeTo(d + i, rounded<R>(y));
  }
  for (; i < n; i++) d[i] = R ? fround(Scalar(x[i])) : Scalar(x[i]);
}

// sortedBody: f over a block whose values take different branches (erf,
// gelu): sorted by branch (Cls / ClsV: 0, 1, 2 vectorized by G0, G1, G2, 3
// the scalar function), each branch run over its own values four at a time
// (its last group padded with its first value), the results put back.
constexpr int kSortMax = 256;  // values sorted at a time
using SortPlaces = int32_t[4][kSortMax + 4];
using SortValues = double[4][kSortMax + 4];

template <v4d (*G)(v4d), bool R>
VINLINE void runBranch(double* d, double* px, const int32_t* pi, int k, double* py) {
  if (!k) return;
  for (int j = k; j & 3; j++) px[j] = px[0];
  for (int j = 0; j < k; j += 4) storeTo(py + j, rounded<R>(G(load(px + j))));
  for (int j = 0; j < k; j++) d[pi[j]] = py[j];
}

/**
 * Sorts x[i0..m) into px/pi by Cls, after cnt[c] values already there. The
 * four counts are packed in one register (16 bits each): an array of counts
 * would chain every element through a store and a reload.
 */
template <int (*Cls)(double)>
VINLINE void sortScalar(const double* x, int i0, int m, SortValues& px, SortPlaces& pi, int* cnt) {
  uint64_t counts = 0;
  for (int c = 0; c < 4; c++) counts |= static_cast<uint64_t>(cnt[c]) << (16 * c);
  for (int i = i0; i < m; i++) {
    const double v = x[i];
    const int c = Cls(v);
    const int at = static_cast<int>((counts >> (16 * c)) & 0xffff);
    px[c][at] = v;
    pi[c][at] = i;
    counts += uint64_t(1) << (16 * c);
  }
  for (int c = 0; c < 4; c++) cnt[c] = static_cast<int>((counts >> (16 * c)) & 0xffff);
}

#if defined(__x86_64__) || defined(__i386__)
// AVX2 sorting: four values at a time, each class's lanes moved to the
// front with one permute (the table below, by the class's lane bits) and
// stored at that class's end, whole (the arrays have 4 spare slots).
struct CompressTable {
  int32_t pairs[16][8];  // _mm256_permutevar8x32_epi32: 64-bit lanes as int32 pairs
  int32_t ones[16][4];   // _mm_permutevar_ps: 32-bit lanes
  int32_t count[16];
};
constexpr CompressTable makeCompressTable() {
  CompressTable t{};
  for (int m = 0; m < 16; m++) {
    int k = 0;
    for (int l = 0; l < 4; l++)
      if (m & (1 << l)) {
        t.pairs[m][2 * k] = 2 * l;
        t.pairs[m][2 * k + 1] = 2 * l + 1;
        t.ones[m][k] = l;
        k++;
      }
    t.count[m] = k;
  }
  return t;
}
alignas(32) constexpr CompressTable kCompress = makeCompressTable();

/** sortScalar four lanes at a time (ClsV: the four class masks of a group); returns where it stopped. */
template <void (*ClsV)(v4d, v4m*)>
__attribute__((target("avx2"), noinline)) int sortAvx2(const double* x, int m, SortValues& px, SortPlaces& pi, int* cnt) {
  int i = 0;
  int n0 = cnt[0], n1 = cnt[1], n2 = cnt[2], n3 = cnt[3];  // in registers (the stores below could alias cnt)
  for (; i + 4 <= m; i += 4) {
    const v4d v = load(x + i);
    v4m cm[4];
    ClsV(v, cm);
    __m256i vb;
    std::memcpy(&vb, &v, 32);
    const __m128i at = _mm_add_epi32(_mm_set1_epi32(i), _mm_setr_epi32(0, 1, 2, 3));
#define RLX_VMATH_PUT(c, k)                                                                                               \
  do {                                                                                                                    \
    const int bits = lanes(cm[c]);                                                                                        \
    const __m256i pv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kCompress.pairs[bits]));                       \
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(px[c] + k), _mm256_permutevar8x32_epi32(vb, pv));                      \
    const __m128i pa = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kCompress.ones[bits]));                          \
    _mm_storeu_si128(reinterpret_cast<__m128i*>(pi[c] + k), _mm_castps_si128(_mm_permutevar_ps(_mm_castsi128_ps(at), pa))); \
    k += kCompress.count[bits];                                                                                           \
  } while (0)
    RLX_VMATH_PUT(0, n0);
    RLX_VMATH_PUT(1, n1);
    RLX_VMATH_PUT(2, n2);
    if (lanes(cm[3])) RLX_VMATH_PUT(3, n3);  // rare (NaN, ±inf, the far tails): a predictable branch
#undef RLX_VMATH_PUT
  }
  cnt[0] = n0, cnt[1] = n1, cnt[2] = n2, cnt[3] = n3;
  return i;
}
#endif

template <double (*Scalar)(double), int (*Cls)(double), void (*ClsV)(v4d, v4m*), v4d (*G0)(v4d), v4d (*G1)(v4d), v4d (*G2)(v4d), bool A2, bool R>
VINLINE void sortedBody(double* d, const double* x, int n) {
  alignas(32) SortValues px;
  alignas(32) double py[kSortMax + 4];
  SortPlaces pi;
  for (int b = 0; b < n; b += kSortMax) {
    const int m = n - b < kSortMax ? n - b : kSortMax;
    int cnt[4] = {0, 0, 0, 0};
    int i = 0;
#if defined(__x86_64__) || defined(__i386__)
    if constexpr (A2) i = sortAvx2<ClsV>(x + b, m, px, pi, cnt);
#endif
    sortScalar<Cls>(x + b, i, m, px, pi, cnt);
    runBranch<G0, R>(d + b, px[0], pi[0], cnt[0], py);
    runBranch<G1, R>(d + b, px[1], pi[1], cnt[1], py);
    runBranch<G2, R>(d + b, px[2], pi[2], cnt[2], py);
    for (int j = 0; j < cnt[3]; j++) {
      const double v = Scalar(px[3][j]);
      d[b + pi[3][j]] = R ? fround(v) : v;
    }
  }
}

double geluS(double x) { return gelu(x); }
double sigmoidS(double x) { return sigmoid(x); }

#if defined(__x86_64__) || defined(__i386__)
#define RLX_VMATH_AVX2 __attribute__((target("avx2")))
bool avx2() {
  __builtin_cpu_init();
  const char* b = std::getenv("RLX_INTERP_BASELINE");
  return __builtin_cpu_supports("avx2") && !(b && b[0] == '1');
}
#else
#define RLX_VMATH_AVX2
bool avx2() { return false; }
#endif

using BlockFn = void (*)(double*, const double*, int);
struct Fns {
  BlockFn f, fR;
};

// NAME##Fns: the block functions BODY<__VA_ARGS__, avx2, round32>, baseline and AVX2 builds.
#define RLX_VMATH_FNS(NAME, BODY, ...)                                                                           \
  void NAME##Base(double* d, const double* x, int n) { BODY<__VA_ARGS__, false, false>(d, x, n); }               \
  void NAME##BaseR(double* d, const double* x, int n) { BODY<__VA_ARGS__, false, true>(d, x, n); }               \
  RLX_VMATH_AVX2 void NAME##Avx2(double* d, const double* x, int n) { BODY<__VA_ARGS__, true, false>(d, x, n); } \
  RLX_VMATH_AVX2 void NAME##Avx2R(double* d, const double* x, int n) { BODY<__VA_ARGS__, true, true>(d, x, n); } \
  const Fns NAME##Fns = avx2() ? Fns{NAME##Avx2, NAME##Avx2R} : Fns{NAME##Base, NAME##BaseR};

RLX_VMATH_FNS(exp, blockBody, expJs, expGroup)
RLX_VMATH_FNS(sigmoid, blockBody, sigmoidS, sigmoidGroup)
RLX_VMATH_FNS(erf, sortedBody, erf, erfClass, erfClassV, erfSmall, erfMid, erfTail)
RLX_VMATH_FNS(gelu, sortedBody, geluS, geluClass, geluClassV, geluSmall, geluMid, geluTail)


}  // namespace

void expBlock(double* d, const double* x, int n, bool r32) { (r32 ? expFns.fR : expFns.f)(d, x, n); }
void erfBlock(double* d, const double* x, int n, bool r32) { (r32 ? erfFns.fR : erfFns.f)(d, x, n); }
void geluBlock(double* d, const double* x, int n, bool r32) { (r32 ? geluFns.fR : geluFns.f)(d, x, n); }
void sigmoidBlock(double* d, const double* x, int n, bool r32) { (r32 ? sigmoidFns.fR : sigmoidFns.f)(d, x, n); }

}  // namespace rlx::interp
