// Batched GEMM over strided views through cblas, for float32, float64,
// complex64 and complex128 (interleaved re/im). Plain C++: no JS types, so it
// runs on the main thread or in an AsyncWorker's Execute() alike.
//
//   c[...batch, m, n] = op(a)[...batch, m, k] @ op(b)[...batch, k, n]
//
// Each operand is a strided view (offset, strides in elements; complex
// elements for complex dtypes) over its array; batch strides may be 0
// (broadcast). Views BLAS can express (one of the two matrix strides is 1, the
// other a valid leading dimension) are passed as they are, the transpose folded
// into the BLAS flag; a conjugated operand uses CblasConjTrans /
// CblasConjNoTrans. Only a view BLAS cannot express is copied.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "strided.h"

namespace rlx {

enum class DType { f32, f64, c64, c128 };

/** "float32" | "float64" | "complex64" | "complex128" → DType (TypeErr otherwise). */
DType parse_gemm_dtype(const std::string& s);
const char* dtype_name(DType d);
/** Bytes of one element (a complex element is two reals). */
size_t element_bytes(DType d);
bool is_complex(DType d);

struct GemmOperand {
  void* data = nullptr;  // element 0 of the array
  int64_t length = 0;    // elements in the array
  View view;             // [...batch, rows, cols]
  bool conj = false;     // use conj(x) (complex only; ignored for real dtypes)
};

struct GemmProblem {
  DType dtype = DType::f64;
  std::vector<int64_t> batch;
  int64_t m = 0, n = 0, k = 0;
  GemmOperand a, b, c;
};

/** How one matrix operand is handed to BLAS. */
struct MatPlan {
  bool packed = false;       // copied to a contiguous buffer first
  bool trans = false;        // CblasTrans (or ConjTrans)
  bool conj = false;         // conjugated
  int64_t ld = 0;            // leading dimension
};

/** What run_gemm will do: after folding batch dims into m or n. */
struct GemmPlan {
  bool row_major = true;
  std::vector<int64_t> batch;  // remaining batch loop
  int64_t m = 0, n = 0, k = 0;
  int folded_into_m = 0, folded_into_n = 0;
  MatPlan a, b;
  bool c_packed = false;
  int64_t ldc = 0;
  int64_t blas_calls = 0;
};

/**
 * Throws TypeErr/RangeErr unless the problem is safe to run: shapes match the
 * views, every view is inside its array, sizes fit BLAS's int, c writes each
 * element once and shares no memory with a or b.
 */
void validate_gemm(const GemmProblem& p);

/** The plan for a validated problem (no memory touched). */
GemmPlan plan_gemm(const GemmProblem& p);

/** Validates, plans and runs. */
void run_gemm(const GemmProblem& p);

}  // namespace rlx
