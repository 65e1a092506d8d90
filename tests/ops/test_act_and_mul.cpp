// The gated activations (SiluAndMulFwdOp, GeluAndMulFwdOp, GeluTanhAndMulFwdOp) on the CPU against
// the float64 reference, and their errors and rooflines.
#include "support/test_support.hpp"
#include "tileops/ops/elementwise/gelu_and_mul_fwd_op.hpp"
#include "tileops/ops/elementwise/gelu_tanh_and_mul_fwd_op.hpp"
#include "tileops/ops/elementwise/silu_and_mul_fwd_op.hpp"

namespace tileops {
namespace {

using testing::matches_reference;

template <typename Op>
class ActAndMulCpu : public ::testing::Test {};
using ActAndMulOps = ::testing::Types<SiluAndMulFwdOp, GeluAndMulFwdOp, GeluTanhAndMulFwdOp>;
TYPED_TEST_SUITE(ActAndMulCpu, ActAndMulOps);

constexpr DType kDtypes[] = {DType::kFloat16, DType::kBFloat16, DType::kFloat32};

TYPED_TEST(ActAndMulCpu, OneRowMatchesReference) {
  TypeParam op;
  for (DType d : kDtypes) EXPECT_TRUE(matches_reference(op, {Shape{1, 28672}}, d));
}

TYPED_TEST(ActAndMulCpu, OddSizesMatchReference) {
  TypeParam op;
  for (DType d : kDtypes) {
    EXPECT_TRUE(matches_reference(op, {Shape{7, 2 * 1003}}, d));
    EXPECT_TRUE(matches_reference(op, {Shape{13, 2}}, d));
    EXPECT_TRUE(matches_reference(op, {Shape{3, 2 * 3000}}, d));
  }
}

// vLLM's convention: any leading dims (a [batch, tokens, 2N] activation, or one row of rank 1).
TYPED_TEST(ActAndMulCpu, LeadingDimsFlattenIntoRows) {
  TypeParam op;
  for (DType d : kDtypes) {
    EXPECT_TRUE(matches_reference(op, {Shape{3, 5, 2 * 77}}, d));
    EXPECT_TRUE(matches_reference(op, {Shape{2, 1, 3, 2 * 8}}, d));
    EXPECT_TRUE(matches_reference(op, {Shape{2 * 301}}, d));
  }
  const Tensor y = op(random_tensor(Shape{2, 3, 8}, DType::kFloat32, 1));
  EXPECT_EQ(y.shape(), (Shape{2, 3, 4}));
  EXPECT_EQ(op(random_tensor(Shape{8}, DType::kFloat32, 1)).shape(), (Shape{4}));
}

TYPED_TEST(ActAndMulCpu, LargeMatchesReference) {
  TypeParam op;
  for (DType d : kDtypes) EXPECT_TRUE(matches_reference(op, {Shape{96, 2 * 5504}}, d));
}

TYPED_TEST(ActAndMulCpu, WritesEveryOutputElement) {
  TypeParam op;
  for (DType d : kDtypes) {
    EXPECT_TRUE(testing::writes_every_element(op, {Shape{33, 2 * 129}}, d));
  }
}

TYPED_TEST(ActAndMulCpu, RejectsDisallowedDtypeOddWidthAndScalars) {
  TypeParam op;
  EXPECT_THROW(op(random_tensor(Shape{4, 8}, DType::kFloat64, 1)), DTypeError);
  EXPECT_THROW(op(random_tensor(Shape{4, 7}, DType::kFloat32, 1)), ShapeError);
  EXPECT_THROW(op(random_tensor(Shape{2, 3, 7}, DType::kFloat32, 1)), ShapeError);
  EXPECT_THROW(op(random_tensor(Shape{}, DType::kFloat32, 1)), ShapeError);
}

TYPED_TEST(ActAndMulCpu, RejectsUnknownParams) {
  EXPECT_THROW(make_op(TypeParam::kName, {{"approximate", ParamValue(true)}}), ParamError);
}

TYPED_TEST(ActAndMulCpu, ServedByItsOwnCpuKernel) {
  TypeParam op;
  op(random_tensor(Shape{2, 16}, DType::kFloat32, 1));
  const std::string_view interface = TypeParam::decl().interfaces.front()->name;
  EXPECT_EQ(op.last_call()->served_by, std::string(interface) + "_cpu");
}

// The activations themselves at a few points, with up = 1, against values of torch's formulas
// (silu: g * sigmoid(g); gelu: g/2 (1 + erf(g / sqrt 2)); tanh: g/2 (1 + tanh(sqrt(2/pi)
// (g + 0.044715 g^3)))) computed in float64 outside tileops.
TEST(ActAndMulValues, MatchTorchFormulasAtKnownPoints) {
  const float gates[] = {-3.0f, -1.0f, 0.5f, 2.0f};
  const double silu[] = {-0.14227761953270, -0.26894142137000, 0.31122966560093, 1.76159415595576};
  const double gelu[] = {-0.00404969409489, -0.15865525393146, 0.34573123063701, 1.95449973610364};
  const double gelu_tanh[] = {-0.00363739208177, -0.15880800939172, 0.34571400982514,
                              1.95459769408777};
  Tensor x = Tensor::empty(Shape{1, 8}, DType::kFloat32);
  for (int i = 0; i < 4; ++i) {
    x.data_as<float>()[i] = gates[i];
    x.data_as<float>()[4 + i] = 1.0f;
  }
  SiluAndMulFwdOp s;
  GeluAndMulFwdOp g;
  GeluTanhAndMulFwdOp t;
  const Tensor ys = s(x), yg = g(x), yt = t(x);
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(ys.data_as<float>()[i], silu[i], 1e-6) << gates[i];
    EXPECT_NEAR(yg.data_as<float>()[i], gelu[i], 1e-6) << gates[i];
    EXPECT_NEAR(yt.data_as<float>()[i], gelu_tanh[i], 1e-6) << gates[i];
  }
}

TEST(ActAndMulRoofline, CountsFlopsPerOutput) {
  SiluAndMulFwdOp silu;
  silu(random_tensor(Shape{3, 10}, DType::kBFloat16, 1));
  EXPECT_EQ(silu.eval_roofline(), (RooflineValue{6 * 15, 3 * 15 * 2}));
  GeluAndMulFwdOp gelu;
  gelu(random_tensor(Shape{3, 10}, DType::kBFloat16, 1));
  EXPECT_EQ(gelu.eval_roofline(), (RooflineValue{8 * 15, 3 * 15 * 2}));
  GeluTanhAndMulFwdOp gelu_tanh;
  gelu_tanh(random_tensor(Shape{3, 10}, DType::kBFloat16, 1));
  EXPECT_EQ(gelu_tanh.eval_roofline(), (RooflineValue{10 * 15, 3 * 15 * 2}));
  // Leading dims count as rows: [2, 3, 10] is 6 rows of 5 outputs.
  silu(random_tensor(Shape{2, 3, 10}, DType::kBFloat16, 1));
  EXPECT_EQ(silu.eval_roofline(), (RooflineValue{6 * 30, 3 * 30 * 2}));
}

}  // namespace
}  // namespace tileops
