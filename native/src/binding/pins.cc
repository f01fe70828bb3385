// Private copies and references of an async kernel call (see pins.h).
#include "binding/pins.h"

#include <cstring>

#include "args.h"

namespace rlx {
namespace {
/** Uninitialized memory for `bytes` (8-byte aligned: doubles and complex doubles read it). */
std::unique_ptr<double[]> scratch(size_t bytes) { return std::unique_ptr<double[]>(new double[(bytes + 7) / 8 + 1]); }
}  // namespace

const void* Pins::input(const Napi::Value& v, const void* data, size_t bytes) {
  if (!async_ || !data) return data;
  std::unique_ptr<double[]> c = scratch(bytes);
  if (bytes) std::memcpy(c.get(), data, bytes);
  inputs_.push_back(std::move(c));
  return inputs_.back().get();
}

void* Pins::output(const Napi::Value& v, void* data, size_t bytes, const char* name, bool reads, Scatter scatter) {
  if (!async_ || !data) return data;
  void* start = nullptr;
  if (napi_get_typedarray_info(v.Env(), v, nullptr, nullptr, &start, nullptr, nullptr) != napi_ok || !start) start = data;
  const size_t at = static_cast<size_t>(static_cast<char*>(data) - static_cast<char*>(start));
  Out o{Napi::Persistent(v), scratch(bytes), at, bytes, name, std::move(scatter)};
  if (bytes && reads) std::memcpy(o.copy.get(), data, bytes);  // the kernel may read what it does not overwrite
  outputs_.push_back(std::move(o));
  return outputs_.back().copy.get();
}

size_t Pins::keep(const Napi::Value& v) {
  if (async_) {
    refs_.push_back(Napi::Persistent(v));
    return refs_.size() - 1;
  }
  if (n_kept_ < kInline) kept_inline_[n_kept_] = v;
  else kept_more_.push_back(v);
  return n_kept_++;
}

Napi::Value Pins::value(Napi::Env env, size_t i) const {
  if (async_) return refs_[i].Value();
  return Napi::Value(env, i < kInline ? kept_inline_[i] : kept_more_[i - kInline]);
}

bool Pins::write_back(Napi::Env env, std::string* why) {
  // Check every output first: all or nothing.
  std::vector<void*> dst(outputs_.size());
  for (size_t i = 0; i < outputs_.size(); i++) {
    const Out& o = outputs_[i];
    const Napi::Value v = o.ref.Value();
    void* data = nullptr;
    size_t length = 0;
    napi_typedarray_type t;
    if (napi_get_typedarray_info(env, v, &t, &length, &data, nullptr, nullptr) != napi_ok) data = nullptr;
    size_t elem = 8;
    switch (t) {
      case napi_int8_array: case napi_uint8_array: case napi_uint8_clamped_array: elem = 1; break;
      case napi_int16_array: case napi_uint16_array: elem = 2; break;
      case napi_int32_array: case napi_uint32_array: case napi_float32_array: elem = 4; break;
      default: elem = 8;
    }
    if (!data || length * elem < o.at + o.bytes) {
      *why = std::string("the output array ") + o.name + (*o.name ? " " : "") + (is_detached(v) || !data ? "was detached (transferred)" : "shrank") +
             " while the kernel ran; the result was dropped (keep the arrays of an awaited call until it settles)";
      return false;
    }
    dst[i] = static_cast<char*>(data) + o.at;
  }
  for (size_t i = 0; i < outputs_.size(); i++) {
    const Out& o = outputs_[i];
    if (!o.bytes) continue;
    if (o.scatter) o.scatter(static_cast<char*>(dst[i]), reinterpret_cast<const char*>(o.copy.get()));
    else std::memcpy(dst[i], o.copy.get(), o.bytes);
  }
  return true;
}

}  // namespace rlx
