// JS entry points for GEMM: gemm(spec) runs on the calling thread, gemmAsync(spec)
// on the libuv pool (Promise), gemmPlan(spec) says what gemm would do without
// running it (which operands BLAS takes as they are, which are copied).
//
// gemmFlat(a, b, c, meta) is gemm with the spec's numbers packed in one
// Float64Array (the compiled matmul kernels' path: reading ~20 named
// properties cost more than a small GEMM); layout in parse_gemm_flat.
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

#include <cstring>
#include <utility>
#include <vector>

#include "args.h"
#include "binding/kernel.h"
#include "errors.h"
#include "gemm.h"
#include "gemm_spread.h"
#include "pool/pool.h"
#include "odometer.h"
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

/** meta[i] as an integer in [lo, hi] (a double with no fraction). */
int64_t meta_int(const double* meta, size_t i, const char* what, int64_t lo, int64_t hi) {
  const double v = meta[i];
  if (!(v >= static_cast<double>(lo) && v <= static_cast<double>(hi)) || v != static_cast<double>(static_cast<int64_t>(v)))
    throw RangeErr(std::string("meta[") + std::to_string(i) + "] (" + what + ") must be an integer in [" + std::to_string(lo) + ", " +
                   std::to_string(hi) + "], got " + std::to_string(v));
  return static_cast<int64_t>(v);
}

/**
 * gemmFlat(a, b, c, meta): meta = [dtype (0 float32, 1 float64, 2 complex64,
 * 3 complex128), nb, m, n, k, aOffset, bOffset, cOffset, aConj, bConj,
 * batch[nb], aStrides[nb + 2], bStrides[nb + 2], cStrides[nb + 2]].
 */
ParsedGemm parse_gemm_flat(const Napi::CallbackInfo& info) {
  if (info.Length() != 4) throw TypeErr("expected (a, b, c, meta), got " + std::to_string(info.Length()) + " arguments");
  const TypedMemory mm = as_typed(info[3], "meta", napi_float64_array);
  const double* meta = static_cast<const double*>(mm.data);
  if (mm.length < 10) throw RangeErr("meta must hold at least 10 numbers, got " + std::to_string(mm.length));
  const int64_t nb = meta_int(meta, 1, "batch rank", 0, 64);
  if (mm.length != static_cast<size_t>(16 + 4 * nb))
    throw RangeErr("meta for " + std::to_string(nb) + " batch dims must hold " + std::to_string(16 + 4 * nb) + " numbers, got " +
                   std::to_string(mm.length));
  ParsedGemm r;
  GemmProblem& p = r.p;
  static const DType codes[4] = {DType::f32, DType::f64, DType::c64, DType::c128};
  p.dtype = codes[meta_int(meta, 0, "dtype code", 0, 3)];
  p.m = meta_int(meta, 2, "m", 0, kMaxSafeInt);
  p.n = meta_int(meta, 3, "n", 0, kMaxSafeInt);
  p.k = meta_int(meta, 4, "k", 0, kMaxSafeInt);
  p.batch.resize(static_cast<size_t>(nb));
  for (int64_t i = 0; i < nb; i++) p.batch[i] = meta_int(meta, 10 + i, "batch dim", 0, kMaxSafeInt);
  GemmOperand* ops[3] = {&p.a, &p.b, &p.c};
  const int64_t rows[3] = {p.m, p.k, p.m}, cols[3] = {p.k, p.n, p.n};
  for (int o = 0; o < 3; o++) {
    GemmOperand& op = *ops[o];
    op.view.offset = meta_int(meta, 5 + o, "offset", 0, kMaxSafeInt);
    op.conj = o < 2 && meta_int(meta, 8 + o, "conj flag", 0, 1) == 1;
    op.view.shape = p.batch;
    op.view.shape.push_back(rows[o]), op.view.shape.push_back(cols[o]);
    op.view.strides.resize(static_cast<size_t>(nb + 2));
    const size_t base = static_cast<size_t>(10 + nb + o * (nb + 2));
    for (int64_t i = 0; i < nb + 2; i++) op.view.strides[i] = meta_int(meta, base + i, "stride", -kMaxSafeInt, kMaxSafeInt);
  }
  const napi_typedarray_type want = (p.dtype == DType::f32 || p.dtype == DType::c64) ? napi_float32_array : napi_float64_array;
  const int64_t per = is_complex(p.dtype) ? 2 : 1;
  static const char* names[3] = {"a", "b", "c"};
  for (int i = 0; i < 3; i++) {
    const TypedMemory m = as_typed(info[i], names[i], want);
    ops[i]->data = m.data;
    ops[i]->length = static_cast<int64_t>(m.length) / per;
    r.arrays[i] = info[i];
  }
  return r;  // run_gemm validates shapes, bounds and overlap before touching memory
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
  // How run_gemm would spread it over threads now (gemm_spread.h).
  const SpreadPlan sp = spread_for(pl, pl.blas_calls, Pool::instance().size());
  static const char* kModes[] = {"blas", "serial", "batch"};
  o.Set("spread", kModes[static_cast<int>(sp.mode)]);
  return o;
}

