// Errors at the JS boundary. Argument problems are thrown as rlx::TypeErr /
// rlx::RangeErr (plain C++ exceptions, usable from code that never sees JS);
// `guard` wraps every entry point so that these, std::bad_alloc and any other
// std::exception become a JS TypeError / RangeError / Error whose message
// starts with the function name. Nothing escapes as a C++ exception into Node
// and nothing aborts the process.
#pragma once

#include <napi.h>

#include <new>
#include <stdexcept>
#include <string>

namespace rlx {

/** Wrong argument type (not a TypedArray, wrong dtype, not an integer, ...). */
struct TypeErr : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
/** Argument of the right type but out of range (lengths, shapes, strides, bounds). */
struct RangeErr : std::out_of_range {
  using std::out_of_range::out_of_range;
};

/** Builds the JS error for the exception being handled (call inside a catch block). */
inline Napi::Error current_exception_to_js(Napi::Env env, const char* fn) {
  const std::string p = std::string("rlx native ") + fn + ": ";
  try {
    throw;
  } catch (const Napi::Error& e) {
    return e;
  } catch (const TypeErr& e) {
    return Napi::TypeError::New(env, p + e.what());
  } catch (const RangeErr& e) {
    return Napi::RangeError::New(env, p + e.what());
  } catch (const std::bad_alloc&) {
    return Napi::Error::New(env, p + "out of memory");
  } catch (const std::exception& e) {
    return Napi::Error::New(env, p + e.what());
  } catch (...) {
    return Napi::Error::New(env, p + "unknown C++ exception");
  }
}

/** Message of the exception being handled, for code that must not touch JS (AsyncWorker::Execute). */
inline std::string current_exception_message(const char* fn) {
  const std::string p = std::string("rlx native ") + fn + ": ";
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return p + "out of memory";
  } catch (const std::exception& e) {
    return p + e.what();
  } catch (...) {
    return p + "unknown C++ exception";
  }
}

/** Runs an entry point body, turning every C++ exception into a JS exception. */
template <class F>
Napi::Value guard(const Napi::CallbackInfo& info, const char* fn, F&& body) {
  try {
    return body();
  } catch (...) {
    throw current_exception_to_js(info.Env(), fn);
  }
}

/** Defines `exports[name]` as a guarded function. */
template <class F>
void export_fn(Napi::Env env, Napi::Object exports, const char* name, F body) {
  exports.Set(name, Napi::Function::New(
                        env, [name, body](const Napi::CallbackInfo& info) -> Napi::Value { return guard(info, name, [&] { return body(info); }); },
                        name));
}

}  // namespace rlx
