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
// Every argument is checked before memory is touched; a problem throws a JS
// Error ("rlx interpreter: ...") carrying `rlxKind`, the rlx error class it
// stands for (native/src/errors.h; src/backends/native/program.ts rethrows
// it typed), never aborts. An async run works on private copies
// (private_copy.cc): a buffer transferred away while it runs is never read or
// written, and an output detached meanwhile rejects with a ValueError. Only the slots the program
// reads or writes are looked at in `buffers`. The work runs synchronously on
// the calling thread (or, for interpRunAsync, a libuv worker) plus the
// interpreter's pool.

#include "fp.h"
#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <vector>
#include "exec.h"
#include "program.h"
#include "register.h"

namespace rlx::interp {
namespace {

const napi_type_tag kProgramTag = {0x726c7869696e7470ull, 0x70726f6772616d31ull};

// kind: the rlx error class (src/tensor/errors.ts) the message stands for.
Napi::Value fail(Napi::Env env, const std::string& msg, const char* kind = "ValueError") {
  Napi::Error e = Napi::Error::New(env, "rlx interpreter: " + msg);
  e.Value().Set("rlxKind", kind);
  e.ThrowAsJavaScriptException();
  return env.Undefined();
}

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

// A TypedArray argument's data and length; false if v is not `type`.
// napi_get_typedarray_info itself answers napi_invalid_arg (no JS exception)
// for anything that is not a TypedArray, so no separate napi_is_typedarray.
bool typedArray(napi_env env, napi_value v, napi_typedarray_type want, void** data, size_t* length) {
  napi_typedarray_type t;
  if (napi_get_typedarray_info(env, v, &t, length, data, nullptr, nullptr) != napi_ok) return false;
  return t == want;
}

Buffer bufferOf(napi_env env, napi_value v) {
  Buffer b;
  napi_typedarray_type t;
  size_t len;
  void* data;
  if (napi_get_typedarray_info(env, v, &t, &len, &data, nullptr, nullptr) != napi_ok) return b;
  switch (t) {
    case napi_uint8_array: b.storage = kU8; break;
    case napi_int32_array: b.storage = kI32; break;
    case napi_uint16_array: b.storage = kU16; break;
    case napi_float32_array: b.storage = kF32; break;
    case napi_float64_array: b.storage = kF64; break;
    default: return b;
  }
  b.data = data;
  b.length = static_cast<int64_t>(len);
  if (!data) b.length = 0;  // detached
  return b;
}

// Decodes program + consts; on failure throws and returns null.
std::unique_ptr<Program> decode(Napi::Env env, napi_value prog, napi_value consts) {
  void* pd = nullptr;
  void* cd = nullptr;
  size_t pn = 0, cn = 0;
  if (!typedArray(env, prog, napi_int32_array, &pd, &pn)) {
    fail(env, "the program must be an Int32Array", "DTypeError");
    return nullptr;
  }
  if (!typedArray(env, consts, napi_float64_array, &cd, &cn)) {
    fail(env, "the constants must be a Float64Array", "DTypeError");
    return nullptr;
  }
  auto p = std::make_unique<Program>();
  const std::string err = prepare(static_cast<const int32_t*>(pd), pd ? pn : 0, static_cast<const double*>(cd), cd ? cn : 0, *p);
  if (!err.empty()) {
    fail(env, "invalid program: " + err);
    return nullptr;
  }
  return p;
}

// Work (simple-op units, as run.cc counts it) from which interpRunAsync leaves
// the main thread: below it the libuv round trip costs more than it frees.
std::atomic<int64_t> gAsyncThreshold{int64_t(1) << 21};

// Reads the loop and the slots `p` uses and plans the run. On failure a JS
// exception is pending and false is returned. `outV` receives the output array
// (an async run writes its result there when it settles).
bool planWith(Napi::Env env, const Program& p, napi_value loopV, napi_value bufsV, Plan& pl, napi_value* outV, napi_value constsV = nullptr) {
  void* ld = nullptr;
  size_t ln = 0;
  if (!typedArray(env, loopV, napi_float64_array, &ld, &ln)) return fail(env, "the loop must be a Float64Array", "DTypeError"), false;
  std::vector<double> runConsts;
  if (constsV != nullptr) {
    napi_valuetype ct;
    napi_typeof(env, constsV, &ct);
    if (ct != napi_undefined) {
      void* cd = nullptr;
      size_t cn = 0;
      if (!typedArray(env, constsV, napi_float64_array, &cd, &cn)) return fail(env, "the constants must be a Float64Array", "DTypeError"), false;
      if (!cd) cn = 0;  // detached
      if (cn != p.consts.size()) return fail(env, "the constants have " + std::to_string(cn) + " values but the program has " + std::to_string(p.consts.size()), "ShapeError"), false;
      const double* c = static_cast<const double*>(cd);
      runConsts.assign(c, c + cn);
    }
  }
  bool isArr = false;
  if (napi_is_array(env, bufsV, &isArr) != napi_ok || !isArr) return fail(env, "the buffers must be an array of TypedArrays"), false;
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
  if (pending) return false;
  // Pointers last: no JS (getters) runs between taking them and planning.
  for (uint32_t s = 0; s < nSlots; s++)
    if (vals[s]) slots[s] = bufferOf(env, vals[s]);
  const std::string err = planRun(p, static_cast<const double*>(ld), ld ? ln : 0, slots, nSlots, pl);
  if (!err.empty()) return fail(env, err, planKind(err)), false;
  pl.consts = std::move(runConsts);
  if (outV) *outV = vals[p.outSlot];  // planRun checked it is there
  return true;
}

/**
 * Runs a planned program on the libuv pool on private copies of its loads and
 * a scratch output (private_copy.cc); holds the program alive. When it
 * settles, the result is copied into the output array only if that array is
 * still attached and long enough; otherwise the promise rejects with a
 * ValueError and nothing is written (its memory may belong to someone else now).
 */
class RunWorker : public Napi::AsyncWorker {
 public:
  RunWorker(Napi::Env env, Plan plan, napi_value program, napi_value out)
      : Napi::AsyncWorker(env, "rlx.interpRunAsync"), deferred_(Napi::Promise::Deferred::New(env)), plan_(std::move(plan)) {
    program_ = Napi::Persistent(Napi::Value(env, program));
    out_ = Napi::Persistent(Napi::Value(env, out));
    outStorage_ = storageOf(plan_.P->outT);
    privatize(plan_, copies_);
  }
  Napi::Promise promise() const { return deferred_.Promise(); }
  void Execute() override {  // worker thread: no JS here
    std::string err;
    try {
      err = execute(plan_);
    } catch (const std::exception& e) {
      err = e.what();
    }
    if (!err.empty()) SetError("rlx interpreter: " + err);
  }
  void OnOK() override {
    Napi::Env env = Env();
    const Buffer b = bufferOf(env, out_.Value());
    if (b.storage != outStorage_ || !b.data || static_cast<size_t>(b.length) * scalarBytesOf(b.storage) < copies_.outBytes) {
      Napi::Error e = Napi::Error::New(env, std::string("rlx interpreter: interpRunAsync: the output array was ") + (b.data ? "shrunk" : "detached (transferred)") +
                                                " while the kernel ran; the result was dropped (keep the arrays of an awaited run until it settles)");
      e.Value().Set("rlxKind", "ValueError");
      deferred_.Reject(e.Value());
      return;
    }
    if (copies_.outBytes) std::memcpy(b.data, copies_.out.data(), copies_.outBytes);
    deferred_.Resolve(env.Undefined());
  }
  void OnError(const Napi::Error& e) override {
    e.Value().Set("rlxKind", "DeviceError");
    deferred_.Reject(e.Value());
  }

