// FFTW's plans for the fft kernels (fft.h): created once per problem, cached,
// and executed on the caller's arrays with the new-array execute functions.
//
// Why a cache: even FFTW_ESTIMATE planning costs microseconds to a
// millisecond (twiddle tables), more than a small transform; an fft in a loop
// (or the two axes of fft2 over the same shape) reuses its plan.
//
// Problems are FFTW guru64 problems (dims and howmany dims, any strides).
// The n-D transforms (execute_nd) run as passes: the last axis as one plan of
// contiguous rows, every other axis as one plan of strided lines when that is
// small and its stride does not alias in the caches, else by gathering tiles
// of 16 lines into contiguous rows (strided_pass: FFTW_ESTIMATE's own
// strided multi-dim plans were 10x slower on a 1024 x 1024 fft2;
// lines_by_fftw has the measurements), the c2r's inner inverse transforms
// before its 1-D c2r (NumPy's irfftn on non-Hermitian input).
//
// The key is everything a plan depends on: kind (c2c forward / inverse, r2c,
// c2r), precision, in place or not, every dim and howmany dim (lengths and
// strides: one plan runs all rows, which lets FFTW vectorize across short
// rows), the alignment of the input and
// output (fftw_alignment_of: a plan may use SIMD loads that assume the
// alignment its planning arrays had; typed arrays are only 8-byte aligned in
// general, a subarray even 4, so the alignment is part of the key instead of
// planning everything FFTW_UNALIGNED, which turns SIMD off) and the thread
// count and the planner effort. Plans are made with FFTW_ESTIMATE by default
// (no trial runs: FFTW_MEASURE costs 86 ms for n = 1000 and seconds for large
// n, and the plan it picks depends on timings, so results could differ in the
// last bits from process to process; measured here for n = 1000 complex: 2.9
// µs a transform estimated, 1.8 µs measured); set_planner() lets a caller who
// runs the same transforms many times ask for more. Either way plans are made
// on scratch arrays of the same alignment, never on the caller's memory.
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

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <cstdlib>
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

/** One dimension of a guru problem: length and the input / output strides (in R scalars for reals, complex values for complex). */
using Dim = fft::Dim;
/** Dims of one side of a problem (rank or howmany), at most. */
constexpr int kMaxDimsHalf = 20;

/** fftw_ or fftwf_ by the real type R (the guru64 interface: any strides, any number of dims). */
template <class R>
struct Fftw;

/** A problem's dims or howmany dims: a fixed array (no allocation on the per-call path). */
struct Dims {
  std::array<Dim, kMaxDimsHalf> d;
  int count = 0;
  Dims() = default;
  Dims(std::initializer_list<Dim> l) {
    for (const Dim& x : l) push(x);
  }
  void push(const Dim& x) {
    if (count == kMaxDimsHalf) throw RangeErr("too many dims for one transform");
    d[count++] = x;
  }
};

template <class Iodim>
std::vector<Iodim> iodims(const Dims& d) {
  std::vector<Iodim> out(d.count);
  for (int i = 0; i < d.count; i++) out[i] = Iodim{d.d[i].n, d.d[i].is, d.d[i].os};
  return out;
}

