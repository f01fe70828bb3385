// AMD and CAMD on a graph rlx has already built (symmetric adjacency, no self
// loops, no duplicates), through their direct interfaces amd_2 / camd_2.
//
// Why not amd_order / camd_order: those check the matrix, count and build
// A + Aᵀ (two more passes and a copy) and allocate their workspace on every
// call; on the 256x256 Poisson graph amd_order takes 7.7 ms where UMFPACK's
// own AMD takes ~4.5 ms, and nd_parts.cc calls CAMD once per part. Here the
// caller's graph is copied once into the workspace (with elbow room, which
// amd_2 destroys) and the buffers are kept for the next call.
#pragma once

#include <vector>

namespace rlx::sparse {

class MinDegree {
 public:
  /**
   * Orders the n-vertex graph (xadj, adj): perm[k] = the k-th vertex. With
   * `set` (CAMD): the vertices of set 0 first, then set 1, ...; set[i] in
   * [0, n). `dense`: AMD's Control[AMD_DENSE] (rows with more than
   * max(16, dense·√n) entries go last; negative: none). Throws
   * std::bad_alloc. Returns the LU flops AMD / CAMD count for the order
   * (Info[NDIV] + 2 Info[NMULTSUBS_LU]).
   */
  double order(int n, const int* xadj, const int* adj, const int* set, int* perm, double dense);

 private:
  std::vector<int> pe_, iw_, len_, nv_, next_, head_, elen_, degree_, w_, bucket_;
};

}  // namespace rlx::sparse
