// The double-precision block evaluation shared by the interpreter's
// elementwise (exec.cc) and reduce (exec_reduce.cc) runs: a thread's
// registers (Ctx), the hoisted constants and invariant loads, one section
// evaluated over a block, and where its result is.
#pragma once

#include <cstdint>
#include <vector>

#include "exec.h"

namespace rlx::interp {

// ---------------------------------------------------------------------------
// Per-thread registers.

struct Ctx {
  std::vector<double> mem;
  double* regs = nullptr;
  double* accRe = nullptr;
  double* accIm = nullptr;
  int64_t ai[kBlock];
  std::vector<const double*> val;

  void init(int nRegs) {
    const size_t need = (static_cast<size_t>(nRegs) + 2) * kBlock + 8;
    if (mem.size() < need) mem.assign(need, 0.0);
    double* p = mem.data();
    while (reinterpret_cast<uintptr_t>(p) % 64 != 0) p++;
    regs = p;
    accRe = p + static_cast<size_t>(nRegs) * kBlock;
    accIm = accRe + kBlock;
    val.assign(nRegs, nullptr);
    for (int r = 0; r < nRegs; r++) val[r] = reg(r);
  }
  double* reg(int r) { return regs + static_cast<size_t>(r) * kBlock; }
};

/** This thread's registers (each pool thread and each libuv worker has its own). */
extern thread_local Ctx tlsCtx;

/** d[i] rounded to float32 and back, for i < n (an op whose result is float32). */
void round32(double* d, int n);

/**
 * Constants and invariant loads into their registers, once per task: the
 * first `lanes` elements of each (the task's longest block; a small kernel
 * fills a few lanes, not kBlock: a 10-element RK stage with six hoisted
 * values spent ~7 % of its run filling them).
 */
void setupHoisted(const Plan& pl, Ctx& c, int lanes);

/** The lanes a task's blocks reach: min(kBlock, n) for n elements (at least 1). */
inline int blockLanes(int64_t n) { return n >= kBlock ? kBlock : n < 1 ? 1 : static_cast<int>(n); }

/**
 * Evaluates one section over flat indices [f0, f0 + n) of its space. When
 * direct is set (a float64 output), the last instruction writes its result
 * there and the function returns true.
 */
bool evalSection(const Plan& pl, Ctx& c, int sec, int64_t f0, int n, double* direct);

/** The section's result registers (the imaginary part's in *im, or nullptr for a real result). */
const double* resultOf(const Plan& pl, const Ctx& c, int sec, const double** im);

}  // namespace rlx::interp
