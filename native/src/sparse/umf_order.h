// The column order umfpack.cc gives UMFPACK (umfpack_*_qsymbolic) for its
// symmetric strategy, or none (UMFPACK orders itself).
//
// Why: UMFPACK's symbolic analysis is a symbolic factorization of AᵀA in the
// column order (upper bounds for any row pivoting), and its cost follows the
// fill of that factor, which AMD's order of A + Aᵀ does not control: for the
// 512x512 Poisson matrix the analysis takes ~300 ms of a ~750 ms splu, more
// than AMD (~40 ms) and about as much as the numeric factorization. The
// nested dissection of nd_order.h (two-level separators; minimum degree
// within its parts, nd_parts.h) cuts the analysis to ~70 ms with 30% fewer
// LU flops.
//
// choose_umf_order(n, p, i, x, cplx, force) on the canonical CSR arrays of A
// (values double, interleaved when cplx):
//  - force (the user asked for ordering 'nd'): the dissection order of the
//    graph of A + Aᵀ, always;
//  - otherwise the dissection order only where it is expected to pay: n >=
//    kNdMinN, at least 3 off-diagonal entries per row on average, a
//    pattern UMFPACK's automatic strategy treats as symmetric
//    (matched off-diagonal entries >= 70%, nonzero diagonal >= 90%, its own
//    rule), AMD's LU needs at least kNdMinFlops (and kNdMinFlopsPerVertex),
//    the graph dissects, and the LU flop count of the dissection order is
//    at most kNdFlopsBias times AMD's for A + Aᵀ (both counted before the
//    factorization; the bias is what the cheaper analysis buys). When AMD
//    wins its order is given instead (it has been computed), so UMFPACK does
//    not order again, unless A has singletons (see umf_order.cc). Otherwise
//    none: UMFPACK as before.
// AMD runs beside the dissection on a second thread; its verdict, published
// as a flop budget, stops the dissection and the parts once a lower bound of
// their flops exceeds it, so a losing dissection costs little more than AMD
// (a grid with long-range links, where the dissection finds separators of
// 10% of the graph: ~AMD's time instead of seconds of CAMD).
// Measured, splu of the 512x512 grids (phase harness, UMFPACK's own
// ordering = 1): 5-point 0.78, 9-point 0.99 (its dissection's flops are
// 1.096x AMD's, accepted; the analysis saves more than the numeric
// factorization loses), 3D 40^3 7-point 0.52. Known loss: 9-point grids
// near kNdMinFlops (m = 300: 1.2e9 flops, the dissection's 1.07x) where the
// dissection's ordering (~35 ms of CPU against AMD's ~9) outweighs what the
// analysis saves: ~1.05-1.15 (1.22 before).
// A given order goes with the symmetric strategy (umfpack.cc).
#pragma once

#include <vector>

namespace rlx::sparse {

constexpr int kNdMinN = 20000;
// How many times AMD's LU flops the dissection's may have and still be given:
// what its cheaper analysis buys. Measured with both orders given (the
// ordering then paid either way): on 9-point grids (m = 256, 300, 400, 512;
// flops 1.07-1.19x AMD's) the dissection's analysis + numeric factorization
// took 0.92-0.97x AMD's; 5-point and 3D grids have fewer flops than AMD.
constexpr double kNdFlopsBias = 1.2;
// The dissection is only tried where AMD's LU needs at least this many flops
// in all and per vertex: below, the factorization and UMFPACK's analysis are
// cheap, and the dissection's own cost (~25 ms plus its parts' ~55 ms of CPU
// for the 512x512 Poisson matrix, 4.8e9 flops under AMD) is not recovered
// everywhere (measured: 5-point grids win 6-14% from 2e8 flops up, 9-point
// grids lose 6-25% up to 1.2e9; grids with 30% of the vertices removed, ~70
// flops per vertex, only lose).
constexpr double kNdMinFlops = 1e9;
constexpr double kNdMinFlopsPerVertex = 1000;

struct UmfOrder {
  bool given = false;  // q holds the column order for umfpack_*_qsymbolic
  bool nd = false;     // ... and it is the dissection order (else AMD's)
  std::vector<int> q;
  double flops_amd = -1, flops_nd = -1;  // LU flop counts of the orders computed (-1: not computed)
};

UmfOrder choose_umf_order(int n, const int* p, const int* i, const double* x, bool cplx, bool force);

}  // namespace rlx::sparse
