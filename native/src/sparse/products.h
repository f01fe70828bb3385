// Pieces shared by the CSR products: argument reading, the index-check mode and
// the row partitioning (spmv.cc: spmm and spmvH; spmv_gather.cc: spmv and spmvDot).
#pragma once

#include <napi.h>

#include <cstdint>
#include <vector>

#include "args.h"
#include "pool/pool.h"
#include "sparse/csr.h"

namespace rlx::sparse {

struct Scal {
  double re = 1, im = 0;
};

/**
 * When the column indices are range-checked (the argument after `data`):
 *   before (false or 0): a scan before the product; the output is untouched when it throws;
 *   skip   (true or 1):  not at all: the caller vouches for them (see spmv.cc);
 *   during (2):          inside the product's own loop, reading no x out of range;
 *                        when it throws, the output may be partly written (for
 *                        outputs the caller owns: fresh arrays, solver scratch).
 */
enum class IndexCheck { before, skip, during };
IndexCheck read_check(const Napi::Value& v);

struct Products {
  Csr a;
  TypedMemory x, y;
  int64_t k = 1;
  Scal alpha, beta;
  IndexCheck check = IndexCheck::before;
};

double num(const Napi::Value& v, const char* what);
/** Reads the arguments of sparseSpmv / sparseSpmvH (13) or sparseSpmm (14); indptr checked, indices not yet. */
Products read_products(const Napi::CallbackInfo& info, bool spmm);
void check_len(const TypedMemory& m, const char* what, int64_t want, const char* expl);
/** Throws when the output overlaps x or the matrix arrays. */
void check_no_overlap(const Products& p);

/** Below this many (nonzeros + rows) per thread, fewer threads are used; under 2x, none. */
constexpr int64_t kMinWorkPerThread = 1 << 15;
/** Pool threads worth using for `work` units, at most max_parts (>= 1). */
int64_t parts_for(int64_t work, int64_t max_parts);
/** Row boundaries b[0] = 0 <= ... <= b[parts] = rows splitting indptr[r] + r evenly. */
std::vector<int64_t> partition_rows(const int32_t* ip, int64_t rows, int64_t parts);

/** Runs fn(part, r0, r1) over the row partition, on the pool when parts > 1. */
template <class F>
void for_row_parts(const std::vector<int64_t>& b, F&& fn) {
  const int64_t parts = static_cast<int64_t>(b.size()) - 1;
  if (parts == 1) {
    fn(int64_t(0), b[0], b[1]);
    return;
  }
  Pool::instance().parallelFor(parts, [&](int64_t t) { fn(t, b[t], b[t + 1]); });
}

}  // namespace rlx::sparse
