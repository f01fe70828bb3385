// Block evaluation: each instruction of a section runs over a block of up to
// kBlock elements as one tight loop into a register (float64 loads with unit
// stride are read in place, a float64 result may be written straight into the
// output), then the block is stored (elementwise, here) or accumulated
// (reduce: exec_reduce.cc, which evaluates its sections with this file's
// evalSection through exec_block.h). Float32 programs of simple ops run in
// float registers instead (elementwiseF32 below).

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


constexpr int64_t kPrefetchElems = 4 * kBlock;

void fill(double* d, double v, int lanes) {
  for (int i = 0; i < lanes; i++) d[i] = v;
}

}  // namespace

thread_local Ctx tlsCtx;

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
__attribute__((target_clones("avx2", "default")))
#endif
void round32(double* d, int n) {
  for (int i = 0; i < n; i++) d[i] = static_cast<double>(static_cast<float>(d[i]));
}

// Constants and invariant loads, once per task.
void setupHoisted(const Plan& pl, Ctx& c, int lanes) {
  const Program& P = *pl.P;
  for (const Instr& in : P.instrs) {
    if (!in.hoisted) continue;
    double re, im = 0;
    if (in.op == kConst) {
      const double* k = pl.constData();
      re = k[in.a[0]];
      if (isComplex(in.outT)) im = k[in.a[0] + 1];
    } else {
      const Geo& g = pl.geo[in.a[0]];
      const Space& s = P.loads[in.a[0]].section == 0 ? pl.s0 : pl.s1;
      int64_t idx[kMaxDims] = {0};
      gatherAny(g, s, idx, 1, &re, &im);
    }
    fill(c.reg(in.dst), re, lanes);
    c.val[in.dst] = c.reg(in.dst);
    if (isComplex(in.outT)) {
      fill(c.reg(in.dst + 1), im, lanes);
      c.val[in.dst + 1] = c.reg(in.dst + 1);
    }
  }
}


// Evaluates one section over flat indices [f0, f0 + n) of its space. When
// direct is set (a float64 output), the last instruction writes its result
// there and the function returns true.
bool evalSection(const Plan& pl, Ctx& c, int sec, int64_t f0, int n, double* direct) {
  const Program& P = *pl.P;
  const Space& s = sec == 0 ? pl.s0 : pl.s1;
  int64_t idx[kMaxDims];
  unravel(s, f0, idx);
  const int b = sec == 0 ? 0 : P.nPro;
  const int e = sec == 0 ? P.nPro : static_cast<int>(P.instrs.size());
  for (int i = b; i < e; i++) {
    const Instr& in = P.instrs[i];
    if (in.hoisted || in.skip) continue;
    if (in.op == kLoad) {
      const Geo& g = pl.geo[in.a[0]];
      if (g.dtype == kFloat64) {
        const int last = s.nd - 1;
        if (g.st[last] == 1 && n <= s.dim[last] - idx[last]) {
          int64_t off = g.off;
          for (int k = 0; k < s.nd; k++) off += idx[k] * g.st[k];
          c.val[in.dst] = reinterpret_cast<const double*>(g.base) + off;
#if defined(__GNUC__)
          // Streams read in place: fetch a few blocks ahead (the hardware
          // prefetchers stop at 4 KiB pages), only inside the buffer (a short
          // broadcast operand re-read per row would pull in unrelated lines).
          if (n == kBlock && off + kBlock + kPrefetchElems <= g.elems) {
            const uintptr_t ahead = reinterpret_cast<uintptr_t>(c.val[in.dst]) + kPrefetchElems * 8;
            for (int q = 0; q < kBlock * 8; q += 64) __builtin_prefetch(reinterpret_cast<const void*>(ahead + q), 0, 0);
          }
#endif
          continue;
        }
      }
      double* dr = c.reg(in.dst);
      double* di = isComplex(g.dtype) ? c.reg(in.dst + 1) : nullptr;
      gatherAny(g, s, idx, n, dr, di);
      c.val[in.dst] = dr;
      if (di) c.val[in.dst + 1] = di;
      continue;
    }
    if (in.op == kAcc) {
      c.val[in.dst] = c.accRe;
      if (isComplex(in.outT)) c.val[in.dst + 1] = c.accIm;
      continue;
    }
    Args a;
    for (int k = 0; k < 3; k++) {
      const int r = in.a[k];
      a.p[2 * k] = r >= 0 ? c.val[r] : nullptr;
      a.p[2 * k + 1] = r >= 0 && in.argC[k] ? c.val[r + 1] : nullptr;
    }
    const bool cplx = isComplex(in.outT);
    if (direct && i == e - 1 && !cplx) {
      in.fn(direct, nullptr, a, n);
      return true;
    }
    double* dr = c.reg(in.dst);
    double* di = cplx ? c.reg(in.dst + 1) : nullptr;
    in.fn(dr, di, a, n);
    if (in.round32) {
      round32(dr, n);
      if (di) round32(di, n);
    }
    c.val[in.dst] = dr;
    if (di) c.val[in.dst + 1] = di;
  }
  return false;
}

