// JS entry points of the data-movement kernels (see opaque.h):
//
//   opaqueCumsum(x, out, outer, n, inner, carry?): void   (and opaqueCumsumAsync: a Promise, on a libuv worker)
//   opaqueGather(x, idx, out, outer, n, inner): number
//   opaqueScatterAdd(x, idx, upd, out, outer, n, inner): number
//   opaqueConcat(ins: TypedArray[], widths: number[], out, outer): void
//   opaquePad(x, out, shape: number[], before: number[], after: number[], fill): void
//   opaqueSetThreshold(bytes) / opaqueGetThreshold()
//
// x, upd, out (and every input of concat, and fill) are TypedArrays of one
// storage class (Uint8Array, Uint16Array, Int32Array, Float32Array,
// Float64Array); idx is an Int32Array. Sizes count storage scalars (inner and
// widths include the 2 lanes of complex elements); pad's shape counts
// elements, each fill.length scalars wide. gather and scatterAdd return -1, or
// the position in idx of the first index outside [-n, n) and then write
// nothing (the TS side turns that into rlx's IndexError). Everything is read
// and checked (lengths, shapes, overlap of the output with an input) before
// memory is touched; problems throw TypeError / RangeError. An idx in a
// SharedArrayBuffer is copied before it is checked (args.h, stable_ints).
#include <napi.h>

#include <cstring>
#include <string>
#include <vector>

#include "args.h"
#include "binding/kernel.h"
#include "errors.h"
#include "opaque.h"
#include "register.h"

namespace rlx::opaque {
namespace {

/** A TypedArray argument of any storage class. */
struct Mem {
  void* data = nullptr;
  int64_t length = 0;  // scalars
  Storage st = Storage::f64;
  size_t bytes() const { return static_cast<size_t>(length) * bytes_of(st); }
};

Mem as_storage(const Napi::Value& v, const std::string& what) {
  if (!v.IsTypedArray()) throw TypeErr(what + " must be a storage TypedArray (Uint8Array, Uint16Array, Int32Array, Float32Array or Float64Array), got " + describe(v), "DTypeError");
  const napi_typedarray_type t = v.As<Napi::TypedArray>().TypedArrayType();
  Mem m;
  switch (t) {
    case napi_uint8_array: m.st = Storage::u8; break;
    case napi_uint16_array: m.st = Storage::u16; break;
    case napi_int32_array: m.st = Storage::i32; break;
    case napi_float32_array: m.st = Storage::f32; break;
    case napi_float64_array: m.st = Storage::f64; break;
    default: throw TypeErr(what + " must be a storage TypedArray (Uint8Array, Uint16Array, Int32Array, Float32Array or Float64Array), got " + describe(v), "DTypeError");
  }
  const TypedMemory tm = as_typed(v, what, t);
  m.data = tm.data;
  m.length = static_cast<int64_t>(tm.length);
  return m;
}

void same_storage(const Mem& a, const Mem& b, const std::string& what) {
  if (a.st != b.st) throw TypeErr(what + " must be a " + storage_name(a.st) + " like the first array, got " + storage_name(b.st), "DTypeError");
}

/** a * b for sizes, or RangeErr when it passes 2^53. */
int64_t mul(int64_t a, int64_t b, const char* what) {
  if (a != 0 && b > kMaxSafeInt / a) throw RangeErr(std::string(what) + ": size too large");
  return a * b;
}

void expect_length(const Mem& m, int64_t want, const std::string& what) {
  if (m.length != want) throw RangeErr(what + " has " + std::to_string(m.length) + " scalars, expected " + std::to_string(want));
}

bool overlap(const Mem& a, const Mem& b) {
  if (a.bytes() == 0 || b.bytes() == 0) return false;
  const char* a0 = static_cast<const char*>(a.data);
  const char* b0 = static_cast<const char*>(b.data);
  return a0 < b0 + b.bytes() && b0 < a0 + a.bytes();
}

/** The output may be exactly `in` (when allowed) but must not partly overlap it. */
void no_overlap(const Mem& out, const Mem& in, const std::string& what, bool allow_same) {
  if (allow_same && out.data == in.data && out.length == in.length) return;
  if (overlap(out, in)) throw RangeErr("out shares memory with " + what + "; the output must not overlap an input", "ValueError");
}

void expect_args(const Napi::CallbackInfo& info, size_t n, const char* sig) {
  if (info.Length() != n) throw TypeErr(std::string("expected ") + sig + ", got " + std::to_string(info.Length()) + " arguments");
}

}  // namespace
}  // namespace rlx::opaque

