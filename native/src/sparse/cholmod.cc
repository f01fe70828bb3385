// CHOLMOD (sparse Cholesky of a symmetric / Hermitian positive definite matrix).
//
//   cholmodFactor(dtype, rows, cols, indptr, indices, data, lower)
//       -> { handle, notPosDef: boolean, index: number }
//
// Storage: only one triangle of A is read. lower = true: entries with
// column <= row are used (CSR lower triangle), the others are ignored;
// lower = false: column >= row. A fully stored symmetric matrix therefore
// works with either setting. The CSR lower triangle of A is the CSC upper
// triangle of Aᵀ, so CHOLMOD gets the canonical arrays as they are with
// stype = +1 (lower) or -1 (upper); for complex (Hermitian) A, Aᵀ = conj(A),
// so the values are conjugated on the way in. float32/complex64 values are
// copied into double.
//
// The factorization is LLᵀ always (supernodal or simplicial, CHOLMOD chooses;
// the simplicial symbolic factor is switched to LL before factorizing so that
// a matrix that is not positive definite is detected instead of being given an
// LDLᵀ with negative D). Not positive definite: notPosDef = true and index =
// the column of A where the factorization stopped (L->minor is a position in
// the fill-reducing order; index = Perm[minor]); directSolve then throws. log det = 2 Σ log L_jj (sign +1). The input arrays are not kept:
// once factored the handle holds only L.
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
#include <cholmod.h>
}

namespace rlx::sparse {
namespace {

const char* chol_status(int s) {
  switch (s) {
    case CHOLMOD_OK: return "ok";
    case CHOLMOD_NOT_INSTALLED: return "method not installed";
    case CHOLMOD_OUT_OF_MEMORY: return "out of memory";
    case CHOLMOD_TOO_LARGE: return "integer overflow (matrix too large)";
    case CHOLMOD_INVALID: return "invalid input";
    case CHOLMOD_GPU_PROBLEM: return "GPU problem";
    case CHOLMOD_NOT_POSDEF: return "not positive definite";
    case CHOLMOD_DSMALL: return "diagonal entry tiny";
    default: return "unknown status";
  }
}

class CholHandle final : public DirectHandle {
 public:
  cholmod_common common;
  bool started = false;
  cholmod_factor* L = nullptr;
  bool not_posdef = false;

  bool cplx() const { return is_cplx(dtype); }
  const char* kind() const override { return "CHOLMOD"; }
  ~CholHandle() override { release(); }
  void release() override {
    if (!started) return;
    if (L) cholmod_free_factor(&L, &common);
    cholmod_finish(&common);
    started = false;
  }
  std::string method() const override {
    if (!L) return "";
    return std::string(L->is_super ? "supernodal " : "simplicial ") + (L->is_ll ? "LL'" : "LDL'");
  }
  int64_t bytes() const override { return started ? static_cast<int64_t>(common.memory_inuse) : 0; }

  [[noreturn]] void fail(const char* what) const {
    if (common.status == CHOLMOD_OUT_OF_MEMORY) throw std::bad_alloc();
    throw std::runtime_error(std::string("CHOLMOD ") + what + " failed: " + chol_status(common.status) + " (status " +
                             std::to_string(common.status) + ")");
  }

  /** Factors; returns L->minor when not positive definite, else -1. */
  int factor(Canonical& c, bool lower) {
    cholmod_start(&common);
    started = true;
    common.print = 0;  // never print (errors come back as statuses)
    common.error_handler = nullptr;
    common.final_ll = 1;
    if (n == 0) return -1;
    const int per = cplx() ? 2 : 1;
    if (cplx())
      for (size_t k = 1; k < c.x.size(); k += 2) c.x[k] = -c.x[k];
    cholmod_sparse A{};
    A.nrow = A.ncol = static_cast<size_t>(n);
    A.nzmax = c.i.size();
    A.p = c.p.data();
    A.i = c.i.data();
    A.nz = nullptr;
    A.x = c.x.data();
    A.z = nullptr;
    A.stype = lower ? 1 : -1;
    A.itype = CHOLMOD_INT;
    A.xtype = cplx() ? CHOLMOD_COMPLEX : CHOLMOD_REAL;
    A.dtype = CHOLMOD_DOUBLE;
    A.sorted = 1;
    A.packed = 1;
    (void)per;
    L = cholmod_analyze(&A, &common);
    if (!L) fail("analysis");
    if (!L->is_super) {
      // A symbolic simplicial factor: ask for LL' so that rowfac checks d > 0.
      if (!cholmod_change_factor(CHOLMOD_PATTERN, 1, 0, 0, 0, L, &common)) fail("change_factor");
    }
    const int ok = cholmod_factorize(&A, L, &common);
    if (common.status == CHOLMOD_NOT_POSDEF) {
      not_posdef = true;
      // L->minor counts columns of the permuted matrix; report A's column.
      const size_t k = L->minor;
      return k < static_cast<size_t>(n) && L->Perm ? static_cast<const int*>(L->Perm)[k] : static_cast<int>(k);
    }
    if (!ok || common.status < 0) fail("factorization");
    return -1;
  }

