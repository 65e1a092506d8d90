// wgmma: warpgroup matrix multiply-accumulate on Hopper tensor cores, operands read from shared
// memory through 64-bit matrix descriptors. The instruction wrappers (one per shape) are in
// wgmma_ops.cuh; this header builds descriptors and orders the asynchronous MMAs.
//
// Operand tiles use the 128-byte swizzle that TMA writes (CU_TENSOR_MAP_SWIZZLE_128B), each tile
// 1024-byte aligned:
//  - K-major (the contiguous dimension is K): rows of 64 16-bit elements (128 B), 8-row groups
//    1024 B apart. Descriptor: SBO = 1024, LBO unused. The k-th 16-wide slice starts 32*k bytes in.
//  - MN-major (the contiguous dimension is M or N): TMA boxes of 64 MN elements by BK k-rows, each
//    k-row 128 B, 8-k-row groups 1024 B apart, boxes `box_bytes` apart. Descriptor: LBO = the box
//    stride (next 64 MN elements), SBO = 1024 (next 8 k-rows). The k-th slice starts 2048*k in.
#pragma once

#include "device/numeric.cuh"
#include "device/sm90/mbarrier.cuh"
#include "device/sm90/wgmma_ops.cuh"

namespace tileops::dev::sm90 {

__device__ __forceinline__ u64 smem_desc_sw128(const void* tile, u32 lbo_bytes, u32 sbo_bytes) {
  const u64 addr = smem_u32(tile);
  u64 desc = (addr & 0x3FFFFull) >> 4;
  desc |= static_cast<u64>((lbo_bytes & 0x3FFFFu) >> 4) << 16;
  desc |= static_cast<u64>((sbo_bytes & 0x3FFFFu) >> 4) << 32;
  desc |= 1ull << 62;  // 128-byte swizzle
  return desc;
}

// Descriptor of the k16-th 16-deep slice of a K-major tile of 16-bit elements.
__device__ __forceinline__ u64 desc_k_major(const void* tile, int k16) {
  return smem_desc_sw128(static_cast<const char*>(tile) + 32 * k16, 16, 1024);
}

// Descriptor of the k16-th 16-deep slice of an MN-major tile made of 64-element boxes
// box_bytes apart.
__device__ __forceinline__ u64 desc_mn_major(const void* tile, int k16, u32 box_bytes) {
  return smem_desc_sw128(static_cast<const char*>(tile) + 2048 * k16, box_bytes, 1024);
}

// Before the first wgmma that reads or writes accumulators touched by ordinary instructions.
__device__ __forceinline__ void wgmma_fence() {
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}
__device__ __forceinline__ void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}
// Waits until at most N committed wgmma groups are pending.
template <int N>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}

// Keeps the compiler from moving accesses of accumulator registers across wgmma boundaries.
template <int R>
__device__ __forceinline__ void fence_accumulators(float (&d)[R]) {
#pragma unroll
  for (int i = 0; i < R; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// Where accumulator register i of thread `t` (0..127) of an m64nN result lands:
// row = 16 * (t / 32) + (t % 32) / 4 + 8 * ((i / 2) % 2),
// col = 8 * (i / 4) + 2 * (t % 4) + i % 2.
__device__ __forceinline__ int acc_row(int t, int i) {
  return 16 * (t / 32) + (t % 32) / 4 + 8 * ((i / 2) % 2);
}
__device__ __forceinline__ int acc_col(int t, int i) {
  return 8 * (i / 4) + 2 * (t % 4) + i % 2;
}

}  // namespace tileops::dev::sm90