RLX_REGISTER(opaque) {
  using namespace rlx;
  using namespace rlx::opaque;

  // opaqueCumsum and opaqueCumsumAsync (binding/kernel.h). In place (out is x)
  // is allowed: the async call then works on one private copy, as the sync one on x.
  // carry (optional, outer = 1 only): the running sum before x's first row, so that
  // a long scan can be cut into pieces (backends/native/opaque.ts: an awaited cumsum
  // runs piece by piece, each piece's copies small enough not to hold the event
  // loop); out[0] = carry + x[0] as the whole scan computes it, bit for bit.
  struct CumsumJob {
    Storage st;
    const void* x;
    void* out;
    const void* carry;
    int64_t outer, n, inner;
    void run() {
      if (!carry || n == 0) return cumsum(st, x, out, outer, n, inner);
      // The scan of [carry; x] is the continued scan: its rows 1.. are out.
      const size_t row = static_cast<size_t>(inner) * bytes_of(st);
      std::vector<double> buf((row * static_cast<size_t>(n + 1) + 7) / 8);
      char* b = reinterpret_cast<char*>(buf.data());
      std::memcpy(b, carry, row);
      std::memcpy(b + row, x, row * static_cast<size_t>(n));
      cumsum(st, b, b, 1, n + 1, inner);
      std::memcpy(out, b + row, row * static_cast<size_t>(n));
    }
    Napi::Value result(Napi::Env env, Pins&) { return env.Undefined(); }
  };
  export_kernel(env, exports, "opaqueCumsum", [](const Napi::CallbackInfo& info, Pins& pins) -> CumsumJob {
    if (info.Length() != 5 && info.Length() != 6) throw TypeErr("expected (x, out, outer, n, inner) or (x, out, outer, n, inner, carry), got " + std::to_string(info.Length()) + " arguments");
    const int64_t outer = as_int(info[2], "outer", 0), n = as_int(info[3], "n", 0), inner = as_int(info[4], "inner", 0);
    const bool carried = info.Length() == 6 && !info[5].IsUndefined();
    const Mem x = as_storage(info[0], "x"), out = as_storage(info[1], "out");
    same_storage(x, out, "out");
    const int64_t total = mul(mul(outer, n, "cumsum"), inner, "cumsum");
    expect_length(x, total, "x");
    expect_length(out, total, "out");
    no_overlap(out, x, "x", true);
    Mem c;
    if (carried) {
      if (outer != 1) throw RangeErr("carry needs outer = 1, got outer = " + std::to_string(outer));
      c = as_storage(info[5], "carry");
      same_storage(x, c, "carry");
      expect_length(c, inner, "carry");
      no_overlap(out, c, "carry", false);
    }
    void* o = pins.output(info[1], out.data, out.bytes(), "out", out.data == x.data);  // cumsum writes every element of out
    const void* xi = out.data == x.data ? o : pins.input(info[0], x.data, x.bytes());
    const void* ci = carried ? pins.input(info[5], c.data, c.bytes()) : nullptr;
    return CumsumJob{x.st, xi, o, ci, outer, n, inner};
  });

  export_fn(env, exports, "opaqueGather", [](const Napi::CallbackInfo& info) -> Napi::Value {
    expect_args(info, 6, "(x, idx, out, outer, n, inner)");
    const int64_t outer = as_int(info[3], "outer", 0), n = as_int(info[4], "n", 0), inner = as_int(info[5], "inner", 0);
    const Mem x = as_storage(info[0], "x"), out = as_storage(info[2], "out");
    const TypedMemory idx = as_typed(info[1], "idx", napi_int32_array);
    same_storage(x, out, "out");
    const int64_t m = static_cast<int64_t>(idx.length);
    expect_length(x, mul(mul(outer, n, "gather"), inner, "gather"), "x");
    expect_length(out, mul(mul(outer, m, "gather"), inner, "gather"), "out");
    const Mem im{idx.data, m, Storage::i32};
    no_overlap(out, x, "x", false);
    no_overlap(out, im, "idx", false);
    const StableInts six = stable_ints(info[1], idx);  // the indices checked are the indices used (a SharedArrayBuffer is copied)
    const int32_t* ix = six.data;
    const int64_t bad = check_indices(ix, m, n);
    if (bad >= 0) return Napi::Number::New(info.Env(), static_cast<double>(bad));
    gather(bytes_of(x.st), x.data, ix, m, out.data, outer, n, inner);
    return Napi::Number::New(info.Env(), -1);
  });

  export_fn(env, exports, "opaqueScatterAdd", [](const Napi::CallbackInfo& info) -> Napi::Value {
    expect_args(info, 7, "(x, idx, upd, out, outer, n, inner)");
    const int64_t outer = as_int(info[4], "outer", 0), n = as_int(info[5], "n", 0), inner = as_int(info[6], "inner", 0);
    const Mem x = as_storage(info[0], "x"), upd = as_storage(info[2], "upd"), out = as_storage(info[3], "out");
    const TypedMemory idx = as_typed(info[1], "idx", napi_int32_array);
    same_storage(x, upd, "upd");
    same_storage(x, out, "out");
    const int64_t m = static_cast<int64_t>(idx.length);
    const int64_t total = mul(mul(outer, n, "scatterAdd"), inner, "scatterAdd");
    expect_length(x, total, "x");
    expect_length(out, total, "out");
    expect_length(upd, mul(mul(outer, m, "scatterAdd"), inner, "scatterAdd"), "upd");
    const Mem im{idx.data, m, Storage::i32};
    no_overlap(out, x, "x", true);
    no_overlap(out, upd, "upd", false);
    no_overlap(out, im, "idx", false);
    const StableInts six = stable_ints(info[1], idx);
    const int32_t* ix = six.data;
    const int64_t bad = check_indices(ix, m, n);
    if (bad >= 0) return Napi::Number::New(info.Env(), static_cast<double>(bad));
    scatter_add(x.st, x.data, ix, m, upd.data, out.data, outer, n, inner);
    return Napi::Number::New(info.Env(), -1);
  });

  export_fn(env, exports, "opaqueConcat", [](const Napi::CallbackInfo& info) -> Napi::Value {
    expect_args(info, 4, "(ins, widths, out, outer)");
    if (!info[0].IsArray()) throw TypeErr("ins must be an Array of TypedArrays, got " + describe(info[0]));
    const Napi::Array arr = info[0].As<Napi::Array>();
    const uint32_t k = arr.Length();
    if (k == 0) throw RangeErr("ins must not be empty");
    if (!info[1].IsArray() || info[1].As<Napi::Array>().Length() != k)
      throw RangeErr("widths must be an Array of " + std::to_string(k) + " integers (one per input), got " + describe(info[1]));
    std::vector<int64_t> widths(k);
    for (uint32_t i = 0; i < k; i++) widths[i] = as_int(info[1].As<Napi::Array>().Get(i), "widths[" + std::to_string(i) + "]", 0);
    const int64_t outer = as_int(info[3], "outer", 0);
    // Every JS value first (getters may run), pointers after.
    std::vector<Napi::Value> vals(k);
    for (uint32_t i = 0; i < k; i++) vals[i] = arr.Get(i);
    const Mem out = as_storage(info[2], "out");
    std::vector<Mem> ins(k);
    std::vector<const void*> ptrs(k);
    int64_t total = 0;
    for (uint32_t i = 0; i < k; i++) {
      const std::string w = "ins[" + std::to_string(i) + "]";
      ins[i] = as_storage(vals[i], w);
      same_storage(out, ins[i], w);
      expect_length(ins[i], mul(outer, widths[i], "concat"), w);
      no_overlap(out, ins[i], w, false);
      ptrs[i] = ins[i].data;
      total += widths[i];
      if (total > kMaxSafeInt) throw RangeErr("concat: size too large");
    }
    expect_length(out, mul(outer, total, "concat"), "out");
    concat(bytes_of(out.st), ptrs.data(), widths.data(), k, out.data, outer);
    return info.Env().Undefined();
  });

  export_fn(env, exports, "opaquePad", [](const Napi::CallbackInfo& info) -> Napi::Value {
    expect_args(info, 6, "(x, out, shape, before, after, fill)");
    const std::vector<int64_t> shape = as_int_array(info[2], "shape", -1, 0);
    const int64_t r = static_cast<int64_t>(shape.size());
    const std::vector<int64_t> before = as_int_array(info[3], "before", r, 0), after = as_int_array(info[4], "after", r, 0);
    const Mem x = as_storage(info[0], "x"), out = as_storage(info[1], "out"), fill = as_storage(info[5], "fill");
    same_storage(x, out, "out");
    same_storage(x, fill, "fill");
    if (fill.length != 1 && fill.length != 2) throw RangeErr("fill must hold one element: 1 scalar, or 2 for a complex dtype; got " + std::to_string(fill.length));
    int64_t in_n = fill.length, out_n = fill.length;
    for (int64_t i = 0; i < r; i++) {
      if (before[i] > kMaxSafeInt - shape[i] || after[i] > kMaxSafeInt - shape[i] - before[i]) throw RangeErr("pad: size too large");
      in_n = mul(in_n, shape[i], "pad");
      out_n = mul(out_n, shape[i] + before[i] + after[i], "pad");
    }
    expect_length(x, in_n, "x");
    expect_length(out, out_n, "out");
    no_overlap(out, x, "x", false);
    no_overlap(out, fill, "fill", false);
    pad(bytes_of(x.st) * static_cast<size_t>(fill.length), x.data, out.data, shape.data(), before.data(), after.data(), static_cast<int>(r), fill.data);
    return info.Env().Undefined();
  });

  export_fn(env, exports, "opaqueSetThreshold", [](const Napi::CallbackInfo& info) -> Napi::Value {
    expect_args(info, 1, "(bytes)");
    set_parallel_threshold(as_int(info[0], "bytes", 0));
    return info.Env().Undefined();
  });
  export_fn(env, exports, "opaqueGetThreshold", [](const Napi::CallbackInfo& info) -> Napi::Value {
    return Napi::Number::New(info.Env(), static_cast<double>(parallel_threshold()));
  });
}
