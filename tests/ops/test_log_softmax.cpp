// LogSoftmaxFwdOp on the CPU against the float64 reference, along the last dim, along inner dims
// (strided), with torch's implicit dim, and the op's error cases.
#include <cmath>

#include "support/test_support.hpp"
#include "tileops/core/error.hpp"
#include "tileops/ops/reduction/log_softmax_fwd_op.hpp"

namespace tileops {
namespace {

using testing::matches_reference;

class LogSoftmaxCpu : public ::testing::TestWithParam<DType> {};

TEST_P(LogSoftmaxCpu, OneRowMatchesReference) {
  LogSoftmaxFwdOp op({.dim = -1});
  EXPECT_TRUE(matches_reference(op, {Shape{1, 4096}}, GetParam()));
}

TEST_P(LogSoftmaxCpu, OddSizesMatchReference) {
  LogSoftmaxFwdOp last({.dim = -1});
  EXPECT_TRUE(matches_reference(last, {Shape{7, 1003}}, GetParam()));
  LogSoftmaxFwdOp first({.dim = 0});
  EXPECT_TRUE(matches_reference(first, {Shape{7, 1003}}, GetParam()));
}

TEST_P(LogSoftmaxCpu, SeveralLeadingDimsMatchReference) {
  for (int64_t dim : {-1, -2, 1, 0}) {
    LogSoftmaxFwdOp op({.dim = dim});
    EXPECT_TRUE(matches_reference(op, {Shape{3, 5, 2, 77}}, GetParam())) << "dim " << dim;
  }
  LogSoftmaxFwdOp middle({.dim = 1});
  EXPECT_TRUE(matches_reference(middle, {Shape{4, 33, 70}}, GetParam()));
}

TEST_P(LogSoftmaxCpu, SingleElementRowsMatchReference) {
  LogSoftmaxFwdOp last({.dim = -1});
  EXPECT_TRUE(matches_reference(last, {Shape{9, 1}}, GetParam()));
  EXPECT_TRUE(matches_reference(last, {Shape{1}}, GetParam()));
  LogSoftmaxFwdOp middle({.dim = 1});
  EXPECT_TRUE(matches_reference(middle, {Shape{3, 1, 5}}, GetParam()));
}

TEST_P(LogSoftmaxCpu, ZeroDimensionalIsOneElement) {
  for (std::optional<int64_t> dim :
       {std::optional<int64_t>(), std::optional<int64_t>(0), std::optional<int64_t>(-1)}) {
    LogSoftmaxFwdOp op({.dim = dim});
    EXPECT_TRUE(matches_reference(op, {Shape{}}, GetParam()));
    const Tensor y = op(random_tensor({}, GetParam(), testing::fresh_seed()));
    EXPECT_EQ(y.shape(), Shape{});
    EXPECT_EQ(y.numel(), 1);
  }
}

TEST_P(LogSoftmaxCpu, ImplicitDimFollowsTorch) {
  LogSoftmaxFwdOp op;  // dim None: 0 for 0-, 1- and 3-d inputs, else 1
  for (const Shape& shape : {Shape{50}, Shape{6, 40}, Shape{3, 4, 5}, Shape{2, 3, 4, 5}}) {
    EXPECT_TRUE(matches_reference(op, {shape}, GetParam())) << shape.str();
  }
}

TEST_P(LogSoftmaxCpu, WideRowsMatchReference) {
  LogSoftmaxFwdOp last({.dim = -1});
  EXPECT_TRUE(matches_reference(last, {Shape{4, 102400}}, GetParam()));
  LogSoftmaxFwdOp first({.dim = 0});
  EXPECT_TRUE(matches_reference(first, {Shape{102400, 3}}, GetParam()));
}

TEST_P(LogSoftmaxCpu, LargeMatchesReference) {
  LogSoftmaxFwdOp op({.dim = -1});
  EXPECT_TRUE(matches_reference(op, {Shape{32, 8, 4096}}, GetParam()));
}

TEST_P(LogSoftmaxCpu, LargeLogitsAreStable) {
  // exp(500) overflows float: only x - max keeps these finite.
  for (int64_t dim : {-1, 0}) {
    LogSoftmaxFwdOp op({.dim = dim});
    const Tensor x = random_tensor({5, 300}, GetParam(), testing::fresh_seed(), 500.0, 1000.0);
    const CheckResult r = run_and_check(op, {x});
    EXPECT_TRUE(r.ok) << (r.failures.empty() ? "" : r.failures.front());
  }
}

TEST_P(LogSoftmaxCpu, WritesEveryOutputElement) {
  LogSoftmaxFwdOp last({.dim = -1});
  EXPECT_TRUE(testing::writes_every_element(last, {Shape{33, 129}}, GetParam()));
  LogSoftmaxFwdOp middle({.dim = 1});
  EXPECT_TRUE(testing::writes_every_element(middle, {Shape{5, 129, 67}}, GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Dtypes, LogSoftmaxCpu,
                         ::testing::Values(DType::kFloat16, DType::kBFloat16, DType::kFloat32),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

TEST(LogSoftmaxSemantics, EqualLogitsShareTheMass) {
  LogSoftmaxFwdOp op({.dim = -1});
  Tensor x = Tensor::empty({2}, DType::kFloat32);
  x.data_as<float>()[0] = 1e4f;
  x.data_as<float>()[1] = 1e4f;
  const Tensor y = op(x);
  EXPECT_FLOAT_EQ(y.data_as<float>()[0], -std::log(2.0f));
  EXPECT_FLOAT_EQ(y.data_as<float>()[1], -std::log(2.0f));
  const Tensor one = op(Tensor::zeros({1}, DType::kFloat32));
  EXPECT_EQ(one.data_as<float>()[0], 0.0f);
}

TEST(LogSoftmaxErrors, WrongDtypeIsDTypeError) {
  LogSoftmaxFwdOp op({.dim = -1});
  EXPECT_THROW(op(Tensor::zeros({2, 8}, DType::kFloat64)), DTypeError);
  EXPECT_THROW(op(Tensor::zeros({2, 8}, DType::kInt32)), DTypeError);
}

TEST(LogSoftmaxErrors, DimOutOfRangeIsShapeError) {
  const Tensor x = Tensor::zeros({2, 8}, DType::kFloat32);
  for (int64_t dim : {2, -3, 100}) {
    LogSoftmaxFwdOp op({.dim = dim});
    EXPECT_THROW(op(x), ShapeError) << "dim " << dim;
  }
  LogSoftmaxFwdOp op({.dim = 1});
  EXPECT_THROW(op(Tensor::zeros({}, DType::kFloat32)), ShapeError);
  EXPECT_NO_THROW(op(x));
}

TEST(LogSoftmaxErrors, BadParamIsParamErrorAtConstruction) {
  EXPECT_THROW(make_op("LogSoftmaxFwdOp", {{"dim", ParamValue(std::string("last"))}}), ParamError);
  EXPECT_THROW(make_op("LogSoftmaxFwdOp", {{"dim", ParamValue(1.5)}}), ParamError);
  EXPECT_THROW(make_op("LogSoftmaxFwdOp", {{"axis", ParamValue(int64_t{1})}}), ParamError);
  EXPECT_NO_THROW(make_op("LogSoftmaxFwdOp", {{"dim", ParamValue(NoneValue{})}}));
}

TEST(LogSoftmaxRoofline, CountsFlopsAndBytes) {
  LogSoftmaxFwdOp op({.dim = 1});
  op(Tensor::zeros({3, 5, 7}, DType::kFloat16));
  EXPECT_EQ(op.last_call()->served_by, "log_softmax_cpu");
  EXPECT_EQ(op.eval_roofline(), (RooflineValue{5 * 21 * 5, 2 * 21 * 5 * 2}));
  LogSoftmaxFwdOp implicit;  // 3-d: dim 0
  implicit(Tensor::zeros({3, 5, 7}, DType::kFloat32));
  EXPECT_EQ(implicit.eval_roofline(), (RooflineValue{5 * 35 * 3, 2 * 35 * 3 * 4}));
  LogSoftmaxFwdOp last({.dim = -1});
  last(Tensor::zeros({4, 0}, DType::kFloat32));
  EXPECT_EQ(last.last_call()->served_by, "empty-write");
  EXPECT_EQ(last.eval_roofline(), (RooflineValue{0, 0}));
  implicit(Tensor::zeros({}, DType::kFloat32));
  EXPECT_EQ(implicit.eval_roofline(), (RooflineValue{5, 2 * 4}));
}

}  // namespace
}  // namespace tileops
