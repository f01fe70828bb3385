// KLU (sparse LU for circuit-like matrices, refactorizable) on CSR input.
//
//   kluFactor(dtype, rows, cols, indptr, indices, data) -> { handle, singular, index }
//   kluRefactor(handle, data) -> { singular, index }
//
// As in umfpack.cc the CSR arrays are the CSC of B = Aᵀ (canonicalized), and
// KLU factors B:
//   A x = b  (trans 0): klu_tsolve / klu_z_tsolve(conj_solve = 0)  (B.' x = b)
//   Aᵀ x = b (trans 1): klu_solve
//   Aᴴ x = b (trans 2): klu_z_solve on conj(b), result conjugated  (conj(B) x = b)
// Right-hand sides are transposed into one column-major block and solved in
// one call. A singular matrix (KLU_SINGULAR; KLU halts at the first zero
// pivot) gives singular = true and index = KLU's singular_col (a column of B,
// i.e. a row of A); directSolve then throws until a refactor with nonsingular
// values succeeds.
//
// log det: KLU factors (R \ B)(P, Q) = L U + F with L unit lower triangular,
// U's diagonal blocks on the block diagonal of the BTF form and F the
// off-diagonal blocks (which do not change a block triangular determinant),
// R = diag(Rs) the row scaling (Rs = NULL: none), P = Numeric->Pnum and
// Q = Symbolic->Q. So det(A) = det(B) = sign(P) sign(Q) Π Rs_i Π Udiag_k.
//
// kluRefactor takes new values in the order of the original data array (same
// indptr/indices; duplicates are summed again through the canonical map) and
// calls klu_refactor, which keeps the pivot order of the first factorization
// (fast, but no new pivoting). Old pivots can be bad for new values (a pivot
// that became tiny: A = [[2, 1], [1, 1]] then [[1e-20, 1], [1, 1]] gives x =
// [0, 1] for the answer [1, 1]), so, as KLU's guide recommends, the refactor
// is checked: klu_rgrowth (reciprocal pivot growth, min over columns of
// max|A(:,j)| / max|U(:,j)|) and klu_rcond (min|U_kk| / max|U_kk|). When the
// growth is below kMinGrowth, or rcond fell more than kRcondDrop below the
// last fresh factorization's, or the refactor met a zero pivot, it factors
// again with fresh pivoting (klu_factor). If the previous numeric
// factorization failed, it factors anew.
#include <cmath>
#include <memory>
#include <vector>

#include "args.h"
#include "binding/kernel.h"
#include "errors.h"
#include "register.h"
#include "sparse/csr.h"
#include "sparse/direct.h"

extern "C" {
#include <klu.h>
}

namespace rlx::sparse {
namespace {

const char* klu_status(int s) {
  switch (s) {
    case KLU_OK: return "ok";
    case KLU_SINGULAR: return "singular matrix";
    case KLU_OUT_OF_MEMORY: return "out of memory";
    case KLU_INVALID: return "invalid matrix or argument";
    case KLU_TOO_LARGE: return "integer overflow (matrix too large)";
    default: return "unknown status";
  }
}

/** ±1: the parity of permutation p (by its cycles). */
double perm_sign(const int* p, int n) {
  std::vector<char> seen(n, 0);
  int swaps = 0;
  for (int i = 0; i < n; i++) {
    if (seen[i]) continue;
    int len = 0;
    for (int j = i; !seen[j]; j = p[j]) seen[j] = 1, len++;
    swaps += len - 1;
  }
  return swaps % 2 ? -1.0 : 1.0;
}

class KluHandle final : public DirectHandle {
 public:
  Canonical c;
  klu_common common;
  klu_symbolic* symbolic = nullptr;
  klu_numeric* numeric = nullptr;
  bool singular = false;
  int64_t nnz_in = 0;  // length of the input pattern (for refactor)
  double fresh_rcond = 0;  // klu_rcond of the last fresh factorization

  // A reciprocal pivot growth below 1e-8 means the elimination lost about 8
  // digits to growth (partial pivoting with KLU's tol = 0.001 keeps it far
  // above that in practice); an rcond 1e8 times below the fresh one means the
  // old pivots, not the new values, made U ill-conditioned. False alarms only
  // cost a fresh factorization.
  static constexpr double kMinGrowth = 1e-8, kRcondDrop = 1e-8;

