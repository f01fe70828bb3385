// The FFTW 3 kernels of the fft module (src/fft/kernels/contract.ts): c2c,
// r2c and c2r over `batch` contiguous rows of length n, unnormalized, NumPy's
// signs, double (fftw_) and single (fftwf_) precision. Compiled only when
// CMake found FFTW (RLX_HAVE_FFTW3; native/CMakeLists.txt), since FFTW is
// GPL and optional: without it the addon has no fft* exports and the TS side
// keeps the js kernels on 'native'.
//
// plans.cc keeps the plans (one per guru problem: kind, precision, dims and
// strides, alignment, thread count and planner effort: FFTW_ESTIMATE unless set_planner
// chose another; created under one mutex because FFTW's planner
// is not thread-safe) and runs them with the new-array execute functions,
// which are. fft_binding.cc is the JS surface (fftC2c / fftC2cAsync, ...).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rlx {
namespace fft {

enum class Kind : int { c2c_forward = 0, c2c_inverse = 1, r2c = 2, c2r = 3 };

/**
 * Runs one transform of `batch` rows of length n (the contract's layout):
 * x and out are the caller's arrays (R = double or float; complex values
 * interleaved re, im), disjoint. c2r reads x through a scratch copy (FFTW's
 * c2r destroys its input) whose Im X[0] and, for even n, Im X[n/2] are set
 * to 0, as the contract (NumPy's irfft) ignores them. Throws RangeErr when a
 * size exceeds FFTW's int, KindErr("DeviceError") when FFTW cannot plan.
 */
template <class R>
void execute(Kind kind, int64_t batch, int64_t n, const R* x, R* out);

/**
 * The n-dimensional form: `batch` contiguous blocks, each a row-major array
 * of `shape` (c2c: complex values; r2c: the real input's shape, the output
 * the same with shape[axes.back()] → shape[axes.back()]/2 + 1; c2r: the real
 * output's shape, the input halved the same way), transformed over `axes`
 * (distinct; for r2c / c2r the last one is the halved axis, the others are
 * complex transforms). c2r is NumPy's irfftn: the inverse complex transforms
 * over the other axes first, then the 1-D c2r along the halved one, whose
 * Im X[0] and Im X[n/2] (after the inner transforms) are ignored.
 */
template <class R>
void execute_nd(Kind kind, int64_t batch, const std::vector<int64_t>& shape, const std::vector<int>& axes, const R* x, R* out);

/** One dimension of a guru problem: length, input stride, output stride (in elements of each side). */
struct Dim {
  int64_t n, is, os;
};

/** The plan cache's counters (fftInfo()). */
struct Stats {
  int64_t plans;      // plans held now
  int64_t created;    // plans created since load
  int64_t hits;       // executions that reused a cached plan
  int64_t evicted;    // plans dropped to stay under kMaxPlans
  int max_plans;      // the cache's capacity
  int threads;        // FFTW threads for a large transform (the addon pool's size)
  int64_t thread_min; // n·batch from which a transform uses them
  bool threads_ok;    // fftw_init_threads succeeded (else every plan is single-threaded)
};
Stats stats();

/** Sets up FFTW's threads (fftw_init_threads must precede every other FFTW call): at load, from the binding's registration. */
void init();

/** Drops every cached plan not in use (fftClearPlans(); tests of the cache). */
void clear_plans();

/**
 * How hard FFTW's planner looks for a fast plan (FFTW's planner flags): 0
 * estimate (a heuristic, no trial runs: the default), 1 measure, 2 patient,
 * 3 exhaustive (trial transforms on scratch arrays, never the caller's).
 * Plans are cached per effort, so going back to an effort reuses its plans.
 * time_limit: seconds a plan's search may take (FFTW's fftw_set_timelimit;
 * a negative value: no limit).
 */
void set_planner(int effort, double time_limit);
int planner_effort();
double planner_time_limit();

/** FFTW's accumulated wisdom (the plans its planner found, both precisions) as FFTW's text format. */
std::string export_wisdom(bool single);
/** Adds wisdom in FFTW's text format to the planner's; false when FFTW rejects the text. */
bool import_wisdom(bool single, const std::string& text);

}  // namespace fft
}  // namespace rlx
