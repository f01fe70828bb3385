// The order within each part of a dissection (nd_order.h), by CAMD on a
// small graph per part that models what eliminating the earlier parts did.
//
// Why not one CAMD over the whole graph with a constraint set per part (what
// rlx did first): it costs ~2x AMD (~75 ms for the 512x512 Poisson matrix),
// as much as the dissection and AMD together. Ordering each part by AMD on
// its own subgraph is as cheap but blind to the rest: a separator's order
// then costs 1.8x the flops (6.5e9 vs 3.6e9 on that matrix), because what
// makes a separator cheap or dear is the fill the eliminated halves left in
// it. The model here is exact for that fill without building it: every half
// is one extra vertex, eliminated first (CAMD's set 0), adjacent to the
// half's boundary, which then becomes the clique the half's elimination
// makes; the region's boundary (enclosing separators) is a last set, there
// only for the degrees. A leaf is ordered with its boundary as a last set.
// Within-part orders are independent of each other (a vertex's fill depends
// only on which vertices precede it, not on their order), so the parts'
// orders concatenated in part order give the dissection's order, and the
// parts can be ordered in any order, on several threads. The small graph's
// column counts (elim_counts.h) of the part's own vertices are the counts of
// those columns in the whole graph: a path from a part's vertex through
// earlier vertices reaches only its boundary or, through a half, the half's
// boundary, which the half's vertex stands for.
#pragma once

#include <atomic>
#include <vector>

#include "sparse/elim_counts.h"
#include "sparse/nd_order.h"

namespace rlx::sparse {

/** Parts shared by the threads that order them: which is next, and the flops so far. */
struct PartQueue {
  std::vector<int> schedule;  // part indices, separators first (largest flops first), then the rest
  std::atomic<int> next{0};
  std::atomic<double> flops{0};     // running sum, for the budget
  std::atomic<bool> failed{false};  // CAMD ran out of memory, or the budget was exceeded
  std::vector<double> part_flops;   // each part's
  explicit PartQueue(const Dissection& d);
  /** The parts' flops summed in part order (the same sum on any thread schedule). */
  double total() const;
};

/**
 * Takes parts from `queue` until none is left, writing each part's order to
 * q[v0, v1) (its range in d.vertex) and its LU flops (the exact counts of
 * its columns when both halves of every separator are connected; more where
 * a half is not, whose vertex then joins boundaries a real elimination would
 * leave apart) to queue.part_flops. Several threads may share one queue.
 * Stops (queue.failed) when CAMD runs out of memory, or once queue.flops
 * exceeds `budget` (as in nd_order.h; may be null).
 */
void order_parts(int n, const int* xadj, const int* adj, const Dissection& d, int* q, PartQueue& queue,
                 const std::atomic<double>* budget = nullptr);

}  // namespace rlx::sparse
