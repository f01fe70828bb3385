// Column order for UMFPACK's symmetric strategy (see umf_order.h).
#include "sparse/umf_order.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <cstdint>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <new>

#include "pool/pool.h"
#include "sparse/min_degree.h"
#include "sparse/nd_order.h"
#include "sparse/nd_parts.h"

extern "C" {
#include <amd.h>
}

namespace rlx::sparse {
namespace {

// Threads beyond the two that run AMD and the dissection that help order the
// parts (each holds an n-int map; ~190 parts for the 512x512 grid).
constexpr int kNdHelpers = 3;

/**
 * The graph of A + Aᵀ without self loops (sorted adjacency) on the vertices
 * that have neighbours (renumbered: `vertex` maps back; AMD spends ~50% more
 * time on the 262144-vertex grid with 30% of its vertices isolated than
 * without them), the isolated ones apart, and UMFPACK's symmetry statistics of A.
 */
struct Graph {
  int m = 0;  // vertices with neighbours
  std::vector<int> xadj, adj, vertex, isolated;
  int64_t offdiag = 0, matched = 0, nzdiag = 0;
  bool singleton_free = true;  // every row and column of A has two entries or more
  double symmetry() const { return offdiag == 0 ? 1.0 : static_cast<double>(matched) / static_cast<double>(offdiag); }
};

Graph graph_of(int n, const int* p, const int* i, const double* x, bool cplx) {
  Graph g;
  // Aᵀ without the diagonal, row by row (rows of A visited in order, so sorted).
  std::vector<int> tp(static_cast<size_t>(n) + 1, 0), diag(n, 0);
  for (int r = 0; r < n; r++) {
    g.singleton_free = g.singleton_free && p[r + 1] - p[r] >= 2;
    for (int k = p[r]; k < p[r + 1]; k++) {
      const int c = i[k];
      if (c != r) {
        tp[c + 1]++;
        g.offdiag++;
      } else {
        diag[r] = 1;
        const bool nz = cplx ? (x[2 * k] != 0 || x[2 * k + 1] != 0) : x[k] != 0;
        g.nzdiag += nz;
      }
    }
  }
  for (int c = 0; c < n && g.singleton_free; c++) g.singleton_free = tp[c + 1] + diag[c] >= 2;
  for (int r = 0; r < n; r++) tp[r + 1] += tp[r];
  std::vector<int> ti(static_cast<size_t>(tp[n]));
  {
    std::vector<int> next(tp.begin(), tp.end() - 1);
    for (int r = 0; r < n; r++)
      for (int k = p[r]; k < p[r + 1]; k++)
        if (i[k] != r) ti[next[i[k]]++] = r;
  }
  // Row r of A + Aᵀ: merge row r of A (minus the diagonal) with row r of Aᵀ.
  g.xadj.assign(static_cast<size_t>(n) + 1, 0);
  g.adj.reserve(static_cast<size_t>(2 * g.offdiag));
  for (int r = 0; r < n; r++) {
    int a = p[r], ae = p[r + 1], b = tp[r], be = tp[r + 1];
    while (a < ae || b < be) {
      if (a < ae && i[a] == r) {
        a++;
        continue;
      }
      const int ca = a < ae ? i[a] : INT_MAX, cb = b < be ? ti[b] : INT_MAX;
      if (ca == cb) {
        g.adj.push_back(ca), a++, b++;
        g.matched++;
      } else if (ca < cb) {
        g.adj.push_back(ca), a++;
      } else {
        g.adj.push_back(cb), b++;
      }
    }
    g.xadj[r + 1] = static_cast<int>(g.adj.size());
  }
  std::vector<int> map(n, -1);
  for (int r = 0; r < n; r++) {
    if (g.xadj[r + 1] > g.xadj[r]) map[r] = g.m++, g.vertex.push_back(r);
    else g.isolated.push_back(r);
  }
  if (g.isolated.empty()) return g;
  int k = 0;
  for (int j = 0; j < g.m; j++) {
    const int r = g.vertex[j], b = g.xadj[r], e = g.xadj[r + 1];
    g.xadj[j] = k;
    for (int q = b; q < e; q++) g.adj[k++] = map[g.adj[q]];
  }
  g.xadj[g.m] = k;
  g.xadj.resize(static_cast<size_t>(g.m) + 1);
  return g;
}

/** `q` (an order of the graph's m vertices) as an order of all n: the isolated ones first, then q mapped back. */
void expand(const Graph& g, std::vector<int>& q) {
  if (g.isolated.empty()) return;
  std::vector<int> out(g.isolated);
  out.reserve(g.isolated.size() + q.size());
  for (int v : q) out.push_back(g.vertex[v]);
  q.swap(out);
}

/** AMD's order of the graph (of all n vertices) and its LU flops; throws std::bad_alloc. */
void amd_of(const Graph& g, std::vector<int>& q, double& flops) {
  q.resize(g.m);
  flops = MinDegree().order(g.m, g.xadj.data(), g.adj.data(), nullptr, q.data(), AMD_DEFAULT_DENSE);
  expand(g, q);
}

/**
 * The dissection's order in two steps: dissect() (one thread) and work()
 * (any number of threads at once, each ordering parts until none is left,
 * once AMD's verdict is in). `budget`: AMD's verdict (umf_order.h), published
 * by the thread that ran AMD (judge()): the dissection and the parts stop
 * once a lower bound of their flops exceeds it.
 */
struct NdJob {
  const Graph& g;
  std::atomic<double> budget{HUGE_VAL};
  bool bounded = true;  // false: no budget (ordering 'nd' forced)
  Dissection d;
  std::unique_ptr<PartQueue> queue;
  std::vector<int> q;
  std::atomic<bool> ready{false};  // dissected: parts to order
  std::mutex m;
  std::condition_variable cv;
  bool dissected = false;  // dissect() returned (under m)
  bool judged = false;     // the budget holds AMD's verdict (under m)

