// Warp-level tensor-core MMA (mma.sync, sm_80 and later): D[16x8] += A[16x16] . B[16x8] with
// fp32 accumulation. Fragments, for lane l with g = l / 4 and t = l % 4:
//   a0 = A[g][2t, 2t+1], a1 = A[g+8][2t, 2t+1], a2 = A[g][2t+8, 2t+9], a3 = A[g+8][2t+8, 2t+9];
//   b0 = B[2t, 2t+1][g], b1 = B[2t+8, 2t+9][g];
//   d0, d1 = D[g][2t, 2t+1], d2, d3 = D[g+8][2t, 2t+1].
#pragma once

#include "device/numeric.cuh"

namespace tileops::dev {

template <typename T>
__device__ __forceinline__ void mma_m16n8k16(float (&d)[4], u32 a0, u32 a1, u32 a2, u32 a3, u32 b0,
                                             u32 b1);

template <>
__device__ __forceinline__ void mma_m16n8k16<bf16>(float (&d)[4], u32 a0, u32 a1, u32 a2, u32 a3,
                                                   u32 b0, u32 b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%0, %1, %2, %3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

template <>
__device__ __forceinline__ void mma_m16n8k16<f16>(float (&d)[4], u32 a0, u32 a1, u32 a2, u32 a3,
                                                  u32 b0, u32 b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%0, %1, %2, %3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

}  // namespace tileops::dev
