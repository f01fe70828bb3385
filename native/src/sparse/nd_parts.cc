// Orders within the dissection's parts (see nd_parts.h).
#include "sparse/nd_parts.h"

#include <algorithm>
#include <memory>
#include <new>

#include "sparse/min_degree.h"

namespace rlx::sparse {
namespace {

class PartOrderer {
 public:
  PartOrderer(int n, const int* xadj, const int* adj, const Dissection& d) : xadj_(xadj), adj_(adj), d_(d), loc_(n, -1) {}

  /** Writes the order of `part` to q[part.v0, part.v1) and returns its LU flops; throws std::bad_alloc. */
  double order(const NdPart& part, int* q) {
    const int* vs = d_.vertex.data() + part.v0;
    const int size = part.v1 - part.v0;
    if (part.kind == NdPart::kIsolated) {
      std::copy(vs, vs + size, q + part.v0);
      return 0;
    }
    build(part);
    const int t = static_cast<int>(local_.size());
    perm_.resize(t);
    // No dense rows: a half's vertex is adjacent to its whole boundary, and
    // CAMD would otherwise set it aside instead of eliminating it first.
    md_.order(t, ap_.data(), ai_.data(), set_.data(), perm_.data(), -1);
    counts_.run(t, ap_.data(), ai_.data(), perm_.data());
    double flops = 0;
    int* out = q + part.v0;
    for (int k = 0; k < t; k++)
      if (set_[perm_[k]] == 1) {
        *out++ = local_[perm_[k]];
        flops += lu_flops_of_count(counts_.count(k));
      }
    return flops;
  }

 private:
  const int *xadj_, *adj_;
  const Dissection& d_;
  std::vector<int> loc_;          // local index of each vertex of the graph (-1: none)
  std::vector<int> local_, set_;  // each local vertex's vertex (-1: a half) and CAMD set
  std::vector<int> eu_, ev_;      // local edges, both directions
  std::vector<int> ap_, ai_, next_, perm_;
  ColumnCounts counts_;
  MinDegree md_;

  /** The part's small graph: set 0 one vertex per half (separators), set 1 the part, set 2 its boundary. */
  void build(const NdPart& part) {
    clear();
    const int* vs = d_.vertex.data() + part.v0;
    const int size = part.v1 - part.v0;
    const bool sep = part.kind == NdPart::kSeparator;
    const int* b = d_.bound.data();
    const int halves = sep ? (part.h1 > part.h0) + (part.g1 > part.g0) : 0;
    for (int h = 0; h < halves; h++) add(-1, 0);
    for (int k = 0; k < size; k++) add(vs[k], 1);
    if (sep)
      for (int k = part.r0; k < part.r1; k++)
        if (loc_[b[k]] < 0) add(b[k], 2);
    // The part's own edges (those to the boundary both ways), and each half's vertex to the half's boundary.
    for (int k = 0; k < size; k++) {
      const int v = vs[k], lv = loc_[v];
      for (int p = xadj_[v]; p < xadj_[v + 1]; p++) {
        const int w = adj_[p];
        if (!sep && loc_[w] < 0) add(w, 2);  // a leaf's boundary: its neighbours outside it
        const int lw = loc_[w];
        if (lw < 0 || lw == lv) continue;
        edge(lv, lw);
        if (set_[lw] == 2) edge(lw, lv);
      }
    }
    if (sep) {
      int e = 0;
      for (auto [h0, h1] : {std::pair{part.h0, part.h1}, std::pair{part.g0, part.g1}}) {
        if (h1 == h0) continue;
        for (int k = h0; k < h1; k++)
          if (loc_[b[k]] >= 0) edge(e, loc_[b[k]]), edge(loc_[b[k]], e);
        e++;
      }
    }
    const int t = static_cast<int>(local_.size());
    ap_.assign(static_cast<size_t>(t) + 1, 0);
    for (int u : eu_) ap_[u + 1]++;
    for (int k = 0; k < t; k++) ap_[k + 1] += ap_[k];
    ai_.resize(eu_.size());
    next_.assign(ap_.begin(), ap_.end() - 1);
    for (size_t k = 0; k < eu_.size(); k++) ai_[next_[eu_[k]]++] = ev_[k];
  }

  void add(int v, int set) {
    if (v >= 0) loc_[v] = static_cast<int>(local_.size());
    local_.push_back(v);
    set_.push_back(set);
  }
  void edge(int u, int v) { eu_.push_back(u), ev_.push_back(v); }
  void clear() {
    for (int v : local_)
      if (v >= 0) loc_[v] = -1;
    local_.clear(), set_.clear(), eu_.clear(), ev_.clear();
  }
};

}  // namespace

PartQueue::PartQueue(const Dissection& d) {
  const int np = static_cast<int>(d.parts.size());
  schedule.reserve(np);
  // Separators from the last (the top one, the dearest) back, so that a
  // budget is exceeded early; then the rest.
  for (int k = np - 1; k >= 0; k--)
    if (d.parts[k].kind == NdPart::kSeparator) schedule.push_back(k);
  for (int k = np - 1; k >= 0; k--)
    if (d.parts[k].kind != NdPart::kSeparator) schedule.push_back(k);
  part_flops.assign(np, 0);
}

double PartQueue::total() const {
  double s = 0;
  for (double f : part_flops) s += f;
  return s;
}

void order_parts(int n, const int* xadj, const int* adj, const Dissection& d, int* q, PartQueue& queue, const std::atomic<double>* budget) {
  try {
    std::unique_ptr<PartOrderer> po;  // made on the first part taken (an n-int map per thread)
    const int np = static_cast<int>(queue.schedule.size());
    for (;;) {
      if (queue.failed.load(std::memory_order_relaxed)) return;
      const int k = queue.next.fetch_add(1, std::memory_order_relaxed);
      if (k >= np) return;
      if (!po) po = std::make_unique<PartOrderer>(n, xadj, adj, d);
      const double f = po->order(d.parts[queue.schedule[k]], q);
      queue.part_flops[queue.schedule[k]] = f;
      double sum = queue.flops.load(std::memory_order_relaxed);
      while (!queue.flops.compare_exchange_weak(sum, sum + f, std::memory_order_relaxed)) {
      }
      if (budget && sum + f > budget->load(std::memory_order_relaxed)) break;
    }
  } catch (const std::bad_alloc&) {
  }
  queue.failed.store(true, std::memory_order_relaxed);
}

}  // namespace rlx::sparse