  explicit NdJob(const Graph& graph) : g(graph) {}

  void dissect() {
    try {
      dissect_();
    } catch (const std::bad_alloc&) {
    }
    std::lock_guard<std::mutex> lk(m);
    dissected = true;
    cv.notify_all();
  }

  /** Waits until dissect() has returned (on another thread, or this one earlier). */
  void await_dissection() {
    std::unique_lock<std::mutex> lk(m);
    cv.wait(lk, [&] { return dissected; });
  }

  /** Publishes AMD's verdict. */
  void judge(double verdict) {
    std::lock_guard<std::mutex> lk(m);
    budget.store(verdict, std::memory_order_relaxed);
    judged = true;
    cv.notify_all();
  }

  /**
   * Waits for AMD's verdict before the parts (which can cost more than AMD:
   * ~60 ms for the 512x512 Poisson matrix), unless unbounded.
   */
  void await_verdict() {
    if (!bounded) return;
    std::unique_lock<std::mutex> lk(m);
    cv.wait(lk, [&] { return judged; });
  }

  void dissect_() {
    const int n = g.m;
    const int leaf = std::min(8192, std::max(256, n / 64));
    d = bfs_dissection(n, g.xadj.data(), g.adj.data(), leaf, bounded ? &budget : nullptr);
    if (d.abandoned || (d.separators == 0 && bounded)) return;
    queue = std::make_unique<PartQueue>(d);
    q.resize(n);
    ready.store(true, std::memory_order_release);
  }

  void work() {
    await_verdict();
    if (!ready.load(std::memory_order_acquire)) return;
    // The dissection may have finished before AMD: its bound checked now
    // (separators of thousands of vertices cost CAMD time quadratic in them).
    if (bounded && d.flops_bound > budget.load(std::memory_order_relaxed)) queue->failed.store(true);
    order_parts(g.m, g.xadj.data(), g.adj.data(), d, q.data(), *queue, bounded ? &budget : nullptr);
  }

  /** The order (of all n vertices) and its flops; false when abandoned or failed. */
  bool result(std::vector<int>& out, double& flops) {
    if (!ready.load() || queue->failed.load()) return false;
    flops = queue->total();
    expand(g, q);
    out = std::move(q);
    return true;
  }
};

}  // namespace

UmfOrder choose_umf_order(int n, const int* p, const int* i, const double* x, bool cplx, bool force) {
  UmfOrder o;
  if (n <= 0 || (!force && n < kNdMinN)) return o;
  if (static_cast<int64_t>(p[n]) * 2 > INT_MAX) return o;  // A + Aᵀ could overflow int indices
  // Fewer than 3 off-diagonal entries per row on average: paths, trees, grids
  // with many vertices removed, whose fill under AMD is small (below
  // kNdMinFlops); skipping here saves building the graph and AMD twice.
  if (!force && static_cast<int64_t>(p[n]) - n < 3 * static_cast<int64_t>(n)) return o;
  Graph g;
  try {
    g = graph_of(n, p, i, x, cplx);
  } catch (const std::bad_alloc&) {
    return o;  // UMFPACK orders (and reports its own out-of-memory if it must)
  }
  if (!force && (g.symmetry() < 0.7 || static_cast<double>(g.nzdiag) < 0.9 * n)) return o;
  // AMD (task 0) and the dissection (task 1) run on two threads when the
  // pool has them, else in that order; once both are done, task 1 and the
  // helpers (task 2 on the thread that ran AMD, more on more threads) share
  // the parts. AMD's verdict, once published, bounds the dissection and the
  // parts (nd_order.h, nd_parts.h), which give up early where they cannot
  // win. The pool hands out tasks in order, so whenever a task waits for
  // task 0 or task 1, that one is running on another thread or done. No
  // exception may leave a pool task.
  std::vector<int> qnd, qamd;
  bool have_nd = false, have_amd = false;
  NdJob job(g);
  job.bounded = !force;
  auto task = [&](int64_t t) {
    if (t >= 1) {
      if (t == 1) job.dissect();
      else job.await_dissection();
      job.work();
      return;
    }
    if (force) return;
    try {
      amd_of(g, qamd, o.flops_amd);
      have_amd = true;
    } catch (const std::bad_alloc&) {
    }
    const bool promising = have_amd && o.flops_amd >= kNdMinFlops && o.flops_amd >= kNdMinFlopsPerVertex * g.m;
    job.judge(!have_amd ? HUGE_VAL : promising ? kNdFlopsBias * o.flops_amd : -1.0);
  };
  // Tasks 2.. (at most kNdHelpers, one per further thread) help with the parts.
  const int helpers = std::min(kNdHelpers, std::max(1, Pool::instance().size() - 1));
  Pool::instance().parallelFor(2 + helpers, task);
  have_nd = job.result(qnd, o.flops_nd);
  if (force) {
    if (have_nd) o.given = o.nd = true, o.q = std::move(qnd);
  } else if (have_nd && (!have_amd || o.flops_nd <= kNdFlopsBias * o.flops_amd)) {
    o.given = o.nd = true, o.q = std::move(qnd);
  } else if (have_amd && g.singleton_free) {
    // AMD's order given saves UMFPACK ordering again; it is the order UMFPACK
    // would compute (AMD of the same A + Aᵀ, same controls) unless it had
    // singletons to remove first, which it does not look for in a given
    // order under the symmetric strategy (a grid with 30% of its vertices
    // isolated: numeric factorization 20% slower). Then UMFPACK orders.
    o.given = true, o.q = std::move(qamd);
  }
  return o;
}

}  // namespace rlx::sparse
