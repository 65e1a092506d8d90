// How the swapped-operand GEMM cuts a call (swap_plan.hpp): tile rows and K splits in a cluster,
// from the SM count and how many clusters of each size fit. Runs on the CPU. The cluster counts are
// inputs of the H200's kind: on it, fewer than 32 clusters of 4 of these blocks (one an SM) fit at
// once, so the down projection's 128-row tiles went to clusters of 3
// (docs/perf/h200-cluster-split-2026-12-02); the counts below are illustrative, not its exact ones.
#include <gtest/gtest.h>

#include "kernels/cuda/gemm/swap_plan.hpp"

namespace tileops {
namespace {

using cuda::swap_plan_for;
using cuda::SwapPlan;

constexpr int kSms = 132;

// Clusters of s blocks that fit at once: fewer than sms / s from 4 up.
int64_t h200_slots(int, int s) {
  switch (s) {
    case 2:
      return 66;
    case 3:
      return 44;
    case 4:
      return 30;
    default:
      return 16 / (s / 4 + (s % 4 != 0));
  }
}

GemmCall linear(int64_t m, int64_t n, int64_t k, int64_t batch = 1) {
  GemmCall c;
  c.device = Device::cuda(0);
  c.dtype = DType::kBFloat16;
  c.m = m;
  c.n = n;
  c.k = k;
  c.batch = batch;
  c.trans_b = true;
  return c;
}

SwapPlan plan(const GemmCall& call) {
  return swap_plan_for(call, kSms, h200_slots);
}

TEST(SwapPlan, TheDownProjectionTakesHalfTilesInPairs) {
  // 32 tiles of 128 rows would want clusters of 4, which do not fit 32 at once: 64 tiles of 64
  // rows in pairs keep 128 blocks busy.
  const SwapPlan p = plan(linear(1, 4096, 14336));
  EXPECT_EQ(p.bm, 64);
  EXPECT_EQ(p.splits, 2);
  EXPECT_EQ(p.tiles, 64);
  EXPECT_LE(p.tiles, p.slots);
}

TEST(SwapPlan, EnoughTilesAreNotSplit) {
  const SwapPlan p = plan(linear(1, 13824, 5120));  // 108 tiles of 128 rows
  EXPECT_EQ(p.bm, 128);
  EXPECT_EQ(p.splits, 1);
  EXPECT_EQ(p.slots, kSms);
}

TEST(SwapPlan, FewTilesSplitUpToAWholeCluster) {
  const SwapPlan p = plan(linear(3, 300, 4104));  // 5 tiles of 64 rows, 65 k-tiles
  EXPECT_EQ(p.bm, 64);
  EXPECT_EQ(p.splits, 8);
}

TEST(SwapPlan, ShallowKIsNotSplitBelowFourKTilesABlock) {
  EXPECT_EQ(plan(linear(9, 520, 520)).splits, 2);  // 9 k-tiles
  EXPECT_EQ(plan(linear(1, 512, 448)).splits, 1);  // 7 k-tiles
}

TEST(SwapPlan, GatedTilesStayAtOneHundredAndTwentyEightRows) {
  GemmCall gate_up = linear(1, 4096, 4096);  // 2 x 4096 weight rows, 64 tiles of 64 + 64
  gate_up.gated = true;
  const SwapPlan p = plan(gate_up);
  EXPECT_EQ(p.bm, 128);
  EXPECT_EQ(p.tiles, 64);
  EXPECT_EQ(p.splits, 2);
}

TEST(SwapPlan, NoSplitWhereTheClustersWouldNotFitAtOnce) {
  // Without room for any cluster, the call runs unsplit, persistent over the SMs.
  const SwapPlan p = swap_plan_for(linear(1, 4096, 14336), kSms, [](int, int) { return 0; });
  EXPECT_EQ(p.splits, 1);
  EXPECT_EQ(p.slots, kSms);
  // Every split must fit all tiles' clusters: 32 tiles never take clusters of 4 when 30 fit.
  for (int bm : {128, 64}) {
    const SwapPlan q = plan(linear(1, bm * 32, 14336));
    EXPECT_TRUE(q.splits == 1 || q.tiles <= q.slots) << bm;
  }
}

TEST(SwapPlan, BatchesCountEveryProblemsTiles) {
  const SwapPlan p = plan(linear(16, 1000, 1024, 4));  // 4 x 16 tiles of 64 rows
  EXPECT_EQ(p.tiles, 64);
  EXPECT_EQ(p.splits, 2);
}

}  // namespace
}  // namespace tileops
