// The interpreter's N-API surface (see register.h):
//
//   interpPrepare(program: Int32Array, consts: Float64Array): Prepared
//   interpRun(prepared, loop: Float64Array, buffers: (TypedArray | undefined)[], consts?: Float64Array): void
//   interpRun(program, consts, loop, buffers): void            (prepare + run)
//   interpRunAsync(prepared, loop, buffers, consts?): Promise<void> | undefined
//     consts (optional, the prepared program's length): this run's constants
//     in place of the prepared ones (the values of parameter literals, which
//     the compiled program does not depend on)
//     validated here; runs on the libuv pool (the program and the buffers
//     referenced until it settles) when its work reaches the async threshold,
//     else at once on the calling thread (undefined: no async hop)
//   interpSetAsyncThreshold(work) / interpGetAsyncThreshold()
//   interpSetThreads(n) / interpGetThreads()
//   interpSetThreshold(work) / interpGetThreshold()
//   interpOpcodes(): string[]   interpVersion: number (the program format)
//   interpApi: number (the calling convention; src/backends/native/interp-api.ts
//     refuses an addon whose interpApi is not the one the TS was written for)
//
// Every argument is checked before memory is touched (the shared reader,
// binding/reader.h and args.h); a problem throws a JS Error ("rlx
// interpreter: ...", a plain Error: ErrorStyle in errors.h) carrying
// `rlxKind`, the rlx error class it stands for (the shared error path,
// native/src/errors.h; src/backends/native/program.ts rethrows it typed),
// never aborts. interpRunAsync is a binding/kernel.h job with
// call_checked_async's contract (bad arguments throw, a small run stays
// inline): an async run works on private copies of the spans its loads read
// and a scratch output (private_copy.cc, held by the call's Pins): a buffer
// transferred away while it runs is never read or written, and an output
// detached meanwhile rejects with a ValueError. Only the slots the program
// reads or writes are looked at in `buffers`. The work runs synchronously on
// the calling thread (or, for interpRunAsync, a libuv worker) plus the
// interpreter's pool.

#include "fp.h"
#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <vector>
#include "args.h"
#include "binding/kernel.h"
#include "binding/reader.h"
#include "errors.h"
#include "exec.h"
#include "program.h"
#include "register.h"

