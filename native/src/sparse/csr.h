// Shared pieces of the sparse kernels: reading a CSR matrix from JS arguments
// and checking it, and the canonical copy (rows sorted, duplicates summed) the
// direct solvers factor.
//
// A CSR matrix arrives as positional arguments
//   dtype: 'float32' | 'float64' | 'complex64' | 'complex128',
//   rows, cols, indptr: Int32Array(rows + 1), indices: Int32Array(>= nnz),
//   data: Float32Array | Float64Array (>= nnz, 2·nnz interleaved for complex)
// with nnz = indptr[rows]. indptr is always checked (indptr[0] = 0,
// non-decreasing, indptr[rows] <= indices.length): O(rows). The column range
// check of indices is O(nnz); see check_indices().
//
// indptr and indices in a SharedArrayBuffer are copied once before they are
// checked (another thread may write them while the kernel runs: the values
// checked must be the values used), and such indices are always checked, even
// when the caller says they were validated. Values are read in place: a racy
// value is a wrong number, never a wrong address.
#pragma once

#include <napi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "binding/pins.h"

namespace rlx::sparse {

enum class SDType { f32, f64, c64, c128 };

inline bool is_cplx(SDType d) { return d == SDType::c64 || d == SDType::c128; }
inline bool is_single(SDType d) { return d == SDType::f32 || d == SDType::c64; }
inline int per_elem(SDType d) { return is_cplx(d) ? 2 : 1; }
const char* sdtype_name(SDType d);
SDType parse_sdtype(const Napi::Value& v, const std::string& what);
/** The TypedArray type values of dtype `d` are stored in. */
inline napi_typedarray_type storage_of(SDType d) { return is_single(d) ? napi_float32_array : napi_float64_array; }

/** A CSR matrix read from JS: raw pointers into the JS arrays (valid while the call runs, no JS in between). */
struct Csr {
  SDType dtype = SDType::f64;
  int64_t rows = 0, cols = 0, nnz = 0;
  const int32_t* indptr = nullptr;
  const int32_t* indices = nullptr;
  const void* data = nullptr;  // float or double, interleaved for complex
  /** Private copies of indptr / indices taken from a SharedArrayBuffer (null otherwise); the pointers above point into them. */
  std::shared_ptr<const std::vector<int32_t>> own_indptr, own_indices;
};

/**
 * Reads info[first .. first + 5] (dtype, rows, cols, indptr, indices, data) and
 * checks every length and indptr; when `check_cols` also every column index
 * (O(nnz)). Throws rlx::TypeErr / RangeErr.
 */
Csr read_csr(const Napi::CallbackInfo& info, size_t first, bool check_cols);

/**
 * Hands the matrix read by read_csr(info, first, ...) to the call's Pins
 * (binding/pins.h): nothing for a sync call; private copies of indptr, indices
 * and data for an async one (copies already taken from a SharedArrayBuffer are kept).
 */
void pin_csr(Csr& a, const Napi::CallbackInfo& info, size_t first, Pins& pins);

/** Throws RangeErr naming the first entry of indices[0..nnz) outside [0, cols). */
void check_indices(const Csr& a);

/** Whether byte ranges [a, a + an) and [b, b + bn) overlap. */
inline bool overlaps(const void* a, size_t an, const void* b, size_t bn) {
  const auto pa = reinterpret_cast<uintptr_t>(a), pb = reinterpret_cast<uintptr_t>(b);
  return an && bn && pa < pb + bn && pb < pa + an;
}

/**
 * The canonical copy of a square CSR matrix for the direct solvers: each row's
 * column indices strictly increasing (sorted, duplicates summed), values in
 * double (interleaved for complex). `map[p]` = the canonical position of input
 * entry p (duplicates share one), so new values of the same pattern can be
 * scattered in (KLU refactor).
 */
struct Canonical {
  int n = 0;
  std::vector<int> p, i;
  std::vector<double> x;
  std::vector<int> map;
};
Canonical canonicalize(const Csr& a, bool want_map);

/** Scatters values `data` (the input pattern's order, same dtype as `a`) into `c.x` through c.map. */
void scatter_values(Canonical& c, SDType dtype, const void* data, int64_t nnz);

}  // namespace rlx::sparse