#define RLX_FFTW_TRAITS(R, P)                                                                                                     \
  template <>                                                                                                                     \
  struct Fftw<R> {                                                                                                                \
    using plan = P##_plan;                                                                                                        \
    using cpx = P##_complex;                                                                                                      \
    static void with_nthreads(int t) { P##_plan_with_nthreads(t); }                                                               \
    static int alignment_of(const R* p) { return P##_alignment_of(const_cast<R*>(p)); }                                          \
    static plan make(Kind k, const Dims& dims, const Dims& many, R* in, R* out, unsigned flags) {         \
      const auto d = iodims<P##_iodim64>(dims), h = iodims<P##_iodim64>(many);                                                    \
      const int r = static_cast<int>(d.size()), hr = static_cast<int>(h.size());                                                  \
      if (k == Kind::r2c) return P##_plan_guru64_dft_r2c(r, d.data(), hr, h.data(), in, reinterpret_cast<cpx*>(out), flags);      \
      if (k == Kind::c2r) return P##_plan_guru64_dft_c2r(r, d.data(), hr, h.data(), reinterpret_cast<cpx*>(in), out, flags);      \
      return P##_plan_guru64_dft(r, d.data(), hr, h.data(), reinterpret_cast<cpx*>(in), reinterpret_cast<cpx*>(out),              \
                                 k == Kind::c2c_inverse ? FFTW_BACKWARD : FFTW_FORWARD, flags);                                   \
    }                                                                                                                             \
    static void exec(Kind k, plan p, R* in, R* out) {                                                                             \
      if (k == Kind::r2c) P##_execute_dft_r2c(p, in, reinterpret_cast<cpx*>(out));                                                \
      else if (k == Kind::c2r) P##_execute_dft_c2r(p, reinterpret_cast<cpx*>(in), out);                                           \
      else P##_execute_dft(p, reinterpret_cast<cpx*>(in), reinterpret_cast<cpx*>(out));                                           \
    }                                                                                                                             \
    static void destroy(plan p) { P##_destroy_plan(p); }                                                                          \
  };

RLX_FFTW_TRAITS(double, fftw)
RLX_FFTW_TRAITS(float, fftwf)
#undef RLX_FFTW_TRAITS

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

/** Dims and howmany dims a problem may have together (a tensor's rank + 1 is far below). */
constexpr int kMaxDims = 40;

/**
 * kind, single, in place, alignment in, alignment out, threads, planner effort, rank, then
 * (n, is, os) of every dim and howmany dim: a fixed array, so that a lookup
 * (every call) allocates nothing.
 */
struct Key {
  int len = 0;
  std::array<int64_t, 8 + 3 * kMaxDims> v;
  void push(int64_t x) { v[len++] = x; }
  bool operator<(const Key& o) const { return std::lexicographical_compare(v.begin(), v.begin() + len, o.v.begin(), o.v.begin() + o.len); }
};

/** FFTW's planner flag of each effort (set_planner). */
constexpr unsigned kEffortFlags[4] = {FFTW_ESTIMATE, FFTW_MEASURE, FFTW_PATIENT, FFTW_EXHAUSTIVE};

struct Cache {
  int effort = 0;             // guarded by planner_mutex()
  double time_limit = -1.0;   // FFTW_NO_TIMELIMIT
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

/** The R scalars an array of a problem's side spans (its largest offset + 1), complex sides counted twice. */
int64_t span(Kind kind, bool input, const Dims& dims, const Dims& many) {
  int64_t last = 0;
  for (const Dims* v : {&dims, &many})
    for (int i = 0; i < v->count; i++) last += (v->d[i].n - 1) * (input ? v->d[i].is : v->d[i].os);
  const bool real = (kind == Kind::r2c && input) || (kind == Kind::c2r && !input);
  return real ? last + 1 : 2 * (last + 1);
}

/** The cached plan of a problem, created (under the lock, on scratch arrays) when missing. */
template <class R>
std::shared_ptr<Plan> plan_for(Kind kind, const Dims& dims, const Dims& many, bool in_place, int align_in, int align_out, int threads) {
  if (dims.count + many.count > kMaxDims) throw RangeErr("too many dims for one transform: " + std::to_string(dims.count + many.count));
  std::vector<std::shared_ptr<Plan>> dropped;  // destroyed after the lock is released (~Plan takes it)
  std::lock_guard<std::recursive_mutex> lock(planner_mutex());
  Cache& c = cache();
  if (!c.threads_ok) threads = 1;
  const bool single = sizeof(R) == sizeof(float);
  Key key;
  for (int64_t x : {static_cast<int64_t>(kind), int64_t{single}, int64_t{in_place}, int64_t{align_in}, int64_t{align_out}, int64_t{threads}, int64_t{c.effort}, int64_t{dims.count}}) key.push(x);
  for (const Dims* v : {&dims, &many})
    for (int i = 0; i < v->count; i++) {
      key.push(v->d[i].n);
      key.push(v->d[i].is);
      key.push(v->d[i].os);
    }
  auto it = c.plans.find(key);
  if (it != c.plans.end()) {
    it->second.used = ++c.clock;
    c.hits++;
    return it->second.plan;
  }
  Scratch in(span(kind, true, dims, many) * sizeof(R), align_in);
  std::unique_ptr<Scratch> out_scratch;
  if (!in_place) out_scratch = std::make_unique<Scratch>(span(kind, false, dims, many) * sizeof(R), align_out);
  R* out = in_place ? in.as<R>() : out_scratch->as<R>();
  Fftw<R>::with_nthreads(threads);
  // Effort above estimate runs trial transforms: on the scratch arrays above, as the plan is made on them.
  const unsigned flags = kEffortFlags[c.effort] | (kind == Kind::c2r ? FFTW_DESTROY_INPUT : 0u);
  const typename Fftw<R>::plan p = Fftw<R>::make(kind, dims, many, in.as<R>(), out, flags);
  if (!p) {
    std::string shape;
    for (int i = 0; i < dims.count; i++) shape += (shape.empty() ? "" : " × ") + std::to_string(dims.d[i].n);
    throw KindErr("DeviceError", "FFTW could not plan a transform of shape " + shape + " (" + std::to_string(many.count) + " batch dims)");
  }
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

/** Plans (cached) and runs one guru problem on in → out. */
template <class R>
void run(Kind kind, const Dims& dims, const Dims& many, R* in, R* out, int64_t points) {
  const auto p = plan_for<R>(kind, dims, many, in == out, Fftw<R>::alignment_of(in), Fftw<R>::alignment_of(out), threads_for(points));
  Fftw<R>::exec(kind, static_cast<typename Fftw<R>::plan>(p->p), in, out);
}

/** Row-major strides of `shape` (elements). */
std::vector<int64_t> strides_of(const std::vector<int64_t>& shape) {
  std::vector<int64_t> st(shape.size());
  int64_t s = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    st[i] = s;
    s *= shape[i];
  }
  return st;
}

int64_t product(const std::vector<int64_t>& v, size_t lo = 0, size_t hi = SIZE_MAX) {
  int64_t p = 1;
  for (size_t i = lo; i < v.size() && i < hi; i++) p *= v[i];
  return p;
}

/**
 * The c2c of every line of `src` along one axis (complex, shape outer × n ×
 * inner with inner > 1) into `dst` (the same layout; may be src). Lines are
 * gathered a tile of up to kTile at a time into a contiguous buffer, run by
 * one cached plan of kTile contiguous rows, and scattered back; tiles are
 * spread over the addon pool for large problems (each plan single-threaded).
 *
 * Why not FFTW's own strided plan: FFTW_ESTIMATE picks poor plans for long
 * strided columns (a 1024 × 1024 fft2 ran 25 ms against 1.5 ms for its rows:
 * a power-of-two stride maps every element of a column to the same cache
 * sets), and FFTW_MEASURE, which finds the buffered plans, costs a second of
 * planning. A tile read touches kTile neighbouring values of each row.
 */
template <class R>
void strided_pass(Kind kind, const R* src, R* dst, int64_t outer, int64_t n, int64_t inner) {
  const int64_t tile = std::min<int64_t>(inner, n <= 4096 ? 16 : 4);
  const int64_t tiles = (inner + tile - 1) / tile;
  const int64_t rest = inner - (tiles - 1) * tile;  // the last tile's width
  const Dims dims{{n, 1, 1}};
  const auto full = plan_for<R>(kind, dims, Dims{{tile, n, n}}, true, 0, 0, 1);
  const auto last = rest == tile ? full : plan_for<R>(kind, dims, Dims{{rest, n, n}}, true, 0, 0, 1);
  const auto task = [&](int64_t t, R* buf) {
    const int64_t o = t / tiles, j0 = (t % tiles) * tile, w = std::min(tile, inner - j0);
    const R* in = src + 2 * (o * n * inner + j0);
    for (int64_t k = 0; k < n; k++)
      for (int64_t l = 0; l < w; l++) {
        buf[2 * (l * n + k)] = in[2 * (k * inner + l)];
        buf[2 * (l * n + k) + 1] = in[2 * (k * inner + l) + 1];
      }
    Fftw<R>::exec(kind, static_cast<typename Fftw<R>::plan>((w == tile ? full : last)->p), buf, buf);
    R* out = dst + 2 * (o * n * inner + j0);
    for (int64_t k = 0; k < n; k++)
      for (int64_t l = 0; l < w; l++) {
        out[2 * (k * inner + l)] = buf[2 * (l * n + k)];
        out[2 * (k * inner + l) + 1] = buf[2 * (l * n + k) + 1];
      }
  };
  const size_t bytes = static_cast<size_t>(2 * tile * n) * sizeof(R);
  const int64_t tasks = outer * tiles;
  if (threads_for(outer * n * inner) == 1) {
    Scratch buf(bytes, 0);
    for (int64_t t = 0; t < tasks; t++) task(t, buf.as<R>());
    return;
  }
  // One buffer per pool thread's run of tasks: chunks of tasks, each with its own scratch.
  const int64_t chunks = std::min<int64_t>(tasks, 4 * static_cast<int64_t>(Pool::instance().size()));
  Pool::instance().parallelFor(chunks, [&](int64_t c) {
    Scratch buf(bytes, 0);
    for (int64_t t = c * tasks / chunks; t < (c + 1) * tasks / chunks; t++) task(t, buf.as<R>());
  });
}

/**
 * Whether the lines along a leading axis (elements `inner` complex values
 * apart, `points` complex values in all) run as one FFTW plan of strided
 * lines (SIMD across neighbouring lines, no copies) rather than strided_pass.
 * Not when the stride is a multiple of 1 KiB: the elements of a line then
 * share a few cache sets and FFTW_ESTIMATE's plans crawl. Not for large
 * arrays either, where strided_pass's tiles use the caches better. Measured
 * (2-core EPYC VM, inverse c2c along axis 0 of [n, inner] complex128, the
 * kernel called directly, µs, strided_pass → FFTW plan): [64, 33] 5 → 3,
 * [128, 65] 21-24 → 9-10, [256, 129] 98-107 → 81, [1024, 17] 100 → 43-63,
 * [1024, 65] 191-271 → 167, [512, 257] 401 → 231, [512, 513] 753-878 →
 * 366-405, [4096, 65] 1211-1390 → 674-689; but [64, 64] 7 → 11, [1024, 513]
 * 1639-1893 → 1608-1809, [2048, 1025] 8126-8200 → 14274-14331, and (FFTW's
 * plan in C against strided_pass through fft.ifft, 2 threads) [1024, 256]
 * 5912 against 1862, [1024, 512] 11377 against 3617. rfft2/irfft2's half
 * spectra (inner n/2 + 1) are of the first kind up to 512 × 512 or so.
 */
template <class R>
bool lines_by_fftw(int64_t inner, int64_t points) {
  constexpr int64_t kMaxPoints = int64_t{1} << 19;
  return (inner * 2 * static_cast<int64_t>(sizeof(R))) % 1024 != 0 && points <= kMaxPoints;
}

/**
 * The c2c over `axes` of batch blocks of complex `shape`, src → dst (dst may
 * be src): the last axis, when transformed, as one plan of contiguous rows
 * (FFTW vectorizes and threads it well), every other axis as one plan of
 * strided lines or by strided_pass (lines_by_fftw says which).
 */
template <class R>
void c2c_passes(Kind kind, int64_t batch, const std::vector<int64_t>& shape, std::vector<int> axes, const R* src, R* dst) {
  const int last = static_cast<int>(shape.size()) - 1;
  const int64_t points = batch * product(shape);
  std::sort(axes.begin(), axes.end());
  if (!axes.empty() && axes.back() == last) {
    const int64_t n = shape[last];
    run<R>(kind, Dims{{n, 1, 1}}, Dims{{points / n, n, n}}, const_cast<R*>(src), dst, points);
    src = dst;
    axes.pop_back();
  }
  for (int a : axes) {
    const int64_t n = shape[a], inner = product(shape, a + 1), outer = batch * product(shape, 0, a);
    if (lines_by_fftw<R>(inner, outer * n * inner))
      run<R>(kind, Dims{{n, inner, inner}}, Dims{{inner, 1, 1}, {outer, n * inner, n * inner}}, const_cast<R*>(src), dst, outer * n * inner);
    else
      strided_pass<R>(kind, src, dst, outer, n, inner);
    src = dst;
  }
}

/**
 * The 1-D r2c (x real of `real`, out complex of `half`) or c2r (x complex of
 * `half`, out real of `real`) along axis h of batch blocks: contiguous rows
 * when h is the last axis, else one strided guru plan (rare: an rfft along a
 * leading axis).
 */
template <class R>
void real_pass(Kind kind, int64_t batch, const std::vector<int64_t>& real, const std::vector<int64_t>& half, int h, R* x, R* out) {
  const auto rs = strides_of(real), hs = strides_of(half);
  const bool fwd = kind == Kind::r2c;
  const int64_t points = batch * product(real), n = real[h];
  const Dims dims{{n, fwd ? rs[h] : hs[h], fwd ? hs[h] : rs[h]}};
  Dims many{{batch, fwd ? product(real) : product(half), fwd ? product(half) : product(real)}};
  for (size_t a = 0; a < real.size(); a++)
    if (static_cast<int>(a) != h) many.push({real[a], fwd ? rs[a] : hs[a], fwd ? hs[a] : rs[a]});
  run<R>(kind, dims, many, x, out, points);
}

}  // namespace

template <class R>
void execute_nd(Kind kind, int64_t batch, const std::vector<int64_t>& shape, const std::vector<int>& axes, const R* x, R* out) {
  if (batch == 0) return;
  if (batch < 0 || batch > INT_MAX) throw RangeErr("batch must be in [0, 2^31 - 1] for FFTW, got " + std::to_string(batch));
  if (axes.empty() || shape.empty()) throw RangeErr("a transform needs at least one axis");
  for (int64_t d : shape)
    if (d < 1 || d > INT_MAX) throw RangeErr("lengths must be in [1, 2^31 - 1] for FFTW, got " + std::to_string(d));
  for (int a : axes)
    if (a < 0 || a >= static_cast<int>(shape.size())) throw RangeErr("axis " + std::to_string(a) + " is outside a core of rank " + std::to_string(shape.size()));
  // Out of place, c2c and r2c leave their input as it is (FFTW's default for them).
  if (kind == Kind::c2c_forward || kind == Kind::c2c_inverse) return c2c_passes<R>(kind, batch, shape, axes, x, out);
  const int h = axes.back();
  const std::vector<int> others(axes.begin(), axes.end() - 1);
  std::vector<int64_t> half = shape;
  half[h] = shape[h] / 2 + 1;
  if (kind == Kind::r2c) {
    real_pass<R>(kind, batch, shape, half, h, const_cast<R*>(x), out);
    c2c_passes<R>(Kind::c2c_forward, batch, half, others, out, out);
    return;
  }
  // c2r: NumPy's irfftn. On a scratch copy (FFTW's c2r destroys its input,
  // and the inner inverse transforms run in place): the inverse c2c over the
  // other axes, then Im X[0] and, for even n, Im X[n/2] along h set to 0 (a
  // multi-dimensional FFTW c2r would assume a Hermitian input instead), then
  // the 1-D c2r along h.
  const int64_t n = shape[h], m = half[h];
  const size_t len = static_cast<size_t>(2 * batch * product(half));
  Scratch copy(len * sizeof(R), 0);
  R* hx = copy.as<R>();
  std::memcpy(hx, x, len * sizeof(R));
  c2c_passes<R>(Kind::c2c_inverse, batch, half, others, hx, hx);
  const int64_t inner = product(half, h + 1), outer = batch * product(half, 0, h);
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0; i < inner; i++) {
      hx[2 * (o * m * inner + i) + 1] = 0;
      if (n % 2 == 0) hx[2 * ((o * m + m - 1) * inner + i) + 1] = 0;
    }
  real_pass<R>(kind, batch, shape, half, h, hx, out);
}

template <class R>
void execute(Kind kind, int64_t batch, int64_t n, const R* x, R* out) {
  if (n < 1 || n > INT_MAX) throw RangeErr("n must be in [1, 2^31 - 1] for FFTW, got " + std::to_string(n));
  if (kind == Kind::c2r || batch == 0) return execute_nd<R>(kind, batch, {n}, {0}, x, out);
  if (batch < 0 || batch > INT_MAX) throw RangeErr("batch must be in [0, 2^31 - 1] for FFTW, got " + std::to_string(batch));
  // Rows (c2c, r2c): the problem built on the stack, so a small transform's call allocates nothing.
  const int64_t row_out = kind == Kind::r2c ? n / 2 + 1 : n;
  run<R>(kind, Dims{{n, 1, 1}}, Dims{{batch, n, row_out}}, const_cast<R*>(x), out, batch * n);
}

template void execute<double>(Kind, int64_t, int64_t, const double*, double*);
template void execute<float>(Kind, int64_t, int64_t, const float*, float*);
template void execute_nd<double>(Kind, int64_t, const std::vector<int64_t>&, const std::vector<int>&, const double*, double*);
template void execute_nd<float>(Kind, int64_t, const std::vector<int64_t>&, const std::vector<int>&, const float*, float*);

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

void set_planner(int effort, double time_limit) {
  if (effort < 0 || effort > 3) throw RangeErr("planner effort must be 0..3, got " + std::to_string(effort));
  std::lock_guard<std::recursive_mutex> lock(planner_mutex());
  Cache& c = cache();
  c.effort = effort;
  c.time_limit = time_limit < 0 ? -1.0 : time_limit;
  fftw_set_timelimit(c.time_limit < 0 ? FFTW_NO_TIMELIMIT : c.time_limit);
  fftwf_set_timelimit(c.time_limit < 0 ? FFTW_NO_TIMELIMIT : c.time_limit);
}

int planner_effort() {
  std::lock_guard<std::recursive_mutex> lock(planner_mutex());
  return cache().effort;
}

double planner_time_limit() {
  std::lock_guard<std::recursive_mutex> lock(planner_mutex());
  return cache().time_limit;
}

std::string export_wisdom(bool single) {
  std::lock_guard<std::recursive_mutex> lock(planner_mutex());
  char* w = single ? fftwf_export_wisdom_to_string() : fftw_export_wisdom_to_string();
  if (!w) throw std::bad_alloc();
  std::string out(w);
  free(w);  // FFTW's export_wisdom_to_string allocates with malloc
  return out;
}

bool import_wisdom(bool single, const std::string& text) {
  std::lock_guard<std::recursive_mutex> lock(planner_mutex());
  return (single ? fftwf_import_wisdom_from_string(text.c_str()) : fftw_import_wisdom_from_string(text.c_str())) != 0;
}

}  // namespace fft
}  // namespace rlx

#endif  // RLX_HAVE_FFTW3