namespace rlx::interp {
namespace {

const napi_type_tag kProgramTag = {0x726c7869696e7470ull, 0x70726f6772616d31ull};

/** The interpreter's error contract: "rlx interpreter: ..." as a plain Error (tests/native/interp-*.test.ts). */
ErrorStyle style(const char* fn) { return ErrorStyle{fn, "rlx interpreter: ", true}; }

// The class of a planRun message: a buffer of the wrong storage type is a
// DTypeError, a missing/detached one or shared memory a ValueError, every
// other (loop sizes, strides, spans beyond a buffer) a ShapeError.
const char* planKind(const std::string& err) {
  if (err.find("wrong TypedArray type") != std::string::npos) return "DTypeError";
  if (err.find("missing or not a TypedArray") != std::string::npos || err.find("has no memory") != std::string::npos ||
      err.find("shares memory") != std::string::npos)
    return "ValueError";
  return "ShapeError";
}

/** A buffer slot: its storage class, memory and length (storage -1 when it is not a storage TypedArray). */
Buffer bufferOf(const Napi::Value& v) {
  Buffer b;
  TypedMemory m;
  if (!typed_any(v, &m)) return b;
  switch (m.type) {
    case napi_uint8_array: b.storage = kU8; break;
    case napi_int8_array: b.storage = kI8; break;
    case napi_int32_array: b.storage = kI32; break;
    case napi_uint16_array: b.storage = kU16; break;
    case napi_float32_array: b.storage = kF32; break;
    case napi_float64_array: b.storage = kF64; break;
    default: return b;
  }
  b.data = m.data;
  b.length = static_cast<int64_t>(m.length);  // 0 when detached
  return b;
}

/** The program of a prepared-program argument, or nullptr when `v` is not one from interpPrepare. */
const Program* preparedOf(const Napi::Value& v) {
  napi_valuetype t;
  if (napi_typeof(v.Env(), v, &t) != napi_ok || t != napi_external) return nullptr;
  bool tagged = false;
  napi_check_object_type_tag(v.Env(), v, &kProgramTag, &tagged);
  return tagged ? static_cast<const Program*>(v.As<Napi::External<Program>>().Data()) : nullptr;
}

/** Decodes arguments iProg (program) and iProg + 1 (consts); throws on failure. */
std::unique_ptr<Program> decode(const Reader& r, size_t iProg) {
  const TypedMemory pm = r.array(iProg, napi_int32_array, "the program must be an Int32Array");
  const TypedMemory cm = r.array(iProg + 1, napi_float64_array, "the constants must be a Float64Array");
  auto p = std::make_unique<Program>();
  const std::string err = prepare(static_cast<const int32_t*>(pm.data), pm.length, static_cast<const double*>(cm.data), cm.length, *p);
  if (!err.empty()) throw KindErr("ValueError", "invalid program: " + err);
  return p;
}

// Work (simple-op units, as run.cc counts it) from which interpRunAsync leaves
// the main thread: below it the libuv round trip costs more than it frees.
std::atomic<int64_t> gAsyncThreshold{int64_t(1) << 21};

/**
 * One run: planned on the calling thread (every check made), executed by
 * run() there or on a libuv worker (binding/kernel.h). An async run's loads
 * and output point into the Pins' private copies.
 */
struct RunJob {
  Plan pl;
  bool async = false;
  bool leaves_main_thread() const { return async; }
  void run() {
    const std::string err = execute(pl);
    if (!err.empty()) throw KindErr("DeviceError", err);
  }
  Napi::Value result(Napi::Env env, Pins&) { return env.Undefined(); }
};

/**
 * Reads the loop (argument iLoop), the buffers (iLoop + 1), the run's
 * constants (iLoop + 2, when present) and the slots `p` uses, and plans the
 * run. With async Pins and enough work, the run is pointed at private copies
 * (and `prepared`, the program's External, kept alive until it settles).
 */
RunJob planWith(Reader& r, const Program& p, size_t iLoop, const Napi::Value* prepared) {
  Napi::Env env = r.info().Env();
  const TypedMemory lm = r.array(iLoop, napi_float64_array, "the loop must be a Float64Array");
  RunJob job;
  Plan& pl = job.pl;
  std::vector<double> runConsts;
  if (r.length() > iLoop + 2 && !r[iLoop + 2].IsUndefined()) {
    const TypedMemory cm = r.array(iLoop + 2, napi_float64_array, "the constants must be a Float64Array");
    if (cm.length != p.consts.size())
      throw KindErr("ShapeError", "the constants have " + std::to_string(cm.length) + " values but the program has " + std::to_string(p.consts.size()));
    const double* c = static_cast<const double*>(cm.data);
    runConsts.assign(c, c + cm.length);
  }
  const napi_value bufsV = r[iLoop + 1];
  bool isArr = false;
  if (napi_is_array(env, bufsV, &isArr) != napi_ok || !isArr) throw KindErr("ValueError", "the buffers must be an array of TypedArrays");
  uint32_t nSlots = 0;
  napi_get_array_length(env, bufsV, &nSlots);
  // Scratch on the stack for the usual few slots (this runs on every call).
  constexpr uint32_t kFew = 16;
  napi_value valsFew[kFew];
  char seenFew[kFew];
  Buffer slotsFew[kFew];
  std::vector<napi_value> valsMany;
  std::vector<char> seenMany;
  std::vector<Buffer> slotsMany;
  napi_value* vals = valsFew;
  char* seen = seenFew;
  Buffer* slots = slotsFew;
  if (nSlots > kFew) {
    valsMany.assign(nSlots, nullptr);
    seenMany.assign(nSlots, 0);
    slotsMany.resize(nSlots);
    vals = valsMany.data();
    seen = seenMany.data();
    slots = slotsMany.data();
  } else {
    for (uint32_t s = 0; s < nSlots; s++) vals[s] = nullptr, seen[s] = 0;
  }
  auto fetch = [&](int s) {
    if (s < 0 || static_cast<uint32_t>(s) >= nSlots || seen[s]) return;
    seen[s] = 1;
    napi_value v;
    if (napi_get_element(env, bufsV, static_cast<uint32_t>(s), &v) == napi_ok) vals[s] = v;
  };
  fetch(p.outSlot);
  for (const LoadDesc& l : p.loads) fetch(l.slot);
  bool pending = false;
  napi_is_exception_pending(env, &pending);
  if (pending) {  // a getter threw: that exception, as it is
    napi_value e;
    napi_get_and_clear_last_exception(env, &e);
    throw Napi::Error(env, e);
  }
  // Pointers last: no JS (getters) runs between taking them and planning.
  for (uint32_t s = 0; s < nSlots; s++)
    if (vals[s]) slots[s] = bufferOf(Napi::Value(env, vals[s]));
  const std::string err = planRun(p, static_cast<const double*>(lm.data), lm.length, slots, nSlots, pl);
  if (!err.empty()) throw KindErr(planKind(err), err);
  pl.consts = std::move(runConsts);
  Pins& pins = r.pins();
  if (!pins.async() || pl.outN == 0 || pl.work < gAsyncThreshold.load(std::memory_order_relaxed)) return job;
  job.async = true;
  pins.keep(*prepared);  // the program: not finalized while the run is in flight
  const Napi::Value out(env, vals[p.outSlot]);  // planRun checked it is there
  privatize(
      pl, [&](int load, const void* data, size_t bytes) { return pins.input(Napi::Value(env, vals[p.loads[load].slot]), data, bytes); },
      [&](size_t bytes) { return pins.output(out, pl.out, bytes, "", false); });  // every output element is written
  return job;
}

// interpRunAsync(prepared, loop, buffers, consts?): Promise<void> when the run
// is large enough to leave the main thread, else runs it here and returns
// undefined (call_checked_async).
RunJob parseRunAsync(const Napi::CallbackInfo& info, Pins& pins) {
  if (info.Length() != 3 && info.Length() != 4)
    throw KindErr("ValueError", "interpRunAsync(prepared, loop, buffers) or interpRunAsync(prepared, loop, buffers, consts)");
  Reader r(info, pins, 3, 4, "prepared, loop, buffers, consts?");
  const Program* p = preparedOf(info[0]);
  if (!p) throw KindErr("ValueError", "interpRunAsync(prepared, loop, buffers): the first argument is not a program from interpPrepare");
  const Napi::Value prepared = info[0];
  return planWith(r, *p, 1, &prepared);
}

// interpRun(prepared, loop, buffers, consts?) or interpRun(program, consts, loop, buffers).
Napi::Value Run(const Napi::CallbackInfo& info) {
  Pins pins(false);
  const Program* p = info.Length() >= 1 ? preparedOf(info[0]) : nullptr;
  if (info.Length() == 3 || (info.Length() == 4 && p)) {
    if (!p) throw KindErr("ValueError", "interpRun(prepared, loop, buffers): the first argument is not a program from interpPrepare");
    Reader r(info, pins, 3, 4, "prepared, loop, buffers, consts?");
    planWith(r, *p, 1, nullptr).run();
    return info.Env().Undefined();
  }
  if (info.Length() == 4) {
    Reader r(info, pins, 4, "program, consts, loop, buffers");
    const std::unique_ptr<Program> q = decode(r, 0);
    // The loop and buffers are arguments 2 and 3; no run constants.
    RunJob job = planWith(r, *q, 2, nullptr);
    job.run();
    return info.Env().Undefined();
  }
  throw KindErr("ValueError", "interpRun(prepared, loop, buffers), interpRun(prepared, loop, buffers, consts) or interpRun(program, consts, loop, buffers)");
}

Napi::Value Prepare(const Napi::CallbackInfo& info) {
  if (info.Length() < 2) throw KindErr("ValueError", "interpPrepare(program: Int32Array, consts: Float64Array)");
  Pins pins(false);
  Reader r(info, pins, 2, 64, "program, consts");
  std::unique_ptr<Program> p = decode(r, 0);
  Napi::External<Program> ext = Napi::External<Program>::New(info.Env(), p.release(), [](Napi::Env, Program* q) { delete q; });
  napi_type_tag_object(info.Env(), ext, &kProgramTag);
  return ext;
}

/** A non-negative work threshold argument (`usage` is the message for anything else). */
int64_t workArg(const Napi::CallbackInfo& info, const char* usage, const char* negative) {
  if (info.Length() < 1 || !info[0].IsNumber()) throw KindErr("ValueError", usage);
  const double w = info[0].As<Napi::Number>().DoubleValue();
  if (!(w >= 0)) throw KindErr("ValueError", negative);
  return w > 9e18 ? INT64_MAX : static_cast<int64_t>(w);
}

Napi::Value SetAsyncThreshold(const Napi::CallbackInfo& info) {
  gAsyncThreshold.store(workArg(info, "interpSetAsyncThreshold(work: number)", "interpSetAsyncThreshold: work must be >= 0"));
  return info.Env().Undefined();
}

Napi::Value GetAsyncThreshold(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), static_cast<double>(gAsyncThreshold.load())); }

