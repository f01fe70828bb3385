// Checks on strided views (shape, strides, offset over a flat array, all in
// elements): the span of elements a view reads, bounds against the array's
// length, and whether a view writes any element twice. Overflow-safe for any
// values a JS number can carry. Shared by every kernel that takes views.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rlx {

/** A view: element (i0, i1, ...) is at offset + Σ i_d * strides[d]. */
struct View {
  int64_t offset = 0;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  /** Number of elements (product of shape; 0 when any dim is 0). */
  int64_t size() const;
};

/** Lowest and highest element index a non-empty view touches. */
struct Span {
  int64_t lo = 0, hi = -1;
};

/** The span of `v` (throws RangeErr "<what>: ... overflows" when it does not fit in int64). */
Span span_of(const View& v, const std::string& what);

/**
 * Throws RangeErr unless every element of `v` lies in [0, length): message
 * names `what`, the span needed and the length available.
 */
void check_bounds(const View& v, int64_t length, const std::string& what);

/** True when no two index tuples of `v` map to the same element (sufficient test: sorted strides). */
bool writes_each_element_once(const View& v);

/** "[2, 3]"-style formatting for messages. */
std::string fmt_dims(const std::vector<int64_t>& d);

}  // namespace rlx
