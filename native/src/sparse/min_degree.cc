// AMD / CAMD through amd_2 / camd_2 (see min_degree.h).
#include "sparse/min_degree.h"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <new>

extern "C" {
#include <amd.h>
#include <camd.h>
}

namespace rlx::sparse {

static_assert(AMD_NDIV == CAMD_NDIV && AMD_NMULTSUBS_LU == CAMD_NMULTSUBS_LU && AMD_INFO == CAMD_INFO, "AMD and CAMD Info layouts differ");

double MinDegree::order(int n, const int* xadj, const int* adj, const int* set, int* perm, double dense) {
  if (n <= 0) return 0;
  const size_t un = static_cast<size_t>(n), nz = static_cast<size_t>(xadj[n]);
  // The graph with elbow room (what amd_order gives amd_2: 20% and n more).
  const size_t iwlen = nz + nz / 5 + un;
  if (iwlen > static_cast<size_t>(INT_MAX)) throw std::bad_alloc();
  pe_.resize(un), len_.resize(un), iw_.resize(iwlen);
  std::copy(adj, adj + nz, iw_.begin());
  for (int j = 0; j < n; j++) pe_[j] = xadj[j], len_[j] = xadj[j + 1] - xadj[j];
  nv_.resize(un), next_.resize(un), elen_.resize(un), degree_.resize(un);
  head_.resize(un + 1), w_.resize(un + 1);  // n + 1 for CAMD
  double info[AMD_INFO];
  std::fill(info, info + AMD_INFO, -1.0);
  if (set) {
    double control[CAMD_CONTROL];
    camd_defaults(control);
    control[CAMD_DENSE] = dense;
    bucket_.resize(un);
    camd_2(n, pe_.data(), iw_.data(), len_.data(), static_cast<int>(iwlen), static_cast<int>(nz), nv_.data(), next_.data(), perm, head_.data(),
           elen_.data(), degree_.data(), w_.data(), control, info, set, bucket_.data());
  } else {
    double control[AMD_CONTROL];
    amd_defaults(control);
    control[AMD_DENSE] = dense;
    amd_2(n, pe_.data(), iw_.data(), len_.data(), static_cast<int>(iwlen), static_cast<int>(nz), nv_.data(), next_.data(), perm, head_.data(),
          elen_.data(), degree_.data(), w_.data(), control, info);
  }
  return info[AMD_NDIV] + 2 * info[AMD_NMULTSUBS_LU];
}

}  // namespace rlx::sparse