Napi::Value SetThreads(const Napi::CallbackInfo& info) {
  if (info.Length() < 1 || !info[0].IsNumber()) throw KindErr("ValueError", "interpSetThreads(n: number)");
  const double n = info[0].As<Napi::Number>().DoubleValue();
  if (!(n >= 0 && n <= 1024)) throw KindErr("ValueError", "interpSetThreads: n must be in 0..1024 (0 = hardware concurrency)");
  setThreads(static_cast<int>(n));
  return Napi::Number::New(info.Env(), getThreads());
}

Napi::Value GetThreads(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), getThreads()); }

Napi::Value SetThreshold(const Napi::CallbackInfo& info) {
  setParallelThreshold(workArg(info, "interpSetThreshold(work: number)", "interpSetThreshold: work must be >= 0"));
  return info.Env().Undefined();
}

Napi::Value GetThreshold(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), static_cast<double>(getParallelThreshold())); }

// The calling convention's version, bumped with every change the TS side
// relies on: 2 = per-run constants (the 4th argument of interpRun /
// interpRunAsync with a prepared program), errors tagged with rlxKind, async
// runs on private copies. An addon built before a change (a stale build)
// would misread the new calls: with version 1, interpRun(prepared, loop,
// buffers, consts) was taken for interpRun(program, consts, loop, buffers)
// and failed with "the program must be an Int32Array".
constexpr int32_t kApi = 2;