  bool cplx() const { return is_cplx(dtype); }
  const char* kind() const override { return "KLU"; }
  ~KluHandle() override { release(); }
  void release() override {
    if (numeric) cplx() ? klu_z_free_numeric(&numeric, &common) : klu_free_numeric(&numeric, &common);
    if (symbolic) klu_free_symbolic(&symbolic, &common);
    numeric = nullptr, symbolic = nullptr;
    c = Canonical();
  }
  int64_t bytes() const override {
    return static_cast<int64_t>(common.memusage) +
           static_cast<int64_t>((c.p.capacity() + c.i.capacity() + c.map.capacity()) * sizeof(int) + c.x.capacity() * sizeof(double));
  }

  [[noreturn]] void fail(const char* what) const {
    if (common.status == KLU_OUT_OF_MEMORY) throw std::bad_alloc();
    throw std::runtime_error(std::string("KLU ") + what + " failed: " + klu_status(common.status) + " (status " + std::to_string(common.status) + ")");
  }

  void analyze() {
    // halt_if_singular stays TRUE (the default): with FALSE, KLU 1.3.9 reports
    // status OK and singular_col = n for an exactly singular matrix.
    klu_defaults(&common);
    if (n == 0) return;
    symbolic = klu_analyze(n, c.p.data(), c.i.data(), &common);
    if (!symbolic) fail("analysis");
  }

  /** (Re)factors with the values in c.x; returns the singular column or -1. */
  int factor(bool refactor) {
    singular = false;
    if (n == 0) return -1;
    if (refactor && numeric) {
      const int ok = cplx() ? klu_z_refactor(c.p.data(), c.i.data(), c.x.data(), symbolic, numeric, &common)
                            : klu_refactor(c.p.data(), c.i.data(), c.x.data(), symbolic, numeric, &common);
      if (!ok && common.status < 0) fail("refactorization");
      if (ok && common.status == KLU_OK && pivots_hold()) return -1;
      // A zero or degraded pivot: factor with fresh pivoting below.
    }
    if (numeric) cplx() ? klu_z_free_numeric(&numeric, &common) : klu_free_numeric(&numeric, &common);
    numeric = cplx() ? klu_z_factor(c.p.data(), c.i.data(), c.x.data(), symbolic, &common)
                     : klu_factor(c.p.data(), c.i.data(), c.x.data(), symbolic, &common);
    if (!numeric && common.status < 0) fail("factorization");
    if (common.status == KLU_SINGULAR || !numeric) {
      singular = true;
      return common.singular_col >= 0 && common.singular_col < n ? common.singular_col : 0;
    }
    fresh_rcond = (cplx() ? klu_z_rcond(symbolic, numeric, &common) : klu_rcond(symbolic, numeric, &common)) ? common.rcond : 0;
    return -1;
  }

  /** Whether the refactored pivots are still good (see the top of this file). */
  bool pivots_hold() {
    const int g = cplx() ? klu_z_rgrowth(c.p.data(), c.i.data(), c.x.data(), symbolic, numeric, &common)
                         : klu_rgrowth(c.p.data(), c.i.data(), c.x.data(), symbolic, numeric, &common);
    if (!g || !(common.rgrowth >= kMinGrowth)) return false;
    const int r = cplx() ? klu_z_rcond(symbolic, numeric, &common) : klu_rcond(symbolic, numeric, &common);
    return r && common.rcond >= fresh_rcond * kRcondDrop;
  }

  void solve(const double* b, double* x, int64_t nrhs, int trans) override {
    if (singular || !numeric) throw KindErr("SingularMatrixError", "KLU: the matrix is singular; cannot solve");
    const int per = cplx() ? 2 : 1;
    const bool h = trans == 2 && cplx();
    std::vector<double> B(static_cast<size_t>(n) * nrhs * per);
    to_col_major(b, B.data(), n, nrhs, per, h);
    const int k = static_cast<int>(nrhs);
    int ok;
    if (trans == 0) ok = cplx() ? klu_z_tsolve(symbolic, numeric, n, k, B.data(), 0, &common) : klu_tsolve(symbolic, numeric, n, k, B.data(), &common);
    else ok = cplx() ? klu_z_solve(symbolic, numeric, n, k, B.data(), &common) : klu_solve(symbolic, numeric, n, k, B.data(), &common);
    if (!ok) fail("solve");
    from_col_major(B.data(), x, n, nrhs, per, h);
  }

