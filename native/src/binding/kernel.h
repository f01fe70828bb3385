// One way to define a native kernel with a synchronous and an asynchronous
// entry point:
//
//   export_kernel(env, exports, "linalgSvd", parse_svd);
//
// defines linalgSvd(...args) and linalgSvdAsync(...args): the same arguments,
// checks, result and errors; the Async one returns a Promise and runs the
// work on a libuv worker, so the event loop keeps turning while it runs.
//
// `parse(info, pins)` runs on the main thread for both: it reads and checks
// every argument (binding/reader.h), hands each array to `pins` (pins.h: the
// caller's memory when sync, private copies when async) and returns a job,
// any movable object with
//
//   void run();                                        the work: touches no JS
//   Napi::Value result(Napi::Env env, Pins& pins);     the return value, built
//                                                      on the main thread after run()
//
// Errors: whatever parse, run or result throws (rlx::TypeErr / RangeErr /
// KindErr, std::bad_alloc, ...) becomes the same JS error (errors.h) in both
// variants, named by the sync entry point: thrown by the sync one, the
// promise's rejection for the async one (which never throws). An output
// detached while the async work ran rejects with a ValueError (pins.h).
//
// The sync path adds nothing to what a hand-written entry point does: the job
// lives on the stack, Pins(false) allocates nothing and copies nothing.
#pragma once

#include <napi.h>

#include <exception>
#include <string>
#include <utility>

#include "binding/pins.h"
#include "errors.h"

namespace rlx {

namespace detail {

/** Runs a parsed job on the libuv pool and settles its promise on the main thread. */
template <class Job>
class KernelWorker : public Napi::AsyncWorker {
 public:
  KernelWorker(Napi::Env env, ErrorStyle style, Napi::Promise::Deferred deferred, Job job, Pins pins)
      : Napi::AsyncWorker(env, style.fn), style_(style), deferred_(std::move(deferred)), pins_(std::move(pins)), job_(std::move(job)) {}

  void Execute() override {  // worker thread: no JS here
    try {
      job_.run();
    } catch (...) {
      error_ = std::current_exception();
      SetError(current_exception_message(style_.fn));
    }
  }
  void OnOK() override {
    Napi::Env env = Env();
    try {
      std::string why;
      if (!pins_.write_back(env, &why)) throw KindErr("ValueError", why);
      deferred_.Resolve(job_.result(env, pins_));
    } catch (...) {
      deferred_.Reject(current_exception_to_js(env, style_).Value());
    }
  }
  void OnError(const Napi::Error&) override {
    try {
      std::rethrow_exception(error_);
    } catch (...) {
      deferred_.Reject(current_exception_to_js(Env(), style_).Value());
    }
  }

 private:
  ErrorStyle style_;
  Napi::Promise::Deferred deferred_;
  Pins pins_;  // declared before job_: the job is destroyed first, while what it kept is still referenced
  Job job_;
  std::exception_ptr error_;
};

/** Where the "<name>Async" strings live (exports outlive any one call). */
const char* async_name(const char* name);

}  // namespace detail

/** The sync entry point's body: parse, run, result, on the calling thread. */
template <class Parse>
Napi::Value call_sync(const Napi::CallbackInfo& info, const Parse& parse) {
  Pins pins(false);
  auto job = parse(info, pins);
  job.run();
  return job.result(info.Env(), pins);
}

/** The async entry point's body: parse here, run on the libuv pool; a Promise either way. */
template <class Parse>
Napi::Value call_async(const Napi::CallbackInfo& info, const char* name, const Parse& parse) {
  Napi::Env env = info.Env();
  Napi::Promise::Deferred deferred = Napi::Promise::Deferred::New(env);
  Napi::Promise promise = deferred.Promise();
  try {
    Pins pins(true);
    auto job = parse(info, pins);
    using Job = decltype(job);
    auto* w = new detail::KernelWorker<Job>(env, ErrorStyle{name}, std::move(deferred), std::move(job), std::move(pins));
    w->Queue();
  } catch (...) {
    deferred.Reject(current_exception_to_js(env, name).Value());
  }
  return promise;
}

/** Defines exports[name] (sync) and exports[name + "Async"] (Promise) from one parse function. */
template <class Parse>
void export_kernel(Napi::Env env, Napi::Object exports, const char* name, Parse parse) {
  export_fn(env, exports, name, [parse](const Napi::CallbackInfo& info) { return call_sync(info, parse); });
  const char* async = detail::async_name(name);
  exports.Set(async, Napi::Function::New(
                         env, [name, parse](const Napi::CallbackInfo& info) -> Napi::Value { return call_async(info, name, parse); }, async));
}

/**
 * The other async contract, that of gemmAsync and interpRunAsync (older than
 * this helper, kept for their callers): the arguments are checked on the
 * calling thread and a bad call throws (as the sync entry point would), named
 * by the async entry point (`style`); a job whose `leaves_main_thread()` is
 * false runs at once and its result is returned (the interpreter's small
 * runs: undefined, no promise); otherwise a Promise as from call_async, over
 * the same Pins(true) (private copies, write-back, ValueError when an output
 * was detached).
 */
template <class Parse>
Napi::Value call_checked_async(const Napi::CallbackInfo& info, const ErrorStyle& style, const Parse& parse) {
  Napi::Env env = info.Env();
  Pins pins(true);
  auto job = parse(info, pins);  // throws: the caller's guard turns it into the JS error
  if (!job.leaves_main_thread()) {
    job.run();
    return job.result(env, pins);
  }
  using Job = decltype(job);
  Napi::Promise::Deferred deferred = Napi::Promise::Deferred::New(env);
  Napi::Promise promise = deferred.Promise();
  auto* w = new detail::KernelWorker<Job>(env, style, std::move(deferred), std::move(job), std::move(pins));
  w->Queue();
  return promise;
}

/** Defines exports[style.fn] with call_checked_async's contract (a guarded function: it throws for bad arguments). */
template <class Parse>
void export_checked_async(Napi::Env env, Napi::Object exports, ErrorStyle style, Parse parse) {
  export_fn(env, exports, style, [style, parse](const Napi::CallbackInfo& info) { return call_checked_async(info, style, parse); });
}

}  // namespace rlx
