// UMFPACK (general square LU) on CSR input.
//
//   umfpackFactor(dtype, rows, cols, indptr, indices, data)
//       -> { handle, singular: boolean, index: number }
//
// Real dtypes use umfpack_di_*, complex ones umfpack_zi_* (packed complex,
// Az = NULL); float32/complex64 values are copied into double. The CSR arrays
// of A are the CSC arrays of B = Aᵀ (rows sorted and duplicates summed first,
// see canonicalize()), and UMFPACK factors B. So (no extra transposition):
//   A x = b  (trans 0):  B.' x = b          -> UMFPACK_Aat (array transpose, no conjugation)
//   Aᵀ x = b (trans 1):  B x = b            -> UMFPACK_A
//   Aᴴ x = b (trans 2):  conj(B) x = b      -> B conj(x) = conj(b): UMFPACK_A on conj(b), result conjugated
// det(A) = det(B). A numerically or structurally singular matrix is not an
// error here: `singular` is true and `index` is the row of A (column of B,
// UMFPACK's Q[k]) of the first zero pivot of U; directSolve then throws and
// directLogDet returns sign 0, log|det| = -Infinity. Errors (out of memory,
// invalid matrix, ...) throw with UMFPACK's status named.
#include <cmath>
#include <memory>
#include <vector>

#include "args.h"
#include "errors.h"
#include "register.h"
#include "sparse/csr.h"
#include "sparse/direct.h"

extern "C" {
#include <umfpack.h>
}

namespace rlx::sparse {
namespace {

const char* umf_status(int s) {
  switch (s) {
    case UMFPACK_OK: return "ok";
    case UMFPACK_WARNING_singular_matrix: return "singular matrix";
    case UMFPACK_ERROR_out_of_memory: return "out of memory";
    case UMFPACK_ERROR_invalid_Numeric_object: return "invalid Numeric object";
    case UMFPACK_ERROR_invalid_Symbolic_object: return "invalid Symbolic object";
    case UMFPACK_ERROR_argument_missing: return "argument missing";
    case UMFPACK_ERROR_n_nonpositive: return "n must be positive";
    case UMFPACK_ERROR_invalid_matrix: return "invalid matrix";
    case UMFPACK_ERROR_different_pattern: return "different pattern";
    case UMFPACK_ERROR_invalid_system: return "invalid system";
    case UMFPACK_ERROR_invalid_permutation: return "invalid permutation";
    case UMFPACK_ERROR_ordering_failed: return "ordering failed";
    case UMFPACK_ERROR_internal_error: return "internal error";
    default: return "unknown status";
  }
}

[[noreturn]] void umf_fail(const char* what, int s) {
  if (s == UMFPACK_ERROR_out_of_memory) throw std::bad_alloc();
  throw std::runtime_error(std::string("UMFPACK ") + what + " failed: " + umf_status(s) + " (status " + std::to_string(s) + ")");
}

class UmfHandle final : public DirectHandle {
 public:
  Canonical c;
  void* symbolic = nullptr;
  void* numeric = nullptr;
  double control[UMFPACK_CONTROL];
  bool singular = false;
  int64_t numeric_bytes = 0;

  bool cplx() const { return is_cplx(dtype); }
  const char* kind() const override { return "UMFPACK"; }
  ~UmfHandle() override { release(); }
  void release() override {
    if (numeric) cplx() ? umfpack_zi_free_numeric(&numeric) : umfpack_di_free_numeric(&numeric);
    if (symbolic) cplx() ? umfpack_zi_free_symbolic(&symbolic) : umfpack_di_free_symbolic(&symbolic);
    numeric = symbolic = nullptr;
    c = Canonical();
  }
  int64_t bytes() const override {
    return numeric_bytes + static_cast<int64_t>(c.p.capacity() * sizeof(int) + c.i.capacity() * sizeof(int) + c.x.capacity() * sizeof(double));
  }

