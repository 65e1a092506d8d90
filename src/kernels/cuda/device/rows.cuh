// The row loop of one-block-per-row kernels (the norms, softmax): each thread walks its packs of
// a row, blockDim.x apart, keeping the first CACHE of them in registers so a second pass need not
// read the row again; the n % VEC tail elements are walked one at a time.
#pragma once

#include "device/vec.cuh"

// Row kernels that keep packs in registers cap their blocks at 512 threads (at most 128
// registers a thread); those that keep none may use 1024. The host sizes blocks to match
// (row_block_threads in common/row_launch.hpp).
#define TILEOPS_ROW_BOUNDS(cache) __launch_bounds__((cache) > 0 ? 512 : 1024)

namespace tileops::dev {

template <typename T, int VEC, int CACHE>
struct RowCache {
  using P = Pack<T, VEC>;
  P v[CACHE > 0 ? CACHE : 1];

  // First pass over this thread's packs of [begin, end): p = make(i) for pack index i, kept in
  // registers for the first CACHE, then use(p).
  template <typename Make, typename Use>
  __device__ __forceinline__ void fill(i64 begin, i64 end, Make make, Use use) {
#pragma unroll
    for (int c = 0; c < CACHE; ++c) {
      const i64 i = begin + threadIdx.x + (i64)c * blockDim.x;
      if (i < end) {
        v[c] = make(i);
        use(v[c]);
      }
    }
    for (i64 i = begin + (i64)CACHE * blockDim.x + threadIdx.x; i < end; i += blockDim.x) {
      use(make(i));
    }
  }

  // A later pass over the same packs: f(i, p) with p from registers where cached, else reread(i).
  template <typename Reread, typename F>
  __device__ __forceinline__ void revisit(i64 begin, i64 end, Reread reread, F f) const {
#pragma unroll
    for (int c = 0; c < CACHE; ++c) {
      const i64 i = begin + threadIdx.x + (i64)c * blockDim.x;
      if (i < end) f(i, v[c]);
    }
    for (i64 i = begin + (i64)CACHE * blockDim.x + threadIdx.x; i < end; i += blockDim.x) {
      f(i, reread(i));
    }
  }
};

// f(i) for this thread's indices of [begin, end), blockDim.x apart: a row's tail elements past
// its packs, or packs visited once.
template <typename F>
__device__ __forceinline__ void for_each_index(i64 begin, i64 end, F f) {
  for (i64 i = begin + threadIdx.x; i < end; i += blockDim.x) f(i);
}

// Elementwise map of a pack: out.v[k] = from_float<T>(f(k)).
template <typename T, int VEC, typename F>
__device__ __forceinline__ Pack<T, VEC> make_pack(F f) {
  Pack<T, VEC> o;
#pragma unroll
  for (int k = 0; k < VEC; ++k) o.v[k] = from_float<T>(f(k));
  return o;
}

// Starts moving the bytes [p, p + count) that this block's threads will read after a reduction
// (a norm's weight) into L2, so the read after the barrier does not wait on DRAM: one-row
// (decode) calls are latency-bound, and this takes one DRAM round trip off their critical path.
// Grids of many rows skip it: there the weight stays in L2 after the first rows.
__device__ __forceinline__ void prefetch_l2(const void* p, i64 count_bytes) {
  if (gridDim.x * gridDim.y >= 256) return;
  const char* c = static_cast<const char*>(p);
  for (i64 off = (i64)threadIdx.x * 128; off < count_bytes; off += (i64)blockDim.x * 128) {
    asm volatile("prefetch.global.L2 [%0];" ::"l"(c + off));
  }
}

}  // namespace tileops::dev
