// Column counts of the Cholesky factor of a symmetric graph eliminated in a
// given order, for LU flop counts as AMD makes them (Info[AMD_NDIV] + 2
// Info[AMD_NMULTSUBS_LU]: Σ c + 2 Σ c² over the columns' counts c, the
// diagonal excluded).
//
// nd_parts.cc counts each part of the dissection on the small graph it
// orders it on (those counts are the part's columns' counts in the whole
// graph, see nd_parts.h): CAMD's own count covers the whole small graph. The
// counts: the elimination tree (Liu), a postorder, and the row subtrees'
// skeleton leaves (Gilbert, Ng, Peyton: "An efficient algorithm to compute
// row and column counts for sparse Cholesky factorization", 1994), in
// O(|E| α(|E|, n)).
#pragma once

#include <vector>

namespace rlx::sparse {

class ColumnCounts {
 public:
  /**
   * Counts (diagonal excluded) of the columns of L for the graph (symmetric
   * adjacency without self loops, xadj/adj) eliminated in order q (q[k] = the
   * k-th vertex); count(k) is the k-th column's. Buffers are kept for the next call.
   */
  void run(int n, const int* xadj, const int* adj, const int* q);
  int count(int k) const { return delta_[k] - 1; }

 private:
  std::vector<int> pos_, rp_, ri_, parent_, anc_, head_, sibling_, post_, stack_, first_, delta_, maxfirst_, prevleaf_;
};

/** The LU flops of columns with these counts: Σ c + 2 Σ c². */
inline double lu_flops_of_count(double c) { return c + 2 * c * c; }

}  // namespace rlx::sparse
