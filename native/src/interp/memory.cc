// Loads and stores of the interpreter: strided runs of TypedArray memory
// converted to and from the double registers (float16/bfloat16 decoded on
// load and encoded on store, complex values interleaved in memory and split
// into two registers), with the conversions a TypedArray store makes.

#include "fp.h"
#include <algorithm>
#include <cstring>
#include <type_traits>
#include "exec.h"
#include "scalar.h"

namespace rlx::interp {
namespace {

// ---------------------------------------------------------------------------
// Loads: strided runs converted to double.

// The float32 runs (the most common loads and stores) get an AVX2 clone
// (same conversions, so the same values).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define RLX_MEM_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define RLX_MEM_CLONES
#endif
RLX_MEM_CLONES void loadF32(const float* p, int m, double* dr) {
  for (int i = 0; i < m; i++) dr[i] = static_cast<double>(p[i]);
}
RLX_MEM_CLONES void storeF32(float* o, const double* v, int n) {
  for (int i = 0; i < n; i++) o[i] = static_cast<float>(v[i]);
}
// Contiguous complex runs split into (or joined from) the real and imaginary
// registers: fixed strides, so the AVX2 clone shuffles whole vectors (the
// strided loop below does one element at a time: ~1/3 of a complex128
// multiply's time on a 256×129 spectrum went to the two loads and the store).
template <class T>
RLX_MEM_CLONES void deinterleave(const T* p, int m, double* dr, double* di) {
  for (int i = 0; i < m; i++) {
    dr[i] = static_cast<double>(p[2 * i]);
    di[i] = static_cast<double>(p[2 * i + 1]);
  }
}
template <class T>
RLX_MEM_CLONES void interleave(T* o, const double* vr, const double* vi, int n) {
  for (int i = 0; i < n; i++) {
    o[2 * i] = static_cast<T>(vr[i]);
    o[2 * i + 1] = static_cast<T>(vi[i]);
  }
}

template <int D>
inline void convRun(const char* base, int64_t off, int64_t st, int m, double* dr, double* di) {
  if constexpr (D == kComplex64 || D == kComplex128) {
    using T = std::conditional_t<D == kComplex64, float, double>;
    const T* p = reinterpret_cast<const T*>(base) + 2 * off;
    if (st == 1) return deinterleave<T>(p, m, dr, di);
    const int64_t s2 = 2 * st;
    for (int i = 0; i < m; i++) {
      dr[i] = p[i * s2];
      di[i] = p[i * s2 + 1];
    }
  } else {
    using T = std::conditional_t<D == kBool || D == kUInt8, uint8_t,
              std::conditional_t<D == kInt8, int8_t,
              std::conditional_t<D == kInt32, int32_t,
              std::conditional_t<D == kFloat32, float,
              std::conditional_t<D == kFloat64, double, uint16_t>>>>>;
    const T* p = reinterpret_cast<const T*>(base) + off;
    auto cv = [](T v) -> double {
      if constexpr (D == kFloat16) return f16ToDouble(v);
      else if constexpr (D == kBFloat16) return bf16ToDouble(v);
      else return static_cast<double>(v);
    };
    if (st == 1) {
      if constexpr (D == kFloat32) return loadF32(p, m, dr);
      for (int i = 0; i < m; i++) dr[i] = cv(p[i]);
    } else if (st == 0) {
      const double v = cv(p[0]);
      for (int i = 0; i < m; i++) dr[i] = v;
    } else {
      for (int i = 0; i < m; i++) dr[i] = cv(p[i * st]);
    }
  }
}

template <int D>
void gather(const Geo& g, const Space& s, const int64_t* idx0, int n, double* dr, double* di) {
  int64_t idx[kMaxDims];
  const int last = s.nd - 1;
  int64_t row = g.off;
  for (int k = 0; k < last; k++) {
    idx[k] = idx0[k];
    row += idx[k] * g.st[k];
  }
  const int64_t sIn = g.st[last], dIn = s.dim[last];
  int64_t j = idx0[last];
  int i = 0;
  for (;;) {
    const int m = static_cast<int>(std::min<int64_t>(n - i, dIn - j));
    if (m <= 0) {
      // An empty space (a zero-size dim): nothing to read; the values are never used.
      for (; i < n; i++) dr[i] = 0, di ? (di[i] = 0) : 0.0;
      break;
    }
    convRun<D>(g.base, row + j * sIn, sIn, m, dr + i, di ? di + i : nullptr);
    i += m;
    if (i >= n) break;
    j = 0;
    for (int k = last - 1; k >= 0; k--) {
      row += g.st[k];
      if (++idx[k] < s.dim[k]) break;
      row -= g.st[k] * s.dim[k];
      idx[k] = 0;
    }
  }
}

}  // namespace

void gatherAny(const Geo& g, const Space& s, const int64_t* idx, int n, double* dr, double* di) {
  switch (g.dtype) {
    case kBool: return gather<kBool>(g, s, idx, n, dr, di);
    case kInt8: return gather<kInt8>(g, s, idx, n, dr, di);
    case kUInt8: return gather<kUInt8>(g, s, idx, n, dr, di);
    case kInt32: return gather<kInt32>(g, s, idx, n, dr, di);
    case kFloat16: return gather<kFloat16>(g, s, idx, n, dr, di);
    case kBFloat16: return gather<kBFloat16>(g, s, idx, n, dr, di);
    case kFloat32: return gather<kFloat32>(g, s, idx, n, dr, di);
    case kFloat64: return gather<kFloat64>(g, s, idx, n, dr, di);
    case kComplex64: return gather<kComplex64>(g, s, idx, n, dr, di);
    default: return gather<kComplex128>(g, s, idx, n, dr, di);
  }
}

// Stores n values contiguously at element f0 of out, with the conversion a
// TypedArray store (or the js kernels' f16/bf16 encoders) makes.
void store(int outT, char* out, int64_t f0, int n, const double* vr, const double* vi) {
  switch (outT) {
    case kBool:
    case kUInt8: {
      uint8_t* o = reinterpret_cast<uint8_t*>(out) + f0;
      for (int i = 0; i < n; i++) o[i] = jsToUint8(vr[i]);
      return;
    }
    case kInt8: {
      int8_t* o = reinterpret_cast<int8_t*>(out) + f0;
      for (int i = 0; i < n; i++) o[i] = jsToInt8(vr[i]);
      return;
    }
    case kInt32: {
      int32_t* o = reinterpret_cast<int32_t*>(out) + f0;
      for (int i = 0; i < n; i++) o[i] = jsToInt32(vr[i]);
      return;
    }
    case kFloat16: {
      uint16_t* o = reinterpret_cast<uint16_t*>(out) + f0;
      for (int i = 0; i < n; i++) o[i] = doubleToF16(vr[i]);
      return;
    }
    case kBFloat16: {
      uint16_t* o = reinterpret_cast<uint16_t*>(out) + f0;
      for (int i = 0; i < n; i++) o[i] = doubleToBF16(vr[i]);
      return;
    }
    case kFloat32: {
      storeF32(reinterpret_cast<float*>(out) + f0, vr, n);
      return;
    }
    case kFloat64: {
      double* o = reinterpret_cast<double*>(out) + f0;
      if (o != vr) std::memmove(o, vr, sizeof(double) * n);
      return;
    }
    case kComplex64:
      return interleave<float>(reinterpret_cast<float*>(out) + 2 * f0, vr, vi, n);
    default:
      return interleave<double>(reinterpret_cast<double*>(out) + 2 * f0, vr, vi, n);
  }
}

}  // namespace rlx::interp
