// Column order for UMFPACK's symmetric strategy (see umf_order.h).
#include "sparse/umf_order.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <cstdint>
#include <new>
#include <thread>

#include "interp/pool.h"
#include "sparse/nd_order.h"

extern "C" {
#include <amd.h>
#include <camd.h>
}

namespace rlx::sparse {
namespace {

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

double lu_flops(double ndiv, double nmultsubs) { return ndiv + 2 * nmultsubs; }

// Both return false only when AMD / CAMD ran out of memory (the caller then lets UMFPACK order).
bool amd_of(const Graph& g, std::vector<int>& q, double& flops) {
  double control[AMD_CONTROL], info[AMD_INFO];
  amd_defaults(control);
  q.resize(g.m);
  const int s = amd_order(g.m, g.xadj.data(), g.adj.data(), q.data(), control, info);
  if (s != AMD_OK && s != AMD_OK_BUT_JUMBLED) return false;
  flops = lu_flops(info[AMD_NDIV], info[AMD_NMULTSUBS_LU]);
  expand(g, q);
  return true;
}

/** AMD's verdict for the dissection (umf_order.h); `done` once `budget` holds it. */
struct Verdict {
  std::atomic<double> budget{HUGE_VAL};
  std::atomic<bool> done{false};
};

bool nd_of(const Graph& g, std::vector<int>& q, double& flops, int& separators, Verdict* verdict) {
  const int n = g.m, leaf = std::min(8192, std::max(256, n / 64));
  const Dissection d = bfs_dissection(n, g.xadj.data(), g.adj.data(), leaf, verdict ? &verdict->budget : nullptr);
  separators = d.separators;
  if (d.abandoned) return false;
  if (verdict) {
    // The dissection may finish before AMD (its separators then unchecked):
    // wait for the verdict before CAMD, which can cost many times AMD where
    // the separators are poor (a grid with random long-range links: 170 ms vs 13 ms).
    while (!verdict->done.load(std::memory_order_acquire)) std::this_thread::yield();
    if (d.bound > verdict->budget.load(std::memory_order_relaxed)) return false;
  }
  double control[CAMD_CONTROL], info[CAMD_INFO];
  camd_defaults(control);
  q.resize(n);
  const int s = camd_order(n, g.xadj.data(), g.adj.data(), q.data(), control, info, d.set.data());
  if (s != CAMD_OK && s != CAMD_OK_BUT_JUMBLED) return false;
  flops = lu_flops(info[CAMD_NDIV], info[CAMD_NMULTSUBS_LU]);
  expand(g, q);
  return true;
}

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
  // pool has them (the dissection takes longer; AMD's ~40 ms for the 512x512
  // Poisson matrix is then hidden), else in that order. AMD's verdict, once
  // published, bounds the dissection (nd_order.h), which gives up early where
  // it cannot win, and is awaited before CAMD: task 0 never waits, and every
  // thread takes the tasks in order, so task 0 is running or done whenever
  // task 1 waits. No exception may leave a pool task.
  std::vector<int> qnd, qamd;
  bool have_nd = false, have_amd = false;
  int separators = 0;
  Verdict verdict;
  auto task = [&](int64_t t) {
    if (t == 1) {
      try {
        have_nd = nd_of(g, qnd, o.flops_nd, separators, force ? nullptr : &verdict);
      } catch (const std::bad_alloc&) {
      }
      return;
    }
    try {
      have_amd = amd_of(g, qamd, o.flops_amd);
    } catch (const std::bad_alloc&) {
    }
    const bool promising = have_amd && o.flops_amd >= kNdMinFlops && o.flops_amd >= kNdMinFlopsPerVertex * g.m;
    verdict.budget.store(!have_amd ? HUGE_VAL : promising ? kNdFlopsBias * o.flops_amd : -1.0, std::memory_order_relaxed);
    verdict.done.store(true, std::memory_order_release);
  };
  if (force) task(1);
  else interp::Pool::instance().parallelFor(2, task);
  if (force) {
    if (have_nd) o.given = o.nd = true, o.q = std::move(qnd);
  } else if (have_nd && separators > 0 && (!have_amd || o.flops_nd <= kNdFlopsBias * o.flops_amd)) {
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
