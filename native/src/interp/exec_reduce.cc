// Reductions of the block interpreter (exec.h): the prologue space (kept
// dims, then reduced dims) is walked flat, so each output's values arrive in
// the js backend's order and are accumulated sequentially in double
// (bit-identical sums; a reduction of kSplitR or more elements per output is
// instead cut into chunks, see reduceChunk / reduceCombine and exec.h, and
// its sums differ from the js order by rounding); outputs are done in chunks
// of kBlock, after which the epilogue runs over the chunk with 'acc' = the
// reduced values. max/min/argmax/argmin first find a run's extreme with a
// branch-free vector scan and fall back to the sequential js rule only where
// it can matter (NaN, ±0). The sections themselves are evaluated by
// exec_block.h's functions (exec.cc).

#include "fp.h"
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "exec.h"
#include "exec_block.h"
#include "scalar.h"

namespace rlx::interp {

namespace {

// ---------------------------------------------------------------------------
// Reductions

// The extreme (max for max/argmax, min for min/argmin) of x[0..n), or NaN
// when some x is NaN. Order does not matter for the extreme of NaN-free
// values except for which of ±0 comes first, which the caller handles, so
// the scan keeps several independent vector accumulators (SSE2, or AVX when
// the CPU has it: the same IEEE max/min, so the same result).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define RLX_EXEC_AVX 1
#include <immintrin.h>
bool execHasAvx() {
  static const bool v = (__builtin_cpu_init(), __builtin_cpu_supports("avx"));
  return v;
}
template <bool UP>
__attribute__((target("avx"))) double extremeAvx(const double* x, int64_t n, int64_t& t) {
  __m256d m0 = _mm256_set1_pd(UP ? -INFINITY : INFINITY), m1 = m0, m2 = m0, m3 = m0;
  __m256d bad = _mm256_setzero_pd();
  for (t = 0; t + 16 <= n; t += 16) {
    const __m256d v0 = _mm256_loadu_pd(x + t), v1 = _mm256_loadu_pd(x + t + 4), v2 = _mm256_loadu_pd(x + t + 8), v3 = _mm256_loadu_pd(x + t + 12);
    bad = _mm256_or_pd(bad, _mm256_or_pd(_mm256_cmp_pd(v0, v1, _CMP_UNORD_Q), _mm256_cmp_pd(v2, v3, _CMP_UNORD_Q)));
    m0 = UP ? _mm256_max_pd(m0, v0) : _mm256_min_pd(m0, v0);
    m1 = UP ? _mm256_max_pd(m1, v1) : _mm256_min_pd(m1, v1);
    m2 = UP ? _mm256_max_pd(m2, v2) : _mm256_min_pd(m2, v2);
    m3 = UP ? _mm256_max_pd(m3, v3) : _mm256_min_pd(m3, v3);
  }
  if (_mm256_movemask_pd(bad) != 0) return NAN;
  m0 = UP ? _mm256_max_pd(_mm256_max_pd(m0, m1), _mm256_max_pd(m2, m3)) : _mm256_min_pd(_mm256_min_pd(m0, m1), _mm256_min_pd(m2, m3));
  double l[4];
  _mm256_storeu_pd(l, m0);
  double m = l[0];
  for (int k = 1; k < 4; k++) m = UP ? (l[k] > m ? l[k] : m) : (l[k] < m ? l[k] : m);
  return m;
}
#endif

template <int OP>
inline double extremeOrNaN(const double* x, int64_t n) {
  constexpr bool kUp = OP == kMax || OP == kArgmax;
  int64_t t = 0;
  double m = kUp ? -INFINITY : INFINITY;
#if defined(RLX_EXEC_AVX)
  if (n >= 16 && execHasAvx()) {
    m = extremeAvx<kUp>(x, n, t);
    if (m != m) return NAN;
  } else
#endif
  {
#if defined(__SSE2__)
    __m128d m0 = _mm_set1_pd(m), m1 = m0, m2 = m0, m3 = m0, bad = _mm_setzero_pd();
    for (; t + 8 <= n; t += 8) {
      const __m128d v0 = _mm_loadu_pd(x + t), v1 = _mm_loadu_pd(x + t + 2), v2 = _mm_loadu_pd(x + t + 4), v3 = _mm_loadu_pd(x + t + 6);
      bad = _mm_or_pd(bad, _mm_or_pd(_mm_cmpunord_pd(v0, v1), _mm_cmpunord_pd(v2, v3)));
      m0 = kUp ? _mm_max_pd(m0, v0) : _mm_min_pd(m0, v0);
      m1 = kUp ? _mm_max_pd(m1, v1) : _mm_min_pd(m1, v1);
      m2 = kUp ? _mm_max_pd(m2, v2) : _mm_min_pd(m2, v2);
      m3 = kUp ? _mm_max_pd(m3, v3) : _mm_min_pd(m3, v3);
    }
    if (_mm_movemask_pd(bad) != 0) return NAN;
    m0 = kUp ? _mm_max_pd(_mm_max_pd(m0, m1), _mm_max_pd(m2, m3)) : _mm_min_pd(_mm_min_pd(m0, m1), _mm_min_pd(m2, m3));
    double lanes[2];
    _mm_storeu_pd(lanes, m0);
    m = kUp ? (lanes[0] > lanes[1] ? lanes[0] : lanes[1]) : (lanes[0] < lanes[1] ? lanes[0] : lanes[1]);
#endif
  }
  for (; t < n; t++) {
    if (x[t] != x[t]) return NAN;
    if (kUp ? x[t] > m : x[t] < m) m = x[t];
  }
  return m;
}

template <int OP>
void accumulateReal(Ctx& c, const double* v, int n, int& j, int64_t& r, int64_t R) {
  int i = 0;
  while (i < n) {
    const int take = static_cast<int>(std::min<int64_t>(n - i, R - r));
    double a = c.accRe[j];
    const double* x = v + i;
    if constexpr (OP == kSum) {
      for (int t = 0; t < take; t++) a += x[t];
    } else if constexpr (OP == kProd) {
      for (int t = 0; t < take; t++) a *= x[t];
    } else if (const double m = extremeOrNaN<OP>(x, take); m == m && !((OP == kMax || OP == kArgmax) ? m > a : m < a)) {
      // no value of this run replaces the accumulator
    } else if (m == m && m != 0 && (OP == kMax || OP == kMin)) {
      a = m;  // the first value equal to m is m itself (only ±0 compare equal and differ)
    } else if (m == m && (OP == kArgmax || OP == kArgmin)) {
      int t = 0;
      while (x[t] != m) t++;  // first occurrence
      a = x[t];
      c.ai[j] = r + t;
    } else if constexpr (OP == kMax) {
      for (int t = 0; t < take; t++)
        if (x[t] > a || x[t] != x[t]) a = x[t];
    } else if constexpr (OP == kMin) {
      for (int t = 0; t < take; t++)
        if (x[t] < a || x[t] != x[t]) a = x[t];
    } else {
      int64_t ai = c.ai[j];
      for (int t = 0; t < take; t++) {
        const bool better = OP == kArgmax ? x[t] > a : x[t] < a;
        if (better || (x[t] != x[t] && a == a)) {
          a = x[t];
          ai = r + t;
        }
      }
      c.ai[j] = ai;
    }
    c.accRe[j] = a;
    i += take;
    r += take;
    if (r == R) {
      j++;
      r = 0;
    }
  }
}

template <int OP>
void accumulateComplex(Ctx& c, const double* vr, const double* vi, int n, int& j, int64_t& r, int64_t R) {
  int i = 0;
  while (i < n) {
    const int take = static_cast<int>(std::min<int64_t>(n - i, R - r));
    double ar = c.accRe[j], ai = c.accIm[j];
    for (int t = i; t < i + take; t++) {
      if constexpr (OP == kSum) {
        ar += vr[t];
        ai += vi[t];
      } else {
        const double tr = ar * vr[t] - ai * vi[t];
        ai = ar * vi[t] + ai * vr[t];
        ar = tr;
      }
    }
    c.accRe[j] = ar;
    c.accIm[j] = ai;
    i += take;
    r += take;
    if (r == R) {
      j++;
      r = 0;
    }
  }
}

void accumulate(const Plan& pl, Ctx& c, const double* vr, const double* vi, int n, int& j, int64_t& r) {
  const int64_t R = pl.R;
  if (vi) {
    if (pl.P->redOp == kSum) accumulateComplex<kSum>(c, vr, vi, n, j, r, R);
    else accumulateComplex<kProd>(c, vr, vi, n, j, r, R);
    return;
  }
  switch (pl.P->redOp) {
    case kSum: return accumulateReal<kSum>(c, vr, n, j, r, R);
    case kProd: return accumulateReal<kProd>(c, vr, n, j, r, R);
    case kMax: return accumulateReal<kMax>(c, vr, n, j, r, R);
    case kMin: return accumulateReal<kMin>(c, vr, n, j, r, R);
    case kArgmax: return accumulateReal<kArgmax>(c, vr, n, j, r, R);
    default: return accumulateReal<kArgmin>(c, vr, n, j, r, R);
  }
}

}  // namespace

namespace {

// The reduced values of outputs [o0, o0 + m) sit in c.accRe/accIm/ai: turn
// them into what the epilogue / the store sees (accValue in codegen-loops.ts),
// run the epilogue and store.
void finishOutputs(const Plan& pl, Ctx& c, int64_t o0, int m) {
  const Program& P = *pl.P;
  const int op = P.redOp;
  if (op == kArgmax || op == kArgmin) {
    for (int j = 0; j < m; j++) c.accRe[j] = static_cast<double>(c.ai[j]);
  } else if (P.redT == kFloat32 || P.redT == kComplex64) {
    round32(c.accRe, m);
    if (P.redT == kComplex64) round32(c.accIm, m);
  } else if (P.redT == kInt32) {
    for (int j = 0; j < m; j++) c.accRe[j] = jsToInt32(c.accRe[j]);
  } else if (P.redT == kInt8) {
    for (int j = 0; j < m; j++) c.accRe[j] = jsToInt8(c.accRe[j]);
  } else if (P.redT == kUInt8) {
    for (int j = 0; j < m; j++) c.accRe[j] = jsToUint8(c.accRe[j]);
  }
  if (static_cast<int>(P.instrs.size()) > P.nPro) {
    double* direct = P.outT == kFloat64 && P.instrs.back().op >= kCast ? reinterpret_cast<double*>(pl.out) + o0 : nullptr;
    if (evalSection(pl, c, 1, o0, m, direct)) return;
    const double* im;
    const double* re = resultOf(pl, c, 1, &im);
    store(P.outT, pl.out, o0, m, re, im);
  } else {
    store(P.outT, pl.out, o0, m, c.accRe, c.accIm);
  }
}

double initOf(int op) { return op == kSum ? 0.0 : op == kProd ? 1.0 : (op == kMax || op == kArgmax) ? -INFINITY : INFINITY; }

// Sum of x[0..n) into 8 lanes (x[t] goes to lane t % 8): independent
// accumulators, so the loop vectorizes (no reassociation flag needed).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("avx2", "default")))
#endif
void sumLanes(double* __restrict s, const double* __restrict x, int64_t n) {
  double l0 = s[0], l1 = s[1], l2 = s[2], l3 = s[3], l4 = s[4], l5 = s[5], l6 = s[6], l7 = s[7];
  int64_t t = 0;
  for (; t + 8 <= n; t += 8) {
    l0 += x[t];
    l1 += x[t + 1];
    l2 += x[t + 2];
    l3 += x[t + 3];
    l4 += x[t + 4];
    l5 += x[t + 5];
    l6 += x[t + 6];
    l7 += x[t + 7];
  }
  s[0] = l0, s[1] = l1, s[2] = l2, s[3] = l3, s[4] = l4, s[5] = l5, s[6] = l6, s[7] = l7;
  for (; t < n; t++) s[t & 7] += x[t];
}

}  // namespace

// A sum over the leading axis of a row-major [R, K] operand, loaded as it is
// (a bias gradient: x [batch, features] summed over the batch): the flat walk
// above would read each output's column with stride K. Summed a row at a
// time instead, into the chunk's accumulators: each output still adds its
// values in the order r = 0, 1, ..., R - 1 in double, so the sums are the
// same bits, from contiguous reads.
template <class T>
void sumRows(const Geo& g, int64_t R, int64_t o0, int m, double* acc) {
  const T* x = reinterpret_cast<const T*>(g.base) + g.off + o0;
  for (int64_t r = 0; r < R; r++, x += g.st[1])
    for (int j = 0; j < m; j++) acc[j] += static_cast<double>(x[j]);
}

// Whether reduceRange can sum by rows (sumRows): a sum whose prologue is one
// real float load, over a space of [outputs, R] (nothing collapsed) whose
// outputs are contiguous in the operand.
bool rowsSum(const Plan& pl) {
  const Program& P = *pl.P;
  if (P.redOp != kSum || P.nPro != 1 || pl.R <= 0) return false;
  const Instr& first = P.instrs[0];
  if (first.op != kLoad || first.hoisted) return false;
  const Geo& g = pl.geo[first.a[0]];
  return (g.dtype == kFloat32 || g.dtype == kFloat64) && pl.s0.nd == 2 && pl.s0.dim[0] == pl.outN && pl.s0.dim[1] == pl.R && g.st[0] == 1;
}

void reduceRange(const Plan& pl, int64_t begin, int64_t end) {
  const Program& P = *pl.P;
  Ctx& c = tlsCtx;
  c.init(P.nRegs);
  // Prologue blocks reach (end - begin)·R elements, the epilogue's end - begin.
  setupHoisted(pl, c, blockLanes(pl.R >= kBlock ? kBlock : (end - begin) * std::max<int64_t>(pl.R, 1)));
  const double init = initOf(P.redOp);
  const bool rows = rowsSum(pl);
  for (int64_t o0 = begin; o0 < end; o0 += kBlock) {
    const int m = static_cast<int>(std::min<int64_t>(kBlock, end - o0));
    for (int j = 0; j < m; j++) {
      c.accRe[j] = init;
      c.accIm[j] = 0;
      c.ai[j] = 0;
    }
    if (rows) {
      const Geo& g = pl.geo[P.instrs[0].a[0]];
      if (g.dtype == kFloat64) sumRows<double>(g, pl.R, o0, m, c.accRe);
      else sumRows<float>(g, pl.R, o0, m, c.accRe);
    } else if (pl.R > 0) {
      int j = 0;
      int64_t r = 0;
      const int64_t stop = (o0 + m) * pl.R;
      for (int64_t f = o0 * pl.R; f < stop; f += kBlock) {
        const int n = static_cast<int>(std::min<int64_t>(kBlock, stop - f));
        evalSection(pl, c, 0, f, n, nullptr);
        const double* vi;
        const double* vr = resultOf(pl, c, 0, &vi);
        accumulate(pl, c, vr, vi, n, j, r);
      }
    }
    finishOutputs(pl, c, o0, m);
  }
}

void reduceChunk(const Plan& pl, int64_t j, int64_t r0, int64_t r1, Partial& out) {
  const Program& P = *pl.P;
  Ctx& c = tlsCtx;
  c.init(P.nRegs);
  setupHoisted(pl, c, blockLanes(r1 - r0));
  const int op = P.redOp;
  c.accRe[0] = initOf(op);
  c.accIm[0] = 0;
  c.ai[0] = r0;
  double lanes[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  bool complexResult = false;
  {
    const Instr& last = P.instrs[P.nPro - 1];
    complexResult = isComplex(last.outT);
  }
  const bool laneSum = op == kSum && !complexResult;
  // A prologue that is one float64 load: read its contiguous runs in place,
  // longer than a block.
  const Instr& first = P.instrs[0];
  const bool direct = P.nPro == 1 && first.op == kLoad && !first.hoisted && pl.geo[first.a[0]].dtype == kFloat64;
  const Space& s = pl.s0;
  const int lastD = s.nd - 1;
  int64_t f = j * pl.R + r0;
  const int64_t stop = j * pl.R + r1;
  int64_t r = r0;
  while (f < stop) {
    const double* vr = nullptr;
    const double* vi = nullptr;
    int64_t n = 0;
    if (direct) {
      const Geo& g = pl.geo[first.a[0]];
      int64_t idx[kMaxDims];
      unravel(s, f, idx);
      if (g.st[lastD] == 1) {
        n = std::min<int64_t>({stop - f, s.dim[lastD] - idx[lastD], int64_t(1) << 20});
        int64_t off = g.off;
        for (int k = 0; k < s.nd; k++) off += idx[k] * g.st[k];
        vr = reinterpret_cast<const double*>(g.base) + off;
      }
    }
    if (!vr) {
      n = std::min<int64_t>(kBlock, stop - f);
      evalSection(pl, c, 0, f, static_cast<int>(n), nullptr);
      vr = resultOf(pl, c, 0, &vi);
    }
    if (laneSum) {
      sumLanes(lanes, vr, n);
      r += n;
    } else {
      int jj = 0;
      accumulate(pl, c, vr, vi, static_cast<int>(n), jj, r);
      if (jj) r = pl.R;  // accumulate wraps r at the output's end
    }
    f += n;
  }
  if (laneSum) out.re = ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]));
  else out.re = c.accRe[0];
  out.im = c.accIm[0];
  out.idx = c.ai[0];
}

