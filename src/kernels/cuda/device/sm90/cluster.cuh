// Thread-block clusters: this block's rank, whole-cluster barriers and distributed shared memory.
#pragma once

#include "device/numeric.cuh"

namespace tileops::dev::sm90 {

__device__ __forceinline__ u32 cluster_rank() {
  u32 r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}

__device__ __forceinline__ u32 cluster_size() {
  u32 n;
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
  return n;
}

// Every thread of every block in the cluster; orders shared-memory accesses across the cluster.
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::
                   : "memory");
}

// The address of the same shared-memory variable in cluster block `rank`.
template <typename T>
__device__ __forceinline__ T* cluster_map(T* p, u32 rank) {
  u64 out;
  asm volatile("mapa.u64 %0, %1, %2;" : "=l"(out) : "l"(reinterpret_cast<u64>(p)), "r"(rank));
  return reinterpret_cast<T*>(out);
}

}  // namespace tileops::dev::sm90
