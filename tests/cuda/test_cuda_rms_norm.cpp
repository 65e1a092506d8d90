// RMSNormFwdOp on CUDA against the float64 reference (skipped without a GPU).
#include "support/cuda_support.hpp"
#include "tileops/ops/normalization/rms_norm_fwd_op.hpp"

namespace tileops {
namespace {

using testing::cuda_matches_reference;

class RMSNormCuda : public ::testing::TestWithParam<DType> {};

TEST_P(RMSNormCuda, MatchesReferenceAcrossShapes) {
  TILEOPS_REQUIRE_CUDA();
  // Few rows of whole packs take a register-row variant: 4096 and 8192 a pack a thread (8192 two
  // in float32), 4104 with idle threads in the block, 12296 and 16384 two packs a thread in
  // 16-bit types (float32: the generic kernel).
  for (int64_t n : {4096, 4104, 8192, 12296, 16384, 1003, 7, 1}) {
    for (int64_t rows : {1, 5, 2048}) {
      RMSNormFwdOp op({.normalized_shape = {n}});
      EXPECT_TRUE(cuda_matches_reference(op, {Shape{rows, n}, Shape{n}}, GetParam()));
    }
  }
}

TEST_P(RMSNormCuda, MisalignedPointersUseTheNarrowPath) {
  TILEOPS_REQUIRE_CUDA();
  RMSNormFwdOp op({.normalized_shape = {4096}});
  EXPECT_TRUE(cuda_matches_reference(op, {Shape{3, 4096}, Shape{4096}}, GetParam(), true));
}

INSTANTIATE_TEST_SUITE_P(Dtypes, RMSNormCuda,
                         ::testing::Values(DType::kFloat16, DType::kBFloat16, DType::kFloat32),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

}  // namespace
}  // namespace tileops
