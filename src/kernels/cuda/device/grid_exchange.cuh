// Values exchanged between the blocks of one launch through global memory, for grids whose
// blocks are all resident at once (a cooperative launch). A group of `count` blocks (a row) owns
// a region of grid_region_slots(count) slots of the caller's workspace: slot 0 keeps a
// generation count, then two sets of `count` slots that successive exchanges alternate between
// (an exchange cannot start in one block before every block has finished reading the one before
// it, so a set is never rewritten while it is read). Each block publishes its partial stamped
// with a value unique to this exchange on this memory and reads the others' once their stamps
// match, so the region needs no zeroing: no memset before the kernel.
//
// The stamp mixes the launch's %gridid with the region's generation plus the exchange's number.
// The generation is what keeps a CUDA graph's replays apart: they reuse one workspace and,
// measured on the H200, one %gridid, but each exchange advances the generation. %gridid keeps
// apart launches whose regions overlap at other offsets (the allocator's earlier users). Stale
// contents match a stamp only by a 64-bit coincidence.
#pragma once

#include "device/numeric.cuh"
#include "device/reduce.cuh"

namespace tileops::dev {

struct alignas(16) GridSlot {
  float2 value;
  u64 stamp;
};

__host__ __device__ constexpr i64 grid_region_slots(i64 count) {
  return 1 + 2 * count;
}

// The launch's temporal grid number.
__device__ __forceinline__ u64 launch_gridid() {
  u64 id;
  asm volatile("mov.u64 %0, %%gridid;" : "=l"(id));
  return id;
}

__device__ __forceinline__ u64 load_relaxed(const u64* p) {
  u64 v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}

__device__ __forceinline__ void store_relaxed(u64* p, u64 v) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

__device__ __forceinline__ void publish_slot(GridSlot* slot, float2 v, u64 stamp) {
  asm volatile("st.relaxed.gpu.global.v2.f32 [%0], {%1, %2};" ::"l"(&slot->value), "f"(v.x),
               "f"(v.y)
               : "memory");
  asm volatile("st.release.gpu.global.u64 [%0], %1;" ::"l"(&slot->stamp), "l"(stamp) : "memory");
}

// Waits for slot's stamp to read `stamp`, then returns its value.
__device__ __forceinline__ float2 await_slot(const GridSlot* slot, u64 stamp) {
  u64 seen;
  do {
    asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(seen) : "l"(&slot->stamp) : "memory");
  } while (seen != stamp);
  float2 v;
  asm volatile("ld.relaxed.gpu.global.v2.f32 {%0, %1}, [%2];"
               : "=f"(v.x), "=f"(v.y)
               : "l"(&slot->value)
               : "memory");
  return v;
}

// The values a slot carries: a float or a float2.
__device__ __forceinline__ float2 to_slot(float v) {
  return make_float2(v, 0.0f);
}
__device__ __forceinline__ float2 to_slot(float2 v) {
  return v;
}
template <typename V>
__device__ __forceinline__ V from_slot(float2 s) {
  if constexpr (sizeof(V) == sizeof(float)) {
    return s.x;
  } else {
    return s;
  }
}

// One group's exchanges. Construct it early in the kernel (every thread, same region): it starts
// the generation's load, whose latency the block's own work then hides.
class GridExchange {
 public:
  __device__ __forceinline__ explicit GridExchange(GridSlot* region)
      : region_(region), generation_(region != nullptr ? load_relaxed(&region->stamp) : 0) {}

  // Op over the `count` blocks of the group, this one being `rank`: v is this block's value,
  // already reduced over its threads. Every thread of every block of the group gets the same
  // result (the blocks merge the same values in the same order).
  template <typename Op, typename V>
  __device__ __forceinline__ V reduce(V v, u32 rank, u32 count, V* scratch) {
    const u64 number = generation_ + 1 + exchanges_;
    const u64 stamp = number ^ (launch_gridid() * 0x9E3779B97F4A7C15ull);
    GridSlot* set = region_ + 1 + (exchanges_ & 1) * count;
    ++exchanges_;
    // Every thread has its generation, and has finished reading the exchange before this one,
    // before any block can see this block's slot.
    __syncthreads();
    if (threadIdx.x == 0) publish_slot(set + rank, to_slot(v), stamp);
    V all = Op::identity();
    for (u32 c = threadIdx.x; c < count; c += blockDim.x) {
      all = Op::apply(all, from_slot<V>(await_slot(set + c, stamp)));
    }
    all = block_reduce<Op>(all, scratch);
    // Every block of the group has published, so has read the generation: advance it past this
    // exchange for the next launch on this memory (each block stores the same value).
    if (threadIdx.x == 0) store_relaxed(&region_->stamp, number);
    return all;
  }

 private:
  GridSlot* region_;
  u64 generation_;
  u32 exchanges_ = 0;
};

}  // namespace tileops::dev
