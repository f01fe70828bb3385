// Per-op block kernels: one tight loop per (op, dtype kind), chosen once when a
// program is prepared. The semantics are those of the js backend's scalar
// rules (src/backends/js/scalar-rules.ts, codegen-expr.ts castCode): an op
// without a js rule for a dtype kind has no kernel here either.
//
// Kinds: 'f' float16/bfloat16/float32/float64 (computed in double; float32
// results are rounded by the caller, like Math.fround per op), 'i' int32
// (wrap-around), 'b' bool (0/1), 'c' complex (pairs of registers). int8/uint8
// have no kind: the compiler computes them in int32, so only cast, where,
// load and store see them.

#include "fp.h"
#include <cmath>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "complex.h"
#include "program.h"
#include "scalar.h"
#include "vmath.h"

// The build targets baseline x86-64 (SSE2) so the addon runs anywhere; the
// simple loops get an AVX2 clone picked at load time (GCC's target_clones,
// ifunc on Linux). Same IEEE operations, so the same results.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define RLX_CLONES __attribute__((target_clones("avx2", "default")))
#define RLX_AVX 1
#include <immintrin.h>
#else
#define RLX_CLONES
#endif

namespace rlx::interp {
namespace {

// ---------------------------------------------------------------------------
// Loop shapes

template <class F>
RLX_CLONES void un(double* d, double*, const Args& a, int n) {
  const double* x = a.p[0];
  for (int i = 0; i < n; i++) d[i] = F::f(x[i]);
}
template <class F>
RLX_CLONES void bin(double* d, double*, const Args& a, int n) {
  const double* x = a.p[0];
  const double* y = a.p[2];
  for (int i = 0; i < n; i++) d[i] = F::f(x[i], y[i]);
}
// The same loops with the float32 rounding of the result folded in (d[i] =
// fround(F(x[i])), what the caller's separate round32 pass gives): one pass
// over the block instead of two.
template <class F>
RLX_CLONES void unR(double* d, double*, const Args& a, int n) {
  const double* x = a.p[0];
  for (int i = 0; i < n; i++) d[i] = static_cast<double>(static_cast<float>(F::f(x[i])));
}
template <class F>
RLX_CLONES void binR(double* d, double*, const Args& a, int n) {
  const double* x = a.p[0];
  const double* y = a.p[2];
  for (int i = 0; i < n; i++) d[i] = static_cast<double>(static_cast<float>(F::f(x[i], y[i])));
}
// x·y combined with z (the fused product of prepare.cc's fuseMulAdd).
template <class F>
RLX_CLONES void tern(double* d, double*, const Args& a, int n) {
  const double* x = a.p[0];
  const double* y = a.p[2];
  const double* z = a.p[4];
  for (int i = 0; i < n; i++) d[i] = F::f(x[i], y[i], z[i]);
}
template <Cx (*F)(double, double)>
void cun(double* dr, double* di, const Args& a, int n) {
  const double *xr = a.p[0], *xi = a.p[1];
  for (int i = 0; i < n; i++) {
    const Cx r = F(xr[i], xi[i]);
    dr[i] = r.re;
    di[i] = r.im;
  }
}
template <Cx (*F)(double, double, double, double)>
RLX_CLONES void cbin(double* dr, double* di, const Args& a, int n) {
  const double *xr = a.p[0], *xi = a.p[1], *yr = a.p[2], *yi = a.p[3];
  for (int i = 0; i < n; i++) {
    const Cx r = F(xr[i], xi[i], yr[i], yi[i]);
    dr[i] = r.re;
    di[i] = r.im;
  }
}
// complex -> real
template <class F>
void cre(double* d, double*, const Args& a, int n) {
  const double *xr = a.p[0], *xi = a.p[1];
  for (int i = 0; i < n; i++) d[i] = F::f(xr[i], xi[i]);
}
// complex x complex -> real
template <class F>
void cbinre(double* d, double*, const Args& a, int n) {
  const double *xr = a.p[0], *xi = a.p[1], *yr = a.p[2], *yi = a.p[3];
  for (int i = 0; i < n; i++) d[i] = F::f(xr[i], xi[i], yr[i], yi[i]);
}

#define U(NAME, EXPR) \
  struct NAME {       \
    static inline double f([[maybe_unused]] double x) { return EXPR; } \
  };
#define B(NAME, EXPR) \
  struct NAME {       \
    static inline double f(double x, double y) { return EXPR; } \
  };
#define CR(NAME, EXPR) \
  struct NAME {        \
    static inline double f([[maybe_unused]] double r, [[maybe_unused]] double i) { return EXPR; } \
  };
#define CB(NAME, EXPR) \
  struct NAME {        \
    static inline double f(double ar, double ai, double br, double bi) { return EXPR; } \
  };

// int32 wrap of an exact integer in (-2^32, 2^32); +0 for -0 (like `x | 0`).
inline double wrap32(double x) {
  const double r = x > 2147483647.0 ? x - 4294967296.0 : x < -2147483648.0 ? x + 4294967296.0 : x;
  return r + 0.0;
}
inline int32_t i32(double x) { return jsToInt32(x); }

// float
U(FNeg, -x)
U(FAbs, std::fabs(x))
U(FSign, sign(x))
U(FLog, std::log(x))
U(FLog1p, std::log1p(x))
U(FExpm1, std::expm1(x))
U(FSin, std::sin(x))
U(FCos, std::cos(x))
U(FTan, std::tan(x))
U(FTanh, std::tanh(x))
U(FSinh, std::sinh(x))
U(FCosh, std::cosh(x))
U(FAsin, std::asin(x))
U(FAcos, std::acos(x))
U(FAtan, std::atan(x))
U(FFloor, std::floor(x))
U(FCeil, std::ceil(x))
U(FRound, std::nearbyint(x))
U(FSoftplus, softplus(x))
U(Ident, x)
U(Zero, 0.0)
U(FAngle, std::atan2(0.0, x))
U(Not, x != 0 ? 0.0 : 1.0)
B(Add, x + y)
B(Sub, x - y)
B(Mul, x * y)
B(Div, x / y)
B(FPow, powf64(x, y))
B(FMax, (x > y || x != x) ? x : y)
B(FMin, (x < y || x != x) ? x : y)
B(FAtan2, std::atan2(x, y))
B(Eq, x == y ? 1.0 : 0.0)
B(Ne, x != y ? 1.0 : 0.0)
B(Lt, x < y ? 1.0 : 0.0)
B(Le, x <= y ? 1.0 : 0.0)
B(Gt, x > y ? 1.0 : 0.0)
B(Ge, x >= y ? 1.0 : 0.0)
B(And, (x != 0 && y != 0) ? 1.0 : 0.0)
B(Or, (x != 0 || y != 0) ? 1.0 : 0.0)
// int32
U(INeg, wrap32(-x))
U(IAbs, wrap32(std::fabs(x)))
U(ISign, x > 0 ? 1.0 : x < 0 ? -1.0 : x)
B(IAdd, wrap32(x + y))
B(ISub, wrap32(x - y))
B(IMul, static_cast<double>(static_cast<int32_t>(static_cast<uint32_t>(i32(x)) * static_cast<uint32_t>(i32(y)))))
B(IPow, ipow(x, y))
B(IMax, x > y ? x : y)
B(IMin, x < y ? x : y)
// bool
B(BOr, static_cast<double>(i32(x) | i32(y)))
B(BAnd, static_cast<double>(i32(x) & i32(y)))
// complex -> real
CR(CAbs, jsHypot(r, i))
CR(CReal, r)
CR(CImag, i)
CR(CAngle, std::atan2(i, r))
CR(CNot, (r != 0 || i != 0) ? 0.0 : 1.0)
CB(CEq, (ar == br && ai == bi) ? 1.0 : 0.0)
CB(CNe, (ar != br || ai != bi) ? 1.0 : 0.0)
CB(CAnd, ((ar != 0 || ai != 0) && (br != 0 || bi != 0)) ? 1.0 : 0.0)
CB(COr, ((ar != 0 || ai != 0) || (br != 0 || bi != 0)) ? 1.0 : 0.0)

// exp, erf, gelu, sigmoid: four lanes at a time with the js backend's bits
// (vmath.h); R folds in the float32 rounding.
template <void (*F)(double*, const double*, int, bool), bool R>
void vm(double* d, double*, const Args& a, int n) {
  F(d, a.p[0], n, R);
}

// sqrt without the errno branch (which keeps compilers from vectorizing)
#if defined(RLX_AVX)
__attribute__((target("avx"))) void fsqrtAvx(double* d, const double* x, int n) {
  int i = 0;
  for (; i + 4 <= n; i += 4) _mm256_storeu_pd(d + i, _mm256_sqrt_pd(_mm256_loadu_pd(x + i)));
  for (; i < n; i++) d[i] = std::sqrt(x[i]);
}
__attribute__((target("avx"))) void frsqrtAvx(double* d, const double* x, int n) {
  int i = 0;
  const __m256d one = _mm256_set1_pd(1.0);
  for (; i + 4 <= n; i += 4) _mm256_storeu_pd(d + i, _mm256_div_pd(one, _mm256_sqrt_pd(_mm256_loadu_pd(x + i))));
  for (; i < n; i++) d[i] = 1 / std::sqrt(x[i]);
}
bool hasAvx() {
  static const bool v = (__builtin_cpu_init(), __builtin_cpu_supports("avx"));
  return v;
}
#endif
void fsqrt(double* d, double*, const Args& a, int n) {
  const double* x = a.p[0];
#if defined(RLX_AVX)
  if (hasAvx()) return fsqrtAvx(d, x, n);
#endif
  int i = 0;
#if defined(__SSE2__)
  for (; i + 2 <= n; i += 2) _mm_storeu_pd(d + i, _mm_sqrt_pd(_mm_loadu_pd(x + i)));
#endif
  for (; i < n; i++) d[i] = std::sqrt(x[i]);
}
void frsqrt(double* d, double*, const Args& a, int n) {
  const double* x = a.p[0];
#if defined(RLX_AVX)
  if (hasAvx()) return frsqrtAvx(d, x, n);
#endif
  int i = 0;
#if defined(__SSE2__)
  const __m128d one = _mm_set1_pd(1.0);
  for (; i + 2 <= n; i += 2) _mm_storeu_pd(d + i, _mm_div_pd(one, _mm_sqrt_pd(_mm_loadu_pd(x + i))));
#endif
  for (; i < n; i++) d[i] = 1 / std::sqrt(x[i]);
}

#if defined(RLX_AVX)
__attribute__((target("avx"))) void fsqrtRAvx(double* d, const double* x, int n) {
  int i = 0;
  for (; i + 4 <= n; i += 4) _mm256_storeu_pd(d + i, _mm256_cvtps_pd(_mm256_cvtpd_ps(_mm256_sqrt_pd(_mm256_loadu_pd(x + i)))));
  for (; i < n; i++) d[i] = fround(std::sqrt(x[i]));
}
#endif
void fsqrtR(double* d, double*, const Args& a, int n) {
  const double* x = a.p[0];
#if defined(RLX_AVX)
  if (hasAvx()) return fsqrtRAvx(d, x, n);
#endif
  int i = 0;
#if defined(__SSE2__)
  for (; i + 2 <= n; i += 2) _mm_storeu_pd(d + i, _mm_cvtps_pd(_mm_cvtpd_ps(_mm_sqrt_pd(_mm_loadu_pd(x + i)))));
#endif
  for (; i < n; i++) d[i] = fround(std::sqrt(x[i]));
}

inline Cx cneg(double r, double i) { return {-r, -i}; }
inline Cx cconj(double r, double i) { return {r, -i}; }
inline Cx cid(double r, double i) { return {r, i}; }
inline Cx cadd(double ar, double ai, double br, double bi) { return {ar + br, ai + bi}; }
inline Cx csub(double ar, double ai, double br, double bi) { return {ar - br, ai - bi}; }
inline Cx cmul(double ar, double ai, double br, double bi) { return {ar * br - ai * bi, ar * bi + ai * br}; }

// ---------------------------------------------------------------------------
// where, complex, cast

void whereReal(double* d, double*, const Args& a, int n) {
  const double *c = a.p[0], *x = a.p[2], *y = a.p[4];
  for (int i = 0; i < n; i++) d[i] = c[i] != 0 ? x[i] : y[i];
}
void whereCplx(double* dr, double* di, const Args& a, int n) {
  const double *c = a.p[0], *xr = a.p[2], *xi = a.p[3], *yr = a.p[4], *yi = a.p[5];
  for (int i = 0; i < n; i++) {
    dr[i] = c[i] != 0 ? xr[i] : yr[i];
    di[i] = c[i] != 0 ? xi[i] : yi[i];
  }
}
void makeComplex(double* dr, double* di, const Args& a, int n) {
  const double *x = a.p[0], *y = a.p[2];
  for (int i = 0; i < n; i++) {
    dr[i] = x[i];
    di[i] = y[i];
  }
}

// roundTo(dtype, x) of codegen-expr.ts
U(RF32, fround(x))
U(RF16, roundF16(x))
U(RBF16, roundBF16(x))
U(ToBool, x != 0 ? 1.0 : 0.0)
U(ToI32, npToInt32(x))
U(ToI8, npToInt8(x))
U(ToU8, npToUint8(x))

template <class R>
void castRealToComplex(double* dr, double* di, const Args& a, int n) {
  const double* x = a.p[0];
  const double zero = R::f(0.0);
  for (int i = 0; i < n; i++) {
    dr[i] = R::f(x[i]);
    di[i] = zero;
  }
}
template <class R>
void castComplexToComplex(double* dr, double* di, const Args& a, int n) {
  const double *xr = a.p[0], *xi = a.p[1];
  for (int i = 0; i < n; i++) {
    dr[i] = R::f(xr[i]);
    di[i] = R::f(xi[i]);
  }
}
void castComplexToBool(double* d, double*, const Args& a, int n) {
  const double *xr = a.p[0], *xi = a.p[1];
  for (int i = 0; i < n; i++) d[i] = (xr[i] != 0 || xi[i] != 0) ? 1.0 : 0.0;
}
// complex -> real: the real part through the real conversion
template <class R>
void castComplexToReal(double* d, double*, const Args& a, int n) {
  const double* xr = a.p[0];
  for (int i = 0; i < n; i++) d[i] = R::f(xr[i]);
}

OpFn castFn(int from, int to) {
  const bool cf = isComplex(from);
  if (isComplex(to)) {
    if (to == kComplex64) return cf ? castComplexToComplex<RF32> : castRealToComplex<RF32>;
    return cf ? castComplexToComplex<Ident> : castRealToComplex<Ident>;
  }
  if (to == kBool) return cf ? castComplexToBool : un<ToBool>;
  if (to == kInt32) {
    if (from == kInt32 || from == kBool || isSmallInt(from)) return un<Ident>;
    return cf ? castComplexToReal<ToI32> : un<ToI32>;
  }
  if (isSmallInt(to)) {
    if (from == to || from == kBool) return un<Ident>;
    if (to == kInt8) return cf ? castComplexToReal<ToI8> : un<ToI8>;
    return cf ? castComplexToReal<ToU8> : un<ToU8>;
  }
  switch (to) {
    case kFloat32: return cf ? castComplexToReal<RF32> : un<RF32>;
    case kFloat16: return cf ? castComplexToReal<RF16> : un<RF16>;
    case kBFloat16: return cf ? castComplexToReal<RBF16> : un<RBF16>;
    default: return cf ? castComplexToReal<Ident> : un<Ident>;
  }
}

enum Kind { kF, kI, kB, kC, kNone };
Kind kindOf(int d) {
  if (isComplex(d)) return kC;
  if (isSmallInt(d)) return kNone;
  if (d == kInt32) return kI;
  if (d == kBool) return kB;
  return kF;
}

// One entry per op: its kernel for each kind (nullptr: no rule).
struct Rule {
  OpFn f, i, b, c;
};

Rule ruleFor(int op) {
  switch (op) {
    case kNeg: return {un<FNeg>, un<INeg>, nullptr, cun<cneg>};
    case kAbs: return {un<FAbs>, un<IAbs>, un<Ident>, cre<CAbs>};
    case kSign: return {un<FSign>, un<ISign>, nullptr, cun<csign>};
    case kExp: return {vm<expBlock, false>, nullptr, nullptr, cun<cexp>};
    case kLog: return {un<FLog>, nullptr, nullptr, cun<clog>};
    case kLog1p: return {un<FLog1p>, nullptr, nullptr, cun<clog1p>};
    case kExpm1: return {un<FExpm1>, nullptr, nullptr, cun<cexpm1>};
    case kSqrt: return {fsqrt, nullptr, nullptr, cun<csqrt>};
    case kRsqrt: return {frsqrt, nullptr, nullptr, cun<crsqrt>};
    case kSin: return {un<FSin>, nullptr, nullptr, cun<csin>};
    case kCos: return {un<FCos>, nullptr, nullptr, cun<ccos>};
    case kTan: return {un<FTan>, nullptr, nullptr, cun<ctan>};
    case kTanh: return {un<FTanh>, nullptr, nullptr, cun<ctanh>};
    case kSinh: return {un<FSinh>, nullptr, nullptr, cun<csinh>};
    case kCosh: return {un<FCosh>, nullptr, nullptr, cun<ccosh>};
    case kAsin: return {un<FAsin>, nullptr, nullptr, cun<casin>};
    case kAcos: return {un<FAcos>, nullptr, nullptr, cun<cacos>};
    case kAtan: return {un<FAtan>, nullptr, nullptr, cun<catan>};
    case kFloor: return {un<FFloor>, un<Ident>, un<Ident>, nullptr};
    case kCeil: return {un<FCeil>, un<Ident>, un<Ident>, nullptr};
    case kRound: return {un<FRound>, un<Ident>, un<Ident>, nullptr};
    case kErf: return {vm<erfBlock, false>, nullptr, nullptr, nullptr};
    case kSigmoid: return {vm<sigmoidBlock, false>, nullptr, nullptr, cun<csigmoid>};
    case kSoftplus: return {un<FSoftplus>, nullptr, nullptr, nullptr};
    case kGelu: return {vm<geluBlock, false>, nullptr, nullptr, nullptr};
    case kReal: return {un<Ident>, un<Ident>, un<Ident>, cre<CReal>};
    case kImag: return {un<Zero>, un<Zero>, un<Zero>, cre<CImag>};
    case kConj: return {un<Ident>, un<Ident>, un<Ident>, cun<cconj>};
    case kAngle: return {un<FAngle>, nullptr, nullptr, cre<CAngle>};
    case kStopGradient: return {un<Ident>, un<Ident>, un<Ident>, cun<cid>};
    case kLogicalNot: return {un<Not>, un<Not>, un<Not>, cre<CNot>};
    case kAdd: return {bin<Add>, bin<IAdd>, bin<BOr>, cbin<cadd>};
    case kSub: return {bin<Sub>, bin<ISub>, nullptr, cbin<csub>};
    case kMul: return {bin<Mul>, bin<IMul>, bin<BAnd>, cbin<cmul>};
    case kDiv: return {bin<Div>, nullptr, nullptr, cbin<cdiv>};
    case kPow: return {bin<FPow>, bin<IPow>, nullptr, cbin<cpow>};
    case kMaximum: return {bin<FMax>, bin<IMax>, bin<BOr>, nullptr};
    case kMinimum: return {bin<FMin>, bin<IMin>, bin<BAnd>, nullptr};
    case kAtan2: return {bin<FAtan2>, nullptr, nullptr, nullptr};
    case kEq: return {bin<Eq>, bin<Eq>, bin<Eq>, cbinre<CEq>};
    case kNe: return {bin<Ne>, bin<Ne>, bin<Ne>, cbinre<CNe>};
    case kLt: return {bin<Lt>, bin<Lt>, bin<Lt>, nullptr};
    case kLe: return {bin<Le>, bin<Le>, bin<Le>, nullptr};
    case kGt: return {bin<Gt>, bin<Gt>, bin<Gt>, nullptr};
    case kGe: return {bin<Ge>, bin<Ge>, bin<Ge>, nullptr};
    case kLogicalAnd: return {bin<And>, bin<And>, bin<And>, cbinre<CAnd>};
    case kLogicalOr: return {bin<Or>, bin<Or>, bin<Or>, cbinre<COr>};
    default: return {nullptr, nullptr, nullptr, nullptr};
  }
}

int realOf(int d) { return d == kComplex64 ? kFloat32 : d == kComplex128 ? kFloat64 : d; }

// ---------------------------------------------------------------------------
// Float32 kernels (opForF32): the float operation, the same bits as the
// double one rounded to float32.

template <class F>
RLX_CLONES void un32(float* d, const float* const* a, int n) {
  const float* x = a[0];
  for (int i = 0; i < n; i++) d[i] = F::f(x[i]);
}
template <class F>
RLX_CLONES void bin32(float* d, const float* const* a, int n) {
  const float* x = a[0];
  const float* y = a[1];
  for (int i = 0; i < n; i++) d[i] = F::f(x[i], y[i]);
}
RLX_CLONES void where32(float* d, const float* const* a, int n) {
  const float *c = a[0], *x = a[1], *y = a[2];
  for (int i = 0; i < n; i++) d[i] = c[i] != 0 ? x[i] : y[i];
}
#define U32(NAME, EXPR) \
  struct NAME {         \
    static inline float f(float x) { return EXPR; } \
  };
#define B32(NAME, EXPR) \
  struct NAME {         \
    static inline float f(float x, float y) { return EXPR; } \
  };
U32(Neg32, -x)
U32(Abs32, std::fabs(x))
B32(Add32, x + y)
B32(Sub32, x - y)
B32(Mul32, x * y)
B32(Div32, x / y)
B32(Max32, (x > y || x != x) ? x : y)
B32(Min32, (x < y || x != x) ? x : y)
B32(Eq32, x == y ? 1.0f : 0.0f)
B32(Ne32, x != y ? 1.0f : 0.0f)
B32(Lt32, x < y ? 1.0f : 0.0f)
B32(Le32, x <= y ? 1.0f : 0.0f)
B32(Gt32, x > y ? 1.0f : 0.0f)
B32(Ge32, x >= y ? 1.0f : 0.0f)
#if defined(RLX_AVX)
__attribute__((target("avx"))) void sqrt32Avx(float* d, const float* x, int n) {
  int i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(d + i, _mm256_sqrt_ps(_mm256_loadu_ps(x + i)));
  for (; i < n; i++) d[i] = std::sqrt(x[i]);
}
#endif
void sqrt32(float* d, const float* const* a, int n) {
  const float* x = a[0];
#if defined(RLX_AVX)
  if (hasAvx()) return sqrt32Avx(d, x, n);
#endif
  int i = 0;
#if defined(__SSE2__)
  for (; i + 4 <= n; i += 4) _mm_storeu_ps(d + i, _mm_sqrt_ps(_mm_loadu_ps(x + i)));
#endif
  for (; i < n; i++) d[i] = std::sqrt(x[i]);
}

}  // namespace

F32Fn opForF32(int op, int inT, int outT) {
  if (op == kWhere) return outT == kFloat32 ? where32 : nullptr;
  if (inT != kFloat32 || expectedOut(op, inT) != outT) return nullptr;
  switch (op) {
    case kNeg: return un32<Neg32>;
    case kAbs: return un32<Abs32>;
    case kSqrt: return sqrt32;
    case kAdd: return bin32<Add32>;
    case kSub: return bin32<Sub32>;
    case kMul: return bin32<Mul32>;
    case kDiv: return bin32<Div32>;
    case kMaximum: return bin32<Max32>;
    case kMinimum: return bin32<Min32>;
    case kEq: return bin32<Eq32>;
    case kNe: return bin32<Ne32>;
    case kLt: return bin32<Lt32>;
    case kLe: return bin32<Le32>;
    case kGt: return bin32<Gt32>;
    case kGe: return bin32<Ge32>;
    default: return nullptr;
  }
}

// The output dtype primitives.ts infers for op on inT (-1: not an op of this table).
int expectedOut(int op, int inT) {
  switch (op) {
    case kAbs:
    case kReal:
    case kImag:
    case kAngle: return realOf(inT);
    case kLogicalNot:
    case kEq:
    case kNe:
    case kLt:
    case kLe:
    case kGt:
    case kGe:
    case kLogicalAnd:
    case kLogicalOr: return kBool;
    default: return op >= kNeg && op < kNumOpcodes ? inT : -1;
  }
}

namespace {
struct MulAdd {
  static inline double f(double x, double y, double z) { return x * y + z; }
};
struct AddMul {
  static inline double f(double x, double y, double z) { return z + x * y; }
};
struct MulSub {
  static inline double f(double x, double y, double z) { return x * y - z; }
};
struct SubMul {
  static inline double f(double x, double y, double z) { return z - x * y; }
};
}  // namespace

OpFn mulAddFor(bool sub, bool productFirst) {
  if (sub) return productFirst ? tern<MulSub> : tern<SubMul>;
  return productFirst ? tern<MulAdd> : tern<AddMul>;
}

OpFn opFor(int op, int inT, int outT) {
  if (op == kCast) return castFn(inT, outT);
  if (op == kWhere) return isComplex(outT) ? whereCplx : whereReal;
  if (op == kComplex) return makeComplex;
  if (expectedOut(op, inT) != outT) return nullptr;
  const Rule r = ruleFor(op);
  switch (kindOf(inT)) {
    case kF: return r.f;
    case kI: return r.i;
    case kB: return r.b;
    case kNone: return nullptr;
    default: return r.c;
  }
}

OpFn opForRounded(int op, int inT, int outT) {
  if (outT != kFloat32 || inT != kFloat32 || expectedOut(op, inT) != outT) return nullptr;
  switch (op) {
    case kNeg: return unR<FNeg>;
    case kAbs: return unR<FAbs>;
    case kSqrt: return fsqrtR;
    case kExp: return vm<expBlock, true>;
    case kErf: return vm<erfBlock, true>;
    case kSigmoid: return vm<sigmoidBlock, true>;
    case kGelu: return vm<geluBlock, true>;
    case kAdd: return binR<Add>;
    case kSub: return binR<Sub>;
    case kMul: return binR<Mul>;
    case kDiv: return binR<Div>;
    case kMaximum: return binR<FMax>;
    case kMinimum: return binR<FMin>;
    default: return nullptr;
  }
}

}  // namespace rlx::interp
