// Strided-view checks (see strided.h).
#include "strided.h"

#include <algorithm>
#include <utility>

#include "errors.h"

namespace rlx {

int64_t View::size() const {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d == 0) return 0;
    if (__builtin_mul_overflow(n, d, &n)) throw RangeErr("view size " + fmt_dims(shape) + " overflows");
  }
  return n;
}

std::string fmt_dims(const std::vector<int64_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); i++) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + "]";
}

Span span_of(const View& v, const std::string& what) {
  Span s{v.offset, v.offset};
  for (size_t i = 0; i < v.shape.size(); i++) {
    const int64_t d = v.shape[i];
    if (d == 0) return Span{};  // empty: touches nothing
    int64_t reach;
    if (__builtin_mul_overflow(d - 1, v.strides[i], &reach) ||
        (reach < 0 ? __builtin_add_overflow(s.lo, reach, &s.lo) : __builtin_add_overflow(s.hi, reach, &s.hi)))
      throw RangeErr(what + ": view with shape " + fmt_dims(v.shape) + " and strides " + fmt_dims(v.strides) + " overflows the index range");
  }
  return s;
}

void check_bounds(const View& v, int64_t length, const std::string& what) {
  const Span s = span_of(v, what);
  if (s.hi < s.lo) return;
  if (s.lo < 0 || s.hi >= length)
    throw RangeErr(what + ": view (offset " + std::to_string(v.offset) + ", shape " + fmt_dims(v.shape) + ", strides " + fmt_dims(v.strides) +
                   ") reads elements " + std::to_string(s.lo) + ".." + std::to_string(s.hi) + " but the array has " + std::to_string(length) +
                   " elements");
}

bool writes_each_element_once(const View& v) {
  std::vector<std::pair<int64_t, int64_t>> dims;  // (|stride|, size) of dims with size > 1
  for (size_t i = 0; i < v.shape.size(); i++) {
    if (v.shape[i] == 0) return true;
    if (v.shape[i] > 1) dims.emplace_back(v.strides[i] < 0 ? -v.strides[i] : v.strides[i], v.shape[i]);
  }
  std::sort(dims.begin(), dims.end());
  int64_t extent = 1;  // elements spanned by the dims so far
  for (auto [stride, size] : dims) {
    if (stride < extent) return false;
    int64_t reach;
    if (__builtin_mul_overflow(stride, size - 1, &reach) || __builtin_add_overflow(reach, extent, &extent)) return false;
  }
  return true;
}

}  // namespace rlx
