// BmmFwdOp on the GPU against the float64 reference, every output element, outputs poisoned
// first, fresh random inputs each run (skipped without a GPU): the batch walked inside one launch
// of the tensor-core kernel (3-D TMA maps) in every layout, with split-K, of the skinny kernel
// and of the CUDA-core fallback.
#include "support/cuda_support.hpp"
#include "tileops/framework/device_facts.hpp"
#include "tileops/ops/gemm/bmm_fwd_op.hpp"

namespace tileops {
namespace {

using testing::cuda_matches_reference;

std::vector<std::optional<Shape>> bmm_shapes(int64_t batch, int64_t m, int64_t n, int64_t k,
                                             bool ta, bool tb) {
  return {ta ? Shape{batch, k, m} : Shape{batch, m, k},
          tb ? Shape{batch, n, k} : Shape{batch, k, n}};
}

// What dispatch should pick: fp32 stays on CUDA cores; a linear-layer layout with m <= 32 takes
// the skinny kernel, or from k = 3072 the swapped one; TMA needs 16-byte leading dimensions (m or
// k of a, k or n of b).
std::string expected_kernel(bool fp32, bool ta, bool tb, int64_t m, int64_t n, int64_t k) {
  if (fp32) return "gemm_tiled_cuda";
  if (!ta && tb && m <= 32 && k % 8 == 0) return k >= 3072 ? "gemm_swap_sm90" : "gemm_skinny_cuda";
  const bool ld_ok = (ta ? m : k) % 8 == 0 && (tb ? k : n) % 8 == 0;
  return ld_ok ? "gemm_sm90_ws" : "gemm_tiled_cuda";
}

class CudaBmm : public ::testing::TestWithParam<DType> {
  testing::CublasLtSwitchedOff cublaslt_off_;  // these test tileops's own kernels
};

TEST_P(CudaBmm, EveryLayoutEdgeShapesAndSplitK) {
  TILEOPS_REQUIRE_CUDA();
  const bool fp32 = GetParam() == DType::kFloat32;
  struct Case {
    int64_t batch, m, n, k;
  };
  // K off the 64-deep k-tile (the next problem's rows must not leak in), M and N off the tile.
  const Case cases[] = {{3, 100, 72, 200}, {7, 1, 40, 24}, {2, 1000, 520, 136},
                        {5, 64, 64, 4104}, {2, 33, 17, 8}, {64, 128, 128, 64},
                        {1, 300, 300, 300}};
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      BmmFwdOp op({.trans_a = ta, .trans_b = tb});
      for (const Case& c : cases) {
        EXPECT_TRUE(
            cuda_matches_reference(op, bmm_shapes(c.batch, c.m, c.n, c.k, ta, tb), GetParam()))
            << "trans_a=" << ta << " trans_b=" << tb << " " << c.batch << "x" << c.m << "x" << c.n
            << "x" << c.k << " served by " << op.last_call()->served_by;
        EXPECT_EQ(op.last_call()->served_by, expected_kernel(fp32, ta, tb, c.m, c.n, c.k));
      }
    }
  }
}

TEST_P(CudaBmm, SplitKAcrossABatch) {
  TILEOPS_REQUIRE_CUDA();
  if (GetParam() == DType::kFloat32) GTEST_SKIP() << "fp32 runs on the CUDA-core kernel";
  BmmFwdOp op({.trans_a = false, .trans_b = true});
  EXPECT_TRUE(cuda_matches_reference(op, bmm_shapes(2, 64, 256, 8192, false, true), GetParam()));
  EXPECT_EQ(op.last_call()->served_by, "gemm_sm90_ws");
  EXPECT_NE(op.kernel_config().find("split_k="), std::string::npos) << op.kernel_config();
}

// Attention-shaped batches (64 heads): q @ k^T (k = 128) takes the widest tile without a
// cluster; p @ v (n = 128) a tile no wider than n, since a 256-column tile over n = 128 ran at
// 0.67x torch.bmm on the H200 against 0.97x for 128x128 (docs/perf/h200-a-multicast-2026-12-02).
TEST_P(CudaBmm, AttentionShapedBatchesPickTilesThatFitThem) {
  TILEOPS_REQUIRE_CUDA();
  if (GetParam() == DType::kFloat32) GTEST_SKIP() << "fp32 runs on the CUDA-core kernel";
  BmmFwdOp q_kt({.trans_b = true});
  EXPECT_TRUE(cuda_matches_reference(q_kt, bmm_shapes(64, 512, 512, 128, false, true), GetParam()));
  EXPECT_EQ(q_kt.last_call()->served_by, "gemm_sm90_ws");
  BmmFwdOp p_v;
  EXPECT_TRUE(cuda_matches_reference(p_v, bmm_shapes(64, 512, 128, 512, false, false), GetParam()));
  EXPECT_EQ(p_v.last_call()->served_by, "gemm_sm90_ws");
  // The choices measured on the H200 (132 SMs); other devices may choose otherwise.
  if (read_device_facts(Device::cuda(0)).sm_count == 132) {
    EXPECT_EQ(q_kt.kernel_config(), "tile=128x256x64/s4");
    EXPECT_EQ(p_v.kernel_config(), "tile=128x128x64/s6");
  }
}

TEST_P(CudaBmm, MisalignedGoesToTheFallback) {
  TILEOPS_REQUIRE_CUDA();
  BmmFwdOp op;
  EXPECT_TRUE(
      cuda_matches_reference(op, bmm_shapes(3, 40, 64, 96, false, false), GetParam(), true));
  EXPECT_EQ(op.last_call()->served_by, "gemm_tiled_cuda");
}

INSTANTIATE_TEST_SUITE_P(Dtypes, CudaBmm,
                         ::testing::Values(DType::kFloat16, DType::kBFloat16, DType::kFloat32),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

}  // namespace
}  // namespace tileops
