// Nested dissection by BFS level structures (see nd_order.h).
#include "sparse/nd_order.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <utility>

namespace rlx::sparse {
namespace {

// A region is split only when its separator is at most this fraction of it.
constexpr double kMaxSeparator = 0.25;
// The separator is the smallest pair of levels that leaves each half at least
// this fraction of the rest (balance bought for a smaller separator).
constexpr double kMinHalf = 0.35;

class Dissector {
 public:
  Dissector(int n, const int* xadj, const int* adj, int leaf, const std::atomic<double>* budget)
      : n_(n), xadj_(xadj), adj_(adj), leaf_(std::max(leaf, 4)), budget_(budget), region_(n, 0), mark_(n, 0), queue_(n) {
    out_.set.assign(n, -1);
  }

  Dissection run() {
    std::vector<int> rest;
    rest.reserve(n_);
    bool isolated = false;
    for (int v = 0; v < n_; v++) {
      if (xadj_[v] == xadj_[v + 1]) {
        out_.set[v] = 0;
        isolated = true;
      } else {
        rest.push_back(v);
      }
    }
    if (isolated) out_.nsets = 1;
    const int rid = fresh_region();
    for (int v : rest) region_[v] = rid;
    split(std::move(rest), rid, -1);
    if (out_.abandoned) out_.set.clear();
    out_.bound = bound_;
    return std::move(out_);
  }

 private:
  int n_;
  const int *xadj_, *adj_;
  int leaf_;
  const std::atomic<double>* budget_;
  double bound_ = 0;  // lower bound of the LU flops of the separators found so far
  std::vector<int> region_;   // region id of each vertex still being dissected (0: none)
  std::vector<uint32_t> mark_;  // BFS visit stamps
  std::vector<int> queue_;    // BFS order of the last search
  std::vector<int> levels_;   // level k of the last search: queue_[levels_[k] .. levels_[k + 1])
  uint32_t stamp_ = 0;
  int regions_ = 0;
  Dissection out_;

  int fresh_region() { return ++regions_; }

  void emit(const std::vector<int>& vs) {
    for (int v : vs) out_.set[v] = out_.nsets;
    out_.nsets++;
  }

  /** BFS from root within region rid; returns the number of levels. */
  int bfs(int root, int rid) {
    if (++stamp_ == 0) {
      std::fill(mark_.begin(), mark_.end(), 0u);
      stamp_ = 1;
    }
    const uint32_t s = stamp_;
    int head = 0, tail = 0;
    queue_[tail++] = root;
    mark_[root] = s;
    levels_.assign(1, 0);
    while (head < tail) {
      const int end = tail;
      for (; head < end; head++) {
        const int v = queue_[head];
        for (int p = xadj_[v]; p < xadj_[v + 1]; p++) {
          const int w = adj_[p];
          if (region_[w] == rid && mark_[w] != s) {
            mark_[w] = s;
            queue_[tail++] = w;
          }
        }
      }
      levels_.push_back(end);
      if (over_budget()) break;  // the caller sees abandoned
    }
    return static_cast<int>(levels_.size()) - 1;
  }

  bool over_budget() {
    if (budget_ && bound_ > budget_->load(std::memory_order_relaxed)) out_.abandoned = true;
    return out_.abandoned;
  }

  /** The vertex of the last level with the fewest neighbours in the region. */
  int far_vertex(int rid) const {
    const int nl = static_cast<int>(levels_.size()) - 1;
    int best = queue_[levels_[nl - 1]], bd = INT32_MAX;
    for (int k = levels_[nl - 1]; k < levels_[nl]; k++) {
      const int v = queue_[k];
      int d = 0;
      for (int p = xadj_[v]; p < xadj_[v + 1]; p++) d += region_[adj_[p]] == rid;
      if (d < bd) bd = d, best = v;
    }
    return best;
  }

