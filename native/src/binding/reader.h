// The positional argument reader of the kernel entry points: each value is
// checked (args.h: one error path, rlx::TypeErr / RangeErr naming the argument,
// what it got and what it expected) and each array handed to the call's Pins
// (pins.h), so the same parse code serves the sync and the async entry point.
// It remembers every array's original memory for check_no_overlap().
#pragma once

#include <napi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "args.h"
#include "binding/pins.h"
#include "errors.h"

namespace rlx {

class Reader {
 public:
  /** Requires exactly `count` arguments (`signature` names them in the message). */
  Reader(const Napi::CallbackInfo& info, Pins& pins, size_t count, const char* signature) : Reader(info, pins, count, count, signature) {}
  /** Requires `lo`..`hi` arguments (entry points with overloads, e.g. the interpreter's optional constants). */
  Reader(const Napi::CallbackInfo& info, Pins& pins, size_t lo, size_t hi, const char* signature);

  size_t length() const { return info_.Length(); }

  const Napi::CallbackInfo& info() const { return info_; }
  Pins& pins() { return pins_; }
  Napi::Value operator[](size_t i) const { return info_[i]; }
  bool is_null(size_t i) const { return info_[i].IsNull(); }

  /** An integer in [lo, hi]. */
  int64_t integer(size_t i, const char* name, int64_t lo, int64_t hi) const { return as_int(info_[i], name, lo, hi); }
  /** A boolean (required). */
  bool flag(size_t i, const char* name) const;
  /** A number that is not NaN. */
  double number(size_t i, const char* name) const;
  std::string string(size_t i, const char* name) const { return as_string(info_[i], name); }

  /**
   * A TypedArray of type `want` and exactly `length` elements that the kernel
   * reads (input) or writes (output); null when `nullable` and the argument is
   * null. `note()` completes the name in messages (built only when one is thrown).
   */
  template <class Note>
  const void* input(size_t i, const char* name, napi_typedarray_type want, int64_t length, bool nullable, Note note) {
    const TypedMemory m = take(i, name, want, length, false, nullable, note);
    return pins_.input(info_[i], m.data, bytes(m, want));
  }
  template <class Note>
  void* output(size_t i, const char* name, napi_typedarray_type want, int64_t length, bool nullable, Note note) {
    const TypedMemory m = take(i, name, want, length, true, nullable, note);
    return pins_.output(info_[i], m.data, bytes(m, want), name);
  }

  /**
   * A TypedArray of type `want` and any length, read as it is (the caller
   * pins what it uses: the interpreter copies only the spans its loads read);
   * a detached one reads as empty. Otherwise TypeErr(`wrong`, kind).
   */
  TypedMemory array(size_t i, napi_typedarray_type want, const char* wrong, const char* kind = "DTypeError") const {
    TypedMemory m;
    if (!typed_memory(info_[i], want, &m)) throw TypeErr(wrong, kind);
    return m;
  }

  /** Throws unless no output shares memory with any other array. Call after the last array. */
  void check_no_overlap() const;

 private:
  struct Mem {
    const char* name;
    const uint8_t* lo;
    const uint8_t* hi;
    bool output;
  };
  static size_t elem_bytes(napi_typedarray_type t);
  static size_t bytes(const TypedMemory& m, napi_typedarray_type t) { return m.length * elem_bytes(t); }

  template <class Note>
  TypedMemory take(size_t i, const char* name, napi_typedarray_type want, int64_t length, bool output, bool nullable, Note note) {
    const Napi::Value v = info_[i];
    TypedMemory m;
    if (nullable && v.IsNull()) return m;
    if (!typed_memory(v, want, &m)) m = as_typed(v, std::string(name) + note() + (nullable ? " or null" : ""), want);  // throws
    if (static_cast<int64_t>(m.length) != length)
      throw RangeErr(std::string(name) + note() + " must have length " + std::to_string(length) + ", got " + std::to_string(m.length));
    if (length > 0) {
      const uint8_t* lo = static_cast<const uint8_t*>(m.data);
      mem_.push_back({name, lo, lo + bytes(m, want), output});
    }
    return m;
  }

  const Napi::CallbackInfo& info_;
  Pins& pins_;
  std::vector<Mem> mem_;
};

}  // namespace rlx
