// LinearFwdOp, GatedLinearFwdOp and GatedMLPFwdOp on the GPU against the float64 references, every
// output element, outputs poisoned first, fresh random inputs each run (skipped without a GPU):
// each tail (bias, residual, both; silu, gelu, gelu_tanh) fused into each GEMM kernel that
// dispatch picks (skinny for m <= 32, the warp-specialised tensor-core kernel, split-K, and the
// CUDA-core fallback for fp32 and misaligned operands).
#include "support/cuda_support.hpp"
#include "tileops/framework/device_facts.hpp"
#include "tileops/ops/composite/gated_mlp_fwd_op.hpp"
#include "tileops/ops/gemm/gated_linear_fwd_op.hpp"
#include "tileops/ops/gemm/linear_fwd_op.hpp"

namespace tileops {
namespace {

using testing::cuda_matches_reference;

struct Mnk {
  int64_t m, n, k;
};

std::vector<std::optional<Shape>> linear_shapes(const Mnk& s, bool bias, bool residual) {
  return {Shape{s.m, s.k}, Shape{s.n, s.k}, bias ? std::optional<Shape>(Shape{s.n}) : std::nullopt,
          residual ? std::optional<Shape>(Shape{s.m, s.n}) : std::nullopt};
}

std::vector<std::optional<Shape>> gated_shapes(const Mnk& s) {
  return {Shape{s.m, s.k}, Shape{2 * s.n, s.k}};
}

struct Tail {
  bool bias, residual;
};
constexpr Tail kTails[] = {{true, false}, {false, true}, {true, true}};

// Shapes and the kernel dispatch should pick for them in 16-bit dtypes.
struct Case {
  Mnk shape;
  const char* kernel;
};
const Case kCases[] = {
    {{1, 4096, 4096}, "gemm_swap_sm90"},
    {{7, 1000, 520}, "gemm_skinny_cuda"},
    {{32, 17, 8}, "gemm_skinny_cuda"},
    {{33, 1000, 520}, "gemm_sm90_ws"},
    {{1000, 7, 136}, "gemm_sm90_ws"},
    {{4097, 520, 200}, "gemm_sm90_ws"},
    {{130, 1000, 4104}, "gemm_sm90_ws"},
    {{64, 1024, 4096}, "gemm_sm90_ws"},  // split-K
    // K = 4097: rows of 8194 bytes, which TMA cannot address, so the CUDA-core kernel serves.
    {{130, 1000, 4097}, "gemm_tiled_cuda"},
};

class CudaLinear : public ::testing::TestWithParam<DType> {
  testing::CublasLtSwitchedOff cublaslt_off_;  // these test tileops's own kernels
};

TEST_P(CudaLinear, EveryTailOnEveryKernel) {
  TILEOPS_REQUIRE_CUDA();
  const bool fp32 = GetParam() == DType::kFloat32;
  for (const Tail t : kTails) {
    LinearFwdOp op;
    for (const Case& c : kCases) {
      EXPECT_TRUE(
          cuda_matches_reference(op, linear_shapes(c.shape, t.bias, t.residual), GetParam()))
          << "bias=" << t.bias << " residual=" << t.residual << " " << c.shape.m << "x" << c.shape.n
          << "x" << c.shape.k;
      EXPECT_EQ(op.last_call()->served_by, std::string(fp32 ? "gemm_tiled_cuda" : c.kernel));
    }
  }
}

TEST_P(CudaLinear, MisalignedOperandsGoToTheFallbackWithTheirTail) {
  TILEOPS_REQUIRE_CUDA();
  LinearFwdOp op;
  EXPECT_TRUE(
      cuda_matches_reference(op, linear_shapes({96, 130, 256}, true, true), GetParam(), true));
  EXPECT_EQ(op.last_call()->served_by, "gemm_tiled_cuda");
}

TEST_P(CudaLinear, SplitKTileCarriesTheTail) {
  TILEOPS_REQUIRE_CUDA();
  LinearFwdOp op;
  EXPECT_TRUE(cuda_matches_reference(op, linear_shapes({64, 1024, 4096}, true, true), GetParam()));
  if (GetParam() != DType::kFloat32) {
    EXPECT_NE(op.kernel_config().find("split_k="), std::string::npos) << op.kernel_config();
  }
  GatedLinearFwdOp gated;
  EXPECT_TRUE(cuda_matches_reference(gated, gated_shapes({64, 1024, 4096}), GetParam()));
  if (GetParam() != DType::kFloat32) {
    EXPECT_NE(gated.kernel_config().find("split_k="), std::string::npos) << gated.kernel_config();
  }
}

// Between 33 and 128 tokens the rows the tile kernel would split K over 64x128 tiles go to the
// swapped kernel, with every tail (on the H200's 132 SMs; another SM count may choose otherwise);
// gated calls there stay with the tile kernel.
TEST_P(CudaLinear, MidMRowsTheTileKernelWouldSplitWideGoSwapped) {
  TILEOPS_REQUIRE_CUDA();
  if (GetParam() == DType::kFloat32) GTEST_SKIP() << "wgmma takes 16-bit inputs";
  const bool h200 = read_device_facts(Device::cuda(0)).sm_count == 132;
  for (const Mnk s : {Mnk{64, 2112, 7168}, Mnk{40, 2112, 7168}}) {
    for (const Tail t : kTails) {
      LinearFwdOp op;
      EXPECT_TRUE(cuda_matches_reference(op, linear_shapes(s, t.bias, t.residual), GetParam()))
          << s.m << "x" << s.n << "x" << s.k << " bias=" << t.bias << " residual=" << t.residual;
      if (h200) EXPECT_EQ(op.last_call()->served_by, "gemm_swap_sm90");
    }
    GatedLinearFwdOp gated;
    EXPECT_TRUE(cuda_matches_reference(gated, gated_shapes(s), GetParam()));
    EXPECT_EQ(gated.last_call()->served_by, "gemm_sm90_ws");
  }
}

TEST_P(CudaLinear, GatedEveryActivationOnEveryKernel) {
  TILEOPS_REQUIRE_CUDA();
  const bool fp32 = GetParam() == DType::kFloat32;
  for (const char* act : {"silu", "gelu", "gelu_tanh"}) {
    GatedLinearFwdOp op({.activation = act});
    for (const Case& c : kCases) {
      EXPECT_TRUE(cuda_matches_reference(op, gated_shapes(c.shape), GetParam()))
          << act << " " << c.shape.m << "x" << c.shape.n << "x" << c.shape.k;
      EXPECT_EQ(op.last_call()->served_by, std::string(fp32 ? "gemm_tiled_cuda" : c.kernel));
    }
    EXPECT_TRUE(cuda_matches_reference(op, gated_shapes({40, 300, 96}), GetParam(), true));
    EXPECT_EQ(op.last_call()->served_by, "gemm_tiled_cuda");
  }
}

TEST_P(CudaLinear, GatedMLPRunsAsTwoGemms) {
  TILEOPS_REQUIRE_CUDA();
  GatedMLPFwdOp op;
  for (int64_t m : {3, 200}) {
    EXPECT_TRUE(
        cuda_matches_reference(op, {Shape{m, 256}, Shape{1024, 256}, Shape{256, 512}}, GetParam()));
    ASSERT_EQ(op.last_call()->stages.size(), 2u);
    const bool fp32 = GetParam() == DType::kFloat32;
    const char* kernel = fp32 ? "gemm_tiled_cuda" : m <= 32 ? "gemm_skinny_cuda" : "gemm_sm90_ws";
    EXPECT_EQ(op.last_call()->stages[0].record->served_by, kernel);
    EXPECT_EQ(op.last_call()->stages[1].record->served_by, kernel);
  }
}

INSTANTIATE_TEST_SUITE_P(Dtypes, CudaLinear,
                         ::testing::Values(DType::kFloat16, DType::kBFloat16, DType::kFloat32),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

}  // namespace
}  // namespace tileops
