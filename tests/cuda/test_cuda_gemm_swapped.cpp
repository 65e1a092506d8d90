// The swapped-operand tensor-core GEMM (gemm_swap_sm90: the weight as wgmma's A, a few tokens as
// B) against the float64 references, every output element, outputs poisoned first, fresh random
// inputs each run (skipped without a GPU): m from 1 to 32 (token tiles of 8, 16 and 32), weight
// rows off the 128-row tile, K off the 64-deep k-tile, split-K, every tail and batches.
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "support/cuda_support.hpp"
#include "support/scoped_state.hpp"
#include "tileops/ops/gemm/bmm_fwd_op.hpp"
#include "tileops/ops/gemm/gated_linear_fwd_op.hpp"
#include "tileops/ops/gemm/gemm_fwd_op.hpp"
#include "tileops/ops/gemm/linear_fwd_op.hpp"

namespace tileops {
namespace {

using testing::cuda_matches_reference;

class CudaSwappedGemm : public ::testing::TestWithParam<DType> {
  testing::CublasLtSwitchedOff cublaslt_off_;
  testing::ScopedEnv swap_on_{"TILEOPS_GEMM_SWAP", "always"};
};

TEST_P(CudaSwappedGemm, FewTokensTimesAWeight) {
  TILEOPS_REQUIRE_CUDA();
  GemmFwdOp op;  // a [m, k] times a weight [n, k]
  for (int64_t m : {1, 7, 8, 9, 16, 17, 32}) {
    // 4096 x 4096 splits K; 1000 and 17 rows end inside a tile; k = 4104 ends inside a k-tile.
    for (auto [n, k] : {std::pair<int64_t, int64_t>{4096, 4096},
                        {1000, 520},
                        {17, 8},
                        {300, 4104},
                        {13824, 512}}) {
      EXPECT_TRUE(cuda_matches_reference(op, {Shape{m, k}, Shape{n, k}}, GetParam()))
          << m << "x" << n << "x" << k;
      EXPECT_EQ(op.last_call()->served_by, "gemm_swap_sm90") << m << "x" << n << "x" << k;
    }
  }
}

// K split over the blocks of a cluster, the partials summed in distributed shared memory: the
// 4096-row weights split in clusters of 2 or more (as many as the device holds one of for every
// tile); the 300-row weights in clusters of 8 (the most, with 5 tiles of 64 rows); 520 rows deep
// 520 in pairs (9 k-tiles).
TEST_P(CudaSwappedGemm, SplitsMeetInTheirCluster) {
  TILEOPS_REQUIRE_CUDA();
  GemmFwdOp op;
  for (auto [m, n, k, splits] : {std::tuple<int64_t, int64_t, int64_t, int>{1, 4096, 4096, 0},
                                 {16, 4096, 7168, 0},
                                 {3, 300, 4104, 8},
                                 {32, 300, 2048, 8},
                                 {9, 520, 520, 2}}) {
    EXPECT_TRUE(cuda_matches_reference(op, {Shape{m, k}, Shape{n, k}}, GetParam()))
        << m << "x" << n << "x" << k;
    const std::string config = op.kernel_config();
    const std::string want =
        splits > 0 ? fmt::format("split_k={} (cluster)", splits) : " (cluster)";
    EXPECT_NE(config.find(want), std::string::npos) << m << "x" << n << "x" << k << ": " << config;
  }
}

// Cuts forced through TILEOPS_GEMM_SWAP_PLAN, which dispatch reads when it builds the
// implementation: clusters of 8 (at most 132 / 8 = 16 fit at once) over 32 to 64 tiles of 64
// rows, and gated clusters of 4 over 224 tiles of 128, so each cluster walks several tiles, its
// producer loading the next tile's stages across the exchange. Bias, residual and a K tail too.
TEST_P(CudaSwappedGemm, ForcedCutsWalkSeveralWavesOfClusters) {
  TILEOPS_REQUIRE_CUDA();
  {
    testing::ScopedEnv cut("TILEOPS_GEMM_SWAP_PLAN", "64x8");
    GemmFwdOp op;
    LinearFwdOp linear;
    for (auto [m, n, k] : {std::tuple<int64_t, int64_t, int64_t>{1, 4096, 4096},
                           {5, 2000, 4104},
                           {32, 4096, 2048}}) {
      EXPECT_TRUE(cuda_matches_reference(op, {Shape{m, k}, Shape{n, k}}, GetParam()))
          << m << "x" << n << "x" << k;
      EXPECT_NE(op.kernel_config().find("tile=64x"), std::string::npos) << op.kernel_config();
      EXPECT_NE(op.kernel_config().find("split_k=8"), std::string::npos) << op.kernel_config();
    }
    EXPECT_TRUE(cuda_matches_reference(
        linear, {Shape{3, 4104}, Shape{2000, 4104}, Shape{2000}, Shape{3, 2000}}, GetParam()))
        << "bias and residual";
    EXPECT_NE(linear.kernel_config().find("split_k=8"), std::string::npos);
  }
  testing::ScopedEnv cut("TILEOPS_GEMM_SWAP_PLAN", "128x4");
  GatedLinearFwdOp gated({.activation = "silu"});
  EXPECT_TRUE(cuda_matches_reference(gated, {Shape{1, 4096}, Shape{2 * 14336, 4096}}, GetParam()));
  EXPECT_NE(gated.kernel_config().find("split_k=4"), std::string::npos) << gated.kernel_config();
}

// A token tile forced below the plan's (TILEOPS_GEMM_SWAP_PLAN=<rows>x<splits>t<tokens>): the
// tokens fill several tile columns, the last one partly, each split in its cluster or not.
TEST_P(CudaSwappedGemm, ForcedTokenTilesCoverEveryToken) {
  TILEOPS_REQUIRE_CUDA();
  for (const char* cut : {"128x3t64", "64x2t32", "128x1t16"}) {
    testing::ScopedEnv forced("TILEOPS_GEMM_SWAP_PLAN", cut);
    const int tokens = std::atoi(std::strchr(cut, 't') + 1);
    GemmFwdOp op;
    LinearFwdOp linear;
    for (auto [m, n, k] : {std::tuple<int64_t, int64_t, int64_t>{128, 2112, 1024},
                           {100, 1000, 4104},
                           {tokens + 1, 300, 520}}) {
      EXPECT_TRUE(cuda_matches_reference(op, {Shape{m, k}, Shape{n, k}}, GetParam()))
          << cut << " " << m << "x" << n << "x" << k;
      EXPECT_NE(op.kernel_config().find(fmt::format("x{}x64/", tokens)), std::string::npos)
          << cut << ": " << op.kernel_config();
    }
    EXPECT_TRUE(cuda_matches_reference(
        linear, {Shape{70, 1032}, Shape{520, 1032}, Shape{520}, Shape{70, 520}}, GetParam()))
        << "bias and residual " << cut;
    // Gated tiles are 128 rows: "64x2" is no cut for them, so they run 128 rows unsplit.
    GatedLinearFwdOp gated({.activation = "silu"});
    EXPECT_TRUE(
        cuda_matches_reference(gated, {Shape{tokens + 9, 1024}, Shape{2 * 300, 1024}}, GetParam()))
        << "gated " << cut;
    EXPECT_NE(gated.kernel_config().find(fmt::format("x{}x64/", tokens)), std::string::npos)
        << cut << ": " << gated.kernel_config();
  }
}

// Token tiles of 64 and 128 (m from 33 to 128), served only when asked for (TILEOPS_GEMM_SWAP=
// always): plain, split in a cluster, with bias and residual, and gated.
TEST_P(CudaSwappedGemm, UpToAHundredAndTwentyEightTokens) {
  TILEOPS_REQUIRE_CUDA();
  GemmFwdOp op;
  LinearFwdOp linear;
  GatedLinearFwdOp gated({.activation = "silu"});
  for (int64_t m : {33, 64, 65, 100, 128}) {
    for (auto [n, k] : {std::pair<int64_t, int64_t>{1000, 520}, {300, 4104}, {2112, 1024}}) {
      EXPECT_TRUE(cuda_matches_reference(op, {Shape{m, k}, Shape{n, k}}, GetParam()))
          << m << "x" << n << "x" << k;
      EXPECT_EQ(op.last_call()->served_by, "gemm_swap_sm90") << m << "x" << n << "x" << k;
    }
    EXPECT_TRUE(cuda_matches_reference(
        linear, {Shape{m, 264}, Shape{520, 264}, Shape{520}, Shape{m, 520}}, GetParam()))
        << "bias and residual " << m;
    EXPECT_EQ(linear.last_call()->served_by, "gemm_swap_sm90");
    EXPECT_TRUE(cuda_matches_reference(gated, {Shape{m, 1024}, Shape{2 * 300, 1024}}, GetParam()))
        << "gated " << m;
    EXPECT_EQ(gated.last_call()->served_by, "gemm_swap_sm90");
  }
}

TEST_P(CudaSwappedGemm, EveryTailAndGatedActivation) {
  TILEOPS_REQUIRE_CUDA();
  LinearFwdOp linear;
  for (auto [m, n, k] :
       {std::tuple<int64_t, int64_t, int64_t>{1, 4096, 4096}, {5, 1000, 520}, {32, 300, 136}}) {
    EXPECT_TRUE(cuda_matches_reference(linear, {Shape{m, k}, Shape{n, k}, Shape{n}}, GetParam()))
        << "bias " << m << "x" << n << "x" << k;
    EXPECT_TRUE(cuda_matches_reference(linear, {Shape{m, k}, Shape{n, k}, Shape{n}, Shape{m, n}},
                                       GetParam()))
        << "bias and residual " << m << "x" << n << "x" << k;
    EXPECT_EQ(linear.last_call()->served_by, "gemm_swap_sm90");
    for (const char* act : {"silu", "gelu", "gelu_tanh"}) {
      GatedLinearFwdOp gated({.activation = act});
      EXPECT_TRUE(cuda_matches_reference(gated, {Shape{m, k}, Shape{2 * n, k}}, GetParam()))
          << act << " " << m << "x" << n << "x" << k;
      EXPECT_EQ(gated.last_call()->served_by, "gemm_swap_sm90");
    }
  }
}

TEST_P(CudaSwappedGemm, BatchesKeepTheirProblemsApart) {
  TILEOPS_REQUIRE_CUDA();
  BmmFwdOp bmm({.trans_b = true});
  for (auto [b, m, n, k] :
       {std::tuple<int64_t, int64_t, int64_t, int64_t>{3, 5, 200, 264}, {4, 16, 1000, 1024}}) {
    EXPECT_TRUE(cuda_matches_reference(bmm, {Shape{b, m, k}, Shape{b, n, k}}, GetParam()))
        << b << "x" << m << "x" << n << "x" << k;
    EXPECT_EQ(bmm.last_call()->served_by, "gemm_swap_sm90");
  }
}

INSTANTIATE_TEST_SUITE_P(Dtypes, CudaSwappedGemm,
                         ::testing::Values(DType::kFloat16, DType::kBFloat16),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

}  // namespace
}  // namespace tileops