  /** Splits a disconnected region into its components (all reached vertices were checked by the caller's BFS). */
  void components(std::vector<int> vs, int rid) {
    std::vector<std::vector<int>> big;
    std::vector<int> small;
    for (int v : vs) {
      if (region_[v] != rid) continue;  // already taken by an earlier component
      bfs(v, rid);
      if (out_.abandoned) return;
      const int cnt = levels_.back();
      std::vector<int> comp(queue_.begin(), queue_.begin() + cnt);
      const int cid = fresh_region();
      for (int w : comp) region_[w] = cid;
      if (cnt <= leaf_) {
        for (int w : comp) region_[w] = 0;
        small.insert(small.end(), comp.begin(), comp.end());
      } else {
        big.push_back(std::move(comp));
      }
    }
    std::vector<int>().swap(vs);
    // Independent components: their order does not matter; the small ones share a set.
    if (!small.empty()) emit(small);
    for (auto& comp : big) {
      const int cid = region_[comp[0]];
      split(std::move(comp), cid, -1);
    }
  }

  void leaf(const std::vector<int>& vs) {
    for (int v : vs) region_[v] = 0;
    emit(vs);
  }

  void split(std::vector<int> vs, int rid, int seed) {
    if (over_budget()) return;
    const int size = static_cast<int>(vs.size());
    if (size <= leaf_) return leaf(vs);
    int root = seed >= 0 ? seed : vs[0];
    int depth = bfs(root, rid);
    if (out_.abandoned) return;
    if (levels_.back() < size) return components(std::move(vs), rid);
    // Pseudo-peripheral root (Gibbs-Poole-Stockmeyer): restart from the far end while the structure deepens.
    for (int it = 0; it < 3; it++) {
      const int u = far_vertex(rid);
      const int d = bfs(u, rid);
      if (out_.abandoned) return;
      if (d > depth) {
        depth = d, root = u;
        continue;
      }
      if (d < depth) bfs(root, rid);
      break;
    }
    if (out_.abandoned) return;
    const int nl = depth;
    if (nl < 4) return leaf(vs);
    // Separator levels m, m + 1 with 1 <= m <= nl - 3 (both halves nonempty).
    int best = -1, bestSep = INT32_MAX, median = 1;
    while (median < nl - 3 && levels_[median + 1] < size / 2) median++;
    for (int m = 1; m <= nl - 3; m++) {
      const int lo = levels_[m], sep = levels_[m + 2] - lo, hi = size - levels_[m + 2];
      const double rest = static_cast<double>(lo + hi);
      if (lo < kMinHalf * rest || hi < kMinHalf * rest) continue;
      if (sep < bestSep || (sep == bestSep && std::abs(m - median) < std::abs(best - median))) best = m, bestSep = sep;
    }
    if (best < 0) best = std::min(std::max(median, 1), nl - 3), bestSep = levels_[best + 2] - levels_[best];
    if (bestSep > kMaxSeparator * size) return leaf(vs);
    const double k = levels_[best + 1] - levels_[best];
    bound_ += 2.0 / 3.0 * k * k * k;
    if (over_budget()) return;
    std::vector<int> h1(queue_.begin(), queue_.begin() + levels_[best]);
    std::vector<int> sep(queue_.begin() + levels_[best], queue_.begin() + levels_[best + 2]);
    std::vector<int> h2(queue_.begin() + levels_[best + 2], queue_.begin() + size);
    const int seed2 = queue_[size - 1];  // last level: peripheral in the second half
    std::vector<int>().swap(vs);
    for (int v : sep) region_[v] = 0;
    const int r1 = fresh_region(), r2 = fresh_region();
    for (int v : h1) region_[v] = r1;
    for (int v : h2) region_[v] = r2;
    out_.separators++;
    split(std::move(h1), r1, root);  // the root is peripheral in the first half
    split(std::move(h2), r2, seed2);
    emit(sep);
  }
};

}  // namespace

Dissection bfs_dissection(int n, const int* xadj, const int* adj, int leaf, const std::atomic<double>* budget) {
  return Dissector(n, xadj, adj, leaf, budget).run();
}

}  // namespace rlx::sparse