  void logdet(double out[3]) override {
    out[0] = 1, out[1] = 0, out[2] = 0;
    if (n == 0) return;
    auto zero = [&] { out[0] = 0, out[1] = 0, out[2] = -INFINITY; };
    if (singular || !numeric || !numeric->Udiag) return zero();
    const double* U = static_cast<const double*>(numeric->Udiag);
    double re = 1, im = 0, logabs = 0;  // running unit phase and log|det|
    for (int k = 0; k < n; k++) {
      if (cplx()) {
        const double a = U[2 * k], b = U[2 * k + 1], m = std::hypot(a, b);
        if (!(m > 0)) return zero();
        logabs += std::log(m);
        const double pr = a / m, pi = b / m, nr = re * pr - im * pi;
        im = re * pi + im * pr, re = nr;
      } else {
        const double v = U[k];
        if (!(v != 0) || std::isnan(v)) return zero();
        logabs += std::log(std::fabs(v));
        if (v < 0) re = -re;
      }
    }
    if (numeric->Rs)
      for (int i = 0; i < n; i++) {
        if (!(numeric->Rs[i] > 0)) return zero();
        logabs += std::log(numeric->Rs[i]);
      }
    const double sign = perm_sign(numeric->Pnum, n) * perm_sign(symbolic->Q, n);
    const double m = std::hypot(re, im);  // renormalize the accumulated phase
    out[0] = sign * re / m, out[1] = cplx() ? sign * im / m : 0, out[2] = logabs;
  }
};

Napi::Object status_obj(Napi::Env env, const KluHandle& h, int index) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("singular", h.singular);
  o.Set("index", index);
  return o;
}

}  // namespace
}  // namespace rlx::sparse

RLX_REGISTER(sparse_klu) {
  using namespace rlx;
  using namespace rlx::sparse;
  // kluFactor and kluFactorAsync (binding/kernel.h): canonical copy, analysis and factorization in run().
  struct FactorJob {
    Csr a;
    std::unique_ptr<KluHandle> h;
    int index = 0;
    void run() {
      h->dtype = a.dtype;
      h->c = canonicalize(a, true);
      h->n = h->c.n;
      h->nnz_in = a.nnz;
      h->analyze();
      index = h->factor(false);
    }
    Napi::Value result(Napi::Env env, Pins&) {
      Napi::Object o = status_obj(env, *h, index);
      o.Set("handle", wrap_handle(env, h.release()));
      return o;
    }
  };
  export_kernel(env, exports, "kluFactor", [](const Napi::CallbackInfo& info, Pins& pins) -> FactorJob {
    if (info.Length() != 6) throw TypeErr("expected (dtype, rows, cols, indptr, indices, data), got " + std::to_string(info.Length()) + " arguments");
    Csr a = read_csr(info, 0, false);
    pin_csr(a, info, 0, pins);
    return FactorJob{std::move(a), std::make_unique<KluHandle>()};
  });
  // kluRefactor and kluRefactorAsync: the new values scattered into the canonical copy and factored again.
  struct RefactorJob {
    KluHandle* h;
    const void* data;
    int index = 0;
    InUse use;
    void run() {
      std::lock_guard<std::mutex> lk(h->busy);
      scatter_values(h->c, h->dtype, data, h->nnz_in);
      index = h->factor(true);
    }
    Napi::Value result(Napi::Env env, Pins&) {
      report_bytes(env, *h);
      return status_obj(env, *h, index);
    }
  };
  export_kernel(env, exports, "kluRefactor", [](const Napi::CallbackInfo& info, Pins& pins) -> RefactorJob {
    if (info.Length() != 2) throw TypeErr("expected (handle, data), got " + std::to_string(info.Length()) + " arguments");
    KluHandle& h = handle_as<KluHandle>(info[0], "handle");
    const TypedMemory d = as_typed(info[1], std::string("data (dtype ") + sdtype_name(h.dtype) + ")", storage_of(h.dtype));
    if (static_cast<int64_t>(d.length) != h.nnz_in * per_elem(h.dtype))
      throw RangeErr("data must have length " + std::to_string(h.nnz_in * per_elem(h.dtype)) + " (the factored pattern's), got " +
                     std::to_string(d.length));
    pins.keep(info[0]);  // the External: not finalized while an async refactor runs
    const void* dp = pins.input(info[1], d.data, d.length * (is_single(h.dtype) ? 4 : 8));
    return RefactorJob{&h, dp, 0, InUse(info.Env(), pins.async() ? &h : nullptr)};
  });
}
