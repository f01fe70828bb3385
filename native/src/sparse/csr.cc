// CSR argument reading and the canonical copy (see csr.h).
#include "sparse/csr.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <utility>

#include "args.h"
#include "errors.h"
#include "pool/pool.h"

namespace rlx::sparse {

const char* sdtype_name(SDType d) {
  switch (d) {
    case SDType::f32: return "float32";
    case SDType::f64: return "float64";
    case SDType::c64: return "complex64";
    default: return "complex128";
  }
}

SDType parse_sdtype(const Napi::Value& v, const std::string& what) {
  const std::string s = as_string(v, what);
  if (s == "float32") return SDType::f32;
  if (s == "float64") return SDType::f64;
  if (s == "complex64") return SDType::c64;
  if (s == "complex128") return SDType::c128;
  throw TypeErr(what + " must be 'float32', 'float64', 'complex64' or 'complex128', got '" + s + "'", "DTypeError");
}

Csr read_csr(const Napi::CallbackInfo& info, size_t first, bool check_cols) {
  Csr a;
  constexpr int64_t kMaxIdx = std::numeric_limits<int32_t>::max();
  a.dtype = parse_sdtype(info[first], "dtype");
  a.rows = as_int(info[first + 1], "rows", 0, kMaxIdx - 1);
  a.cols = as_int(info[first + 2], "cols", 0, kMaxIdx);
  const TypedMemory ipm = as_typed(info[first + 3], "indptr", napi_int32_array);
  const TypedMemory ixm = as_typed(info[first + 4], "indices", napi_int32_array);
  const TypedMemory dx = as_typed(info[first + 5], std::string("data (dtype ") + sdtype_name(a.dtype) + ")", storage_of(a.dtype));
  if (static_cast<int64_t>(ipm.length) != a.rows + 1)
    throw RangeErr("indptr must have length rows + 1 = " + std::to_string(a.rows + 1) + ", got " + std::to_string(ipm.length));
  const StableInts ip = stable_ints(info[first + 3], ipm), ix = stable_ints(info[first + 4], ixm);
  a.own_indptr = ip.owned, a.own_indices = ix.owned;
  const int32_t* p = ip.data;
  if (p[0] != 0) throw RangeErr("indptr[0] must be 0, got " + std::to_string(p[0]), "ValueError");
  for (int64_t r = 0; r < a.rows; r++) {
    if (p[r + 1] < p[r])
      throw RangeErr("indptr must be non-decreasing: indptr[" + std::to_string(r + 1) + "] = " + std::to_string(p[r + 1]) + " < indptr[" +
                     std::to_string(r) + "] = " + std::to_string(p[r]), "ValueError");
  }
  a.nnz = p[a.rows];
  if (static_cast<int64_t>(ix.length) < a.nnz)
    throw RangeErr("indices has length " + std::to_string(ix.length) + " but indptr[rows] = " + std::to_string(a.nnz));
  if (static_cast<int64_t>(dx.length) < a.nnz * per_elem(a.dtype))
    throw RangeErr("data has length " + std::to_string(dx.length) + " but " + std::to_string(a.nnz) + " entries of " + sdtype_name(a.dtype) +
                   " need " + std::to_string(a.nnz * per_elem(a.dtype)));
  a.indptr = p;
  a.indices = ix.data;
  a.data = dx.data;
  if (check_cols || ix.copied) check_indices(a);
  return a;
}

void pin_csr(Csr& a, const Napi::CallbackInfo& info, size_t first, Pins& pins) {
  if (!pins.async()) return;
  if (!a.own_indptr) a.indptr = static_cast<const int32_t*>(pins.input(info[first + 3], a.indptr, static_cast<size_t>(a.rows + 1) * 4));
  if (!a.own_indices) a.indices = static_cast<const int32_t*>(pins.input(info[first + 4], a.indices, static_cast<size_t>(a.nnz) * 4));
  a.data = pins.input(info[first + 5], a.data, static_cast<size_t>(a.nnz * per_elem(a.dtype)) * (is_single(a.dtype) ? 4 : 8));
}

void check_indices(const Csr& a) {
  const uint32_t cols = static_cast<uint32_t>(a.cols);
  // Branch-free scan (on the pool when large: it is memory bound); locate the
  // culprit only on failure.
  auto scan = [&](int64_t b, int64_t e) {
    uint32_t bad = 0;
    for (int64_t k = b; k < e; k++) bad |= static_cast<uint32_t>(static_cast<uint32_t>(a.indices[k]) >= cols);
    return bad;
  };
  const int64_t parts = std::min<int64_t>(Pool::instance().size(), std::max<int64_t>(1, a.nnz >> 18));
  std::atomic<uint32_t> bad{0};
  if (parts <= 1) bad = scan(0, a.nnz);
  else Pool::instance().parallelFor(parts, [&](int64_t t) { bad |= scan(a.nnz * t / parts, a.nnz * (t + 1) / parts); });
  if (!bad) return;
  for (int64_t r = 0; r < a.rows; r++)
    for (int64_t k = a.indptr[r]; k < a.indptr[r + 1]; k++)
      if (static_cast<uint32_t>(a.indices[k]) >= cols)
        throw RangeErr("indices[" + std::to_string(k) + "] = " + std::to_string(a.indices[k]) + " (row " + std::to_string(r) +
                       ") is outside [0, cols = " + std::to_string(a.cols) + ")", "ValueError");
}

namespace {
inline double value_at(SDType d, const void* data, int64_t k) {
  return is_single(d) ? static_cast<double>(static_cast<const float*>(data)[k]) : static_cast<const double*>(data)[k];
}
}  // namespace

Canonical canonicalize(const Csr& a, bool want_map) {
  if (a.rows != a.cols) throw RangeErr("the matrix must be square, got " + std::to_string(a.rows) + "x" + std::to_string(a.cols));
  check_indices(a);
  const int per = per_elem(a.dtype);
  Canonical c;
  c.n = static_cast<int>(a.rows);
  c.p.assign(c.n + 1, 0);
  // At least one slot: SuiteSparse refuses a NULL Ai / Ax ("argument
  // missing", "invalid matrix"), which an empty vector's data() is, so a
  // matrix with no stored entries would fail analysis instead of being
  // reported singular.
  c.i.reserve(std::max<int64_t>(a.nnz, 1));
  c.x.reserve(std::max<int64_t>(a.nnz, 1) * per);
  if (want_map) c.map.assign(a.nnz, 0);
  std::vector<std::pair<int, int32_t>> tmp;  // (column, input position)
  for (int r = 0; r < c.n; r++) {
    const int32_t b = a.indptr[r], e = a.indptr[r + 1];
    bool sorted = true;
    for (int32_t k = b + 1; k < e; k++)
      if (a.indices[k] <= a.indices[k - 1]) {
        sorted = false;
        break;
      }
    if (sorted) {
      for (int32_t k = b; k < e; k++) {
        if (want_map) c.map[k] = static_cast<int>(c.i.size());
        c.i.push_back(a.indices[k]);
        for (int q = 0; q < per; q++) c.x.push_back(value_at(a.dtype, a.data, int64_t(k) * per + q));
      }
    } else {
      tmp.clear();
      for (int32_t k = b; k < e; k++) tmp.emplace_back(a.indices[k], k);
      std::sort(tmp.begin(), tmp.end());
      for (size_t t = 0; t < tmp.size(); t++) {
        const int32_t k = tmp[t].second;
        if (t == 0 || tmp[t].first != tmp[t - 1].first) {
          c.i.push_back(tmp[t].first);
          for (int q = 0; q < per; q++) c.x.push_back(0.0);
        }
        const size_t at = c.i.size() - 1;
        if (want_map) c.map[k] = static_cast<int>(at);
        for (int q = 0; q < per; q++) c.x[at * per + q] += value_at(a.dtype, a.data, int64_t(k) * per + q);
      }
    }
    c.p[r + 1] = static_cast<int>(c.i.size());
  }
  return c;
}

void scatter_values(Canonical& c, SDType dtype, const void* data, int64_t nnz) {
  const int per = per_elem(dtype);
  std::vector<double>& x = c.x;
  std::fill(x.begin(), x.end(), 0.0);
  for (int64_t k = 0; k < nnz; k++)
    for (int q = 0; q < per; q++) x[static_cast<size_t>(c.map[k]) * per + q] += value_at(dtype, data, k * per + q);
}

}  // namespace rlx::sparse