void reduceCombine(const Plan& pl, int64_t o0, int m, const Partial* parts, int64_t nChunks) {
  const Program& P = *pl.P;
  Ctx& c = tlsCtx;
  c.init(P.nRegs);
  setupHoisted(pl, c, blockLanes(m));
  const int op = P.redOp;
  for (int jj = 0; jj < m; jj++) {
    const Partial* p = parts + (o0 + jj) * nChunks;
    double a = p[0].re, b = p[0].im;
    int64_t ai = p[0].idx;
    // In chunk order, with the sequential rule of each op (accumulateReal):
    // max/min keep the first of equal values and any NaN; argmax/argmin the
    // first index of the extreme, or of the first NaN.
    for (int64_t k = 1; k < nChunks; k++) {
      const double x = p[k].re, y = p[k].im;
      switch (op) {
        case kSum:
          a += x;
          b += y;
          break;
        case kProd:
          if (P.instrs[P.nPro - 1].outT == kComplex64 || P.instrs[P.nPro - 1].outT == kComplex128) {
            const double t = a * x - b * y;
            b = a * y + b * x;
            a = t;
          } else {
            a *= x;
          }
          break;
        case kMax:
          if (x > a || x != x) a = x;
          break;
        case kMin:
          if (x < a || x != x) a = x;
          break;
        default:
          if ((op == kArgmax ? x > a : x < a) || (x != x && a == a)) {
            a = x;
            ai = p[k].idx;
          }
      }
    }
    c.accRe[jj] = a;
    c.accIm[jj] = b;
    c.ai[jj] = ai;
  }
  finishOutputs(pl, c, o0, m);
}

}  // namespace rlx::interp
