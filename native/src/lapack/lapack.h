// Dense linalg kernels over LAPACKE (the C++ half of
// src/linalg/kernels/contract.ts). Plain C++: no JS types. Every kernel works
// on a batch of b row-major, contiguous matrices in the dtype's storage
// (complex interleaved re, im), never writes its inputs, and writes one
// LAPACK-style info per batch entry (> 0: numerical trouble, see the
// contract). Sizes and lengths are validated by the caller
// (lapack_binding.cc); LAPACK info < 0 throws std::logic_error (a bug), an
// allocation failure throws std::bad_alloc.
#pragma once

#include <cstdint>

#include "gemm.h"  // DType

namespace rlx {
namespace linalg {

void cholesky(DType dt, int64_t b, int64_t n, const void* a, void* out, bool lower, int32_t* info);
/** trans: 0 = op(a) is a, 1 = aᵀ, 2 = aᴴ. */
void triangular_solve(DType dt, int64_t b, int64_t n, int64_t k, const void* a, const void* rhs, void* out, bool lower, int trans, bool unit_diagonal,
                      int32_t* info);
void lu(DType dt, int64_t b, int64_t m, int64_t n, const void* a, void* lu, int32_t* piv, int32_t* perm, int32_t* info);
void solve(DType dt, int64_t b, int64_t n, int64_t k, const void* a, const void* rhs, void* out, int32_t* info);
/** out: det, or its sign/phase when logabs (real, log|det|) is not null; info > 0: singular (det 0). */
void det(DType dt, int64_t b, int64_t n, const void* a, void* out, void* logabs, int32_t* info);
/** out: a⁻¹; info > 0: a's zero pivot (as solve), out undefined. */
void inv(DType dt, int64_t b, int64_t n, const void* a, void* out, int32_t* info);
/** q may be null (only r). */
void qr(DType dt, int64_t b, int64_t m, int64_t n, const void* a, void* q, void* r, bool complete, int32_t* info);
/** w real; v may be null (values only). */
void eigh(DType dt, int64_t b, int64_t n, const void* a, void* w, void* v, bool lower, int32_t* info);
/** s real; u and vh both null or both set. */
void svd(DType dt, int64_t b, int64_t m, int64_t n, const void* a, void* s, void* u, void* vh, bool full, int32_t* info);
/** w complex; vr complex or null. */
void eig(DType dt, int64_t b, int64_t n, const void* a, void* w, void* vr, int32_t* info);
/** rcond < 0: eps · max(m, n). */
void lstsq(DType dt, int64_t b, int64_t m, int64_t n, int64_t k, const void* a, const void* rhs, void* x, void* s, int32_t* rank, double rcond,
           int32_t* info);

}  // namespace linalg
}  // namespace rlx