const double* resultOf(const Plan& pl, const Ctx& c, int sec, const double** im) {
  const Program& P = *pl.P;
  const Instr& last = P.instrs[sec == 0 ? P.nPro - 1 : P.instrs.size() - 1];
  *im = isComplex(last.outT) ? c.val[last.dst + 1] : nullptr;
  return c.val[last.dst];
}

namespace {

// ---------------------------------------------------------------------------
// Float32 evaluation (Program::f32): registers of kBlock floats, contiguous
// float32 loads read in place, the last instruction written straight into
// the output. Uniform values are computed once per task in double with the
// double kernels (the same bits as the double path) and enter as float
// fills, which is exact only when they are float32 values: the caller falls
// back to the double path when one is not (a float32 constant that is not
// a float32 number, which the double path uses unrounded).

struct CtxF {
  std::vector<float> mem;
  std::vector<double> sv;  // uniform values, by register
  std::vector<const float*> val;
  std::vector<float*> fill;  // per instruction: its uniform value as a block, or nullptr
  float* regs = nullptr;
  float* fills = nullptr;

  void init(const Program& P) {
    const size_t nI = P.instrs.size();
    const size_t need = (static_cast<size_t>(P.nRegs) + nI) * kBlock + 16;
    if (mem.size() < need) mem.assign(need, 0.0f);
    float* p = mem.data();
    while (reinterpret_cast<uintptr_t>(p) % 64 != 0) p++;
    regs = p;
    fills = p + static_cast<size_t>(P.nRegs) * kBlock;
    sv.assign(P.nRegs, 0.0);
    val.assign(P.nRegs, nullptr);
    fill.assign(nI, nullptr);
  }
  float* reg(int r) { return regs + static_cast<size_t>(r) * kBlock; }
};

thread_local CtxF tlsCtxF;

// n float32 values of load g from multi-index idx of s (strided rows).
void gatherF32(const Geo& g, const Space& s, const int64_t* idx0, int n, float* d) {
  int64_t idx[kMaxDims];
  const int last = s.nd - 1;
  int64_t row = g.off;
  for (int k = 0; k < last; k++) {
    idx[k] = idx0[k];
    row += idx[k] * g.st[k];
  }
  const float* base = reinterpret_cast<const float*>(g.base);
  const int64_t sIn = g.st[last], dIn = s.dim[last];
  int64_t j = idx0[last];
  int i = 0;
  while (i < n) {
    const int m = static_cast<int>(std::min<int64_t>(n - i, dIn - j));
    const float* p = base + row + j * sIn;
    if (sIn == 0) {
      const float v = p[0];
      for (int t = 0; t < m; t++) d[i + t] = v;
    } else {
      for (int t = 0; t < m; t++) d[i + t] = p[t * sIn];
    }
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

bool elementwiseF32(const Plan& pl, int64_t begin, int64_t end) {
  const Program& P = *pl.P;
  CtxF& c = tlsCtxF;
  c.init(P);
  const int nI = static_cast<int>(P.instrs.size());
  // Uniform values, in program order, in double.
  for (int i = 0; i < nI; i++) {
    const Instr& in = P.instrs[i];
    if (!in.uniform) continue;
    double v;
    if (in.op == kConst) {
      v = pl.constData()[in.a[0]];
    } else if (in.op == kLoad) {
      int64_t idx[kMaxDims] = {0};
      gatherAny(pl.geo[in.a[0]], pl.s0, idx, 1, &v, nullptr);
    } else {
      Args a;
      for (int k = 0; k < 3; k++) {
        a.p[2 * k] = in.a[k] >= 0 ? &c.sv[in.a[k]] : nullptr;
        a.p[2 * k + 1] = nullptr;
      }
      in.fn(&v, nullptr, a, 1);
      if (in.round32) v = static_cast<double>(static_cast<float>(v));
    }
    c.sv[in.dst] = v;
    if (in.outT == kFloat32 || in.outT == kBool) {
      const float f = static_cast<float>(v);
      if (static_cast<double>(f) != v && v == v) return false;
      float* b = c.fills + static_cast<size_t>(i) * kBlock;
      for (int t = 0, lanes = blockLanes(end - begin); t < lanes; t++) b[t] = f;
      c.fill[i] = b;
    }
  }
  const Space& s = pl.s0;
  const int lastD = s.nd - 1;
  const Instr& lastI = P.instrs[nI - 1];
  float* out = reinterpret_cast<float*>(pl.out);
  int64_t idx[kMaxDims];
  // Locals, not members of the thread_local context: its address is looked up
  // again (__tls_get_addr) after every call through fn32.
  const float** val = c.val.data();
  float* const* fill = c.fill.data();
  float* const regs = c.regs;
  for (int64_t f = begin; f < end; f += kBlock) {
    const int n = static_cast<int>(std::min<int64_t>(kBlock, end - f));
    unravel(s, f, idx);
    for (int i = 0; i < nI; i++) {
      const Instr& in = P.instrs[i];
      if (in.uniform) {
        val[in.dst] = fill[i];
        continue;
      }
      if (in.op == kLoad) {
        const Geo& g = pl.geo[in.a[0]];
        if (g.st[lastD] == 1 && n <= s.dim[lastD] - idx[lastD]) {
          int64_t off = g.off;
          for (int k = 0; k < s.nd; k++) off += idx[k] * g.st[k];
          val[in.dst] = reinterpret_cast<const float*>(g.base) + off;
        } else {
          float* d = regs + static_cast<size_t>(in.dst) * kBlock;
          gatherF32(g, s, idx, n, d);
          val[in.dst] = d;
        }
        continue;
      }
      if (in.op == kCast) {
        // bool -> float32: the 0/1 values as they are, copied (pointing at the
        // argument's register would break when that register is reused).
        float* d = i == nI - 1 ? out + f : regs + static_cast<size_t>(in.dst) * kBlock;
        if (d != val[in.a[0]]) std::memmove(d, val[in.a[0]], sizeof(float) * n);
        val[in.dst] = d;
        continue;
      }
      const float* a[3] = {nullptr, nullptr, nullptr};
      for (int k = 0; k < 3; k++)
        if (in.a[k] >= 0) a[k] = val[in.a[k]];
      float* d = i == nI - 1 ? out + f : regs + static_cast<size_t>(in.dst) * kBlock;
      in.fn32(d, a, n);
      val[in.dst] = d;
    }
    const float* r = val[lastI.dst];
    if (r != out + f) std::memmove(out + f, r, sizeof(float) * n);
  }
  return true;
}

}  // namespace

void elementwiseRange(const Plan& pl, int64_t begin, int64_t end) {
  if (pl.P->f32 && elementwiseF32(pl, begin, end)) return;
  Ctx& c = tlsCtx;
  c.init(pl.P->nRegs);
  setupHoisted(pl, c, blockLanes(end - begin));
  const int outT = pl.P->outT;
  for (int64_t f = begin; f < end; f += kBlock) {
    const int n = static_cast<int>(std::min<int64_t>(kBlock, end - f));
    double* direct = outT == kFloat64 && pl.P->instrs.back().op >= kCast ? reinterpret_cast<double*>(pl.out) + f : nullptr;
    if (evalSection(pl, c, 0, f, n, direct)) continue;
    const double* im;
    const double* re = resultOf(pl, c, 0, &im);
    store(outT, pl.out, f, n, re, im);
  }
}

}  // namespace rlx::interp
