// BmmFwdOp on the CPU against the float64 reference: every transpose, batches of matrix-vector
// and blocked problems, empty batches and reductions, and its shape errors.
#include "support/test_support.hpp"
#include "tileops/ops/gemm/bmm_fwd_op.hpp"

namespace tileops {
namespace {

using testing::matches_reference;

std::vector<std::optional<Shape>> bmm_shapes(int64_t batch, int64_t m, int64_t n, int64_t k,
                                             bool ta, bool tb) {
  return {ta ? Shape{batch, k, m} : Shape{batch, m, k},
          tb ? Shape{batch, n, k} : Shape{batch, k, n}};
}

class BmmCpu : public ::testing::TestWithParam<DType> {};

TEST_P(BmmCpu, EveryTransposeMatchesReference) {
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "trans_a=" << ta << " trans_b=" << tb);
      BmmFwdOp op({.trans_a = ta, .trans_b = tb});
      EXPECT_TRUE(matches_reference(op, bmm_shapes(3, 17, 33, 65, ta, tb), GetParam()));
      EXPECT_TRUE(matches_reference(op, bmm_shapes(5, 1, 40, 24, ta, tb), GetParam()));  // gemv
      EXPECT_TRUE(matches_reference(op, bmm_shapes(4, 9, 1, 24, ta, tb), GetParam()));
      EXPECT_TRUE(matches_reference(op, bmm_shapes(1, 70, 150, 300, ta, tb), GetParam()));
    }
  }
}

TEST_P(BmmCpu, EmptyBatchAndEmptyReduction) {
  BmmFwdOp op;
  EXPECT_TRUE(matches_reference(op, bmm_shapes(0, 4, 5, 6, false, false), GetParam()));
  EXPECT_TRUE(matches_reference(op, bmm_shapes(3, 4, 5, 0, false, false), GetParam()));
}

TEST_P(BmmCpu, WritesEveryOutputElement) {
  BmmFwdOp op({.trans_a = false, .trans_b = true});
  EXPECT_TRUE(
      testing::writes_every_element(op, bmm_shapes(3, 33, 65, 40, false, true), GetParam()));
  EXPECT_TRUE(testing::writes_every_element(op, bmm_shapes(3, 1, 65, 40, false, true), GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Dtypes, BmmCpu,
                         ::testing::Values(DType::kFloat16, DType::kBFloat16, DType::kFloat32),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

TEST(BmmErrors, RejectsMismatchedBatchesReductionsAndRanks) {
  BmmFwdOp op;
  const Tensor a = random_tensor(Shape{2, 4, 6}, DType::kFloat32, 1);
  EXPECT_NO_THROW(op(a, random_tensor(Shape{2, 6, 5}, DType::kFloat32, 2)));
  EXPECT_THROW(op(a, random_tensor(Shape{3, 6, 5}, DType::kFloat32, 2)), ShapeError);
  EXPECT_THROW(op(a, random_tensor(Shape{2, 7, 5}, DType::kFloat32, 2)), ShapeError);
  EXPECT_THROW(op(a, random_tensor(Shape{6, 5}, DType::kFloat32, 2)), ShapeError);
  EXPECT_THROW(op(a, random_tensor(Shape{2, 6, 5}, DType::kBFloat16, 2)), DTypeError);
}

TEST(BmmRoofline, CountsEveryProblem) {
  BmmFwdOp op;
  op(random_tensor(Shape{3, 4, 6}, DType::kBFloat16, 1),
     random_tensor(Shape{3, 6, 5}, DType::kBFloat16, 2));
  EXPECT_EQ(op.eval_roofline(),
            (RooflineValue{2 * 3 * 4 * 5 * 6, 3 * (4 * 6 + 5 * 6 + 4 * 5) * 2}));
}

}  // namespace
}  // namespace tileops
