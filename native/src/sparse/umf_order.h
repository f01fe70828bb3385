// The column order umfpack.cc gives UMFPACK (umfpack_*_qsymbolic) for its
// symmetric strategy, or none (UMFPACK orders itself).
//
// Why: UMFPACK's symbolic analysis is a symbolic factorization of AᵀA in the
// column order (upper bounds for any row pivoting), and its cost follows the
// fill of that factor, which AMD's order of A + Aᵀ does not control: for the
// 512x512 Poisson matrix the analysis takes ~300 ms of a ~750 ms splu, more
// than AMD (~40 ms) and about as much as the numeric factorization. The
// nested dissection of nd_order.h (two-level separators, CAMD within its
// sets) cuts the analysis to ~60 ms with no more LU flops.
//
// choose_umf_order(n, p, i, x, cplx, force) on the canonical CSR arrays of A
// (values double, interleaved when cplx):
//  - force (the user asked for ordering 'nd'): the dissection order of the
//    graph of A + Aᵀ, always;
//  - otherwise the dissection order only where it is expected to pay: n >=
//    kNdMinN, a pattern UMFPACK's automatic strategy treats as symmetric
//    (matched off-diagonal entries >= 70%, nonzero diagonal >= 90%, its own
//    rule), the graph dissects, and CAMD's LU flop count for the dissection
//    order is at most kNdFlopsBias times AMD's for A + Aᵀ (both counted
//    before the factorization; the bias is what the cheaper analysis buys).
//    When AMD wins its order is given instead (it has been computed), so
//    UMFPACK does not order again. Otherwise none: UMFPACK as before.
// A given order goes with the symmetric strategy (umfpack.cc).
#pragma once

#include <vector>

namespace rlx::sparse {

constexpr int kNdMinN = 20000;
constexpr double kNdFlopsBias = 1.1;
// Below this many LU flops per vertex under AMD (grids with 30% of the
// vertices removed: ~70; the 5-point grids: 3000 to 20000) the factorization
// and UMFPACK's analysis are cheap and nearly tree-like; the dissection is not tried.
constexpr double kNdMinFlopsPerVertex = 1000;

struct UmfOrder {
  bool given = false;  // q holds the column order for umfpack_*_qsymbolic
  bool nd = false;     // ... and it is the dissection order (else AMD's)
  std::vector<int> q;
  double flops_amd = -1, flops_nd = -1;  // LU flop counts of the orders computed (-1: not computed)
};

UmfOrder choose_umf_order(int n, const int* p, const int* i, const double* x, bool cplx, bool force);

}  // namespace rlx::sparse
