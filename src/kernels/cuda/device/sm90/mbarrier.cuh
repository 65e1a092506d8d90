// mbarrier: the shared-memory barrier that TMA loads complete on and that producer and consumer
// warpgroups hand pipeline stages over with. A barrier counts arrivals and, for TMA, transaction
// bytes; each completion flips its phase, and waiters name the parity of the phase they wait for.
#pragma once

#include "device/numeric.cuh"

namespace tileops::dev::sm90 {

__device__ __forceinline__ u32 smem_u32(const void* p) {
  return static_cast<u32>(__cvta_generic_to_shared(p));
}

// One thread initialises; the barrier completes a phase after `arrivals` arrivals (and all
// expected transaction bytes).
__device__ __forceinline__ void mbar_init(u64* bar, u32 arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(bar)), "r"(arrivals)
               : "memory");
}

// Makes initialised barriers visible to the async proxy (TMA) and the rest of the cluster.
__device__ __forceinline__ void mbar_fence_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

__device__ __forceinline__ void mbar_arrive(u64* bar) {
  asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0], 1;" ::"r"(smem_u32(bar))
               : "memory");
}

// Arrives and announces `bytes` that asynchronous copies will complete on this phase.
__device__ __forceinline__ void mbar_arrive_expect_tx(u64* bar, u32 bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(bar)),
               "r"(bytes)
               : "memory");
}

// Arrives on the barrier at the same offset in the shared memory of cluster block `cta`. The
// cluster-scope release makes this thread's earlier writes visible to the peer; it cost about
// 0.8 us an arrival on the H200, so a pipeline that hands a stage back every k-tile (its reads
// already waited for) wants a block-scope release instead (docs/perf/h200-cluster-2026-12-01).
__device__ __forceinline__ void mbar_arrive_cluster(u64* bar, u32 cta) {
  asm volatile(
      "{\n\t.reg .b32 remote;\n\t"
      "mapa.shared::cluster.u32 remote, %0, %1;\n\t"
      "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remote], 1;\n\t}" ::"r"(
          smem_u32(bar)),
      "r"(cta)
      : "memory");
}

// Arrives on the barrier at the same offset in cluster block `cta` (this block's own rank
// included) with a block-scope release, as a pipeline hands back a stage whose reads it has
// already waited for (wgmma_wait): nothing of this thread's needs publishing to the peer, and it
// avoids the cluster-scope release's cost.
__device__ __forceinline__ void mbar_arrive_peer(u64* bar, u32 cta) {
  asm volatile(
      "{\n\t.reg .b32 remote;\n\t"
      "mapa.shared::cluster.u32 remote, %0, %1;\n\t"
      "mbarrier.arrive.release.cta.shared::cluster.b64 _, [remote], 1;\n\t}" ::"r"(smem_u32(bar)),
      "r"(cta)
      : "memory");
}

// Whether the phase of parity `parity` has completed (a bounded wait in hardware).
__device__ __forceinline__ bool mbar_try_wait(u64* bar, u32 parity) {
  u32 done;
  asm volatile(
      "{\n\t.reg .pred p;\n\t"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
      "selp.u32 %0, 1, 0, p;\n\t}"
      : "=r"(done)
      : "r"(smem_u32(bar)), "r"(parity)
      : "memory");
  return done != 0;
}

__device__ __forceinline__ void mbar_wait(u64* bar, u32 parity) {
  while (!mbar_try_wait(bar, parity)) {
  }
}

}  // namespace tileops::dev::sm90