/**
 * gemmAsync's job (binding/kernel.h, call_checked_async: the spec is read and
 * checked on the calling thread, a bad one throws). A reference to a JS array
 * keeps the object alive but not its memory: while the product runs, the
 * caller may transfer the buffer (postMessage, structuredClone with a
 * transfer list, ArrayBuffer.prototype.transfer), which detaches it here and
 * lets the new owner free the memory. So the Pins take private copies of the
 * spans of a and b, c is computed into a scratch span, and only the elements
 * of c's view are written back, on the main thread, if c's buffer is still
 * attached and long enough; otherwise the promise rejects with a ValueError.
 * (The copies cost O(m·k + k·n + m·n) next to the O(m·n·k) product; the
 * synchronous gemm, where no JS can run meanwhile, takes the arrays as they are.)
 */
struct GemmJob {
  GemmProblem p;
  size_t c_index;
  bool leaves_main_thread() const { return true; }
  void run() { run_gemm(p); }
  Napi::Value result(Napi::Env env, Pins& pins) { return pins.value(env, c_index); }
};

/** Points `op` at its pinned span (inputs: a copy of the values; the output: scratch whose view elements are written back). */
void pin_operand(GemmOperand& op, const Napi::Value& array, size_t eb, bool output, const char* what, Pins& pins) {
  if (op.view.size() == 0) return;
  const Span sp = span_of(op.view, what);
  const size_t count = static_cast<size_t>(sp.hi - sp.lo + 1);
  char* at = static_cast<char*>(op.data) + static_cast<size_t>(sp.lo) * eb;
  if (!output) {
    op.data = const_cast<void*>(pins.input(array, at, count * eb));
  } else {
    // Only the view's elements go back (the rest of c stays as it is then). Its view in the
    // span (offset - lo) is the same in the scratch and in c from `at` on.
    View v = op.view;
    v.offset -= sp.lo;
    Pins::Scatter scatter = [v, eb](char* dst, const char* src) {
      const std::vector<int64_t>* strides[1] = {&v.strides};
      const int64_t start[1] = {v.offset};
      for (Odometer<1> it(v.shape, strides, start); !it.done(); it.next()) {
        const size_t o = static_cast<size_t>(it.offset(0)) * eb;
        std::memcpy(dst + o, src + o, eb);
      }
    };
    op.data = pins.output(array, at, count * eb, "spec.c.data", false, std::move(scatter));  // GEMM writes every element of the view
  }
  op.view.offset -= sp.lo;
  op.length = static_cast<int64_t>(count);
}

GemmJob parse_gemm_async(const Napi::CallbackInfo& info, Pins& pins) {
  ParsedGemm g = parse_gemm(info);  // checked (validate_gemm): the spans below are inside the arrays
  const size_t eb = element_bytes(g.p.dtype);
  pin_operand(g.p.a, g.arrays[0], eb, false, "spec.a", pins);
  pin_operand(g.p.b, g.arrays[1], eb, false, "spec.b", pins);
  pin_operand(g.p.c, g.arrays[2], eb, true, "spec.c", pins);
  const size_t ci = pins.keep(g.arrays[2]);
  return GemmJob{std::move(g.p), ci};
}

}  // namespace
}  // namespace rlx

RLX_REGISTER(gemm) {
  using namespace rlx;
  export_fn(env, exports, "gemm", [](const Napi::CallbackInfo& info) -> Napi::Value {
    ParsedGemm g = parse_gemm(info);
    run_gemm(g.p);
    return g.arrays[2];
  });
  export_fn(env, exports, "gemmFlat", [](const Napi::CallbackInfo& info) -> Napi::Value {
    ParsedGemm g = parse_gemm_flat(info);
    run_gemm(g.p);
    return info.Env().Undefined();
  });
  export_checked_async(env, exports, ErrorStyle{"gemmAsync"}, parse_gemm_async);
  export_fn(env, exports, "gemmPlan", [](const Napi::CallbackInfo& info) -> Napi::Value {
    ParsedGemm g = parse_gemm(info);
    return plan_to_js(info.Env(), plan_gemm(g.p));
  });
}
