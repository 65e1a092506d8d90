// ldmatrix / stmatrix: a warp moves 8x8 tiles of 16-bit elements between registers and shared
// memory, four tiles per instruction; each lane names one row address (lanes 8i..8i+7 the rows of
// tile i). With .trans the tiles are transposed on the way.
#pragma once

#include "device/numeric.cuh"
#include "device/sm90/mbarrier.cuh"

namespace tileops::dev::sm90 {

__device__ __forceinline__ void ldmatrix_x4(u32 (&r)[4], const void* row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_u32(row)));
}

__device__ __forceinline__ void stmatrix_x4(void* row, const u32 (&r)[4]) {
  asm volatile(
      "stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(smem_u32(row)),
      "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
      : "memory");
}

__device__ __forceinline__ void stmatrix_x4_trans(void* row, const u32 (&r)[4]) {
  asm volatile(
      "stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(smem_u32(row)),
      "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
      : "memory");
}

}  // namespace tileops::dev::sm90
