// The addon's thread pool (see pool.h). A job hands out task indices through
// an atomic counter, so uneven tasks balance themselves.
//
// Between jobs a worker first spins for a short while (kSpinNs, pause
// instructions, watching the job counter) and only then sleeps on a condition
// variable; the caller likewise spins before sleeping until the workers are
// done. Why: waking a sleeping thread costs tens of microseconds on a VM (a
// futex wake and an inter-processor interrupt), and the kernels of a small
// training step come microseconds apart. Measured (2-core VM, MLP Adam step,
// float32): a [128, 256] elementwise kernel ran 60 µs on two threads with
// sleeping workers against 15 µs on one. The spin is short so that a worker
// does not hold a core for long after rlx's last job, when OpenBLAS's threads
// or the rest of the process want it (RLX_POOL_SPIN_US sets it; 0 sleeps at
// once, as before).

#include "pool/pool.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

namespace rlx {
namespace {

// How long a waiting thread spins before it sleeps (RLX_POOL_SPIN_US, read once).
int64_t spinNs() {
  static const int64_t ns = [] {
    if (const char* e = std::getenv("RLX_POOL_SPIN_US")) {
      const long v = std::atol(e);
      if (v >= 0) return static_cast<int64_t>(v > 100000 ? 100000 : v) * 1000;
    }
    return static_cast<int64_t>(50) * 1000;
  }();
  return ns;
}

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Spins until done() or the spin budget is spent; returns done()'s last value.
template <class Done>
bool spinUntil(Done done) {
  const int64_t budget = spinNs();
  if (budget == 0) return done();
  const auto t0 = std::chrono::steady_clock::now();
  for (;;) {
    for (int i = 0; i < 64; i++) {
      if (done()) return true;
      cpuRelax();
    }
    if (std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count() >= budget) return done();
  }
}

int defaultThreads() {
  if (const char* e = std::getenv("RLX_NUM_THREADS")) {
    const int n = std::atoi(e);
    if (n >= 1) return n > 256 ? 256 : n;
  }
  const unsigned h = std::thread::hardware_concurrency();
  return h == 0 ? 1 : static_cast<int>(h > 256 ? 256 : h);
}

struct State {
  std::mutex submit;  // held for the whole of a job (try_lock: busy -> inline)
  std::mutex m;       // with wake/done: the sleeping side of the handshakes
  std::condition_variable wake, done;
  std::vector<std::thread> workers;
  bool stop = false;                  // written under m
  std::atomic<bool> stopping{false};  // the same, for spinning workers
  std::atomic<uint64_t> generation{0};  // bumped (release) once a job's fields are set
  const std::function<void(int64_t)>* job = nullptr;
  int64_t nTasks = 0;
  std::atomic<int64_t> next{0};
  std::atomic<int> running{0};  // workers still inside the current job
  std::atomic<int> threads{1};  // read without the lock by size() and parallelFor()

  void drain() {
    const auto& fn = *job;
    for (;;) {
      const int64_t t = next.fetch_add(1, std::memory_order_relaxed);
      if (t >= nTasks) break;
      fn(t);
    }
  }

  // `seen`: the generation when the worker was started (a worker started by
  // resize() must not mistake the last finished job for a new one).
  void workerLoop(uint64_t seen) {
    for (;;) {
      const auto ready = [&] { return stopping.load(std::memory_order_acquire) || generation.load(std::memory_order_acquire) != seen; };
      if (!spinUntil(ready)) {
        std::unique_lock<std::mutex> lk(m);
        wake.wait(lk, ready);  // generation is bumped under m, so no wake-up is lost
      }
      if (stopping.load(std::memory_order_acquire)) return;
      seen = generation.load(std::memory_order_acquire);
      drain();
      if (running.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        std::lock_guard<std::mutex> lk(m);  // the caller checks running under m before it sleeps
        done.notify_one();
      }
    }
  }

  void start(int n) {
    std::lock_guard<std::mutex> lk(m);
    const int t = n < 1 ? 1 : n;
    threads = t;
    stop = false;
    stopping.store(false, std::memory_order_release);
    const uint64_t g = generation.load(std::memory_order_relaxed);
    for (int i = 1; i < t; i++) workers.emplace_back([this, g] { workerLoop(g); });
  }
  void join() {
    {
      std::lock_guard<std::mutex> lk(m);
      stop = true;
      stopping.store(true, std::memory_order_release);
    }
    wake.notify_all();
    for (auto& t : workers) t.join();
    workers.clear();
  }
  ~State() { join(); }
};

State& state() {
  static State* s = [] {
    auto* st = new State();  // never destroyed: workers may outlive static destruction order
    st->start(defaultThreads());
    return st;
  }();
  return *s;
}

}  // namespace

Pool& Pool::instance() {
  static Pool p;
  return p;
}

void Pool::resize(int threads) {
  State& s = state();
  std::lock_guard<std::mutex> g(s.submit);
  s.join();
  s.start(threads < 1 ? defaultThreads() : threads);
}

int Pool::size() const { return state().threads; }

void Pool::parallelFor(int64_t nTasks, const std::function<void(int64_t)>& fn) {
  State& s = state();
  if (nTasks <= 1 || s.threads <= 1 || !s.submit.try_lock()) {
    for (int64_t t = 0; t < nTasks; t++) fn(t);
    return;
  }
  std::lock_guard<std::mutex> g(s.submit, std::adopt_lock);
  {
    std::lock_guard<std::mutex> lk(s.m);
    s.job = &fn;
    s.nTasks = nTasks;
    s.next.store(0, std::memory_order_relaxed);
    s.running.store(static_cast<int>(s.workers.size()), std::memory_order_relaxed);
    s.generation.fetch_add(1, std::memory_order_release);  // publishes the fields above to spinning workers
  }
  s.wake.notify_all();
  s.drain();
  const auto finished = [&] { return s.running.load(std::memory_order_acquire) == 0; };
  if (!spinUntil(finished)) {
    std::unique_lock<std::mutex> lk(s.m);
    s.done.wait(lk, finished);
  }
  s.job = nullptr;
}

}  // namespace rlx
