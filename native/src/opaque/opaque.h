// Whole-op data-movement kernels: cumsum, gather (np.take), scatterAdd,
// concat and constant pad, the C++ twins of src/backends/js/opaque.ts (which
// is the reference: the results here are the same bits).
//
// No N-API here (opaque/napi.cc reads and checks the JS arguments). Every
// function takes validated arguments: lengths consistent, indices checked
// (check_indices), no overlap between the output and the inputs. Sizes count
// storage scalars: a complex element is two (so `inner` below is the
// product of the trailing dims times the lanes).
//
// Arithmetic (cumsum, scatterAdd) is done at the storage type like the js
// kernels, which read every partial sum back from their TypedArray:
//   float64           double
//   float32           float (a float sum rounded once: the same as the js
//                     double sum then Math.fround, since double holds it exactly
//                     enough: 53 >= 2*24 + 2)
//   int32, uint16, uint8  wrap-around (ToInt32 / ToUint16 / ToUint8 of the js store)
// scatterAdd on uint8 storage (bool) maps every result to 0/1 at the end, as
// the js kernel does.
//
// Work is split over the interpreter's thread pool (interp/pool.h) when the
// bytes moved reach a threshold, along the outer dims and, for long rows,
// along column ranges; each output scalar is written by one task and each
// accumulation keeps the js order, so results do not depend on the threads.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rlx::opaque {

/** A buffer's storage type (the TypedArray class). */
enum class Storage { u8, u16, i32, f32, f64 };

size_t bytes_of(Storage s);
const char* storage_name(Storage s);

/**
 * Position of the first index outside [-n, n) in idx[0..m), or -1 when all
 * are valid (negative indices count from the end).
 */
int64_t check_indices(const int32_t* idx, int64_t m, int64_t n);

/** out[o, i, j] = sum over k <= i of x[o, k, j]; x and out are [outer, n, inner] (out may be x). */
void cumsum(Storage st, const void* x, void* out, int64_t outer, int64_t n, int64_t inner);

/** out[o, j, :] = x[o, idx[j], :]; x is [outer, n, inner], out [outer, m, inner]; indices checked. */
void gather(size_t scalar_bytes, const void* x, const int32_t* idx, int64_t m, void* out, int64_t outer, int64_t n, int64_t inner);

/**
 * out = x, then out[o, idx[j], :] += upd[o, j, :] for j in order; x and out
 * are [outer, n, inner] (out may be x), upd [outer, m, inner]; indices checked.
 */
void scatter_add(Storage st, const void* x, const int32_t* idx, int64_t m, const void* upd, void* out, int64_t outer, int64_t n,
                 int64_t inner);

/** out[o, :] = ins[0][o, :] ++ ins[1][o, :] ++ ...; input i is [outer, widths[i]]. */
void concat(size_t scalar_bytes, const void* const* ins, const int64_t* widths, int64_t k, void* out, int64_t outer);

/**
 * Constant padding of x (shape[r], elements of elem_bytes each) by
 * before/after per axis into out; padding elements get the elem_bytes at fill.
 */
void pad(size_t elem_bytes, const void* x, void* out, const int64_t* shape, const int64_t* before, const int64_t* after, int r,
         const void* fill);

/** Bytes moved from which a kernel is split across the pool (default 1 MiB). */
void set_parallel_threshold(int64_t bytes);
int64_t parallel_threshold();

}  // namespace rlx::opaque
