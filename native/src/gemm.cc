// Batched strided GEMM through cblas (see gemm.h): validation, planning
// (batch folding, BLAS layout of each operand) and execution.
#include "gemm.h"

#include <complex>
#include <cstring>
#include <limits>
#include <mutex>
#include <shared_mutex>

#include "blas.h"
#include "gemm_blas.h"
#include "gemm_spread.h"
#include "pool/pool.h"
#include "errors.h"
#include "odometer.h"

namespace rlx {

DType parse_gemm_dtype(const std::string& s) {
  if (s == "float32") return DType::f32;
  if (s == "float64") return DType::f64;
  if (s == "complex64") return DType::c64;
  if (s == "complex128") return DType::c128;
  throw TypeErr("dtype must be one of float32, float64, complex64, complex128, got '" + s + "'", "DTypeError");
}

const char* dtype_name(DType d) {
  switch (d) {
    case DType::f32: return "float32";
    case DType::f64: return "float64";
    case DType::c64: return "complex64";
    case DType::c128: return "complex128";
  }
  return "?";
}

size_t element_bytes(DType d) {
  switch (d) {
    case DType::f32: return 4;
    case DType::f64: return 8;
    case DType::c64: return 8;
    case DType::c128: return 16;
  }
  return 0;
}

bool is_complex(DType d) { return d == DType::c64 || d == DType::c128; }

namespace {

constexpr int64_t kBlasIntMax = std::numeric_limits<blas_int>::max();

int64_t checked_mul(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? std::numeric_limits<int64_t>::max() : r;
}

/** Byte range [lo, hi) an operand's view touches; empty when lo == hi. */
struct ByteRange {
  uintptr_t lo = 0, hi = 0;
};

ByteRange bytes_of(const GemmOperand& o, size_t es, const char* what) {
  const Span s = span_of(o.view, what);
  if (s.hi < s.lo) return {};
  const uintptr_t base = reinterpret_cast<uintptr_t>(o.data);
  return {base + static_cast<uintptr_t>(s.lo) * es, base + static_cast<uintptr_t>(s.hi + 1) * es};
}

bool intersects(ByteRange x, ByteRange y) { return x.lo < x.hi && y.lo < y.hi && x.lo < y.hi && y.lo < x.hi; }

/** The problem after folding and packing decisions: views [...batch, rows, cols]. */
struct Prepared {
  GemmPlan plan;
  GemmOperand a, b, c;
};

void erase_dim(View& v, size_t i) {
  v.shape.erase(v.shape.begin() + static_cast<std::ptrdiff_t>(i));
  v.strides.erase(v.strides.begin() + static_cast<std::ptrdiff_t>(i));
}

/**
 * Folds trailing batch dims into m (b broadcast over the dim, rows of a and c
 * continuing across it) or into n (a broadcast, columns of b and c
 * continuing): `x[t] @ w` over a contiguous batch becomes one (t*m) x k GEMM.
 */
void fold_batch(Prepared& p) {
  GemmPlan& pl = p.plan;
  View &a = p.a.view, &b = p.b.view, &c = p.c.view;
  for (size_t i = pl.batch.size(); i-- > 0;)
    if (pl.batch[i] == 1) pl.batch.erase(pl.batch.begin() + static_cast<std::ptrdiff_t>(i)), erase_dim(a, i), erase_dim(b, i), erase_dim(c, i);
  while (!pl.batch.empty()) {
    const size_t i = pl.batch.size() - 1, r = i + 1, q = i + 2;  // batch dim, row dim, col dim (before erasing)
    const int64_t d = pl.batch[i];
    // Rows of x continue across the dim: row t*m + j sits at t*s + j*rs.
    auto continues = [](int64_t s, int64_t rs, int64_t m) { return s != 0 && (m == 1 || s == checked_mul(m, rs)); };
    if (b.strides[i] == 0 && checked_mul(pl.m, d) <= kBlasIntMax && continues(a.strides[i], a.strides[r], pl.m) &&
        continues(c.strides[i], c.strides[r], pl.m)) {
      if (pl.m == 1) a.strides[r] = a.strides[i], c.strides[r] = c.strides[i];
      pl.m *= d, a.shape[r] = pl.m, c.shape[r] = pl.m;
      pl.folded_into_m++;
    } else if (a.strides[i] == 0 && checked_mul(pl.n, d) <= kBlasIntMax && continues(b.strides[i], b.strides[q], pl.n) &&
               continues(c.strides[i], c.strides[q], pl.n)) {
      if (pl.n == 1) b.strides[q] = b.strides[i], c.strides[q] = c.strides[i];
      pl.n *= d, b.shape[q] = pl.n, c.shape[q] = pl.n;
      pl.folded_into_n++;
    } else {
      break;
    }
    pl.batch.pop_back(), erase_dim(a, i), erase_dim(b, i), erase_dim(c, i);
  }
}

/**
 * How a rows x cols matrix with strides (rs, cs) is passed to BLAS in the given
 * order, if it can be: untransposed needs unit stride along the order's minor
 * axis, transposed along the other one; the other stride is the leading
 * dimension. Strides of unit dims do not matter.
 */
bool fit(int64_t rows, int64_t cols, int64_t rs, int64_t cs, bool row_major, MatPlan& out) {
  auto ok = [](int64_t ld, int64_t minor) { return ld >= (minor > 1 ? minor : 1) && ld <= kBlasIntMax; };
  const int64_t one_r = rows > 1 ? rows : 1, one_c = cols > 1 ? cols : 1;
  // Row-major untransposed / column-major transposed: element (i, j) at i*ld + j.
  const bool rowwise = cols == 1 || cs == 1;
  const int64_t ld_rowwise = rows == 1 ? one_c : rs;
  // Column-major untransposed / row-major transposed: element (i, j) at i + j*ld.
  const bool colwise = rows == 1 || rs == 1;
  const int64_t ld_colwise = cols == 1 ? one_r : cs;
  if (rowwise && ok(ld_rowwise, cols)) {
    out.trans = !row_major, out.ld = ld_rowwise;
    return true;
  }
  if (colwise && ok(ld_colwise, rows)) {
    out.trans = row_major, out.ld = ld_colwise;
    return true;
  }
  return false;
}

Prepared prepare(const GemmProblem& p) {
  Prepared r;
  GemmPlan& pl = r.plan;
  pl.batch = p.batch, pl.m = p.m, pl.n = p.n, pl.k = p.k;
  r.a = p.a, r.b = p.b, r.c = p.c;
  const bool cplx = is_complex(p.dtype);
  r.a.conj = cplx && p.a.conj, r.b.conj = cplx && p.b.conj;
  fold_batch(r);
  const size_t nb = pl.batch.size();
  const View &a = r.a.view, &b = r.b.view, &c = r.c.view;
  // The output decides the order; a C that is neither row- nor column-wise is computed into a buffer.
  MatPlan cp;
  if (fit(pl.m, pl.n, c.strides[nb], c.strides[nb + 1], true, cp)) {
    pl.row_major = !cp.trans;
    pl.ldc = cp.ld;
  } else {
    pl.row_major = true, pl.c_packed = true, pl.ldc = pl.n > 1 ? pl.n : 1;
  }
  auto plan_operand = [&](const View& v, int64_t rows, int64_t cols, bool conj, MatPlan& mp) {
    mp.conj = conj;
    if (!fit(rows, cols, v.strides[nb], v.strides[nb + 1], pl.row_major, mp)) {
      mp.packed = true;  // contiguous row-major copy
      fit(rows, cols, cols > 1 ? cols : 1, 1, pl.row_major, mp);
    }
    // Without CblasConjNoTrans a conjugated untransposed operand is copied conjugated.
    if (mp.conj && !mp.trans && !kBlasHasConjNoTrans) {
      mp.packed = true;
      fit(rows, cols, cols > 1 ? cols : 1, 1, pl.row_major, mp);
    }
  };
  plan_operand(a, pl.m, pl.k, r.a.conj, pl.a);
  plan_operand(b, pl.k, pl.n, r.b.conj, pl.b);
  int64_t calls = 1;
  for (int64_t d : pl.batch) calls = checked_mul(calls, d);
  pl.blas_calls = (pl.m == 0 || pl.n == 0 || pl.k == 0) ? 0 : calls;
  return r;
}

// --- execution ------------------------------------------------------------

template <class T>
T conj_if(const T& x, bool) {
  return x;
}
template <class R>
std::complex<R> conj_if(const std::complex<R>& x, bool c) {
  return c ? std::conj(x) : x;
}

/**
 * Copies an operand's view into `buf` as contiguous row-major matrices, one per
 * batch index where the operand is not broadcast (stride-0 batch dims stay 0),
 * and points `op` at the copy. `conj` applies the conjugation while copying.
 */
template <class T>
void pack(GemmOperand& op, size_t nb, bool conj, std::vector<T>& buf) {
  View packed;
  packed.shape = op.view.shape;
  for (size_t i = 0; i < nb; i++)
    if (op.view.strides[i] == 0) packed.shape[i] = 1;
  buf.resize(static_cast<size_t>(packed.size()));
  const T* src = static_cast<const T*>(op.data);
  const std::vector<int64_t>* st[1] = {&op.view.strides};
  size_t j = 0;
  for (Odometer<1> it(packed.shape, st, {op.view.offset}); !it.done(); it.next()) buf[j++] = conj_if(src[it.offset(0)], conj);
  // Contiguous strides over the packed shape, 0 where the operand was broadcast.
  packed.strides.assign(packed.shape.size(), 0);
  int64_t s = 1;
  for (size_t i = packed.shape.size(); i-- > 0;) {
    packed.strides[i] = (i < nb && op.view.strides[i] == 0) ? 0 : s;
    s *= packed.shape[i];
  }
  packed.shape = op.view.shape;
  op.view = packed;
  op.data = buf.data();
}

CBLAS_TRANSPOSE flag(const MatPlan& mp) {
  if (mp.conj) return mp.trans ? CblasConjTrans : kConjNoTrans;
  return mp.trans ? CblasTrans : CblasNoTrans;
}

/** Products a plan runs: the entries of its remaining batch loop. */
int64_t product_count(const GemmPlan& pl) {
  int64_t n = 1;
  for (int64_t d : pl.batch) n *= d;
  return n;
}

template <class T>
void execute(Prepared& r, const SpreadPlan& spread) {
  GemmPlan& pl = r.plan;
  const size_t nb = pl.batch.size();
  const View& cv = r.c.view;
  T* cdata = static_cast<T*>(r.c.data);
  if (pl.m == 0 || pl.n == 0) return;
  for (int64_t d : pl.batch)
    if (d == 0) return;
  if (pl.k == 0) {  // empty sum: zeros (BLAS is not asked; some versions skip beta=0 then)
    const std::vector<int64_t>* st[1] = {&cv.strides};
    for (Odometer<1> it(cv.shape, st, {cv.offset}); !it.done(); it.next()) cdata[it.offset(0)] = T(0);
    return;
  }
  std::vector<T> abuf, bbuf;
  if (pl.a.packed) pack(r.a, nb, pl.a.conj && !kBlasHasConjNoTrans, abuf);
  if (pl.b.packed) pack(r.b, nb, pl.b.conj && !kBlasHasConjNoTrans, bbuf);
  MatPlan pa = pl.a, pb = pl.b;
  if (!kBlasHasConjNoTrans) pa.conj = pa.conj && !pa.packed, pb.conj = pb.conj && !pb.packed;
  const CBLAS_ORDER order = pl.row_major ? CblasRowMajor : CblasColMajor;
  const T* adata = static_cast<const T*>(r.a.data);
  const T* bdata = static_cast<const T*>(r.b.data);
  const std::vector<int64_t> batch = pl.batch;
  const std::vector<int64_t>* st[3] = {&r.a.view.strides, &r.b.view.strides, &cv.strides};
  // Matrix dims of c for scattering a packed result.
  const std::vector<int64_t> mshape = {pl.m, pl.n}, cstr = {cv.strides[nb], cv.strides[nb + 1]}, pstr = {pl.n, 1};
  const blas_int m = static_cast<blas_int>(pl.m), n = static_cast<blas_int>(pl.n), k = static_cast<blas_int>(pl.k);
  const blas_int lda = static_cast<blas_int>(pa.ld), ldb = static_cast<blas_int>(pb.ld), ldc = static_cast<blas_int>(pl.ldc);
  // One product at offsets (a, b, c), into `cbuf` first when c is packed.
  auto one = [&](int64_t ao, int64_t bo, int64_t co, std::vector<T>& cbuf) {
    if (pl.c_packed) cbuf.resize(static_cast<size_t>(pl.m * pl.n));
    T* cptr = pl.c_packed ? cbuf.data() : cdata + co;
    product<T>(order, flag(pa), flag(pb), m, n, k, adata + ao, lda, bdata + bo, ldb, cptr, ldc);
    if (pl.c_packed) {
      const std::vector<int64_t>* ms[2] = {&pstr, &cstr};
      for (Odometer<2> s(mshape, ms, {0, co}); !s.done(); s.next()) cdata[s.offset(1)] = cbuf[static_cast<size_t>(s.offset(0))];
    }
  };
  if (spread.mode == Spread::batch) {
    // Whole products on the pool's threads (their c blocks are disjoint: validate_gemm checked c writes each element once).
    std::vector<int64_t> offs;
    for (Odometer<3> it(batch, st, {r.a.view.offset, r.b.view.offset, cv.offset}); !it.done(); it.next())
      offs.insert(offs.end(), {it.offset(0), it.offset(1), it.offset(2)});
    Pool::instance().parallelFor(static_cast<int64_t>(offs.size() / 3), [&](int64_t e) {
      std::vector<T> cbuf;
      one(offs[3 * e], offs[3 * e + 1], offs[3 * e + 2], cbuf);
    });
    return;
  }
  std::vector<T> cbuf;
  for (Odometer<3> it(batch, st, {r.a.view.offset, r.b.view.offset, cv.offset}); !it.done(); it.next())
    one(it.offset(0), it.offset(1), it.offset(2), cbuf);
}

template <class T>
void execute_spread(Prepared& r) {
  const SpreadPlan spread = spread_for(r.plan, product_count(r.plan), Pool::instance().size());
  if (spread.mode == Spread::blas) {
    std::shared_lock<std::shared_mutex> lock(blas_config_mutex());
    execute<T>(r, spread);
  } else {
    std::unique_lock<std::shared_mutex> lock(blas_config_mutex());
    SerialBlas serial;
    execute<T>(r, spread);
  }
}

}  // namespace

void validate_gemm(const GemmProblem& p) {
  const size_t nb = p.batch.size();
  if (p.m < 0 || p.n < 0 || p.k < 0) throw RangeErr("m, n, k must be >= 0, got " + fmt_dims({p.m, p.n, p.k}));
  if (p.m > kBlasIntMax || p.n > kBlasIntMax || p.k > kBlasIntMax)
    throw RangeErr("m, n, k must be at most " + std::to_string(kBlasIntMax) + " (BLAS integer), got " + fmt_dims({p.m, p.n, p.k}));
  for (int64_t d : p.batch)
    if (d < 0) throw RangeErr("batch dims must be >= 0, got " + fmt_dims(p.batch));
  struct Named {
    const GemmOperand& o;
    const char* name;
    int64_t rows, cols;
  };
  const Named ops[3] = {{p.a, "a", p.m, p.k}, {p.b, "b", p.k, p.n}, {p.c, "c", p.m, p.n}};
  for (const Named& x : ops) {
    const View& v = x.o.view;
    std::vector<int64_t> want = p.batch;
    want.push_back(x.rows), want.push_back(x.cols);
    if (v.shape != want) throw RangeErr(std::string(x.name) + ": view shape " + fmt_dims(v.shape) + " does not match " + fmt_dims(want));
    if (v.strides.size() != nb + 2)
      throw RangeErr(std::string(x.name) + ": expected " + std::to_string(nb + 2) + " strides, got " + std::to_string(v.strides.size()));
    if (x.o.length < 0) throw RangeErr(std::string(x.name) + ": negative length");
    check_bounds(v, x.o.length, x.name);
  }
  if (!writes_each_element_once(p.c.view))
    throw RangeErr("c: the output view (strides " + fmt_dims(p.c.view.strides) + ") would write some elements more than once", "ValueError");
  const size_t es = element_bytes(p.dtype);
  const ByteRange ra = bytes_of(p.a, es, "a"), rb = bytes_of(p.b, es, "b"), rc = bytes_of(p.c, es, "c");
  if (intersects(rc, ra)) throw RangeErr("c shares memory with a; the output must not overlap an input", "ValueError");
  if (intersects(rc, rb)) throw RangeErr("c shares memory with b; the output must not overlap an input", "ValueError");
}

GemmPlan plan_gemm(const GemmProblem& p) {
  validate_gemm(p);
  return prepare(p).plan;
}

void run_gemm(const GemmProblem& p) {
  validate_gemm(p);
  Prepared r = prepare(p);
  switch (p.dtype) {
    case DType::f32: return execute_spread<float>(r);
    case DType::f64: return execute_spread<double>(r);
    case DType::c64: return execute_spread<std::complex<float>>(r);
    case DType::c128: return execute_spread<std::complex<double>>(r);
  }
}

}  // namespace rlx
