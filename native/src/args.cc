// Argument readers (see args.h).
#include "args.h"

#include <cmath>
#include <cstdio>

#include "errors.h"

namespace rlx {

const char* typed_array_name(napi_typedarray_type t) {
  switch (t) {
    case napi_int8_array: return "Int8Array";
    case napi_uint8_array: return "Uint8Array";
    case napi_uint8_clamped_array: return "Uint8ClampedArray";
    case napi_int16_array: return "Int16Array";
    case napi_uint16_array: return "Uint16Array";
    case napi_int32_array: return "Int32Array";
    case napi_uint32_array: return "Uint32Array";
    case napi_float32_array: return "Float32Array";
    case napi_float64_array: return "Float64Array";
    case napi_bigint64_array: return "BigInt64Array";
    case napi_biguint64_array: return "BigUint64Array";
    default: return "TypedArray";
  }
}

std::string describe(const Napi::Value& v) {
  if (v.IsUndefined()) return "undefined";
  if (v.IsNull()) return "null";
  if (v.IsTypedArray()) return typed_array_name(v.As<Napi::TypedArray>().TypedArrayType());
  if (v.IsNumber()) {
    const double d = v.As<Napi::Number>().DoubleValue();
    if (std::isnan(d)) return "number NaN";
    if (std::isinf(d)) return d > 0 ? "number Infinity" : "number -Infinity";
    char buf[64];
    std::snprintf(buf, sizeof buf, "number %.17g", d);
    return buf;
  }
  if (v.IsString()) return "string";
  if (v.IsBoolean()) return "boolean";
  if (v.IsArray()) return "Array";
  if (v.IsArrayBuffer()) return "ArrayBuffer";
  if (v.IsDataView()) return "DataView";
  if (v.IsFunction()) return "function";
  if (v.IsBigInt()) return "bigint";
  if (v.IsObject()) return "object";
  return "value";
}

Napi::Object as_object(const Napi::Value& v, const std::string& what) {
  if (!v.IsObject() || v.IsArray() || v.IsTypedArray() || v.IsFunction()) throw TypeErr(what + " must be an object, got " + describe(v));
  return v.As<Napi::Object>();
}

int64_t as_int(const Napi::Value& v, const std::string& what, int64_t lo, int64_t hi) {
  if (!v.IsNumber()) throw TypeErr(what + " must be an integer, got " + describe(v));
  const double d = v.As<Napi::Number>().DoubleValue();
  if (!std::isfinite(d) || d != std::floor(d)) throw TypeErr(what + " must be an integer, got " + describe(v));
  if (d < static_cast<double>(lo) || d > static_cast<double>(hi))
    throw RangeErr(what + " must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got " + describe(v).substr(7));
  return static_cast<int64_t>(d);
}

std::vector<int64_t> as_int_array(const Napi::Value& v, const std::string& what, int64_t len, int64_t lo, int64_t hi) {
  if (!v.IsArray()) throw TypeErr(what + " must be an Array of integers, got " + describe(v));
  const Napi::Array arr = v.As<Napi::Array>();
  const uint32_t n = arr.Length();
  if (len >= 0 && static_cast<int64_t>(n) != len)
    throw RangeErr(what + " must have length " + std::to_string(len) + ", got length " + std::to_string(n));
  if (n > 64) throw RangeErr(what + " has " + std::to_string(n) + " entries; at most 64 dims are supported");
  std::vector<int64_t> out(n);
  for (uint32_t i = 0; i < n; i++) out[i] = as_int(arr.Get(i), what + "[" + std::to_string(i) + "]", lo, hi);
  return out;
}

bool as_bool(const Napi::Value& v, const std::string& what, bool dflt) {
  if (v.IsUndefined()) return dflt;
  if (!v.IsBoolean()) throw TypeErr(what + " must be a boolean, got " + describe(v));
  return v.As<Napi::Boolean>().Value();
}

std::string as_string(const Napi::Value& v, const std::string& what) {
  if (!v.IsString()) throw TypeErr(what + " must be a string, got " + describe(v));
  return v.As<Napi::String>().Utf8Value();
}

bool typed_any(const Napi::Value& v, TypedMemory* m) {
  // One napi_get_typedarray_info call (type, length, data already offset by the
  // view's byte offset): the Napi::TypedArray accessors make one each, ~4 per
  // array. It answers napi_invalid_arg, without a JS exception, for anything
  // that is not a TypedArray, so no separate napi_is_typedarray.
  napi_typedarray_type type;
  size_t length = 0;
  void* data = nullptr;
  if (napi_get_typedarray_info(v.Env(), v, &type, &length, &data, nullptr, nullptr) != napi_ok) return false;
  m->type = type;
  // A detached buffer has no data and the view has length 0: any access is then out of bounds.
  m->data = data;
  m->length = data ? length : 0;
  return true;
}

bool typed_memory(const Napi::Value& v, napi_typedarray_type want, TypedMemory* m) {
  TypedMemory t;
  if (!typed_any(v, &t) || t.type != want) return false;
  *m = t;
  return true;
}

TypedMemory as_typed(const Napi::Value& v, const std::string& what, napi_typedarray_type want) {
  TypedMemory m;
  if (typed_memory(v, want, &m)) {
    // A detached buffer reads as length 0: say so instead of a confusing length error.
    if (!m.data && is_detached(v)) throw TypeErr(what + " is a " + typed_array_name(want) + " whose buffer has been detached (transferred)", "ValueError");
    return m;
  }
  if (!v.IsTypedArray()) throw TypeErr(what + " must be a " + typed_array_name(want) + ", got " + describe(v), "DTypeError");
  throw TypeErr(what + " must be a " + typed_array_name(want) + ", got " + typed_array_name(v.As<Napi::TypedArray>().TypedArrayType()), "DTypeError");
}

namespace {
/** The ArrayBuffer / SharedArrayBuffer under TypedArray `v` (nullptr when `v` is not one). */
napi_value buffer_of(const Napi::Value& v) {
  napi_value buf = nullptr;
  bool is = false;
  if (napi_is_typedarray(v.Env(), v, &is) != napi_ok || !is) return nullptr;
  if (napi_get_typedarray_info(v.Env(), v, nullptr, nullptr, nullptr, &buf, nullptr) != napi_ok) return nullptr;
  return buf;
}
}  // namespace

bool is_detached(const Napi::Value& v) {
  const napi_value buf = buffer_of(v);
  bool d = false;
  return buf && napi_is_detached_arraybuffer(v.Env(), buf, &d) == napi_ok && d;
}

bool is_shared(const Napi::Value& v) {
  // napi_is_arraybuffer is false for a SharedArrayBuffer (V8's IsArrayBuffer
  // excludes shared ones), and N-API 8 has no direct test.
  const napi_value buf = buffer_of(v);
  bool ab = true;
  return buf && napi_is_arraybuffer(v.Env(), buf, &ab) == napi_ok && !ab;
}

StableInts stable_ints(const Napi::Value& v, const TypedMemory& m) {
  StableInts s;
  s.data = static_cast<const int32_t*>(m.data);
  s.length = m.length;
  if (m.length && is_shared(v)) {
    auto copy = std::make_shared<std::vector<int32_t>>(s.data, s.data + m.length);
    s.data = copy->data();
    s.copied = true;
    s.owned = std::move(copy);
  }
  return s;
}

}  // namespace rlx
