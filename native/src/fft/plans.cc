// FFTW's plans for the fft kernels (fft.h): created once per problem, cached,
// and executed on the caller's arrays with the new-array execute functions.
//
// Why a cache: even FFTW_ESTIMATE planning costs microseconds to a
// millisecond (twiddle tables), more than a small transform; an fft in a loop
// (or the two axes of fft2 over the same shape) reuses its plan.
//
// The key is everything a plan depends on: kind (c2c forward / inverse, r2c,
// c2r), precision, n, batch (FFTW's howmany: one plan runs all rows, which
// lets FFTW vectorize across short rows), the alignment of the input and
// output (fftw_alignment_of: a plan may use SIMD loads that assume the
// alignment its planning arrays had; typed arrays are only 8-byte aligned in
// general, a subarray even 4, so the alignment is part of the key instead of
// planning everything FFTW_UNALIGNED, which turns SIMD off) and the thread
// count. Plans are made with FFTW_ESTIMATE (no trial runs: FFTW_MEASURE costs
// seconds for large n and would need the caller's data to stay untouched) on
// scratch arrays of the same alignment, never on the caller's memory.
//
// Thread safety: FFTW's planner (and plan destruction, which touches its
// shared twiddle tables) is not thread-safe, so both run under one mutex;
// fftw_execute_dft & co. on distinct arrays are, so executions (sync calls
// and the libuv workers of the Async twins) run in parallel. A plan is held
// by shared_ptr while it runs, so evicting it meanwhile only drops the
// cache's reference.
//
// Threads: transforms with n·batch ≥ 2^15 points are planned with
// fftw_plan_with_nthreads(the addon pool's size: RLX_NUM_THREADS, else the
// machine's parallelism, as every other threaded kernel of the addon); below
// that, threads cost more than they save.
#if defined(RLX_HAVE_FFTW3)

#include <fftw3.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <tuple>
#include <vector>

#include "errors.h"
#include "fft/fft.h"
#include "pool/pool.h"

