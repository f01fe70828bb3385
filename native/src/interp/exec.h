// Shared by the interpreter's execution files: the index space of a run, each
// load's strides over it, the validated plan of one run, and the entry points
// of memory.cc (loads and stores) and exec.cc (block evaluation).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>
#include "program.h"

namespace rlx::interp {

struct Space {
  int nd = 1;
  int64_t dim[kMaxDims];
  int64_t total() const {
    int64_t t = 1;
    for (int k = 0; k < nd; k++) t *= dim[k];
    return t;
  }
};

// One load over its section's space.
struct Geo {
  const char* base = nullptr;
  int64_t off = 0;
  int64_t st[kMaxDims];
  int dtype = 0;
  bool invariant = false;
  int64_t elems = 0;  // elements in the buffer (prefetching stays inside it)
};

struct Plan {
  const Program* P = nullptr;
  Space s0, s1;  // section 0 (elementwise / prologue) and 1 (epilogue)
  std::vector<Geo> geo;
  char* out = nullptr;
  int64_t outN = 0;
  int64_t R = 1;  // reduced elements per output
  int64_t work = 0;  // simple-op units of the whole run (the threading and async decisions)
  // This run's constants when the caller passed them (the values of parameter
  // literals, src/compiler/const-params.ts): same length as P->consts, copied
  // so that an async run does not read JS memory. Empty: P->consts.
  std::vector<double> consts;
  const double* constData() const { return consts.empty() ? P->consts.data() : consts.data(); }
};

// run() in two steps: planRun validates the loop and the buffers and fills
// `pl` (raw pointers into the buffers, which must stay alive and attached
// until execute returns); execute runs it, possibly on another thread than
// the one that planned it. Both return "" or a message.
std::string planRun(const Program& P, const double* loop, size_t nLoop, const Buffer* slots, size_t nSlots, Plan& pl);
std::string execute(const Plan& pl);

// private_copy.cc: for a run leaving the main thread, points every load of
// `pl` at `copy(load, data, bytes)`, a private copy of the span it reads, and
// the output at `scratch(bytes)` (napi.cc passes the call's Pins: they own
// the copies until the run settles and write the output back if its array is
// still attached). elementBytes: bytes of one element of dtype d in its storage.
void privatize(Plan& pl, const std::function<const void*(int load, const void* data, size_t bytes)>& copy,
               const std::function<void*(size_t bytes)>& scratch);
size_t elementBytes(int dtype);

// Drops unit dims and merges neighbours whose strides chain (st[k] == st[k+1] * dim[k+1]) in every load.
void collapse(Space& s, Geo* const* gs, int nG);
void unravel(const Space& s, int64_t f, int64_t* idx);

// memory.cc: fill dr (and di for complex) with n elements of load g starting
// at multi-index idx of s; store n values at element f0 of a contiguous output.
void gatherAny(const Geo& g, const Space& s, const int64_t* idx, int n, double* dr, double* di);
void store(int outT, char* out, int64_t f0, int n, const double* vr, const double* vi);

// exec.cc: run flat output indices [begin, end) of an elementwise plan, or
// outputs [begin, end) of a reduction, on the calling thread.
void elementwiseRange(const Plan& pl, int64_t begin, int64_t end);
void reduceRange(const Plan& pl, int64_t begin, int64_t end);

// Long reductions (R >= kSplitR) are cut into chunks of kChunk reduced
// elements, whatever the thread count: reduceChunk reduces chunk [r0, r1) of
// output j into a partial (sum: 8 interleaved lanes, added pairwise at the
// end), reduceCombine folds each output's partials in chunk order and runs
// the epilogue/store for outputs [o0, o0 + m) (m <= kBlock). The chunking
// depends only on the shape, so the result is the same on any number of
// threads and whatever the timing.
constexpr int64_t kSplitR = int64_t(1) << 15;
constexpr int64_t kChunk = int64_t(1) << 15;
struct Partial {
  double re = 0, im = 0;
  int64_t idx = 0;
};
void reduceChunk(const Plan& pl, int64_t j, int64_t r0, int64_t r1, Partial& out);
void reduceCombine(const Plan& pl, int64_t o0, int m, const Partial* parts, int64_t nChunks);

}  // namespace rlx::interp
