// The positional argument reader (see reader.h) and the names of the async entry points (kernel.h).
#include "binding/reader.h"

#include <cmath>
#include <deque>
#include <mutex>

#include "binding/kernel.h"
#include "errors.h"

namespace rlx {

Reader::Reader(const Napi::CallbackInfo& info, Pins& pins, size_t lo, size_t hi, const char* signature) : info_(info), pins_(pins) {
  if (info.Length() < lo || info.Length() > hi)
    throw TypeErr("expected " + std::to_string(lo) + (hi > lo ? " to " + std::to_string(hi) : std::string()) + " arguments (" + signature + "), got " +
                  std::to_string(info.Length()));
}

bool Reader::flag(size_t i, const char* name) const {
  if (!info_[i].IsBoolean()) throw TypeErr(std::string(name) + " must be a boolean, got " + describe(info_[i]));
  return info_[i].As<Napi::Boolean>().Value();
}

double Reader::number(size_t i, const char* name) const {
  if (!info_[i].IsNumber()) throw TypeErr(std::string(name) + " must be a number, got " + describe(info_[i]));
  const double d = info_[i].As<Napi::Number>().DoubleValue();
  if (std::isnan(d)) throw RangeErr(std::string(name) + " must not be NaN", "ValueError");
  return d;
}

size_t Reader::elem_bytes(napi_typedarray_type t) {
  switch (t) {
    case napi_int8_array: case napi_uint8_array: case napi_uint8_clamped_array: return 1;
    case napi_int16_array: case napi_uint16_array: return 2;
    case napi_int32_array: case napi_uint32_array: case napi_float32_array: return 4;
    default: return 8;
  }
}

void Reader::check_no_overlap() const {
  for (size_t i = 0; i < mem_.size(); i++) {
    if (!mem_[i].output) continue;
    for (size_t j = 0; j < mem_.size(); j++) {
      if (i == j || (j < i && mem_[j].output)) continue;
      const auto &x = mem_[i], &y = mem_[j];
      if (x.lo < y.hi && y.lo < x.hi)
        throw RangeErr(std::string(x.name) + " shares memory with " + y.name + "; outputs must not overlap any other array", "ValueError");
    }
  }
}

namespace detail {
const char* async_name(const char* name) {
  // Registration runs once per module load (and per worker thread's Env): keep each name once.
  static std::mutex mu;
  static auto* names = new std::deque<std::string>();  // never destroyed: exports may outlive static destruction
  std::lock_guard<std::mutex> lk(mu);
  for (const std::string& s : *names)
    if (s.size() == std::strlen(name) + 5 && s.compare(0, s.size() - 5, name) == 0) return s.c_str();
  names->push_back(std::string(name) + "Async");
  return names->back().c_str();
}
}  // namespace detail

}  // namespace rlx