 private:
  static size_t scalarBytesOf(int32_t storage) { return storage == kU8 ? 1 : storage == kU16 ? 2 : storage == kF64 ? 8 : 4; }
  Napi::Promise::Deferred deferred_;
  Plan plan_;
  PrivateCopies copies_;
  Napi::Reference<Napi::Value> program_, out_;
  int32_t outStorage_;
};

// interpRunAsync(prepared, loop, buffers): Promise<void> when the run is large
// enough to leave the main thread, else runs it here and returns undefined.
Napi::Value RunAsync(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() != 3 && info.Length() != 4) return fail(env, "interpRunAsync(prepared, loop, buffers) or interpRunAsync(prepared, loop, buffers, consts)");
  napi_valuetype t;
  napi_typeof(env, info[0], &t);
  bool tagged = false;
  if (t == napi_external) napi_check_object_type_tag(env, info[0], &kProgramTag, &tagged);
  if (!tagged) return fail(env, "interpRunAsync(prepared, loop, buffers): the first argument is not a program from interpPrepare");
  const Program* p = static_cast<const Program*>(info[0].As<Napi::External<Program>>().Data());
  Plan pl;
  napi_value out = nullptr;
  if (!planWith(env, *p, info[1], info[2], pl, &out, info.Length() == 4 ? static_cast<napi_value>(info[3]) : nullptr)) return env.Undefined();
  if (pl.outN == 0 || pl.work < gAsyncThreshold.load(std::memory_order_relaxed)) {
    const std::string err = execute(pl);
    if (!err.empty()) return fail(env, err, "DeviceError");
    return env.Undefined();
  }
  RunWorker* w;
  try {
    w = new RunWorker(env, std::move(pl), info[0], out);
  } catch (const std::bad_alloc&) {
    return fail(env, "out of memory for the private copies of an async run", "DeviceError");
  }
  Napi::Promise promise = w->promise();
  w->Queue();
  return promise;
}

Napi::Value SetAsyncThreshold(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsNumber()) return fail(env, "interpSetAsyncThreshold(work: number)");
  const double w = info[0].As<Napi::Number>().DoubleValue();
  if (!(w >= 0)) return fail(env, "interpSetAsyncThreshold: work must be >= 0");
  gAsyncThreshold.store(w > 9e18 ? INT64_MAX : static_cast<int64_t>(w));
  return env.Undefined();
}

