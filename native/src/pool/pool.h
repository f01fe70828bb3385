// The addon's persistent thread pool (the interpreter, the sparse products,
// the data-movement kernels): parallelFor(n, fn) runs
// fn(0..n-1) on the pool's workers and the calling thread, and returns when
// all are done. One job at a time: a caller that finds the pool busy (another
// Node worker thread running a kernel) runs its tasks inline instead of waiting.
#pragma once

#include <cstdint>
#include <functional>

namespace rlx {

/** The addon's one pool; a libuv worker running an async kernel uses it like the main thread does. */
class Pool {
 public:
  static Pool& instance();
  // Total threads including the caller (>= 1).
  void resize(int threads);
  int size() const;
  void parallelFor(int64_t nTasks, const std::function<void(int64_t)>& fn);
};

}  // namespace rlx