  void solve(const double* b, double* x, int64_t nrhs, int trans) override {
    if (not_posdef) throw KindErr("NotPositiveDefiniteError", "CHOLMOD: the matrix is not positive definite; cannot solve");
    const int per = cplx() ? 2 : 1;
    // A is symmetric / Hermitian: Aᵀ x = b is conj(A) x = b, i.e. A conj(x) = conj(b).
    const bool conj = trans == 1 && cplx();
    cholmod_dense* B = cholmod_allocate_dense(n, nrhs, n, cplx() ? CHOLMOD_COMPLEX : CHOLMOD_REAL, &common);
    if (!B) fail("allocate");
    to_col_major(b, static_cast<double*>(B->x), n, nrhs, per, conj);
    cholmod_dense* X = cholmod_solve(CHOLMOD_A, L, B, &common);
    cholmod_free_dense(&B, &common);
    if (!X) fail("solve");
    from_col_major(static_cast<const double*>(X->x), x, n, nrhs, per, conj);
    cholmod_free_dense(&X, &common);
  }

  void logdet(double out[3]) override {
    if (not_posdef) throw KindErr("NotPositiveDefiniteError", "CHOLMOD: the matrix is not positive definite; no log-determinant");
    out[0] = 1, out[1] = 0, out[2] = 0;
    if (n == 0) return;
    const int per = cplx() ? 2 : 1;
    const double* Lx = static_cast<const double*>(L->x);
    double s = 0;
    if (L->is_super) {
      const int* super = static_cast<const int*>(L->super);
      const int* pi = static_cast<const int*>(L->pi);
      const int* px = static_cast<const int*>(L->px);
      for (size_t k = 0; k < L->nsuper; k++) {
        const int ncols = super[k + 1] - super[k], nrows = pi[k + 1] - pi[k];
        for (int j = 0; j < ncols; j++) s += std::log(Lx[(static_cast<int64_t>(px[k]) + int64_t(j) * nrows + j) * per]);
      }
      s *= 2;
    } else {
      const int* p = static_cast<const int*>(L->p);
      for (int j = 0; j < n; j++) s += std::log(Lx[static_cast<int64_t>(p[j]) * per]);
      if (L->is_ll) s *= 2;
    }
    out[2] = s;
  }
};

}  // namespace
}  // namespace rlx::sparse

RLX_REGISTER(sparse_cholmod) {
  using namespace rlx;
  using namespace rlx::sparse;
  // cholmodFactor and cholmodFactorAsync (binding/kernel.h): canonical copy and factorization in run().
  struct FactorJob {
    Csr a;
    bool lower;
    std::unique_ptr<CholHandle> h;
    int index = 0;
    void run() {
      h->dtype = a.dtype;
      Canonical c = canonicalize(a, false);
      h->n = c.n;
      index = h->factor(c, lower);
    }
    Napi::Value result(Napi::Env env, Pins&) {
      Napi::Object o = Napi::Object::New(env);
      o.Set("notPosDef", h->not_posdef);
      o.Set("index", index);
      o.Set("handle", wrap_handle(env, h.release()));
      return o;
    }
  };
  export_kernel(env, exports, "cholmodFactor", [](const Napi::CallbackInfo& info, Pins& pins) -> FactorJob {
    if (info.Length() != 7)
      throw TypeErr("expected (dtype, rows, cols, indptr, indices, data, lower), got " + std::to_string(info.Length()) + " arguments");
    if (!info[6].IsBoolean()) throw TypeErr("lower must be a boolean, got " + describe(info[6]));
    const bool lower = info[6].As<Napi::Boolean>().Value();
    Csr a = read_csr(info, 0, false);
    pin_csr(a, info, 0, pins);
    return FactorJob{std::move(a), lower, std::make_unique<CholHandle>()};
  });
}
