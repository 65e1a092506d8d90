#include "tileops/runtime/thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace tileops {
namespace {

class ThreadPool {
 public:
  explicit ThreadPool(int threads) {
    for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
  }
  ~ThreadPool() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
  }
  int size() const { return static_cast<int>(workers_.size()) + 1; }

  void run(int64_t chunks, const std::function<void(int64_t)>& task) {
    // One job at a time; nested or concurrent parallel_for calls run their chunks inline.
    std::unique_lock job_lock(job_mutex_, std::try_to_lock);
    if (!job_lock.owns_lock() || workers_.empty()) {
      for (int64_t c = 0; c < chunks; ++c) task(c);
      return;
    }
    {
      std::lock_guard lock(mutex_);
      task_.store(&task);
      chunks_.store(chunks);
      next_.store(0);
      remaining_ = chunks;
      error_ = nullptr;
      ++generation_;
    }
    wake_.notify_all();
    drain();
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return remaining_ == 0; });
    task_.store(nullptr);
    chunks_.store(0);
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void drain() {
    for (;;) {
      const int64_t c = next_.fetch_add(1);
      if (c >= chunks_.load()) return;
      try {
        (*task_.load())(c);
      } catch (...) {
        std::lock_guard lock(mutex_);
        if (!error_) error_ = std::current_exception();
      }
      std::lock_guard lock(mutex_);
      if (--remaining_ == 0) done_.notify_all();
    }
  }
  void work() {
    uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || (generation_ != seen && task_ != nullptr); });
        if (stopping_) return;
        seen = generation_;
      }
      drain();
    }
  }

  std::vector<std::thread> workers_;
  std::mutex job_mutex_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  // Atomic: a worker finishing one job may claim the first chunk of the next.
  std::atomic<const std::function<void(int64_t)>*> task_{nullptr};
  std::atomic<int64_t> chunks_{0};
  std::atomic<int64_t> next_{0};
  int64_t remaining_ = 0;
  uint64_t generation_ = 0;
  bool stopping_ = false;
  std::exception_ptr error_;
};

int configured_threads() {
  if (const char* env = std::getenv("TILEOPS_NUM_THREADS")) {
    const int n = std::atoi(env);
    if (n > 0) return n;
  }
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

ThreadPool& pool() {
  static ThreadPool p(configured_threads());
  return p;
}

}  // namespace

int cpu_thread_count() {
  return pool().size();
}

void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
  if (n <= 0) return;
  grain = std::max<int64_t>(grain, 1);
  const int64_t max_chunks = std::max<int64_t>(1, (n + grain - 1) / grain);
  const int64_t chunks = std::min<int64_t>(max_chunks, pool().size() * 4);
  if (chunks <= 1) {
    fn(0, n);
    return;
  }
  const int64_t step = (n + chunks - 1) / chunks;
  pool().run(chunks, [&](int64_t c) {
    const int64_t begin = c * step;
    const int64_t end = std::min(n, begin + step);
    if (begin < end) fn(begin, end);
  });
}

}  // namespace tileops
