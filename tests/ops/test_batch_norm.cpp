// BatchNormFwdOp on the CPU against the float64 reference: outputs and updated running stats,
// dispatch between the two training kernels, and the op's error cases.
#include <cstring>

#include "support/test_support.hpp"
#include "tileops/core/error.hpp"
#include "tileops/ops/normalization/batch_norm_fwd_op.hpp"

namespace tileops {
namespace {

using testing::matches_reference;

// Shapes of (x, running_mean, running_var, weight, bias) for x with c channels.
std::vector<std::optional<Shape>> shapes(const Shape& x, bool affine) {
  const Shape c{x[1]};
  if (!affine) return {x, c, c, std::nullopt, std::nullopt};
  return {x, c, c, c, c};
}

bool same_bytes(const Tensor& a, const Tensor& b) {
  return a.nbytes() == b.nbytes() && std::memcmp(a.data(), b.data(), a.nbytes()) == 0;
}

Tensor copy_of(const Tensor& t) {
  Tensor c = Tensor::empty(t.shape(), t.dtype());
  c.copy_from(t);
  return c;
}

class BatchNormCpu : public ::testing::TestWithParam<DType> {};

TEST_P(BatchNormCpu, TrainRowsMatchesReference) {
  BatchNormFwdOp op({.training = true});
  EXPECT_TRUE(matches_reference(op, shapes(Shape{32, 64}, true), GetParam()));
  EXPECT_EQ(op.last_call()->served_by, "batch_norm_train_cpu_rows");
}

TEST_P(BatchNormCpu, TrainRowsOddSizesMatchReference) {
  BatchNormFwdOp op({.training = true, .momentum = 0.3, .eps = 1e-3});
  EXPECT_TRUE(matches_reference(op, shapes(Shape{7, 1003}, false), GetParam()));
  EXPECT_TRUE(matches_reference(op, shapes(Shape{1003, 7}, true), GetParam()));
  EXPECT_TRUE(matches_reference(op, shapes(Shape{2, 1}, true), GetParam()));
}

TEST_P(BatchNormCpu, TrainSpatialMatchesReference) {
  BatchNormFwdOp op({.training = true});
  EXPECT_TRUE(matches_reference(op, shapes(Shape{3, 5, 7, 9}, true), GetParam()));
  EXPECT_EQ(op.last_call()->served_by, "batch_norm_train_cpu");
  EXPECT_TRUE(matches_reference(op, shapes(Shape{1, 3, 2}, false), GetParam()));
  EXPECT_TRUE(matches_reference(op, shapes(Shape{2, 4, 3, 1, 5}, true), GetParam()));
}

TEST_P(BatchNormCpu, TrainOneChannelManyValuesMatchesReference) {
  BatchNormFwdOp op({.training = true, .momentum = 1.0});
  EXPECT_TRUE(matches_reference(op, shapes(Shape{4, 1, 20000}, true), GetParam()));
  EXPECT_TRUE(matches_reference(op, shapes(Shape{50000, 1}, true), GetParam()));
}

TEST_P(BatchNormCpu, TrainLargeMatchesReference) {
  BatchNormFwdOp op({.training = true});
  EXPECT_TRUE(matches_reference(op, shapes(Shape{8, 64, 32, 32}, true), GetParam()));
}

TEST_P(BatchNormCpu, InferMatchesReference) {
  BatchNormFwdOp op({.training = false});
  EXPECT_TRUE(matches_reference(op, shapes(Shape{4, 25, 7, 7}, false), GetParam()));
  EXPECT_EQ(op.last_call()->served_by, "batch_norm_infer_cpu");
  EXPECT_TRUE(matches_reference(op, shapes(Shape{7, 1003}, true), GetParam()));
  EXPECT_TRUE(matches_reference(op, shapes(Shape{1, 3}, true), GetParam()));
  EXPECT_TRUE(matches_reference(op, shapes(Shape{2, 16, 28, 28}, true), GetParam()));
}

TEST_P(BatchNormCpu, WeightOrBiasAloneMatchesReference) {
  BatchNormFwdOp op({.training = true});
  EXPECT_TRUE(matches_reference(op, {Shape{6, 5, 4}, Shape{5}, Shape{5}, Shape{5}, std::nullopt},
                                GetParam()));
  EXPECT_TRUE(matches_reference(op, {Shape{6, 5, 4}, Shape{5}, Shape{5}, std::nullopt, Shape{5}},
                                GetParam()));
}

TEST_P(BatchNormCpu, EmptyBatchLeavesRunningStats) {
  BatchNormFwdOp op({.training = true});
  EXPECT_TRUE(matches_reference(op, shapes(Shape{0, 4}, true), GetParam()));
  EXPECT_TRUE(matches_reference(op, shapes(Shape{3, 4, 0}, true), GetParam()));
}

TEST_P(BatchNormCpu, WritesEveryOutputElement) {
  BatchNormFwdOp train({.training = true});
  EXPECT_TRUE(testing::writes_every_element(train, shapes(Shape{33, 65}, true), GetParam()));
  EXPECT_TRUE(testing::writes_every_element(train, shapes(Shape{3, 65, 11}, false), GetParam()));
  BatchNormFwdOp infer({.training = false});
  EXPECT_TRUE(testing::writes_every_element(infer, shapes(Shape{3, 65, 11}, true), GetParam()));
}

TEST_P(BatchNormCpu, TrainAndInferDifferAndInferKeepsRunningStats) {
  const uint64_t seed = testing::fresh_seed();
  BatchNormFwdOp train({.training = true});
  BatchNormFwdOp infer({.training = false});
  const std::vector<Tensor> in =
      make_inputs(train.name(), train.schema(), shapes(Shape{8, 6, 5}, true), GetParam(), seed);
  const Tensor mean0 = copy_of(in[1]), var0 = copy_of(in[2]);
  const Tensor y_infer = infer(in[0], in[1], in[2], in[3], in[4]);
  EXPECT_TRUE(same_bytes(in[1], mean0));
  EXPECT_TRUE(same_bytes(in[2], var0));
  const Tensor y_train = train(in[0], in[1], in[2], in[3], in[4]);
  EXPECT_FALSE(same_bytes(y_train, y_infer));
  EXPECT_FALSE(same_bytes(in[1], mean0));
  EXPECT_FALSE(same_bytes(in[2], var0));
}

INSTANTIATE_TEST_SUITE_P(Dtypes, BatchNormCpu,
                         ::testing::Values(DType::kFloat16, DType::kBFloat16, DType::kFloat32),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

TEST(BatchNormDispatch, RowsKernelServesOnlyTwoDimensionalInputs) {
  BatchNormFwdOp op({.training = true});
  auto run = [&](const Shape& x) {
    const Tensor c = Tensor::zeros({x[1]}, DType::kFloat32);
    op(Tensor::zeros(x, DType::kFloat32), c, copy_of(c));
    return std::string(op.last_call()->served_by);
  };
  EXPECT_EQ(run({16, 8}), "batch_norm_train_cpu_rows");
  EXPECT_EQ(run({16, 8, 1}), "batch_norm_train_cpu_rows");  // l == 1: the same layout
  EXPECT_EQ(run({16, 8, 0}), "batch_norm_train_cpu_rows");  // l == 0: no values, stats kept
  EXPECT_EQ(run({16, 8, 2}), "batch_norm_train_cpu");
  EXPECT_EQ(run({2, 8, 4, 4}), "batch_norm_train_cpu");
  EXPECT_EQ(run({16, 8}), "batch_norm_train_cpu_rows");  // from the cache
}

TEST(BatchNormErrors, WrongDtypeIsDTypeError) {
  BatchNormFwdOp op({.training = true});
  const Tensor c = Tensor::zeros({4}, DType::kFloat32);
  const Tensor x = Tensor::zeros({2, 4}, DType::kFloat16);
  EXPECT_THROW(op(Tensor::zeros({2, 4}, DType::kFloat64), c, c), DTypeError);
  EXPECT_THROW(op(x, Tensor::zeros({4}, DType::kFloat16), c), DTypeError);
  EXPECT_THROW(op(x, c, Tensor::zeros({4}, DType::kBFloat16)), DTypeError);
  EXPECT_THROW(op(x, c, c, Tensor::zeros({4}, DType::kFloat16)), DTypeError);
  EXPECT_THROW(op(x, c, c, c, Tensor::zeros({4}, DType::kFloat16)), DTypeError);
}

TEST(BatchNormErrors, WrongShapeIsShapeError) {
  BatchNormFwdOp op({.training = true});
  const Tensor c = Tensor::zeros({4}, DType::kFloat32);
  const Tensor x = Tensor::zeros({2, 4, 3}, DType::kFloat32);
  const Tensor c5 = Tensor::zeros({5}, DType::kFloat32);
  EXPECT_THROW(op(Tensor::zeros({4}, DType::kFloat32), c, c), ShapeError);
  EXPECT_THROW(op(x, c5, c), ShapeError);
  EXPECT_THROW(op(x, c, c5), ShapeError);
  EXPECT_THROW(op(x, c, c, c5), ShapeError);
  EXPECT_THROW(op(x, c, c, c, Tensor::zeros({1, 4}, DType::kFloat32)), ShapeError);
  // torch: "Expected more than 1 value per channel when training".
  EXPECT_THROW(op(Tensor::zeros({1, 4}, DType::kFloat32), c, c), ShapeError);
  EXPECT_THROW(op(Tensor::zeros({1, 4, 1, 1}, DType::kFloat32), c, c), ShapeError);
  BatchNormFwdOp infer({.training = false});
  EXPECT_NO_THROW(infer(Tensor::zeros({1, 4}, DType::kFloat32), c, c));
}

TEST(BatchNormErrors, FailedCallLeavesRunningStats) {
  BatchNormFwdOp op({.training = true});
  const Tensor x = random_tensor({8, 4, 3}, DType::kFloat32, testing::fresh_seed());
  const Tensor mean = random_tensor({4}, DType::kFloat32, testing::fresh_seed());
  const Tensor var = random_tensor({4}, DType::kFloat32, testing::fresh_seed(), 0.5, 1.5);
  const Tensor mean0 = copy_of(mean), var0 = copy_of(var);
  EXPECT_THROW(op(x, mean, var, Tensor::zeros({3}, DType::kFloat32)), ShapeError);
  EXPECT_THROW(op(x, mean, var, Tensor::zeros({4}, DType::kFloat16)), DTypeError);
  EXPECT_TRUE(same_bytes(mean, mean0));
  EXPECT_TRUE(same_bytes(var, var0));
}

TEST(BatchNormErrors, BadParamIsParamErrorAtConstruction) {
  EXPECT_THROW(BatchNormFwdOp({.momentum = 1.5}), ParamError);
  EXPECT_THROW(BatchNormFwdOp({.momentum = -0.1}), ParamError);
  EXPECT_THROW(BatchNormFwdOp({.eps = 0.0}), ParamError);
  EXPECT_THROW(BatchNormFwdOp({.eps = -1e-5}), ParamError);
  EXPECT_NO_THROW(BatchNormFwdOp({.momentum = 0.0}));
  EXPECT_NO_THROW(BatchNormFwdOp({.momentum = 1.0}));
}

TEST(BatchNormRoofline, CountsFlopsAndBytes) {
  BatchNormFwdOp op;
  const Tensor c = Tensor::zeros({6}, DType::kFloat32);
  op(Tensor::zeros({2, 6, 5}, DType::kBFloat16), c, c);
  const RooflineValue r = op.eval_roofline();
  EXPECT_EQ(r.flops, 10 * 6 * 10);
  EXPECT_EQ(r.bytes, 2 * 6 * 10 * 2 + 4 * 6 * 4);
  op(Tensor::zeros({2, 0, 5}, DType::kBFloat16), Tensor::zeros({0}, DType::kFloat32),
     Tensor::zeros({0}, DType::kFloat32));
  EXPECT_EQ(op.last_call()->served_by, "empty-write");
  EXPECT_EQ(op.eval_roofline().flops, 0);
}

}  // namespace
}  // namespace tileops
