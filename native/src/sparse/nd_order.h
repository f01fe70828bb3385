// Nested dissection by breadth-first level structures, for the column order
// UMFPACK's symmetric strategy is given (umf_order.cc).
//
// bfs_dissection(n, xadj, adj, leaf) splits the graph (symmetric adjacency,
// no self loops) recursively: from a pseudo-peripheral vertex of a connected
// region, the BFS levels are computed; the two consecutive levels m, m + 1
// around the median (the smaller pair in a window about it) are the separator,
// the levels before and after it the two halves. Two levels, not one: then no
// vertex of one half is within distance 2 of the other, so the separator also
// splits the graph of AᵀA. UMFPACK's symbolic analysis is a symbolic
// factorization of AᵀA in the given column order (upper bounds for any row
// pivoting); with one-level separators (METIS, or AMD's implicit ones) its
// fill spreads across every separator: for the 512x512 Poisson matrix the
// factor of AᵀA has 6.5e8 entries under AMD (~300 ms of analysis) and ~1e8
// with these separators (~70 ms), with 30% fewer LU flops than AMD's.
// Besides the pseudo-peripheral root, one or two roots along its last level
// are tried (unless the levels are as wide there as at the separator) and
// the smallest separator kept: on a 9-point stencil the levels from a corner
// are L-shaped, from the middle of a side straight (the 512x512 grid: LU
// flops 6.7e9 instead of 8.2e9; AMD's 6.1e9).
//
// The result is a list of parts in elimination order (both halves before
// their separator; nd_parts.h orders within each). Vertices with no
// neighbours come first (UMFPACK does not look for singletons in a given
// order under its symmetric strategy, so they are ordinary 1x1 pivots there).
// Regions of at most `leaf` vertices, regions whose level structure is too
// shallow, and regions whose best separator holds more than a quarter of the
// region (graphs that do not dissect: expanders, hubs) are leaves;
// disconnected regions are split into components first (the small ones
// share one part). A separator records the boundary of the region it split
// (vertices of enclosing separators adjacent to it) and the boundary of each
// half, so that nd_parts.cc can model what eliminating the halves did.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

namespace rlx::sparse {

struct NdPart {
  enum Kind : int8_t { kIsolated, kLeaf, kComponents, kSeparator };
  Kind kind = kLeaf;
  int v0 = 0, v1 = 0;  // its vertices: Dissection::vertex[v0, v1)
  // Separators: ranges of Dissection::bound holding the region's boundary [r0, r1)
  // and the boundaries of the first [h0, h1) and second [g0, g1) halves.
  int r0 = 0, r1 = 0, h0 = 0, h1 = 0, g0 = 0, g1 = 0;
};

struct Dissection {
  std::vector<NdPart> parts;  // in elimination order
  std::vector<int> vertex, bound;
  int separators = 0;      // how many regions were split by a separator
  bool abandoned = false;  // stopped by `budget` (parts then incomplete)
  double flops_bound = 0;  // the lower bound of the LU flops below
};

/**
 * `budget` (may be null): a flop count another thread may publish (AMD's, with
 * the bias of umf_order.h, or -1 for "give up"); the dissection is abandoned
 * (checked after every BFS level) once a lower bound of its own LU flops
 * exceeds it. The bound: after the half before a separator is eliminated (it
 * is connected), the separator's first level is a clique, whose LU costs at
 * least 2k³/3 flops for k vertices.
 */
Dissection bfs_dissection(int n, const int* xadj, const int* adj, int leaf, const std::atomic<double>* budget = nullptr);

}  // namespace rlx::sparse
