// JS entry points for GEMM: gemm(spec) runs on the calling thread, gemmAsync(spec)
// on the libuv pool (Promise), gemmPlan(spec) says what gemm would do without
// running it (which operands BLAS takes as they are, which are copied).
//
// spec = { dtype: 'float32' | 'float64' | 'complex64' | 'complex128',
//          batch: number[], m, n, k,
//          a: { data, offset, strides: [...batchStrides, rowStride, colStride], conj? },
//          b: { ... }, c: { data, offset, strides } }
// Offsets and strides count elements (complex elements for complex dtypes);
// data is a Float32Array (float32, complex64) or Float64Array (float64,
// complex128), complex interleaved. Everything is read and checked before any
// memory is touched.
#include <napi.h>

#include <utility>

#include "args.h"
#include "errors.h"
#include "gemm.h"
#include "register.h"

namespace rlx {
namespace {

/** A parsed spec, plus the JS arrays the raw pointers point into. */
struct ParsedGemm {
  GemmProblem p;
  Napi::Value arrays[3];  // a, b, c data
};

/** Reads operand `name`'s offset, strides, conj; keeps its data value for later. */
Napi::Value read_operand(const Napi::Object& spec, const char* name, const std::vector<int64_t>& batch, int64_t rows, int64_t cols,
                         bool allow_conj, GemmOperand& out) {
  const std::string w = std::string("spec.") + name;
  const Napi::Object o = as_object(spec.Get(name), w);
  const Napi::Value data = o.Get("data");
  out.view.offset = as_int(o.Get("offset"), w + ".offset", 0);
  out.view.strides = as_int_array(o.Get("strides"), w + ".strides", static_cast<int64_t>(batch.size() + 2));
  out.view.shape = batch;
  out.view.shape.push_back(rows), out.view.shape.push_back(cols);
  const Napi::Value conj = o.Get("conj");
  if (!allow_conj && !conj.IsUndefined()) throw TypeErr(w + ".conj is not allowed on the output");
  out.conj = as_bool(conj, w + ".conj", false);
  return data;
}

ParsedGemm parse_gemm(const Napi::CallbackInfo& info) {
  if (info.Length() != 1) throw TypeErr("expected one argument (the spec object), got " + std::to_string(info.Length()));
  ParsedGemm r;
  GemmProblem& p = r.p;
  const Napi::Object spec = as_object(info[0], "spec");
  p.dtype = parse_gemm_dtype(as_string(spec.Get("dtype"), "spec.dtype"));
  p.batch = as_int_array(spec.Get("batch"), "spec.batch", -1, 0);
  p.m = as_int(spec.Get("m"), "spec.m", 0);
  p.n = as_int(spec.Get("n"), "spec.n", 0);
  p.k = as_int(spec.Get("k"), "spec.k", 0);
  r.arrays[0] = read_operand(spec, "a", p.batch, p.m, p.k, true, p.a);
  r.arrays[1] = read_operand(spec, "b", p.batch, p.k, p.n, true, p.b);
  r.arrays[2] = read_operand(spec, "c", p.batch, p.m, p.n, false, p.c);
  // Memory last: no JS (getters) runs between taking a pointer and using it.
  const napi_typedarray_type want = (p.dtype == DType::f32 || p.dtype == DType::c64) ? napi_float32_array : napi_float64_array;
  const int64_t per = is_complex(p.dtype) ? 2 : 1;
  GemmOperand* ops[3] = {&p.a, &p.b, &p.c};
  const char* names[3] = {"spec.a.data", "spec.b.data", "spec.c.data"};
  for (int i = 0; i < 3; i++) {
    const TypedMemory m = as_typed(r.arrays[i], std::string(names[i]) + " (dtype " + dtype_name(p.dtype) + ")", want);
    ops[i]->data = m.data;
    ops[i]->length = static_cast<int64_t>(m.length) / per;
  }
  validate_gemm(p);
  return r;
}

Napi::Value plan_to_js(Napi::Env env, const GemmPlan& pl) {
  auto mat = [&](const MatPlan& m) {
    Napi::Object o = Napi::Object::New(env);
    o.Set("packed", m.packed), o.Set("trans", m.trans), o.Set("conj", m.conj), o.Set("ld", static_cast<double>(m.ld));
    return o;
  };
  Napi::Object o = Napi::Object::New(env);
  o.Set("order", pl.row_major ? "row" : "col");
  Napi::Array batch = Napi::Array::New(env, pl.batch.size());
  for (size_t i = 0; i < pl.batch.size(); i++) batch.Set(static_cast<uint32_t>(i), static_cast<double>(pl.batch[i]));
  o.Set("batch", batch);
  o.Set("m", static_cast<double>(pl.m)), o.Set("n", static_cast<double>(pl.n)), o.Set("k", static_cast<double>(pl.k));
  o.Set("foldedIntoM", pl.folded_into_m), o.Set("foldedIntoN", pl.folded_into_n);
  o.Set("a", mat(pl.a)), o.Set("b", mat(pl.b));
  o.Set("cPacked", pl.c_packed), o.Set("ldc", static_cast<double>(pl.ldc));
  o.Set("blasCalls", static_cast<double>(pl.blas_calls));
  return o;
}

/** Runs a validated GEMM on the libuv pool; holds the arrays alive until it settles. */
class GemmWorker : public Napi::AsyncWorker {
 public:
  GemmWorker(Napi::Env env, ParsedGemm parsed)
      : Napi::AsyncWorker(env, "rlx.gemmAsync"), deferred_(Napi::Promise::Deferred::New(env)), problem_(std::move(parsed.p)) {
    for (int i = 0; i < 3; i++) keep_[i] = Napi::Persistent(parsed.arrays[i].As<Napi::Object>());
  }
  Napi::Promise promise() const { return deferred_.Promise(); }

  void Execute() override {  // worker thread: no JS here
    try {
      run_gemm(problem_);
    } catch (...) {
      SetError(current_exception_message("gemmAsync"));
    }
  }
  void OnOK() override { deferred_.Resolve(keep_[2].Value()); }
  void OnError(const Napi::Error& e) override { deferred_.Reject(e.Value()); }

 private:
  Napi::Promise::Deferred deferred_;
  GemmProblem problem_;
  Napi::ObjectReference keep_[3];
};

}  // namespace
}  // namespace rlx

RLX_REGISTER(gemm) {
  using namespace rlx;
  export_fn(env, exports, "gemm", [](const Napi::CallbackInfo& info) -> Napi::Value {
    ParsedGemm g = parse_gemm(info);
    run_gemm(g.p);
    return g.arrays[2];
  });
  export_fn(env, exports, "gemmAsync", [](const Napi::CallbackInfo& info) -> Napi::Value {
    auto* w = new GemmWorker(info.Env(), parse_gemm(info));
    Napi::Promise p = w->promise();
    w->Queue();
    return p;
  });
  export_fn(env, exports, "gemmPlan", [](const Napi::CallbackInfo& info) -> Napi::Value {
    ParsedGemm g = parse_gemm(info);
    return plan_to_js(info.Env(), plan_gemm(g.p));
  });
}
