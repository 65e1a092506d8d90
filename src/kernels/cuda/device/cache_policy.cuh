// L2 eviction priorities for loads that carry a cache hint (`.L2::cache_hint`). A weight that one
// call streams once is best marked evict-first: its lines then replace its own earlier lines
// rather than what other kernels left in the L2 (activations, often dirty, whose write-back the
// stream would otherwise pay for as it evicts them). An operand that every block re-reads is
// best kept (evict-last).
#pragma once

#include "device/numeric.cuh"

namespace tileops::dev {

// Host-side codes for a kernel argument naming an operand's priority.
enum L2Priority : int { kL2Normal = 0, kL2EvictFirst = 1, kL2EvictLast = 2 };

// The opaque policy word for a priority code, for every address the load touches.
__device__ __forceinline__ u64 l2_policy(int priority) {
  u64 p;
  if (priority == kL2EvictFirst) {
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
  } else if (priority == kL2EvictLast) {
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(p));
  } else {
    asm volatile("createpolicy.fractional.L2::evict_normal.b64 %0, 1.0;" : "=l"(p));
  }
  return p;
}

// Asks the L2 for the line holding p (128 bytes), without waiting for it: for data a thread will
// read later, after work that hides the DRAM round trip.
__device__ __forceinline__ void prefetch_line_l2(const void* p) {
  asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
}

}  // namespace tileops::dev
