// Walks every index of a shape in row-major order, keeping the element offset
// of several strided views over that shape up to date: the loop behind batch
// iteration, packing and scattering of strided operands.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rlx {

template <size_t N>
class Odometer {
 public:
  /** `strides[v]` are view v's strides over `shape`; offsets start at `start[v]`. */
  Odometer(const std::vector<int64_t>& shape, const std::vector<int64_t>* const (&strides)[N], const int64_t (&start)[N])
      : shape_(shape), idx_(shape.size(), 0) {
    for (size_t v = 0; v < N; v++) strides_[v] = strides[v], off_[v] = start[v];
    for (int64_t d : shape) done_ = done_ || d == 0;
  }
  bool done() const { return done_; }
  int64_t offset(size_t v) const { return off_[v]; }
  /** Steps to the next index; done() turns true after the last one. */
  void next() {
    for (size_t i = shape_.size(); i-- > 0;) {
      if (++idx_[i] < shape_[i]) {
        for (size_t v = 0; v < N; v++) off_[v] += (*strides_[v])[i];
        return;
      }
      idx_[i] = 0;
      for (size_t v = 0; v < N; v++) off_[v] -= (shape_[i] - 1) * (*strides_[v])[i];
    }
    done_ = true;
  }

 private:
  const std::vector<int64_t>& shape_;
  std::vector<int64_t> idx_;
  const std::vector<int64_t>* strides_[N];
  int64_t off_[N];
  bool done_ = false;
};

}  // namespace rlx
