// UMFPACK (general square LU) on CSR input.
//
//   umfpackFactor(dtype, rows, cols, indptr, indices, data[, strategy, ordering, refine])
//       -> { handle, singular: boolean, index: number }
//
// strategy: UMFPACK_STRATEGY_* (0 auto, 1 unsymmetric, 3 symmetric; default
// auto, which picks symmetric, i.e. AMD on A+Aᵀ with diagonal pivots
// preferred, for a mostly symmetric pattern); ordering: UMFPACK_ORDERING_*
// (0 cholmod, 1 amd (COLAMD under the unsymmetric strategy), 3 metis, 4 best,
// 5 none) or rlx's own: 6 nd (the nested dissection of umf_order.h, given to
// umfpack_*_qsymbolic with the symmetric strategy; not with the unsymmetric
// one), 7 auto (the default: nd where umf_order.h expects it to pay, else
// 1); refine: the most iterative-refinement steps a solve may take (default
// 2, UMFPACK's own default), see solve(). directInfo's method says what ran,
// e.g. "symmetric, nd" or "unsymmetric, colamd".
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
//
// UMFPACK is GPL and optional: without it (RLX_HAVE_UMFPACK unset, i.e.
// -DRLX_UMFPACK=OFF, scripts/build-native.mjs's RLX_NO_UMFPACK=1 or
// RLX_NO_GPL=1) this file compiles to nothing, so the addon exports neither
// umfpackFactor nor umfpackFactorAsync and libumfpack is not linked.
#if defined(RLX_HAVE_UMFPACK)
#include <atomic>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "args.h"
#include "binding/kernel.h"
#include "errors.h"
#include "register.h"
#include "sparse/csr.h"
#include "sparse/direct.h"
#include "sparse/lu_solve.h"
#include "sparse/umf_order.h"

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

constexpr int kOrderingNd = 6, kOrderingAuto = 7;

class UmfHandle final : public DirectHandle {
 public:
  Canonical c;
  void* symbolic = nullptr;
  void* numeric = nullptr;
  double control[UMFPACK_CONTROL];
  int strategy = UMFPACK_STRATEGY_AUTO, ordering = kOrderingAuto, refine = 2;
  bool singular = false;
  std::string used;  // strategy and ordering that ran (directInfo's method)
  int64_t numeric_bytes = 0;
  // Factors copied out for rlx's own solves (lu_solve.h), only for small factors and only once a
  // factor has been solved with kExtractAfter times. Copying costs about as much as 8-10 UMFPACK
  // solves and then saves 25-45% of each (poisson2d 32² to 128², measured), both in proportion to
  // the factor's size: extracting after about as many solves as it costs (the ski-rental rule) never
  // costs more than twice the better choice in hindsight, and a factor solved a few times never pays
  // it. `extracted` publishes lu to the threads that solve.
  static constexpr int kExtractAfter = 8;
  ExtractedLU lu;
  std::atomic<int> solve_calls{0};
  std::atomic<bool> extracted{false};
  std::once_flag extract_once;

  bool cplx() const { return is_cplx(dtype); }
  const char* kind() const override { return "UMFPACK"; }
  std::string method() const override { return used; }
  const char* solves() const override { return extracted.load(std::memory_order_acquire) ? "extracted" : "library"; }
  ~UmfHandle() override { release(); }
  void release() override {
    if (numeric) cplx() ? umfpack_zi_free_numeric(&numeric) : umfpack_di_free_numeric(&numeric);
    if (symbolic) cplx() ? umfpack_zi_free_symbolic(&symbolic) : umfpack_di_free_symbolic(&symbolic);
    numeric = symbolic = nullptr;
    c = Canonical();
    lu = ExtractedLU();
    extracted.store(false, std::memory_order_release);
  }
  int64_t bytes() const override {
    return numeric_bytes + lu.bytes() + static_cast<int64_t>(c.p.capacity() * sizeof(int) + c.i.capacity() * sizeof(int) + c.x.capacity() * sizeof(double));
  }