namespace rlx {
namespace fft {
namespace {

constexpr int kMaxPlans = 64;
constexpr int64_t kThreadMin = int64_t{1} << 15;

/** fftw_ or fftwf_ by the real type R. */
template <class R>
struct Fftw;

template <>
struct Fftw<double> {
  using plan = fftw_plan;
  using cpx = fftw_complex;
  static int init_threads() { return fftw_init_threads(); }
  static void with_nthreads(int t) { fftw_plan_with_nthreads(t); }
  static int alignment_of(const double* p) { return fftw_alignment_of(const_cast<double*>(p)); }
  static plan dft(int n, int howmany, double* in, double* out, int sign, unsigned flags) {
    return fftw_plan_many_dft(1, &n, howmany, reinterpret_cast<cpx*>(in), nullptr, 1, n, reinterpret_cast<cpx*>(out), nullptr, 1, n, sign, flags);
  }
  static plan r2c(int n, int howmany, double* in, double* out, unsigned flags) {
    return fftw_plan_many_dft_r2c(1, &n, howmany, in, nullptr, 1, n, reinterpret_cast<cpx*>(out), nullptr, 1, n / 2 + 1, flags);
  }
  static plan c2r(int n, int howmany, double* in, double* out, unsigned flags) {
    return fftw_plan_many_dft_c2r(1, &n, howmany, reinterpret_cast<cpx*>(in), nullptr, 1, n / 2 + 1, out, nullptr, 1, n, flags);
  }
  static void exec(Kind k, plan p, double* in, double* out) {
    if (k == Kind::r2c) fftw_execute_dft_r2c(p, in, reinterpret_cast<cpx*>(out));
    else if (k == Kind::c2r) fftw_execute_dft_c2r(p, reinterpret_cast<cpx*>(in), out);
    else fftw_execute_dft(p, reinterpret_cast<cpx*>(in), reinterpret_cast<cpx*>(out));
  }
  static void destroy(plan p) { fftw_destroy_plan(p); }
};

template <>
struct Fftw<float> {
  using plan = fftwf_plan;
  using cpx = fftwf_complex;
  static int init_threads() { return fftwf_init_threads(); }
  static void with_nthreads(int t) { fftwf_plan_with_nthreads(t); }
  static int alignment_of(const float* p) { return fftwf_alignment_of(const_cast<float*>(p)); }
  static plan dft(int n, int howmany, float* in, float* out, int sign, unsigned flags) {
    return fftwf_plan_many_dft(1, &n, howmany, reinterpret_cast<cpx*>(in), nullptr, 1, n, reinterpret_cast<cpx*>(out), nullptr, 1, n, sign, flags);
  }
  static plan r2c(int n, int howmany, float* in, float* out, unsigned flags) {
    return fftwf_plan_many_dft_r2c(1, &n, howmany, in, nullptr, 1, n, reinterpret_cast<cpx*>(out), nullptr, 1, n / 2 + 1, flags);
  }
  static plan c2r(int n, int howmany, float* in, float* out, unsigned flags) {
    return fftwf_plan_many_dft_c2r(1, &n, howmany, reinterpret_cast<cpx*>(in), nullptr, 1, n / 2 + 1, out, nullptr, 1, n, flags);
  }
  static void exec(Kind k, plan p, float* in, float* out) {
    if (k == Kind::r2c) fftwf_execute_dft_r2c(p, in, reinterpret_cast<cpx*>(out));
    else if (k == Kind::c2r) fftwf_execute_dft_c2r(p, reinterpret_cast<cpx*>(in), out);
    else fftwf_execute_dft(p, reinterpret_cast<cpx*>(in), reinterpret_cast<cpx*>(out));
  }
  static void destroy(plan p) { fftwf_destroy_plan(p); }
};

/**
 * The planner's lock: FFTW's planner, thread setup and plan destruction run
 * under it. Recursive, so that a plan dropped while it is held (an
 * allocation failing after the plan was made) can still be destroyed.
 */
std::recursive_mutex& planner_mutex() {
  static std::recursive_mutex m;
  return m;
}

/** A cached plan of either precision; destroyed under the planner's lock (whoever drops the last reference). */
struct Plan {
  void* p;
  bool single;
  Plan(void* p_, bool s) : p(p_), single(s) {}
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
  ~Plan() {
    std::lock_guard<std::recursive_mutex> lock(planner_mutex());
    if (single) Fftw<float>::destroy(static_cast<fftwf_plan>(p));
    else Fftw<double>::destroy(static_cast<fftw_plan>(p));
  }
};

// kind, single, n, howmany, alignment in, alignment out, threads
using Key = std::tuple<int, bool, int, int, int, int, int>;

struct Cache {
  struct Entry {
    std::shared_ptr<Plan> plan;
    uint64_t used;
  };
  std::map<Key, Entry> plans;  // guarded by planner_mutex()
  uint64_t clock = 0;
  int64_t created = 0, hits = 0, evicted = 0;
  bool threads_tried = false, threads_ok = false;
};

/** The cache, with FFTW's threads set up on first use (call under the lock). */
Cache& cache() {
  static Cache* c = new Cache();  // never destroyed: plans may be in use at exit
  if (!c->threads_tried) {
    c->threads_tried = true;
    c->threads_ok = fftw_init_threads() != 0 && fftwf_init_threads() != 0;
  }
  return *c;
}

/** Threads for a transform of `points` values (the pool's size from kThreadMin on). */
int threads_for(int64_t points) {
  if (points < kThreadMin) return 1;
  const int t = Pool::instance().size();
  return t < 1 ? 1 : t;
}

/** Memory from fftw_malloc (SIMD-aligned) with a start `align` bytes past that alignment, freed with it. */
class Scratch {
 public:
  Scratch(size_t bytes, int align) : base_(fftw_malloc(bytes + 64)) {
    if (!base_) throw std::bad_alloc();
    data_ = static_cast<char*>(base_) + align;
  }
  ~Scratch() { fftw_free(base_); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  template <class R>
  R* as() const { return reinterpret_cast<R*>(data_); }

 private:
  void* base_;
  char* data_;
};

/** The values (R scalars) of one side of a transform. */
int64_t scalars(Kind k, bool input, int64_t batch, int64_t n) {
  const int64_t half = 2 * (n / 2 + 1);
  if (k == Kind::r2c) return batch * (input ? n : half);
  if (k == Kind::c2r) return batch * (input ? half : n);
  return batch * 2 * n;
}

/** The cached plan of a problem, created (under the lock, on scratch arrays) when missing. */
template <class R>
std::shared_ptr<Plan> plan_for(Kind kind, int n, int howmany, int align_in, int align_out, int threads) {
  std::vector<std::shared_ptr<Plan>> dropped;  // destroyed after the lock is released (~Plan takes it)
  std::lock_guard<std::recursive_mutex> lock(planner_mutex());
  Cache& c = cache();
  if (!c.threads_ok) threads = 1;
  const bool single = sizeof(R) == sizeof(float);
  const Key key{static_cast<int>(kind), single, n, howmany, align_in, align_out, threads};
  auto it = c.plans.find(key);
  if (it != c.plans.end()) {
    it->second.used = ++c.clock;
    c.hits++;
    return it->second.plan;
  }
  Scratch in(scalars(kind, true, howmany, n) * sizeof(R), align_in);
  Scratch out(scalars(kind, false, howmany, n) * sizeof(R), align_out);
  Fftw<R>::with_nthreads(threads);
  const unsigned flags = FFTW_ESTIMATE | (kind == Kind::c2r ? FFTW_DESTROY_INPUT : 0u);
  typename Fftw<R>::plan p;
  if (kind == Kind::r2c) p = Fftw<R>::r2c(n, howmany, in.as<R>(), out.as<R>(), flags);
  else if (kind == Kind::c2r) p = Fftw<R>::c2r(n, howmany, in.as<R>(), out.as<R>(), flags);
  else p = Fftw<R>::dft(n, howmany, in.as<R>(), out.as<R>(), kind == Kind::c2c_inverse ? FFTW_BACKWARD : FFTW_FORWARD, flags);
  if (!p) throw KindErr("DeviceError", "FFTW could not plan a transform of length " + std::to_string(n) + " × " + std::to_string(howmany) + " rows");
  auto plan = std::make_shared<Plan>(static_cast<void*>(p), single);
  c.created++;
  while (static_cast<int>(c.plans.size()) >= kMaxPlans) {
    auto oldest = c.plans.begin();
    for (auto e = c.plans.begin(); e != c.plans.end(); ++e)
      if (e->second.used < oldest->second.used) oldest = e;
    dropped.push_back(std::move(oldest->second.plan));
    c.plans.erase(oldest);
    c.evicted++;
  }
  c.plans.emplace(key, Cache::Entry{plan, ++c.clock});
  return plan;
}

}  // namespace

template <class R>
void execute(Kind kind, int64_t batch, int64_t n, const R* x, R* out) {
  if (batch == 0) return;
  if (n < 1 || n > INT_MAX) throw RangeErr("n must be in [1, 2^31 - 1] for FFTW, got " + std::to_string(n));
  if (batch < 0 || batch > INT_MAX) throw RangeErr("batch must be in [0, 2^31 - 1] for FFTW, got " + std::to_string(batch));
  const int threads = threads_for(batch * n);
  if (kind == Kind::c2r) {
    // FFTW's c2r overwrites its input: run it on a copy, with the imaginary
    // parts the contract ignores set to 0 (FFTW would otherwise be free to use them).
    const int64_t half = n / 2 + 1, len = 2 * half * batch;
    Scratch copy(static_cast<size_t>(len) * sizeof(R), 0);
    R* h = copy.as<R>();
    std::memcpy(h, x, static_cast<size_t>(len) * sizeof(R));
    for (int64_t b = 0; b < batch; b++) {
      h[2 * half * b + 1] = 0;
      if (n % 2 == 0) h[2 * half * b + 2 * (half - 1) + 1] = 0;
    }
    const auto p = plan_for<R>(kind, static_cast<int>(n), static_cast<int>(batch), Fftw<R>::alignment_of(h), Fftw<R>::alignment_of(out), threads);
    Fftw<R>::exec(kind, static_cast<typename Fftw<R>::plan>(p->p), h, out);
    return;
  }
  const auto p = plan_for<R>(kind, static_cast<int>(n), static_cast<int>(batch), Fftw<R>::alignment_of(x), Fftw<R>::alignment_of(out), threads);
  // Out of place, r2c and c2c leave their input as it is (FFTW's default for them).
  Fftw<R>::exec(kind, static_cast<typename Fftw<R>::plan>(p->p), const_cast<R*>(x), out);
}

template void execute<double>(Kind, int64_t, int64_t, const double*, double*);
template void execute<float>(Kind, int64_t, int64_t, const float*, float*);

Stats stats() {
  std::lock_guard<std::recursive_mutex> lock(planner_mutex());
  const Cache& c = cache();
  return Stats{static_cast<int64_t>(c.plans.size()), c.created, c.hits, c.evicted, kMaxPlans, threads_for(kThreadMin), kThreadMin, c.threads_ok};
}

void init() {
  std::lock_guard<std::recursive_mutex> lock(planner_mutex());
  cache();
}

void clear_plans() {
  std::map<Key, Cache::Entry> dropped;  // destroyed after the lock is released
  std::lock_guard<std::recursive_mutex> lock(planner_mutex());
  dropped.swap(cache().plans);
}

}  // namespace fft
}  // namespace rlx

#endif  // RLX_HAVE_FFTW3