Napi::Value Opcodes(const Napi::CallbackInfo& info) {
  Napi::Array a = Napi::Array::New(info.Env(), kNumOpcodes);
  for (int i = 0; i < kNumOpcodes; i++) a.Set(static_cast<uint32_t>(i), Napi::String::New(info.Env(), opName(i)));
  return a;
}

}  // namespace
}  // namespace rlx::interp

void RegisterInterp(Napi::Env env, Napi::Object exports) {
  using namespace rlx;
  using namespace rlx::interp;
  auto fn = [&](const char* name, Napi::Value (*f)(const Napi::CallbackInfo&)) { export_fn(env, exports, style(name), f); };
  fn("interpPrepare", Prepare);
  fn("interpRun", Run);
  fn("interpSetThreads", SetThreads);
  fn("interpGetThreads", GetThreads);
  fn("interpSetThreshold", SetThreshold);
  fn("interpGetThreshold", GetThreshold);
  export_checked_async(env, exports, style("interpRunAsync"), parseRunAsync);
  fn("interpSetAsyncThreshold", SetAsyncThreshold);
  fn("interpGetAsyncThreshold", GetAsyncThreshold);
  fn("interpOpcodes", Opcodes);
  exports.Set("interpVersion", Napi::Number::New(env, kVersion));
  exports.Set("interpApi", Napi::Number::New(env, kApi));
}
