// Elementwise ops, RoPE and GEMM on CUDA against the float64 reference (skipped without a GPU).
#include "support/cuda_support.hpp"
#include "tileops/ops/elementwise/add_fwd_op.hpp"
#include "tileops/ops/elementwise/gelu_and_mul_fwd_op.hpp"
#include "tileops/ops/elementwise/gelu_tanh_and_mul_fwd_op.hpp"
#include "tileops/ops/elementwise/silu_and_mul_fwd_op.hpp"
#include "tileops/ops/gemm/gemm_fwd_op.hpp"
#include "tileops/ops/position_encoding/rope_neox_fwd_op.hpp"

namespace tileops {
namespace {

using testing::cuda_matches_reference;

class CudaElementwise : public ::testing::TestWithParam<DType> {};

TEST_P(CudaElementwise, SiluAndMul) {
  TILEOPS_REQUIRE_CUDA();
  SiluAndMulFwdOp op;
  // Widths off the pack take one element a step, the flat index split by the fast divisor:
  // rows of 1003, 4095 and 7 outputs, and one output a row.
  for (const Shape& x :
       {Shape{1, 28672}, Shape{2048, 28672}, Shape{7, 2006}, Shape{3, 2}, Shape{2048, 2 * 4095},
        Shape{65536, 14}, Shape{70001, 2}, Shape{4, 33, 2 * 1000}, Shape{2 * 777}}) {
    EXPECT_TRUE(cuda_matches_reference(op, {x}, GetParam())) << x.str();
  }
  EXPECT_TRUE(cuda_matches_reference(op, {Shape{5, 4096}}, GetParam(), true));
}

// The other gated activations share SiluAndMul's kernel source, parameterised by the activation.
TEST_P(CudaElementwise, GeluAndMulAndGeluTanhAndMul) {
  TILEOPS_REQUIRE_CUDA();
  GeluAndMulFwdOp gelu;
  GeluTanhAndMulFwdOp gelu_tanh;
  for (Op* op : std::initializer_list<Op*>{&gelu, &gelu_tanh}) {
    for (const Shape& x : {Shape{1, 49152}, Shape{257, 2 * 1024}, Shape{7, 2006}, Shape{3, 2}}) {
      EXPECT_TRUE(cuda_matches_reference(*op, {x}, GetParam())) << op->name();
    }
    EXPECT_TRUE(cuda_matches_reference(*op, {Shape{5, 4096}}, GetParam(), true)) << op->name();
  }
}

// Rows of 256 outputs or more off the 16-byte pack, 2^22 outputs or more in all, take the staged
// kernel: each of its spans (gate, up, output) starts at its own offset from a 16-byte boundary;
// rows of at most 768 16-bit columns (384 float32) run eight to a block, of at most 2048 (1024)
// four to a block, with a last block of fewer rows (16385, 8193, 4097, 5463, 2731 rows); wider
// rows span several chunks of a block (4096 columns in 16-bit types, 2048 in float32), and the
// last chunk is partial (4097: one column).
TEST_P(CudaElementwise, GatedActivationsOffThePackTakeTheStagedKernel) {
  TILEOPS_REQUIRE_CUDA();
  SiluAndMulFwdOp silu;
  GeluAndMulFwdOp gelu;
  GeluTanhAndMulFwdOp gelu_tanh;
  for (Op* op : std::initializer_list<Op*>{&silu, &gelu, &gelu_tanh}) {
    const std::string staged = std::string(op->name() == silu.name()   ? "silu"
                                           : op->name() == gelu.name() ? "gelu"
                                                                       : "gelu_tanh") +
                               "_and_mul_staged_cuda";
    for (const Shape& x : {Shape{16385, 2 * 257}, Shape{8193, 2 * 513}, Shape{6000, 2 * 767},
                           Shape{5463, 2 * 769}, Shape{4097, 2 * 1025}, Shape{2731, 2 * 1537},
                           Shape{2050, 2 * 2047}, Shape{2048, 2 * 2049}, Shape{1025, 2 * 4095},
                           Shape{1024, 2 * 4097}, Shape{342, 2 * 12289}, Shape{4, 320, 2 * 3301}}) {
      for (bool misaligned : {false, true}) {
        EXPECT_TRUE(cuda_matches_reference(*op, {x}, GetParam(), misaligned))
            << op->name() << " " << x.str() << (misaligned ? " misaligned" : "");
        ASSERT_TRUE(op->last_call().has_value());
        EXPECT_EQ(op->last_call()->served_by, staged) << x.str();
      }
    }
    // Narrower rows and small calls stay with the flat kernel.
    for (const Shape& x : {Shape{20000, 2 * 255}, Shape{1000, 2 * 4097}}) {
      EXPECT_TRUE(cuda_matches_reference(*op, {x}, GetParam()));
      EXPECT_NE(op->last_call()->served_by, staged) << x.str();
    }
  }
}

TEST_P(CudaElementwise, AddSameShapeAndBroadcast) {
  TILEOPS_REQUIRE_CUDA();
  AddFwdOp op;
  EXPECT_TRUE(cuda_matches_reference(op, {Shape{2048, 4096}, Shape{2048, 4096}}, GetParam()));
  EXPECT_TRUE(cuda_matches_reference(op, {Shape{1, 4097}, Shape{1, 4097}}, GetParam()));
  EXPECT_TRUE(cuda_matches_reference(op, {Shape{999}, Shape{999}}, GetParam(), true));
  EXPECT_TRUE(cuda_matches_reference(op, {Shape{16, 256, 56, 56}, Shape{256, 1, 1}}, GetParam()));
  EXPECT_TRUE(cuda_matches_reference(op, {Shape{3, 1, 5}, Shape{4, 1}}, GetParam()));
  // The vectorised broadcast path: a broadcast inner dim, a broadcast middle dim of either
  // operand, a row vector, both operands broadcast, and a misaligned fallback.
  EXPECT_TRUE(cuda_matches_reference(op, {Shape{2, 3, 16, 8}, Shape{3, 1, 1}}, GetParam()));
  EXPECT_TRUE(cuda_matches_reference(op, {Shape{4, 1, 16}, Shape{4, 3, 16}}, GetParam()));
  EXPECT_TRUE(cuda_matches_reference(op, {Shape{64, 1024}, Shape{1024}}, GetParam()));
  EXPECT_TRUE(cuda_matches_reference(op, {Shape{5, 1, 32}, Shape{1, 6, 32}}, GetParam()));
  EXPECT_TRUE(cuda_matches_reference(op, {Shape{7, 1, 1}, Shape{1, 9, 16}}, GetParam()));
  EXPECT_TRUE(
      cuda_matches_reference(op, {Shape{16, 256, 56, 56}, Shape{256, 1, 1}}, GetParam(), true));
  EXPECT_TRUE(cuda_matches_reference(op, {Shape{1, 1, 1}, Shape{1}}, GetParam()));
  AddFwdOp scaled({.alpha = -2.5});
  EXPECT_TRUE(cuda_matches_reference(scaled, {Shape{33, 17}, Shape{17}}, GetParam()));
}

TEST_P(CudaElementwise, RopeNeox) {
  TILEOPS_REQUIRE_CUDA();
  RopeNeoxFwdOp one_d;
  EXPECT_TRUE(cuda_matches_reference(one_d, {Shape{4096, 128}}, GetParam()));
  EXPECT_TRUE(cuda_matches_reference(one_d, {Shape{1, 64}}, GetParam()));
  EXPECT_TRUE(cuda_matches_reference(one_d, {Shape{37, 6}}, GetParam(), true));
  RopeNeoxFwdOp two_d({.layout = "2d", .base = 500000.0});
  EXPECT_TRUE(cuda_matches_reference(two_d, {Shape{2, 2048, 32, 128}}, GetParam()));
}

TEST_P(CudaElementwise, GemmEveryTranspose) {
  TILEOPS_REQUIRE_CUDA();
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      GemmFwdOp op({.trans_a = ta, .trans_b = tb});
      const int64_t m = 67, n = 129, k = 255;
      EXPECT_TRUE(cuda_matches_reference(
          op, {ta ? Shape{k, m} : Shape{m, k}, tb ? Shape{n, k} : Shape{k, n}}, GetParam()));
    }
  }
  GemmFwdOp decode;
  EXPECT_TRUE(cuda_matches_reference(decode, {Shape{1, 4096}, Shape{4096, 4096}}, GetParam()));
  EXPECT_TRUE(
      cuda_matches_reference(decode, {Shape{128, 2048}, Shape{512, 2048}}, GetParam(), true));
}

INSTANTIATE_TEST_SUITE_P(Dtypes, CudaElementwise,
                         ::testing::Values(DType::kFloat16, DType::kBFloat16, DType::kFloat32),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

}  // namespace
}  // namespace tileops
