// Thread-block clusters: this block's rank, whole-cluster barriers and distributed shared memory.
#pragma once

#include "device/numeric.cuh"
#include "device/vec.cuh"

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

// The two halves of cluster_sync for threads that may not be converged (no .aligned): arrive
// publishes this thread's earlier writes, wait returns once every thread of the cluster has
// arrived and makes their writes visible.
__device__ __forceinline__ void cluster_arrive() {
  asm volatile("barrier.cluster.arrive.release;" ::: "memory");
}
__device__ __forceinline__ void cluster_wait() {
  asm volatile("barrier.cluster.wait.acquire;" ::: "memory");
}

// The address of the same shared-memory variable in cluster block `rank`.
template <typename T>
__device__ __forceinline__ T* cluster_map(T* p, u32 rank) {
  u64 out;
  asm volatile("mapa.u64 %0, %1, %2;" : "=l"(out) : "l"(reinterpret_cast<u64>(p)), "r"(rank));
  return reinterpret_cast<T*>(out);
}

// Sixteen bytes at the same shared-memory address as `local`, in cluster block `rank`.
__device__ __forceinline__ F32x4 load_peer_f32x4(const F32x4* local, u32 rank) {
  F32x4 v;
  asm volatile(
      "{\n\t.reg .b32 remote;\n\t"
      "mapa.shared::cluster.u32 remote, %4, %5;\n\t"
      "ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [remote];\n\t}"
      : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
      : "r"(static_cast<u32>(__cvta_generic_to_shared(local))), "r"(rank)
      : "memory");
  return v;
}

}  // namespace tileops::dev::sm90
