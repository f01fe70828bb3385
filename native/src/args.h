// Reading and checking JS arguments before any memory is touched. Every
// helper throws rlx::TypeErr / rlx::RangeErr naming the argument and saying
// what was received and what was expected.
#pragma once

#include <napi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rlx {

/** Largest integer a JS number holds exactly (2^53 - 1). */
constexpr int64_t kMaxSafeInt = 9007199254740991LL;

/** A short description of a JS value's type for messages ("Float32Array", "number 1.5", "undefined"). */
std::string describe(const Napi::Value& v);

/** `v` as an object, or TypeErr("<what> must be an object, got ..."). */
Napi::Object as_object(const Napi::Value& v, const std::string& what);

/** An integer in [lo, hi] (a JS number with no fraction). */
int64_t as_int(const Napi::Value& v, const std::string& what, int64_t lo = -kMaxSafeInt, int64_t hi = kMaxSafeInt);

/** An array of integers in [lo, hi]; `len` >= 0 requires that length. */
std::vector<int64_t> as_int_array(const Napi::Value& v, const std::string& what, int64_t len = -1, int64_t lo = -kMaxSafeInt,
                                  int64_t hi = kMaxSafeInt);

/** A boolean; undefined gives `dflt`. */
bool as_bool(const Napi::Value& v, const std::string& what, bool dflt);

/** A string. */
std::string as_string(const Napi::Value& v, const std::string& what);

/** A TypedArray's memory, zero-copy: the ArrayBuffer's data plus the view's byte offset. */
struct TypedMemory {
  void* data = nullptr;
  size_t length = 0;  // elements of the TypedArray
  napi_typedarray_type type = napi_float64_array;
};

/** Name of a TypedArray type ("Float32Array", ...). */
const char* typed_array_name(napi_typedarray_type t);

/** `v` as a TypedArray of type `want`, or TypeErr naming what it is. */
TypedMemory as_typed(const Napi::Value& v, const std::string& what, napi_typedarray_type want);

/** Fills *m (its type included) and returns true when `v` is any TypedArray (a detached one reads as empty). */
bool typed_any(const Napi::Value& v, TypedMemory* m);

/** Fills *m and returns true when `v` is a TypedArray of type `want` (no error, no message built: the fast path of as_typed). */
bool typed_memory(const Napi::Value& v, napi_typedarray_type want, TypedMemory* m);

/** Whether TypedArray `v` views a detached (transferred) buffer. */
bool is_detached(const Napi::Value& v);

/**
 * Whether TypedArray `v` views a SharedArrayBuffer: another thread may write
 * its memory while a kernel runs, so a value read twice can differ.
 */
bool is_shared(const Napi::Value& v);

/**
 * Integers a kernel checks and then reads again (indices, indptr): the
 * caller's memory, or a private copy taken once when it is in a
 * SharedArrayBuffer, so that the values checked are the values used (a worker
 * writing the SAB between the check and the read would otherwise send the
 * kernel out of bounds). `owned` keeps the copy alive.
 */
struct StableInts {
  const int32_t* data = nullptr;
  size_t length = 0;
  bool copied = false;
  std::shared_ptr<const std::vector<int32_t>> owned;
};
StableInts stable_ints(const Napi::Value& v, const TypedMemory& m);

}  // namespace rlx
