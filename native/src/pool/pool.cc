// The addon's thread pool (see pool.h). Workers sleep on a condition
// variable between jobs; a job hands out task indices through an atomic
// counter, so uneven tasks balance themselves.

#include "pool/pool.h"

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

namespace rlx {
namespace {

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
  std::mutex m;
  std::condition_variable wake, done;
  std::vector<std::thread> workers;
  bool stop = false;
  uint64_t generation = 0;
  const std::function<void(int64_t)>* job = nullptr;
  int64_t nTasks = 0;
  std::atomic<int64_t> next{0};
  int running = 0;  // workers still inside the current job
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
    std::unique_lock<std::mutex> lk(m);
    for (;;) {
      wake.wait(lk, [&] { return stop || generation != seen; });
      if (stop) return;
      seen = generation;
      lk.unlock();
      drain();
      lk.lock();
      if (--running == 0) done.notify_one();
    }
  }

  void start(int n) {
    std::lock_guard<std::mutex> lk(m);
    const int t = n < 1 ? 1 : n;
    threads = t;
    stop = false;
    const uint64_t g = generation;
    for (int i = 1; i < t; i++) workers.emplace_back([this, g] { workerLoop(g); });
  }
  void join() {
    {
      std::lock_guard<std::mutex> lk(m);
      stop = true;
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
    s.running = static_cast<int>(s.workers.size());
    s.generation++;
  }
  s.wake.notify_all();
  s.drain();
  std::unique_lock<std::mutex> lk(s.m);
  s.done.wait(lk, [&] { return s.running == 0; });
  s.job = nullptr;
}

}  // namespace rlx
