// The CPU backend's worker pool: one per process, sized to the hardware threads (override with
// TILEOPS_NUM_THREADS).
#pragma once

#include <cstdint>
#include <functional>

#include "tileops/export.hpp"

namespace tileops {

TILEOPS_API int cpu_thread_count();

// Calls fn(begin, end) over [0, n) in chunks of at least grain items, on the pool's workers and
// the calling thread; returns when every chunk is done. Runs inline when one chunk suffices.
// Exceptions from fn are rethrown on the calling thread.
TILEOPS_API void parallel_for(int64_t n, int64_t grain,
                              const std::function<void(int64_t, int64_t)>& fn);

}  // namespace tileops