  /** Factors; returns the first zero pivot's row of A, or -1. */
  int factor() {
    double info[UMFPACK_INFO];
    cplx() ? umfpack_zi_defaults(control) : umfpack_di_defaults(control);
    if (n == 0) return -1;
    int s = cplx() ? umfpack_zi_symbolic(n, n, c.p.data(), c.i.data(), c.x.data(), nullptr, &symbolic, control, info)
                   : umfpack_di_symbolic(n, n, c.p.data(), c.i.data(), c.x.data(), &symbolic, control, info);
    if (s < 0) umf_fail("symbolic analysis", s);
    s = cplx() ? umfpack_zi_numeric(c.p.data(), c.i.data(), c.x.data(), nullptr, symbolic, &numeric, control, info)
               : umfpack_di_numeric(c.p.data(), c.i.data(), c.x.data(), symbolic, &numeric, control, info);
    if (s < 0) umf_fail("numeric factorization", s);
    numeric_bytes = static_cast<int64_t>(info[UMFPACK_NUMERIC_SIZE] * info[UMFPACK_SIZE_OF_UNIT]);
    if (s != UMFPACK_WARNING_singular_matrix) return -1;
    singular = true;
    std::vector<int> Q(n);
    std::vector<double> D(static_cast<size_t>(n) * (cplx() ? 2 : 1));
    int recip = 0;
    s = cplx() ? umfpack_zi_get_numeric(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, Q.data(), D.data(),
                                        nullptr, &recip, nullptr, numeric)
               : umfpack_di_get_numeric(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, Q.data(), D.data(), &recip, nullptr,
                                        numeric);
    if (s < 0) return 0;
    for (int k = 0; k < n; k++) {
      const bool zero = cplx() ? (D[2 * k] == 0 && D[2 * k + 1] == 0) || std::isnan(D[2 * k]) || std::isnan(D[2 * k + 1])
                               : D[k] == 0 || std::isnan(D[k]);
      if (zero) return Q[k];
    }
    return 0;
  }

  void solve(const double* b, double* x, int64_t nrhs, int trans) override {
    if (singular) throw std::runtime_error("UMFPACK: the matrix is singular; cannot solve");
    const int per = cplx() ? 2 : 1;
    const bool h = trans == 2 && cplx();
    const int sys = trans == 0 ? UMFPACK_Aat : UMFPACK_A;
    std::vector<double> bc(static_cast<size_t>(n) * per), xc(static_cast<size_t>(n) * per);
    double info[UMFPACK_INFO];
    for (int64_t col = 0; col < nrhs; col++) {
      for (int i = 0; i < n; i++) {
        const double* s = b + (i * nrhs + col) * per;
        bc[i * per] = s[0];
        if (per == 2) bc[i * per + 1] = h ? -s[1] : s[1];
      }
      const int st = cplx() ? umfpack_zi_solve(sys, c.p.data(), c.i.data(), c.x.data(), nullptr, xc.data(), nullptr, bc.data(), nullptr, numeric,
                                               control, info)
                            : umfpack_di_solve(sys, c.p.data(), c.i.data(), c.x.data(), xc.data(), bc.data(), numeric, control, info);
      if (st < 0) umf_fail("solve", st);
      for (int i = 0; i < n; i++) {
        double* d = x + (i * nrhs + col) * per;
        d[0] = xc[i * per];
        if (per == 2) d[1] = h ? -xc[i * per + 1] : xc[i * per + 1];
      }
    }
  }

  void logdet(double out[3]) override {
    out[0] = 1, out[1] = 0, out[2] = 0;
    if (n == 0) return;
    double m[2] = {0, 0}, e = 0, info[UMFPACK_INFO];
    const int s = cplx() ? umfpack_zi_get_determinant(m, nullptr, &e, numeric, info) : umfpack_di_get_determinant(m, &e, numeric, info);
    if (s < 0) umf_fail("determinant", s);
    const double mag = cplx() ? std::hypot(m[0], m[1]) : std::fabs(m[0]);
    if (singular || mag == 0 || s == UMFPACK_WARNING_singular_matrix) {
      out[0] = 0, out[1] = 0, out[2] = -INFINITY;
      return;
    }
    out[0] = m[0] / mag;
    out[1] = cplx() ? m[1] / mag : 0;
    out[2] = std::log(mag) + e * std::log(10.0);
  }
};

}  // namespace
}  // namespace rlx::sparse

RLX_REGISTER(sparse_umfpack) {
  using namespace rlx;
  using namespace rlx::sparse;
  export_fn(env, exports, "umfpackFactor", [](const Napi::CallbackInfo& info) -> Napi::Value {
    if (info.Length() != 6) throw TypeErr("expected (dtype, rows, cols, indptr, indices, data), got " + std::to_string(info.Length()) + " arguments");
    const Csr a = read_csr(info, 0, false);
    auto h = std::make_unique<UmfHandle>();
    h->dtype = a.dtype;
    h->c = canonicalize(a, false);
    h->n = h->c.n;
    const int index = h->factor();
    Napi::Object o = Napi::Object::New(info.Env());
    o.Set("singular", h->singular);
    o.Set("index", index);
    o.Set("handle", wrap_handle(info.Env(), h.release()));
    return o;
  });
}
