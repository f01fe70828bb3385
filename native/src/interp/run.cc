// Running a prepared program over one binding: the loop is checked against
// the program and the buffers (every offset a load can reach, the output's
// extent) before any memory is touched, dims are collapsed, and the work is
// split across the thread pool above a work threshold (exec.cc evaluates).
// Threads split outputs; a long reduction (R >= kSplitR) is cut into chunks
// by its shape alone, never by the thread count, so results do not depend on
// the thread count.

#include "fp.h"
#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>
#include <new>
#include <string>
#include <vector>
#include "exec.h"
#include "pool/pool.h"
#include "program.h"

namespace rlx::interp {
namespace {

constexpr double kMaxInt = 9007199254740992.0;  // 2^53
constexpr int64_t kBig = int64_t(1) << 62;
constexpr int kMaxLoadsFew = 16;

// Below this much work a run stays on the calling thread (measured: waking a
// second thread pays off from about 2-3e5 simple element-ops).
std::atomic<int64_t> gThreshold{1 << 18};

// ---------------------------------------------------------------------------
// Validation of one binding.

bool readInt(const double* v, size_t i, int64_t& out) {
  const double x = v[i];
  if (!(x == std::trunc(x)) || std::fabs(x) > kMaxInt) return false;
  out = static_cast<int64_t>(x);
  return true;
}

std::string checkLoad(const Geo& g, const Space& s, int64_t total, int64_t elems, int i) {
  // An invariant load is read once per run (setupHoisted) even when its section runs over nothing.
  if (g.invariant && (g.off < 0 || g.off >= elems))
    return "load " + std::to_string(i) + " (invariant) reads element " + std::to_string(g.off) + " of a buffer of " + std::to_string(elems);
  if (total == 0) return "";
  int64_t lo = g.off, hi = g.off;
  for (int k = 0; k < s.nd; k++) {
    const int64_t d = s.dim[k] - 1;
    if (d == 0) continue;
    if (g.invariant && g.st[k] != 0) return "load " + std::to_string(i) + " is marked invariant but has a nonzero stride";
    if (std::fabs(static_cast<double>(g.st[k])) * static_cast<double>(d) > static_cast<double>(kBig)) return "load " + std::to_string(i) + ": stride " + std::to_string(g.st[k]) + " reaches past its buffer";
    const int64_t ext = g.st[k] * d;
    if (ext < 0) lo += ext;
    else hi += ext;
    if (lo < -kBig || hi > kBig) return "load " + std::to_string(i) + " reaches past its buffer";
  }
  if (lo < 0 || hi >= elems)
    return "load " + std::to_string(i) + " reads elements " + std::to_string(lo) + ".." + std::to_string(hi) + " of a buffer of " + std::to_string(elems);
  return "";
}

size_t scalarBytes(int storage) {
  switch (storage) {
    case kU8:
    case kI8: return 1;
    case kU16: return 2;
    case kI32:
    case kF32: return 4;
    default: return 8;
  }
}

}  // namespace

// Drops unit dims and merges neighbours whose strides chain (st[k] == st[k+1] * dim[k+1]) in every load.
void collapse(Space& s, Geo* const* gs, int nG) {
  int nd = 0;
  for (int k = 0; k < s.nd; k++) {
    if (s.dim[k] == 1) continue;
    s.dim[nd] = s.dim[k];
    for (int i = 0; i < nG; i++) gs[i]->st[nd] = gs[i]->st[k];
    nd++;
  }
  if (nd == 0) {
    s.nd = 1;
    s.dim[0] = 1;
    for (int i = 0; i < nG; i++) gs[i]->st[0] = 0;
    return;
  }
  int m = 0;
  for (int k = 1; k < nd; k++) {
    bool ok = true;
    for (int i = 0; i < nG; i++) ok = ok && gs[i]->st[m] == gs[i]->st[k] * s.dim[k];
    if (ok) {
      s.dim[m] *= s.dim[k];
      for (int i = 0; i < nG; i++) gs[i]->st[m] = gs[i]->st[k];
    } else {
      m++;
      s.dim[m] = s.dim[k];
      for (int i = 0; i < nG; i++) gs[i]->st[m] = gs[i]->st[k];
    }
  }
  s.nd = m + 1;
}

void unravel(const Space& s, int64_t f, int64_t* idx) {
  for (int k = s.nd - 1; k >= 0; k--) {
    idx[k] = f % s.dim[k];
    f /= s.dim[k];
  }
}

std::string planRun(const Program& P, const double* loop, size_t nLoop, const Buffer* slots, size_t nSlots, Plan& pl) {
  pl.P = &P;
  pl.work = 0;
  const int nLoads = static_cast<int>(P.loads.size());
  const int nL1 = nLoads - P.nLoads0;
  size_t at = 0;
  auto need = [&](size_t k) { return at + k <= nLoop; };
  int64_t K = 0, Q = 0;
  if (P.kind == 0) {
    if (!need(1) || !readInt(loop, at++, K) || K < 0 || K > kMaxDims) return "loop: bad rank (at most " + std::to_string(kMaxDims) + " dims)";
  } else {
    if (!need(2) || !readInt(loop, at++, K) || !readInt(loop, at++, Q) || K < 0 || Q < 0 || K + Q > kMaxDims) return "loop: bad kept/reduced ranks";
  }
  const int64_t S = K + Q;
  const size_t want = at + S + static_cast<size_t>(P.nLoads0) * (1 + S) + static_cast<size_t>(nL1) * (1 + K);
  if (nLoop != want) return "loop has " + std::to_string(nLoop) + " numbers but the program needs " + std::to_string(want);
  int64_t dims[kMaxDims];
  double totalD = 1;
  for (int k = 0; k < S; k++) {
    if (!readInt(loop, at++, dims[k]) || dims[k] < 0) return "loop: dim " + std::to_string(k) + " is not a nonnegative integer";
    totalD *= static_cast<double>(dims[k]);
  }
  int64_t keptN = 1, red = 1;
  for (int k = 0; k < S; k++) {
    if (totalD > kMaxInt) break;
    if (k < K) keptN *= dims[k];
    else red *= dims[k];
  }
  if (totalD > kMaxInt) return "loop: too many elements";
  pl.outN = keptN;
  pl.R = P.kind == 0 ? 1 : red;
  pl.s0.nd = static_cast<int>(S);
  pl.s1.nd = static_cast<int>(K);
  for (int k = 0; k < S; k++) pl.s0.dim[k] = dims[k];
  for (int k = 0; k < K; k++) pl.s1.dim[k] = dims[k];
  pl.geo.resize(nLoads);
  for (int i = 0; i < nLoads; i++) {
    Geo& g = pl.geo[i];
    const int rank = static_cast<int>(i < P.nLoads0 ? S : K);
    if (!readInt(loop, at++, g.off)) return "loop: load " + std::to_string(i) + ": offset is not an integer";
    for (int k = 0; k < rank; k++)
      if (!readInt(loop, at++, g.st[k])) return "loop: load " + std::to_string(i) + ": stride " + std::to_string(k) + " is not an integer";
    g.dtype = P.loads[i].dtype;
    g.invariant = P.loads[i].invariant;
  }

  // Buffers.
  // load < 0: the output. Messages are built only on failure (this runs on every call).
  auto buffer = [&](int slot, int dtype, int load, const Buffer** out) -> std::string {
    auto what = [&] { return load < 0 ? std::string("output") : "load " + std::to_string(load); };
    if (slot < 0 || static_cast<size_t>(slot) >= nSlots) return what() + ": slot " + std::to_string(slot) + " is not among the " + std::to_string(nSlots) + " buffers passed";
    const Buffer& b = slots[slot];
    if (b.storage != storageOf(dtype))
      return what() + ": slot " + std::to_string(slot) + " must be the " + dtypeName(dtype) + " storage TypedArray" + (b.storage < 0 ? " (missing or not a TypedArray)" : " (wrong TypedArray type)");
    if (b.length > 0 && !b.data) return what() + ": slot " + std::to_string(slot) + " has no memory";
    *out = &b;
    return std::string();
  };
  const Buffer* ob;
  if (std::string e = buffer(P.outSlot, P.outT, -1, &ob); !e.empty()) return e;
  const int64_t outElems = ob->length / lanesOf(P.outT);
  if (pl.outN > outElems) return "output: " + std::to_string(pl.outN) + " elements do not fit its buffer of " + std::to_string(outElems);
  pl.out = static_cast<char*>(ob->data);
  const int64_t total0 = P.kind == 0 ? keptN : keptN * red;
  for (int i = 0; i < nLoads; i++) {
    const Buffer* b;
    if (std::string e = buffer(P.loads[i].slot, P.loads[i].dtype, i, &b); !e.empty()) return e;
    Geo& g = pl.geo[i];
    g.base = static_cast<const char*>(b->data);
    g.elems = b->length / lanesOf(g.dtype);
    const bool sec0 = i < P.nLoads0;
    if (std::string e = checkLoad(g, sec0 ? pl.s0 : pl.s1, sec0 ? total0 : keptN, b->length / lanesOf(g.dtype), i); !e.empty()) return e;
    if (P.kind == 1 && sec0 && pl.outN > 0) {
      // A reduction reads many inputs per output: its output must not share their memory.
      const char* lo = g.base;
      const char* hi = lo + b->length * scalarBytes(b->storage);
      const char* olo = pl.out;
      const char* ohi = olo + pl.outN * lanesOf(P.outT) * scalarBytes(ob->storage);
      if (olo < hi && lo < ohi && total0 > 0) return "the reduction's output shares memory with load " + std::to_string(i);
    }
  }
  if (pl.outN == 0) return "";

  // Collapse dims (the loads' strides over each space).
  Geo* g0[kMaxLoadsFew];
  Geo* g1[kMaxLoadsFew];
  std::vector<Geo*> many;
  Geo** p0 = g0;
  Geo** p1 = g1;
  if (nLoads > kMaxLoadsFew) {
    many.resize(2 * nLoads);
    p0 = many.data();
    p1 = p0 + nLoads;
  }
  int n0 = 0, n1 = 0;
  for (int i = 0; i < nLoads; i++) {
    if (i < P.nLoads0) p0[n0++] = &pl.geo[i];
    else p1[n1++] = &pl.geo[i];
  }
  if (P.kind == 0 || pl.R > 0) collapse(pl.s0, p0, n0);
  collapse(pl.s1, p1, n1);

  // Work in simple-op units (+1 per element for the store / the accumulation).
  pl.work = P.kind == 0 ? pl.outN * (P.cost0 + 1) : pl.outN * pl.R * (P.cost0 + 1) + pl.outN * (P.cost1 + 1);
  return "";
}

std::string execute(const Plan& pl) {
  if (pl.outN == 0) return "";
  const Program& P = *pl.P;
  const int64_t work0 = pl.work;
  Pool& pool = Pool::instance();
  const int T = pool.size();
  std::string err;
  std::mutex errM;
  auto guarded = [&](auto&& body) {
    try {
      body();
    } catch (const std::bad_alloc&) {
      std::lock_guard<std::mutex> g(errM);
      err = "out of memory for the interpreter's registers";
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> g(errM);
      err = e.what();
    }
  };
  const bool parallel = T > 1 && work0 >= gThreshold.load(std::memory_order_relaxed);
  if (P.kind == 1 && pl.R >= kSplitR) {
    // One long reduction per output: chunks of it in parallel, combined in a
    // fixed order (see exec.h).
    const int64_t nChunks = (pl.R + kChunk - 1) / kChunk;
    const int64_t nTasks = pl.outN * nChunks;
    std::vector<Partial> parts;
    guarded([&] { parts.resize(static_cast<size_t>(nTasks)); });
    if (!err.empty()) return err;
    auto task = [&](int64_t t) {
      const int64_t j = t / nChunks, k = t % nChunks;
      guarded([&] { reduceChunk(pl, j, k * kChunk, std::min(pl.R, (k + 1) * kChunk), parts[t]); });
    };
    if (parallel) pool.parallelFor(nTasks, task);
    else
      for (int64_t t = 0; t < nTasks; t++) task(t);
    if (!err.empty()) return err;
    for (int64_t o0 = 0; o0 < pl.outN; o0 += kBlock)
      guarded([&] { reduceCombine(pl, o0, static_cast<int>(std::min<int64_t>(kBlock, pl.outN - o0)), parts.data(), nChunks); });
    return err;
  }
  if (!parallel) {
    guarded([&] { P.kind == 0 ? elementwiseRange(pl, 0, pl.outN) : reduceRange(pl, 0, pl.outN); });
    return err;
  }
  if (P.kind == 0) {
    const int64_t blocks = (pl.outN + kBlock - 1) / kBlock;
    const int64_t nTasks = std::min<int64_t>(blocks, static_cast<int64_t>(T) * 4);
    const int64_t per = (blocks + nTasks - 1) / nTasks * kBlock;
    pool.parallelFor(nTasks, [&](int64_t t) {
      const int64_t b = t * per, e = std::min(pl.outN, b + per);
      if (b < e) guarded([&] { elementwiseRange(pl, b, e); });
    });
  } else {
    const int64_t nTasks = std::min<int64_t>(pl.outN, static_cast<int64_t>(T) * 4);
    const int64_t per = (pl.outN + nTasks - 1) / nTasks;
    pool.parallelFor(nTasks, [&](int64_t t) {
      const int64_t b = t * per, e = std::min(pl.outN, b + per);
      if (b < e) guarded([&] { reduceRange(pl, b, e); });
    });
  }
  return err;
}

std::string run(const Program& P, const double* loop, size_t nLoop, const Buffer* slots, size_t nSlots) {
  Plan pl;
  if (std::string e = planRun(P, loop, nLoop, slots, nSlots, pl); !e.empty()) return e;
  return execute(pl);
}

void setThreads(int n) { Pool::instance().resize(n); }
int getThreads() { return Pool::instance().size(); }
void setParallelThreshold(int64_t work) { gThreshold.store(work < 0 ? 0 : work); }
int64_t getParallelThreshold() { return gThreshold.load(); }

}  // namespace rlx::interp