// Private copies for an interpreter run that leaves the main thread
// (interpRunAsync). A reference to a JS TypedArray keeps the object alive but
// not its memory: while the run is on the libuv pool, user code may transfer
// the buffer (postMessage or structuredClone with a transfer list,
// ArrayBuffer.prototype.transfer) or shrink a resizable one, and the new owner
// may free the memory. So, before queueing, every load is pointed at a copy of
// the span it reads, and the output at a scratch block; the result is copied
// into the output array on the main thread only if that array is still
// attached and long enough (the Pins of napi.cc's run job, binding/pins.h). The copies cost O(elements
// read + written) next to the run's O(elements x instructions); the
// synchronous interpRun, where no JS runs meanwhile, reads the arrays as they are.

#include <cstring>
#include "exec.h"

namespace rlx::interp {

size_t elementBytes(int dtype) {
  switch (storageOf(dtype)) {
    case kU8:
    case kI8: return 1;
    case kU16: return 2 * lanesOf(dtype);
    case kI32:
    case kF32: return 4 * lanesOf(dtype);
    default: return 8 * lanesOf(dtype);
  }
}

namespace {
/** What a load that reads nothing points at (one element of any type, never read). */
alignas(16) const double kNothing[2] = {0, 0};
}  // namespace

void privatize(Plan& pl, const std::function<const void*(int load, const void* data, size_t bytes)>& copy,
               const std::function<void*(size_t bytes)>& scratch) {
  const Program& P = *pl.P;
  for (size_t i = 0; i < pl.geo.size(); i++) {
    Geo& g = pl.geo[i];
    const Space& s = static_cast<int>(i) < P.nLoads0 ? pl.s0 : pl.s1;
    // The span of elements the load reads (validated by planRun): [lo, hi].
    // An invariant load reads one element, at off, even over an empty space.
    bool empty = false;
    for (int k = 0; k < s.nd; k++) empty = empty || s.dim[k] == 0;
    if (empty && !g.invariant) {  // reads nothing
      g.off = 0;
      g.base = reinterpret_cast<const char*>(kNothing);
      g.elems = 1;
      continue;
    }
    int64_t lo = g.off, hi = g.off;
    for (int k = 0; k < s.nd && !g.invariant; k++) {
      if (s.dim[k] <= 1) continue;
      const int64_t ext = g.st[k] * (s.dim[k] - 1);
      if (ext < 0) lo += ext;
      else hi += ext;
    }
    const size_t eb = elementBytes(g.dtype);
    const size_t count = static_cast<size_t>(hi - lo + 1);
    g.base = static_cast<const char*>(copy(static_cast<int>(i), g.base + static_cast<size_t>(lo) * eb, count * eb));
    g.off -= lo;
    g.elems = static_cast<int64_t>(count);
  }
  // The output is written (outN elements from its start), never read.
  pl.out = static_cast<char*>(scratch(static_cast<size_t>(pl.outN) * elementBytes(P.outT)));
}

}  // namespace rlx::interp
