// Where a kernel's arrays live while it runs: the one rule that lets every
// kernel run either at once on the calling thread or later on a libuv worker.
//
// A kernel's parse step (binding/kernel.h) reads its JS arguments on the main
// thread and hands each array to a Pins:
//
//   input(v, data, bytes)   memory the kernel only reads
//   output(v, data, bytes)  memory the kernel writes (and may read first)
//   fresh(v)                an array the binding itself just created (never
//                           seen by JS before the call settles)
//   keep(v)                 any other JS value the result needs or that must
//                           stay alive while the kernel runs (a handle)
//
// Synchronous call (Pins(false)): nothing happens, the kernel works on the
// caller's memory (no JS can run meanwhile), nothing is allocated.
//
// Asynchronous call (Pins(true)): a JS reference keeps an array object alive
// but not its memory: while the kernel runs, JS may transfer the buffer
// (postMessage, structuredClone with a transfer list,
// ArrayBuffer.prototype.transfer), which detaches it here and lets the new
// owner free it. So inputs and outputs are copied into private memory before
// the kernel is queued (O(size) memcpy next to an O(n^2)..O(n^3) kernel), and
// each output is written back when the kernel settles, on the main thread, if
// its array is still attached and as long as it was; otherwise the promise
// rejects with a ValueError and nothing is written. Arrays the binding created
// itself (fresh) are written in place: only the binding holds them.
#pragma once

#include <napi.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rlx {

class Pins {
 public:
  explicit Pins(bool async) : async_(async) {}
  Pins(Pins&&) = default;
  Pins& operator=(Pins&&) = default;

  bool async() const { return async_; }

  /** Memory the kernel reads: `data` itself (sync) or a private copy of its `bytes` (async). */
  const void* input(const Napi::Value& v, const void* data, size_t bytes);

  /**
   * Copies a private output back into the array's memory at the place `data`
   * was (dst) from the private copy (src); the default copies every byte.
   * A strided output (GEMM's c view) copies only its elements, so that
   * elements between them, which other calls may own, stay as they are.
   */
  using Scatter = std::function<void(char* dst, const char* src)>;

  /**
   * Memory the kernel writes: `data` itself (sync) or a private copy written
   * back when the call settles (async). `data` may lie anywhere in the array
   * `v` (a span of it). `reads`: the kernel may read it or leave some of it
   * unwritten, so the copy starts as the caller's values; false (a kernel
   * that writes every element first) skips that copy. `name` names the
   * array in the detached message ("" for "the output array").
   */
  void* output(const Napi::Value& v, void* data, size_t bytes, const char* name, bool reads = true, Scatter scatter = nullptr);

  /** An array the binding created: its memory as is; kept alive until the call settles. Returns its index for value(). */
  size_t fresh(const Napi::Value& v) { return keep(v); }

  /** Keeps `v` for the result (and alive until an async call settles); returns its index for value(). */
  size_t keep(const Napi::Value& v);

  /** The value kept as number `i` (main thread, after the kernel ran). */
  Napi::Value value(Napi::Env env, size_t i) const;

  /**
   * Async only, main thread, after the kernel ran: copies every output back.
   * Returns false (writing nothing) with *why set when an output array was
   * detached or shrank meanwhile.
   */
  bool write_back(Napi::Env env, std::string* why);

 private:
  struct Out {
    Napi::Reference<Napi::Value> ref;
    std::unique_ptr<double[]> copy;
    size_t at;  // bytes from the array's first element to `data`
    size_t bytes;
    const char* name;
    Scatter scatter;
  };
  static constexpr size_t kInline = 6;

  bool async_;
  // Sync: the kept values themselves (valid for the call; no allocation for the usual few).
  napi_value kept_inline_[kInline] = {};
  size_t n_kept_ = 0;
  std::vector<napi_value> kept_more_;
  // Async: references and private copies.
  std::vector<Napi::Reference<Napi::Value>> refs_;
  std::vector<std::unique_ptr<double[]>> inputs_;
  std::vector<Out> outputs_;
};

}  // namespace rlx
