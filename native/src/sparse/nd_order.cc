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
// Other roots are tried when the last level has at least kMinSpread vertices
// and its size differs from the separator's first level by more than
// kStraight of it; one is taken when its separator is smaller than
// kBetterRoot times the best so far (straight vs L-shaped on a 9-point grid: 0.84).
constexpr int kMinSpread = 8;
constexpr double kStraight = 0.05;
constexpr double kBetterRoot = 0.9;

class Dissector {
 public:
  Dissector(int n, const int* xadj, const int* adj, int leaf, const std::atomic<double>* budget)
      : n_(n), xadj_(xadj), adj_(adj), leaf_(std::max(leaf, 4)), budget_(budget), region_(n, 0), queue_(n) {
    out_.vertex.reserve(n);
  }

  Dissection run() {
    std::vector<int> rest, isolated;
    rest.reserve(n_);
    for (int v = 0; v < n_; v++) (xadj_[v] == xadj_[v + 1] ? isolated : rest).push_back(v);
    if (!isolated.empty()) emit(isolated, NdPart::kIsolated);
    const int rid = fresh_region();
    for (int v : rest) region_[v] = rid;
    split(std::move(rest), rid, -1, {}, {});
    if (out_.abandoned) out_.parts.clear(), out_.vertex.clear(), out_.bound.clear();
    else renumber_leaves();
    out_.flops_bound = bound_;
    return std::move(out_);
  }

 private:
  int n_;
  const int *xadj_, *adj_;
  int leaf_;
  const std::atomic<double>* budget_;
  double bound_ = 0;  // lower bound of the LU flops of the separators found so far
  // Region id of each vertex still being dissected (0: none); a search
  // relabels what it reaches with a fresh id (its visited mark, one array
  // read per edge instead of two), which the region then goes by.
  std::vector<int> region_;
  std::vector<int> queue_;    // BFS order of the last search
  std::vector<int> levels_;   // level k of the last search: queue_[levels_[k] .. levels_[k + 1])
  std::vector<int> alt_queue_, alt_levels_;  // another search's (alt_queue_ sized on first use)
  int regions_ = 0;
  int reached_ = 0;  // the id the last search gave what it reached
  Dissection out_;

  int fresh_region() { return ++regions_; }

  NdPart& emit(const std::vector<int>& vs, NdPart::Kind kind) {
    NdPart part;
    part.kind = kind;
    part.v0 = static_cast<int>(out_.vertex.size());
    out_.vertex.insert(out_.vertex.end(), vs.begin(), vs.end());
    part.v1 = static_cast<int>(out_.vertex.size());
    out_.parts.push_back(part);
    return out_.parts.back();
  }

  /** Appends `vs` to the boundary lists; returns its range. */
  std::pair<int, int> record(const std::vector<int>& vs) {
    const int b = static_cast<int>(out_.bound.size());
    out_.bound.insert(out_.bound.end(), vs.begin(), vs.end());
    return {b, static_cast<int>(out_.bound.size())};
  }

  /** The vertices of `from` with a neighbour in region rid. */
  std::vector<int> touching(const std::vector<int>& from, int rid) const {
    std::vector<int> out;
    for (int v : from)
      for (int p = xadj_[v]; p < xadj_[v + 1]; p++)
        if (region_[adj_[p]] == rid) {
          out.push_back(v);
          break;
        }
    return out;
  }

  /** BFS from root within region rid (relabelled reached_), into queue_ and levels_; returns the number of levels. */
  int bfs(int root, int rid) { return bfs(root, rid, queue_, levels_); }

