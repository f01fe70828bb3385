// Errors at the JS boundary, one path for every binding (the kernels, GEMM and
// the interpreter). Argument problems are thrown as rlx::TypeErr /
// rlx::RangeErr (plain C++ exceptions, usable from code that never sees JS);
// `guard` wraps every entry point so that these, std::bad_alloc and any other
// std::exception become a JS TypeError / RangeError / Error whose message
// starts with the function name (ErrorStyle: the interpreter's read
// "rlx interpreter: ..." and are plain Errors). Nothing escapes as a C++ exception into Node
// and nothing aborts the process.
//
// Every JS error also carries `rlxKind`: the name of the rlx error class
// (src/tensor/errors.ts, src/linalg/errors.ts) it stands for, so that the TS
// wrappers (src/backends/native/errors.ts) rethrow a typed error in one place
// while the raw addon keeps its TypeError / RangeError contract. Defaults:
// TypeErr -> ValueError, RangeErr -> ShapeError, KindErr -> its kind,
// std::bad_alloc and any other exception -> DeviceError.
#pragma once

#include <napi.h>

#include <new>
#include <stdexcept>
#include <string>
#include <utility>

namespace rlx {

/** Wrong argument type (not a TypedArray, wrong dtype, not an integer, ...); kind: the rlx error class it maps to. */
struct TypeErr : std::invalid_argument {
  const char* kind;
  explicit TypeErr(const std::string& m, const char* k = "ValueError") : std::invalid_argument(m), kind(k) {}
};
/** Argument of the right type but out of range (lengths, shapes, strides, bounds). */
struct RangeErr : std::out_of_range {
  const char* kind;
  explicit RangeErr(const std::string& m, const char* k = "ShapeError") : std::out_of_range(m), kind(k) {}
};
/** Any other failure with a known rlx error class (a JS Error): "LinAlgError", "ValueError", "DeviceError", ... */
struct KindErr : std::runtime_error {
  const char* kind;
  KindErr(const char* k, const std::string& m) : std::runtime_error(m), kind(k) {}
};

/** The rlx error class name of the exception being handled (call inside a catch block). */
inline const char* current_exception_kind() {
  try {
    throw;
  } catch (const TypeErr& e) {
    return e.kind;
  } catch (const RangeErr& e) {
    return e.kind;
  } catch (const KindErr& e) {
    return e.kind;
  } catch (...) {
    return "DeviceError";
  }
}

/** `e` with its rlxKind property set. */
inline Napi::Error with_kind(Napi::Error e, const char* kind) {
  e.Value().Set("rlxKind", kind);
  return e;
}

/**
 * How an entry point's errors read. The kernels: "rlx native <fn>: ..." as a
 * TypeError / RangeError / Error by the exception's type. The interpreter
 * (interp/napi.cc) keeps its contract: "rlx interpreter: ..." and always a
 * plain Error. Either way the same exceptions, the same rlxKind tags.
 */
struct ErrorStyle {
  const char* fn;                // the export's name
  const char* prefix = nullptr;  // the message's start; nullptr: "rlx native <fn>: "
  bool plain = false;            // every error a plain Error
};

/** Builds the JS error for the exception being handled (call inside a catch block). */
inline Napi::Error current_exception_to_js(Napi::Env env, const ErrorStyle& s) {
  const std::string p = s.prefix ? std::string(s.prefix) : std::string("rlx native ") + s.fn + ": ";
  auto make = [&](bool range, bool type, const std::string& m, const char* kind) {
    if (!s.plain && type) return with_kind(Napi::TypeError::New(env, p + m), kind);
    if (!s.plain && range) return with_kind(Napi::RangeError::New(env, p + m), kind);
    return with_kind(Napi::Error::New(env, p + m), kind);
  };
  try {
    throw;
  } catch (const Napi::Error& e) {
    return e;
  } catch (const TypeErr& e) {
    return make(false, true, e.what(), e.kind);
  } catch (const RangeErr& e) {
    return make(true, false, e.what(), e.kind);
  } catch (const KindErr& e) {
    return make(false, false, e.what(), e.kind);
  } catch (const std::bad_alloc&) {
    return make(false, false, "out of memory", "DeviceError");
  } catch (const std::exception& e) {
    return make(false, false, e.what(), "DeviceError");
  } catch (...) {
    return make(false, false, "unknown C++ exception", "DeviceError");
  }
}
inline Napi::Error current_exception_to_js(Napi::Env env, const char* fn) { return current_exception_to_js(env, ErrorStyle{fn}); }

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
Napi::Value guard(const Napi::CallbackInfo& info, const ErrorStyle& style, F&& body) {
  try {
    return body();
  } catch (...) {
    throw current_exception_to_js(info.Env(), style);
  }
}
template <class F>
Napi::Value guard(const Napi::CallbackInfo& info, const char* fn, F&& body) {
  return guard(info, ErrorStyle{fn}, std::forward<F>(body));
}

/** Defines `exports[style.fn]` as a guarded function. */
template <class F>
void export_fn(Napi::Env env, Napi::Object exports, ErrorStyle style, F body) {
  exports.Set(style.fn, Napi::Function::New(
                            env, [style, body](const Napi::CallbackInfo& info) -> Napi::Value { return guard(info, style, [&] { return body(info); }); },
                            style.fn));
}
template <class F>
void export_fn(Napi::Env env, Napi::Object exports, const char* name, F body) {
  export_fn(env, exports, ErrorStyle{name}, std::move(body));
}

}  // namespace rlx
