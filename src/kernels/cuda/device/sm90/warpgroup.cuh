// Warpgroups (four consecutive warps): register reallocation between roles, named barriers, and
// electing one thread.
#pragma once

#include "device/numeric.cuh"

namespace tileops::dev::sm90 {

constexpr int kWarpgroupThreads = 128;

__device__ __forceinline__ int warpgroup_index() {
  return threadIdx.x / kWarpgroupThreads;
}
__device__ __forceinline__ int warpgroup_thread() {
  return threadIdx.x % kWarpgroupThreads;
}

// Gives registers back (a producer that only issues copies) or takes them (consumers holding
// accumulators). Needs a register cap at entry: __launch_bounds__(threads, 1).
template <u32 REGS>
__device__ __forceinline__ void setmaxnreg_dec() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(REGS));
}
template <u32 REGS>
__device__ __forceinline__ void setmaxnreg_inc() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(REGS));
}

// Barrier `id` (1..15; 0 is __syncthreads) over `threads` threads, a multiple of 32.
__device__ __forceinline__ void named_barrier_sync(u32 id, u32 threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

// True in exactly one lane of the calling (converged) warp.
__device__ __forceinline__ bool elect_one() {
  u32 elected;
  asm volatile(
      "{\n\t.reg .pred p;\n\t"
      "elect.sync _|p, 0xffffffff;\n\t"
      "selp.u32 %0, 1, 0, p;\n\t}"
      : "=r"(elected));
  return elected != 0;
}

}  // namespace tileops::dev::sm90
