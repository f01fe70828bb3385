// Column order for UMFPACK's symmetric strategy (see umf_order.h).
#include "sparse/umf_order.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <new>

#include "interp/pool.h"
#include "sparse/nd_order.h"

extern "C" {
#include <amd.h>
#include <camd.h>
}

namespace rlx::sparse {
namespace {

/** The graph of A + Aᵀ without self loops (sorted adjacency), and UMFPACK's symmetry statistics of A. */
struct Graph {
  std::vector<int> xadj, adj;
  int64_t offdiag = 0, matched = 0, nzdiag = 0;
  double symmetry() const { return offdiag == 0 ? 1.0 : static_cast<double>(matched) / static_cast<double>(offdiag); }
};

Graph graph_of(int n, const int* p, const int* i, const double* x, bool cplx) {
  Graph g;
  // Aᵀ without the diagonal, row by row (rows of A visited in order, so sorted).
  std::vector<int> tp(static_cast<size_t>(n) + 1, 0);
  for (int r = 0; r < n; r++)
    for (int k = p[r]; k < p[r + 1]; k++) {
      const int c = i[k];
      if (c != r) {
        tp[c + 1]++;
        g.offdiag++;
      } else {
        const bool nz = cplx ? (x[2 * k] != 0 || x[2 * k + 1] != 0) : x[k] != 0;
        g.nzdiag += nz;
      }
    }
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
  return g;
}

double lu_flops(double ndiv, double nmultsubs) { return ndiv + 2 * nmultsubs; }

// Both return false only when AMD / CAMD ran out of memory (the caller then lets UMFPACK order).
bool amd_of(int n, const Graph& g, std::vector<int>& q, double& flops) {
  double control[AMD_CONTROL], info[AMD_INFO];
  amd_defaults(control);
  q.resize(n);
  const int s = amd_order(n, g.xadj.data(), g.adj.data(), q.data(), control, info);
  if (s != AMD_OK && s != AMD_OK_BUT_JUMBLED) return false;
  // Vertices without neighbours first, as in the dissection order (UMFPACK only removes leading singletons).
  std::stable_partition(q.begin(), q.end(), [&](int v) { return g.xadj[v] == g.xadj[v + 1]; });
  flops = lu_flops(info[AMD_NDIV], info[AMD_NMULTSUBS_LU]);
  return true;
}

bool nd_of(int n, const Graph& g, std::vector<int>& q, double& flops, int& separators) {
  const int leaf = std::min(8192, std::max(256, n / 64));
  const Dissection d = bfs_dissection(n, g.xadj.data(), g.adj.data(), leaf);
  separators = d.separators;
  double control[CAMD_CONTROL], info[CAMD_INFO];
  camd_defaults(control);
  q.resize(n);
  const int s = camd_order(n, g.xadj.data(), g.adj.data(), q.data(), control, info, d.set.data());
  if (s != CAMD_OK && s != CAMD_OK_BUT_JUMBLED) return false;
  flops = lu_flops(info[CAMD_NDIV], info[CAMD_NMULTSUBS_LU]);
  return true;
}

}  // namespace

UmfOrder choose_umf_order(int n, const int* p, const int* i, const double* x, bool cplx, bool force) {
  UmfOrder o;
  if (n <= 0 || (!force && n < kNdMinN)) return o;
  if (static_cast<int64_t>(p[n]) * 2 > INT_MAX) return o;  // A + Aᵀ could overflow int indices
  Graph g;
  try {
    g = graph_of(n, p, i, x, cplx);
  } catch (const std::bad_alloc&) {
    return o;  // UMFPACK orders (and reports its own out-of-memory if it must)
  }
  if (!force && (g.symmetry() < 0.7 || static_cast<double>(g.nzdiag) < 0.9 * n)) return o;
  // The dissection and AMD are independent: on two threads when the pool has
  // them (the dissection takes longer; AMD's ~40 ms for the 512x512 Poisson
  // matrix is then hidden). No exception may leave a pool task.
  std::vector<int> qnd, qamd;
  bool have_nd = false, have_amd = false;
  int separators = 0;
  auto task = [&](int64_t t) {
    try {
      if (t == 0) have_nd = nd_of(n, g, qnd, o.flops_nd, separators);
      else have_amd = amd_of(n, g, qamd, o.flops_amd);
    } catch (const std::bad_alloc&) {
    }
  };
  if (force) task(0);
  else interp::Pool::instance().parallelFor(2, task);
  if (force) {
    if (have_nd) o.given = o.nd = true, o.q = std::move(qnd);
  } else if (have_nd && separators > 0 && (!have_amd || o.flops_nd <= kNdFlopsBias * o.flops_amd)) {
    o.given = o.nd = true, o.q = std::move(qnd);
  } else if (have_amd) {
    o.given = true, o.q = std::move(qamd);
  }
  return o;
}

}  // namespace rlx::sparse