  static std::string describe(const double* info, const UmfOrder& given) {
    const bool sym = info[UMFPACK_STRATEGY_USED] == UMFPACK_STRATEGY_SYMMETRIC;
    std::string o;
    if (given.given) o = given.nd ? "nd" : "amd";
    else switch (static_cast<int>(info[UMFPACK_ORDERING_USED])) {
        case UMFPACK_ORDERING_AMD: o = sym ? "amd" : "colamd"; break;
        case UMFPACK_ORDERING_METIS: o = "metis"; break;
        case UMFPACK_ORDERING_NONE: o = "natural"; break;
        default: o = "other"; break;
      }
    return std::string(sym ? "symmetric, " : "unsymmetric, ") + o;
  }

  /** Factors; returns the first zero pivot's row of A, or -1. */
  int factor() {
    double info[UMFPACK_INFO];
    cplx() ? umfpack_zi_defaults(control) : umfpack_di_defaults(control);
    const bool ours = ordering == kOrderingNd || ordering == kOrderingAuto;
    control[UMFPACK_STRATEGY] = strategy;
    control[UMFPACK_ORDERING] = ours ? UMFPACK_ORDERING_AMD : ordering;
    control[UMFPACK_IRSTEP] = 0;  // refinement is ours (solve())
    if (n == 0) return -1;
    UmfOrder given;
    if (ours && strategy != UMFPACK_STRATEGY_UNSYMMETRIC) given = choose_umf_order(n, c.p.data(), c.i.data(), c.x.data(), cplx(), ordering == kOrderingNd);
    // A given column order is only used with the symmetric strategy (under the
    // unsymmetric one UMFPACK would not run COLAMD and would analyse AᵀA for it).
    if (given.given) control[UMFPACK_STRATEGY] = UMFPACK_STRATEGY_SYMMETRIC;
    const int* q = given.given ? given.q.data() : nullptr;
    int s = cplx() ? umfpack_zi_qsymbolic(n, n, c.p.data(), c.i.data(), c.x.data(), nullptr, q, &symbolic, control, info)
                   : umfpack_di_qsymbolic(n, n, c.p.data(), c.i.data(), c.x.data(), q, &symbolic, control, info);
    if (s < 0) umf_fail("symbolic analysis", s);
    used = describe(info, given);
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

  /** Solves before extracting: kExtractAfter, or $RLX_UMFPACK_EXTRACT_AFTER (tests use 1). */
  static int extract_after() {
    const char* env = std::getenv("RLX_UMFPACK_EXTRACT_AFTER");
    return env && *env ? std::atoi(env) : kExtractAfter;
  }

  /** Copies small factors into lu (see lu_solve.h); leaves lu empty when they are large or UMFPACK cannot give them. */
  void extract() {
    int lnz = 0, unz = 0, nr = 0, nc = 0, udiag = 0;
    int s = cplx() ? umfpack_zi_get_lunz(&lnz, &unz, &nr, &nc, &udiag, numeric) : umfpack_di_get_lunz(&lnz, &unz, &nr, &nc, &udiag, numeric);
    // RLX_UMFPACK_EXTRACT_MAX (entries of L + U) moves the limit: tests run both solves on one matrix with it.
    const char* env = std::getenv("RLX_UMFPACK_EXTRACT_MAX");
    const int64_t most = env && *env ? std::strtoll(env, nullptr, 10) : ExtractedLU::kMaxEntries;
    if (s < 0 || nr != n || nc != n || int64_t(lnz) + unz > most) return;
    const int L = cplx() ? 2 : 1;
    ExtractedLU e;
    e.n = n, e.complex = cplx();
    e.Lp.resize(n + 1), e.Lj.resize(lnz), e.Lx.resize(size_t(lnz) * L);
    e.Up.resize(n + 1), e.Ui.resize(unz), e.Ux.resize(size_t(unz) * L);
    e.P.resize(n), e.Q.resize(n);
    std::vector<double> D(size_t(n) * L), Rs(n);
    int recip = 0;
    s = cplx() ? umfpack_zi_get_numeric(e.Lp.data(), e.Lj.data(), e.Lx.data(), nullptr, e.Up.data(), e.Ui.data(), e.Ux.data(), nullptr, e.P.data(), e.Q.data(),
                                        D.data(), nullptr, &recip, Rs.data(), numeric)
               : umfpack_di_get_numeric(e.Lp.data(), e.Lj.data(), e.Lx.data(), e.Up.data(), e.Ui.data(), e.Ux.data(), e.P.data(), e.Q.data(), D.data(),
                                        &recip, Rs.data(), numeric);
    if (s < 0) return;
    // The solves take the diagonal as the last entry of each L row / U column: check rather than assume.
    for (int k = 0; k < n; k++) {
      if (e.Lp[k + 1] <= e.Lp[k] || e.Lj[e.Lp[k + 1] - 1] != k) return;
      if (e.Up[k + 1] <= e.Up[k] || e.Ui[e.Up[k + 1] - 1] != k) return;
    }
    e.scaleP.assign(size_t(n) * L, 0.0);
    e.invDiag.resize(size_t(n) * L);
    for (int k = 0; k < n; k++) {
      const double r = Rs[e.P[k]];
      e.scaleP[size_t(k) * L] = recip ? r : 1 / r;
      if (L == 1) {
        e.invDiag[k] = 1 / D[k];
      } else {
        const std::complex<double> inv = 1.0 / std::complex<double>(D[2 * k], D[2 * k + 1]);
        e.invDiag[2 * k] = inv.real(), e.invDiag[2 * k + 1] = inv.imag();
      }
    }
    lu = std::move(e);
  }

  /**
   * y = op⁻¹ rhs, one column (op = A for sys UMFPACK_Aat, Aᵀ for UMFPACK_A), no
   * refinement. Through *_wsolve with this thread's workspace: *_solve mallocs
   * and frees it on every call, a large part of a small solve (n = 199: ~1 µs).
   */
  void solve1(int sys, const double* rhs, double* y) {
    double info[UMFPACK_INFO];
    thread_local std::vector<int> Wi;
    thread_local std::vector<double> W;
    // Without UMFPACK's own refinement (IRSTEP = 0): n doubles (real), 4n (complex).
    const size_t wlen = static_cast<size_t>(n) * (cplx() ? 4 : 1);
    if (W.size() < wlen) W.resize(wlen);
    if (extracted.load(std::memory_order_acquire)) return lu.solve(sys == UMFPACK_Aat, rhs, y, W.data());
    if (Wi.size() < static_cast<size_t>(n)) Wi.resize(n);
    const int st = cplx() ? umfpack_zi_wsolve(sys, c.p.data(), c.i.data(), c.x.data(), nullptr, y, nullptr, rhs, nullptr, numeric, control, info, Wi.data(), W.data())
                          : umfpack_di_wsolve(sys, c.p.data(), c.i.data(), c.x.data(), y, rhs, numeric, control, info, Wi.data(), W.data());
    if (st < 0) umf_fail("solve", st);
  }

  // Iterative refinement as LAPACK's xGERFS does it, with the componentwise
  // backward error ω = max_i |r_i| / (|op||y| + |c|)_i (direct.cc): a step
  // is taken while ω > kRefineTol and the previous step at least halved ω,
  // at most `refine` steps. UMFPACK's own IRSTEP loop uses the same rule with
  // the threshold ε, which takes a full extra solve whenever ω is a few ulps
  // (the 512x512 Poisson matrix: ω ≈ 2ε, one step for 2x on ‖r‖); an ω of a few
  // ε already means x is the exact solution for entries of A and b perturbed
  // by a few ulps, so the threshold is 8ε and the check costs one pass over A.
  static constexpr double kRefineTol = 8 * 2.220446049250313e-16;

  void solve(const double* b, double* x, int64_t nrhs, int trans) override {
    if (singular) throw KindErr("SingularMatrixError", "UMFPACK: the matrix is singular; cannot solve");
    if (!extracted.load(std::memory_order_acquire) && solve_calls.fetch_add(1, std::memory_order_relaxed) + 1 >= extract_after())
      std::call_once(extract_once, [this] {
        extract();
        if (!lu.empty()) extracted.store(true, std::memory_order_release);
      });
    const int per = cplx() ? 2 : 1;
    const bool h = trans == 2 && cplx();
    const int sys = trans == 0 ? UMFPACK_Aat : UMFPACK_A;
    const size_t len = static_cast<size_t>(n) * per;
    // Per-thread scratch, grown once (a small solve's allocations cost as much as the solve).
    thread_local std::vector<double> bc, xc, r, d, w;
    if (bc.size() < len) bc.resize(len), xc.resize(len);
    if (refine > 0 && r.size() < len) r.resize(len), d.resize(len), w.resize(len);
    for (int64_t col = 0; col < nrhs; col++) {
      for (int i = 0; i < n; i++) {
        const double* s = b + (i * nrhs + col) * per;
        bc[i * per] = s[0];
        if (per == 2) bc[i * per + 1] = h ? -s[1] : s[1];
      }
      solve1(sys, bc.data(), xc.data());
      double last = INFINITY;
      for (int step = 0; step < refine; step++) {
        const double omega = backward_error(c, cplx(), trans != 0, xc.data(), bc.data(), r.data(), w.data());
        if (!(omega > kRefineTol) || !(2 * omega <= last)) break;
        solve1(sys, r.data(), d.data());
        for (size_t k = 0; k < len; k++) xc[k] += d[k];
        last = omega;
      }
      for (int i = 0; i < n; i++) {
        double* o = x + (i * nrhs + col) * per;
        o[0] = xc[i * per];
        if (per == 2) o[1] = h ? -xc[i * per + 1] : xc[i * per + 1];
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
  // umfpackFactor and umfpackFactorAsync (binding/kernel.h): canonical copy and factorization in run().
  struct FactorJob {
    Csr a;
    std::unique_ptr<UmfHandle> h;
    int index = 0;
    void run() {
      h->dtype = a.dtype;
      h->c = canonicalize(a, false);
      h->n = h->c.n;
      index = h->factor();
    }
    Napi::Value result(Napi::Env env, Pins&) {
      Napi::Object o = Napi::Object::New(env);
      o.Set("singular", h->singular);
      o.Set("index", index);
      o.Set("handle", wrap_handle(env, h.release()));
      return o;
    }
  };
  export_kernel(env, exports, "umfpackFactor", [](const Napi::CallbackInfo& info, Pins& pins) -> FactorJob {
    if (info.Length() != 6 && info.Length() != 9)
      throw TypeErr("expected (dtype, rows, cols, indptr, indices, data[, strategy, ordering, refine]), got " + std::to_string(info.Length()) + " arguments");
    Csr a = read_csr(info, 0, false);
    auto h = std::make_unique<UmfHandle>();
    if (info.Length() == 9) {
      h->strategy = static_cast<int>(as_int(info[6], "strategy", 0, 3));
      if (h->strategy == UMFPACK_STRATEGY_OBSOLETE) throw RangeErr("strategy must be 0 (auto), 1 (unsymmetric) or 3 (symmetric), got 2");
      h->ordering = static_cast<int>(as_int(info[7], "ordering", 0, 7));
      if (h->ordering == UMFPACK_ORDERING_GIVEN)
        throw RangeErr("ordering must be 0 (cholmod), 1 (amd), 3 (metis), 4 (best), 5 (none), 6 (nd) or 7 (auto), got 2");
      h->refine = static_cast<int>(as_int(info[8], "refine", 0, 100));
      if (h->ordering == kOrderingNd && h->strategy == UMFPACK_STRATEGY_UNSYMMETRIC)
        throw RangeErr("ordering 6 (nd) needs strategy 0 (auto) or 3 (symmetric), got 1 (unsymmetric)");
    }
    pin_csr(a, info, 0, pins);
    return FactorJob{std::move(a), std::move(h)};
  });
}

#endif  // RLX_HAVE_UMFPACK
