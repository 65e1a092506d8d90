// TMA: bulk tensor copies between global and shared memory, described by a tensor map that the
// host encodes (host/tensor_map.hpp) and passes as a `const __grid_constant__ TensorMap`.
// Coordinates are in elements, innermost dimension first; out-of-bounds elements load as zero
// and are not stored, so tiles at the matrix edges need no special code.
#pragma once

#include "device/numeric.cuh"
#include "device/sm90/mbarrier.cuh"

namespace tileops::dev::sm90 {

// Layout-compatible with CUtensorMap (128 opaque bytes).
struct alignas(64) TensorMap {
  u64 opaque[16];
};

__device__ __forceinline__ void tma_prefetch_map(const TensorMap* map) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<u64>(map)) : "memory");
}

// Loads the box at (c0, c1) into dst; completion is counted on bar as transaction bytes.
__device__ __forceinline__ void tma_load_2d(void* dst, const TensorMap* map, u64* bar, int c0,
                                            int c1) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4}], [%2];" ::"r"(smem_u32(dst)),
      "l"(reinterpret_cast<u64>(map)), "r"(smem_u32(bar)), "r"(c0), "r"(c1)
      : "memory");
}

// A box of a 3-D map (column c0, row c1, matrix c2): one matrix of a batch.
__device__ __forceinline__ void tma_load_3d(void* dst, const TensorMap* map, u64* bar, int c0,
                                            int c1, int c2) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4, %5}], [%2];" ::"r"(smem_u32(dst)),
      "l"(reinterpret_cast<u64>(map)), "r"(smem_u32(bar)), "r"(c0), "r"(c1), "r"(c2)
      : "memory");
}

// The same with an L2 eviction policy (device/cache_policy.cuh) for the bytes it reads.
__device__ __forceinline__ void tma_load_3d(void* dst, const TensorMap* map, u64* bar, int c0,
                                            int c1, int c2, u64 policy) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      ".L2::cache_hint [%0], [%1, {%3, %4, %5}], [%2], %6;" ::"r"(smem_u32(dst)),
      "l"(reinterpret_cast<u64>(map)), "r"(smem_u32(bar)), "r"(c0), "r"(c1), "r"(c2), "l"(policy)
      : "memory");
}

// Loads the box once and writes it to the same offset in every cluster block named by
// cta_mask, completing on each one's barrier at bar's offset.
__device__ __forceinline__ void tma_load_3d_multicast(void* dst, const TensorMap* map, u64* bar,
                                                      int c0, int c1, int c2, u16 cta_mask) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      ".multicast::cluster [%0], [%1, {%3, %4, %5}], [%2], %6;" ::"r"(smem_u32(dst)),
      "l"(reinterpret_cast<u64>(map)), "r"(smem_u32(bar)), "r"(c0), "r"(c1), "r"(c2), "h"(cta_mask)
      : "memory");
}
// The same with an L2 eviction policy (device/cache_policy.cuh).
__device__ __forceinline__ void tma_load_3d_multicast(void* dst, const TensorMap* map, u64* bar,
                                                      int c0, int c1, int c2, u16 cta_mask,
                                                      u64 policy) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      ".multicast::cluster.L2::cache_hint [%0], [%1, {%3, %4, %5}], [%2], %6, %7;" ::"r"(
          smem_u32(dst)),
      "l"(reinterpret_cast<u64>(map)), "r"(smem_u32(bar)), "r"(c0), "r"(c1), "r"(c2), "h"(cta_mask),
      "l"(policy)
      : "memory");
}
// The same for a 2-D map.
__device__ __forceinline__ void tma_load_2d_multicast(void* dst, const TensorMap* map, u64* bar,
                                                      int c0, int c1, u16 cta_mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      ".multicast::cluster [%0], [%1, {%3, %4}], [%2], %5;" ::"r"(smem_u32(dst)),
      "l"(reinterpret_cast<u64>(map)), "r"(smem_u32(bar)), "r"(c0), "r"(c1), "h"(cta_mask)
      : "memory");
}

// Stores the box in src to (c0, c1). Shared memory written by ordinary stores must be fenced
// (fence_async_smem) before; tma_store_commit and tma_store_wait_read order reuse of src.
__device__ __forceinline__ void tma_store_2d(const TensorMap* map, const void* src, int c0,
                                             int c1) {
  asm volatile(
      "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%2, %3}], [%1];" ::"l"(
          reinterpret_cast<u64>(map)),
      "r"(smem_u32(src)), "r"(c0), "r"(c1)
      : "memory");
}

// The same for a 3-D map (column c0, row c1, matrix c2).
__device__ __forceinline__ void tma_store_3d(const TensorMap* map, const void* src, int c0, int c1,
                                             int c2) {
  asm volatile(
      "cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%0, {%2, %3, %4}], [%1];" ::"l"(
          reinterpret_cast<u64>(map)),
      "r"(smem_u32(src)), "r"(c0), "r"(c1), "r"(c2)
      : "memory");
}

__device__ __forceinline__ void tma_store_commit() {
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

// Waits until at most N committed store groups still read their shared-memory source.
template <int N>
__device__ __forceinline__ void tma_store_wait_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory");
}

// Waits until at most N committed store groups are still writing global memory.
template <int N>
__device__ __forceinline__ void tma_store_wait() {
  asm volatile("cp.async.bulk.wait_group %0;" ::"n"(N) : "memory");
}

// Orders this thread's ordinary shared-memory writes before later async-proxy reads (TMA store,
// wgmma) of the same bytes.
__device__ __forceinline__ void fence_async_smem() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

}  // namespace tileops::dev::sm90
