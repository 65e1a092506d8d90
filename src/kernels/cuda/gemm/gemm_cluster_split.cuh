// Split-K inside a thread-block cluster (SPLIT_IN_CLUSTER in gemm_sm90_ws.cu): the S blocks of a
// cluster take the S k-shares of one tile, block rank r share r. Every block but the first leaves
// each consumer's fp32 partial in its own shared memory; the first sums the partials in rank order
// onto its own (the split-order sum the workspace path computes, bit for bit) and stores the tile.
// There is no workspace, no counter to reset before the launch, and no round trip through the L2.
//
// Two cluster barriers a tile pace the exchange: the first after the partials are written, the
// second after the first block has read them (a peer may then rewrite its buffer or exit). Every
// thread of the cluster takes part in both, the producer warpgroup too (split_tile_barriers).
#pragma once

#include "device/sm90/cluster.cuh"
#include "device/sm90/warpgroup.cuh"
#include "device/vec.cuh"

namespace tileops::dev::sm90 {

constexpr int kMaxClusterSplits = 8;  // the portable cluster size

// A thread's part in a tile's exchange when it holds no partial (the producer warpgroup).
__device__ __forceinline__ void split_tile_barriers() {
  cluster_arrive();
  cluster_wait();
  cluster_arrive();
  cluster_wait();
}

// One consumer's side of the exchange. buffer: ACC * 128 floats of this block's shared memory,
// at the same offset in every block of the cluster.
template <int ACC>
struct ClusterSplitK {
  static_assert(ACC % 4 == 0, "whole 16-byte pieces of a thread's accumulators");
  static constexpr int kPieces = ACC / 4;
  // Peers whose partials are read together, so that about eight 16-byte loads are in flight.
  static constexpr int kPeersAtOnce = kPieces < 8 ? 8 / kPieces : 1;

  float* buffer;
  u32 rank, splits;

  // True in the first block, whose acc then holds the whole tile's sum; false in the others,
  // which have handed their partial over and store nothing.
  __device__ __forceinline__ bool reduce(float (&acc)[ACC]) const {
    F32x4* const mine = reinterpret_cast<F32x4*>(buffer) + warpgroup_thread();
    if (rank != 0) {
#pragma unroll
      for (int q = 0; q < kPieces; ++q) {
        mine[q * kWarpgroupThreads] =
            F32x4{acc[4 * q], acc[4 * q + 1], acc[4 * q + 2], acc[4 * q + 3]};
      }
    }
    cluster_arrive();
    cluster_wait();
    if (rank == 0) {
#pragma unroll
      for (int r0 = 1; r0 < kMaxClusterSplits; r0 += kPeersAtOnce) {
        if (r0 >= static_cast<int>(splits)) break;
        F32x4 v[kPeersAtOnce][kPieces];
#pragma unroll
        for (int a = 0; a < kPeersAtOnce; ++a) {
          if (r0 + a >= static_cast<int>(splits)) break;
#pragma unroll
          for (int q = 0; q < kPieces; ++q) {
            v[a][q] = load_peer_f32x4(mine + q * kWarpgroupThreads, static_cast<u32>(r0 + a));
          }
        }
#pragma unroll
        for (int a = 0; a < kPeersAtOnce; ++a) {
          if (r0 + a >= static_cast<int>(splits)) break;
#pragma unroll
          for (int q = 0; q < kPieces; ++q) {
            acc[4 * q] += v[a][q].x;
            acc[4 * q + 1] += v[a][q].y;
            acc[4 * q + 2] += v[a][q].z;
            acc[4 * q + 3] += v[a][q].w;
          }
        }
      }
    }
    cluster_arrive();
    cluster_wait();
    return rank == 0;
  }
};

}  // namespace tileops::dev::sm90