Napi::Value GetAsyncThreshold(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), static_cast<double>(gAsyncThreshold.load())); }

Napi::Value runWith(Napi::Env env, const Program& p, napi_value loopV, napi_value bufsV, napi_value constsV = nullptr) {
  Plan pl;
  if (!planWith(env, p, loopV, bufsV, pl, nullptr, constsV)) return env.Undefined();
  const std::string err = execute(pl);
  if (!err.empty()) return fail(env, err, "DeviceError");
  return env.Undefined();
}

Napi::Value Prepare(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2) return fail(env, "interpPrepare(program: Int32Array, consts: Float64Array)");
  std::unique_ptr<Program> p = decode(env, info[0], info[1]);
  if (!p) return env.Undefined();
  Napi::External<Program> ext = Napi::External<Program>::New(env, p.release(), [](Napi::Env, Program* q) { delete q; });
  napi_type_tag_object(env, ext, &kProgramTag);
  return ext;
}

Napi::Value Run(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  bool tagged = false;
  if (info.Length() >= 1) {
    napi_valuetype t;
    napi_typeof(env, info[0], &t);
    if (t == napi_external) napi_check_object_type_tag(env, info[0], &kProgramTag, &tagged);
  }
  if (info.Length() == 3 || (info.Length() == 4 && tagged)) {
    if (!tagged) return fail(env, "interpRun(prepared, loop, buffers): the first argument is not a program from interpPrepare");
    const Program* p = static_cast<const Program*>(info[0].As<Napi::External<Program>>().Data());
    return runWith(env, *p, info[1], info[2], info.Length() == 4 ? static_cast<napi_value>(info[3]) : nullptr);
  }
  if (info.Length() == 4) {
    std::unique_ptr<Program> p = decode(env, info[0], info[1]);
    if (!p) return env.Undefined();
    return runWith(env, *p, info[2], info[3]);
  }
  return fail(env, "interpRun(prepared, loop, buffers), interpRun(prepared, loop, buffers, consts) or interpRun(program, consts, loop, buffers)");
}

Napi::Value SetThreads(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsNumber()) return fail(env, "interpSetThreads(n: number)");
  const double n = info[0].As<Napi::Number>().DoubleValue();
  if (!(n >= 0 && n <= 1024)) return fail(env, "interpSetThreads: n must be in 0..1024 (0 = hardware concurrency)");
  setThreads(static_cast<int>(n));
  return Napi::Number::New(env, getThreads());
}

Napi::Value GetThreads(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), getThreads()); }

Napi::Value SetThreshold(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsNumber()) return fail(env, "interpSetThreshold(work: number)");
  const double w = info[0].As<Napi::Number>().DoubleValue();
  if (!(w >= 0)) return fail(env, "interpSetThreshold: work must be >= 0");
  setParallelThreshold(w > 9e18 ? INT64_MAX : static_cast<int64_t>(w));
  return env.Undefined();
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
  using namespace rlx::interp;
  exports.Set("interpPrepare", Napi::Function::New(env, Prepare, "interpPrepare"));
  exports.Set("interpRun", Napi::Function::New(env, Run, "interpRun"));
  exports.Set("interpSetThreads", Napi::Function::New(env, SetThreads, "interpSetThreads"));
  exports.Set("interpGetThreads", Napi::Function::New(env, GetThreads, "interpGetThreads"));
  exports.Set("interpSetThreshold", Napi::Function::New(env, SetThreshold, "interpSetThreshold"));
  exports.Set("interpGetThreshold", Napi::Function::New(env, GetThreshold, "interpGetThreshold"));
  exports.Set("interpRunAsync", Napi::Function::New(env, RunAsync, "interpRunAsync"));
  exports.Set("interpSetAsyncThreshold", Napi::Function::New(env, SetAsyncThreshold, "interpSetAsyncThreshold"));
  exports.Set("interpGetAsyncThreshold", Napi::Function::New(env, GetAsyncThreshold, "interpGetAsyncThreshold"));
  exports.Set("interpOpcodes", Napi::Function::New(env, Opcodes, "interpOpcodes"));
  exports.Set("interpVersion", Napi::Number::New(env, kVersion));
  exports.Set("interpApi", Napi::Number::New(env, kApi));
}
