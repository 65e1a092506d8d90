// Packs of elements moved as one aligned access (16 bytes when VEC * sizeof(T) == 16).
#pragma once

#include "device/numeric.cuh"

namespace tileops::dev {

template <typename T, int VEC>
struct alignas(sizeof(T) * VEC) Pack {
  T v[VEC];
};

template <typename T, int VEC>
__device__ __forceinline__ Pack<T, VEC> load_pack(const T* p) {
  return *reinterpret_cast<const Pack<T, VEC>*>(p);
}
template <typename T, int VEC>
__device__ __forceinline__ void store_pack(T* p, const Pack<T, VEC>& v) {
  *reinterpret_cast<Pack<T, VEC>*>(p) = v;
}

// 16 bytes read through the non-coherent path with no L1 allocation: for data read once (a
// weight streamed by a skinny GEMM).
struct alignas(16) U32x4 {
  u32 x, y, z, w;
};
__device__ __forceinline__ U32x4 load_stream_16(const void* p) {
  U32x4 r;
  asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
               : "l"(p));
  return r;
}
// The same with an L2 eviction policy (device/cache_policy.cuh).
__device__ __forceinline__ U32x4 load_stream_16(const void* p, u64 policy) {
  U32x4 r;
  asm volatile("ld.global.nc.L1::no_allocate.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
               : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
               : "l"(p), "l"(policy));
  return r;
}

// 16 bytes through the read-only (non-coherent) cache: for small operands many blocks re-read.
__device__ __forceinline__ U32x4 load_readonly_16(const void* p) {
  U32x4 r;
  asm volatile("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
               : "l"(p));
  return r;
}
// The same with an L2 eviction policy (device/cache_policy.cuh).
__device__ __forceinline__ U32x4 load_readonly_16(const void* p, u64 policy) {
  U32x4 r;
  asm volatile("ld.global.nc.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
               : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
               : "l"(p), "l"(policy));
  return r;
}

struct alignas(16) F32x4 {
  float x, y, z, w;
};

// 16 bytes from L2, bypassing L1: for data other blocks of the same launch wrote (split-K
// partial sums), which a stale L1 line must not shadow.
__device__ __forceinline__ F32x4 load_l2_f32x4(const F32x4* p) {
  F32x4 r;
  asm volatile("ld.global.cg.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w)
               : "l"(p));
  return r;
}

}  // namespace tileops::dev