  int bfs(int root, int rid, std::vector<int>& queue, std::vector<int>& levels) {
    const int seen = reached_ = fresh_region();
    int head = 0, tail = 0;
    queue[tail++] = root;
    region_[root] = seen;
    levels.assign(1, 0);
    while (head < tail) {
      const int end = tail;
      for (; head < end; head++) {
        const int v = queue[head];
        for (int p = xadj_[v]; p < xadj_[v + 1]; p++) {
          const int w = adj_[p];
          if (region_[w] == rid) {
            region_[w] = seen;
            queue[tail++] = w;
          }
        }
      }
      levels.push_back(end);
      if (over_budget()) break;  // the caller sees abandoned
    }
    return static_cast<int>(levels.size()) - 1;
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

  /**
   * Splits a disconnected region into its components: the caller's search
   * reached one (queue_, labelled reached_), the rest are still labelled `rest`.
   */
  void components(const std::vector<int>& vs, int rest, const std::vector<int>& around) {
    std::vector<std::pair<int, std::vector<int>>> big;
    std::vector<int> small;
    for (size_t k = 0;; k++) {
      const int cnt = levels_.back();
      std::vector<int> comp(queue_.begin(), queue_.begin() + cnt);
      if (cnt <= leaf_) small.insert(small.end(), comp.begin(), comp.end());
      else big.emplace_back(reached_, std::move(comp));
      while (k < vs.size() && region_[vs[k]] != rest) k++;
      if (k == vs.size()) break;
      bfs(vs[k], rest);
      if (out_.abandoned) return;
    }
    // Independent components: their order does not matter; the small ones share a part.
    if (!small.empty()) {
      for (int w : small) region_[w] = 0;
      emit(small, NdPart::kComponents);
    }
    for (auto& [cid, comp] : big) split(std::move(comp), cid, -1, touching(around, cid), {});
  }

  void leaf(const std::vector<int>& vs) {
    for (int v : vs) region_[v] = 0;
    emit(vs, NdPart::kLeaf);
  }

  /**
   * Leaves and components in the graph's own numbering (one bucket pass):
   * minimum degree breaks ties in the order it is given, and a user's
   * numbering (a grid's rows) is a better order for that than BFS order (the
   * 512x512 Poisson matrix: 1.25e9 vs 1.6e9 flops in leaves of 16384 vertices).
   */
  void renumber_leaves() {
    std::vector<int> part(n_, -1), cursor(out_.parts.size());
    for (size_t k = 0; k < out_.parts.size(); k++) {
      const NdPart& p = out_.parts[k];
      if (p.kind == NdPart::kSeparator) continue;
      cursor[k] = p.v0;
      for (int i = p.v0; i < p.v1; i++) part[out_.vertex[i]] = static_cast<int>(k);
    }
    for (int v = 0; v < n_; v++)
      if (part[v] >= 0) out_.vertex[cursor[part[v]]++] = v;
  }

  /** The best separator of the last search's levels: levels m, m + 1 (m, or -1), and its size. */
  std::pair<int, int> separator(int size) const {
    const int nl = static_cast<int>(levels_.size()) - 1;
    if (nl < 4) return {-1, INT32_MAX};
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
    return {best, bestSep};
  }

  /**
   * Other roots along the last level of the last search, at a quarter and
   * three quarters of a longest BFS path within it (`wide`: the last level is
   * longer than the separator's) or at half of it (shorter).
   * Why: on a 9-point stencil every boundary vertex is as eccentric as a
   * corner, and the levels from a corner are L-shaped (the median one ~1.4x a
   * straight cut), while the levels from the middle of a side are straight
   * from half-way on; the last level from a corner of a square is the two
   * far sides (longer than the L at the median; their middles at a quarter
   * and three quarters), of a longer rectangle the far short side (its
   * middle at half). Leaves queue_ and levels_ as they were.
   */
  std::vector<int> spread_roots(int rid, bool wide) {
    const int nl = static_cast<int>(levels_.size()) - 1;
    const int b = levels_[nl - 1], e = levels_[nl];
    if (e - b < kMinSpread) return {};
    const std::vector<int> last(queue_.begin() + b, queue_.begin() + e);
    // The last level as a region of its own, searched twice (pseudo-diameter within it).
    const int lid = fresh_region();
    for (int v : last) region_[v] = lid;
    alt_queue_.resize(n_);
    bfs(last[0], lid, alt_queue_, alt_levels_);
    const int d = bfs(alt_queue_[alt_levels_.back() - 1], reached_, alt_queue_, alt_levels_) - 1;  // eccentricity within the level
    std::vector<int> out;
    if (!out_.abandoned && d >= 4) {
      if (wide) out = {alt_queue_[alt_levels_[d / 4]], alt_queue_[alt_levels_[d - d / 4]]};
      else out = {alt_queue_[alt_levels_[d / 2]]};
    }
    for (int v : last) region_[v] = rid;
    return out;
  }

  /**
   * Dissects region rid (vertices vs, boundary `around`: the enclosing
   * separators' vertices adjacent to it) from `seed` (-1: vs[0]). `known`,
   * when not empty: vs is in BFS order from seed, with these levels (the
   * first half of a split: a prefix of its parent's levels).
   */
  void split(std::vector<int> vs, int rid, int seed, const std::vector<int>& around, std::vector<int> known) {
    if (over_budget()) return;
    const int size = static_cast<int>(vs.size());
    if (size <= leaf_) return leaf(vs);
    int root = seed >= 0 ? seed : vs[0];
    int depth;
    if (!known.empty()) {
      std::copy(vs.begin(), vs.end(), queue_.begin());
      levels_.swap(known);
      depth = static_cast<int>(levels_.size()) - 1;
    } else {
      depth = bfs(root, rid);
      if (out_.abandoned) return;
      if (levels_.back() < size) return components(vs, rid, around);
      rid = reached_;
    }
    // Pseudo-peripheral root (Gibbs-Poole-Stockmeyer): restart from the far end
    // while the structure deepens (the far end as deep: its levels kept).
    for (int it = 0; it < 3; it++) {
      const int u = far_vertex(rid);
      const int d = bfs(u, rid);
      rid = reached_;
      if (out_.abandoned) return;
      if (d >= depth) {
        const bool deeper = d > depth;
        depth = d, root = u;
        if (deeper) continue;
      } else {
        bfs(root, rid);
        rid = reached_;
      }
      break;
    }
    if (out_.abandoned) return;
    auto [best, bestSep] = separator(size);
    // Unless the levels are as wide at the separator as at the far end (straight
    // cuts of a strip), other roots along the last level are tried, and one
    // with a clearly smaller separator wins.
    const double far = levels_[depth] - levels_[depth - 1], mid = best >= 0 ? levels_[best + 1] - levels_[best] : 0;
    if (best >= 0 && far >= kMinSpread && std::abs(far - mid) > kStraight * far) {
      for (int c : spread_roots(rid, far > mid)) {
        bfs(c, rid, alt_queue_, alt_levels_);
        rid = reached_;
        if (out_.abandoned) return;
        std::swap(queue_, alt_queue_), std::swap(levels_, alt_levels_);
        const auto [m, sep] = separator(size);
        if (m >= 0 && sep < kBetterRoot * bestSep) {
          best = m, bestSep = sep, root = c;
        } else {
          std::swap(queue_, alt_queue_), std::swap(levels_, alt_levels_);
        }
      }
    }
    if (best < 0 || bestSep > kMaxSeparator * size) return leaf(vs);
    const double k = levels_[best + 1] - levels_[best];
    bound_ += 2.0 / 3.0 * k * k * k;
    if (over_budget()) return;
    std::vector<int> h1(queue_.begin(), queue_.begin() + levels_[best]);
    std::vector<int> sep(queue_.begin() + levels_[best], queue_.begin() + levels_[best + 2]);
    std::vector<int> h2(queue_.begin() + levels_[best + 2], queue_.begin() + size);
    const int seed2 = queue_[size - 1];  // last level: peripheral in the second half
    std::vector<int> known1(levels_.begin(), levels_.begin() + best + 1);
    std::vector<int>().swap(vs);
    for (int v : sep) region_[v] = 0;
    const int r1 = fresh_region(), r2 = fresh_region();
    for (int v : h1) region_[v] = r1;
    for (int v : h2) region_[v] = r2;
    out_.separators++;
    // The halves' boundaries: every vertex of level m touches the first half (BFS), level m + 1 need not touch the second.
    std::vector<int> b1 = touching(around, r1), b2 = touching(around, r2);
    b1.insert(b1.end(), sep.begin(), sep.begin() + (levels_[best + 1] - levels_[best]));
    const std::vector<int> last(sep.begin() + (levels_[best + 1] - levels_[best]), sep.end()), lt = touching(last, r2);
    b2.insert(b2.end(), lt.begin(), lt.end());
    const auto rr = record(around), hh = record(b1), gg = record(b2);
    split(std::move(h1), r1, root, b1, std::move(known1));  // the root is peripheral in the first half
    std::vector<int>().swap(b1);
    split(std::move(h2), r2, seed2, b2, {});
    NdPart& part = emit(sep, NdPart::kSeparator);
    part.r0 = rr.first, part.r1 = rr.second, part.h0 = hh.first, part.h1 = hh.second, part.g0 = gg.first, part.g1 = gg.second;
  }
};

}  // namespace

Dissection bfs_dissection(int n, const int* xadj, const int* adj, int leaf, const std::atomic<double>* budget) {
  return Dissector(n, xadj, adj, leaf, budget).run();
}

}  // namespace rlx::sparse
