// GatedMLPFwdOp (composite: GatedLinearFwdOp -> LinearFwdOp) on the CPU against the float64
// reference, and its sub-op bookkeeping.
#include <algorithm>

#include "support/test_support.hpp"
#include "tileops/ops/composite/gated_mlp_fwd_op.hpp"

namespace tileops {
namespace {

using testing::matches_reference;

// Shapes of x, w_gate_up and w_down for tokens m, hidden size h and intermediate size i.
std::vector<std::optional<Shape>> mlp_shapes(int64_t m, int64_t h, int64_t i) {
  return {Shape{m, h}, Shape{2 * i, h}, Shape{h, i}};
}

class GatedMLPCpu : public ::testing::TestWithParam<DType> {};

TEST_P(GatedMLPCpu, OneRowMatchesReference) {
  GatedMLPFwdOp op;
  EXPECT_TRUE(matches_reference(op, mlp_shapes(1, 256, 344), GetParam()));
}

TEST_P(GatedMLPCpu, OddSizesMatchReference) {
  GatedMLPFwdOp op;
  EXPECT_TRUE(matches_reference(op, mlp_shapes(7, 33, 17), GetParam()));
  EXPECT_TRUE(matches_reference(op, mlp_shapes(12, 96, 80), GetParam()));
  EXPECT_TRUE(matches_reference(op, mlp_shapes(5, 1, 3), GetParam()));
  EXPECT_TRUE(matches_reference(op, mlp_shapes(3, 8, 0), GetParam()));  // I = 0: zeros
}

TEST_P(GatedMLPCpu, LargeMatchesReference) {
  GatedMLPFwdOp op;
  EXPECT_TRUE(matches_reference(op, mlp_shapes(32, 512, 688), GetParam()));
}

TEST_P(GatedMLPCpu, WritesEveryOutputElement) {
  GatedMLPFwdOp op;
  EXPECT_TRUE(testing::writes_every_element(op, mlp_shapes(9, 40, 24), GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Dtypes, GatedMLPCpu,
                         ::testing::Values(DType::kFloat16, DType::kBFloat16, DType::kFloat32),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

std::vector<Tensor> mlp_inputs(int64_t m, int64_t h, int64_t i, DType dtype = DType::kFloat32) {
  return make_inputs(GatedMLPFwdOp::kName, GatedMLPFwdOp::static_schema(), mlp_shapes(m, h, i),
                     dtype, testing::fresh_seed());
}

TEST(GatedMLPComposite, HoldsOneSubOpPerStage) {
  GatedMLPFwdOp op;
  op.call(mlp_inputs(5, 48, 40));
  const std::vector<const Op*> held = op.held_delegates();
  ASSERT_EQ(held.size(), 2u);
  EXPECT_EQ(held[0]->name(), "GatedLinearFwdOp");
  EXPECT_EQ(held[0]->stage(), "gate_up");
  EXPECT_EQ(held[1]->name(), "LinearFwdOp");
  EXPECT_EQ(held[1]->stage(), "down");
  op.call(mlp_inputs(3, 48, 40));  // a second call reuses them
  EXPECT_EQ(op.held_delegates(), held);
}

TEST(GatedMLPComposite, RecordsEveryStage) {
  GatedMLPFwdOp op;
  op.call(mlp_inputs(5, 48, 40));
  const auto record = op.last_call();
  ASSERT_TRUE(record.has_value());
  EXPECT_EQ(record->served_by, "composite");
  ASSERT_EQ(record->stages.size(), 2u);
  EXPECT_EQ(record->stages[0].stage, "gate_up");
  EXPECT_EQ(record->stages[1].stage, "down");
  EXPECT_EQ(record->stages[0].record->served_by, "gemm_cpu_blocked");
  EXPECT_EQ(record->stages[1].record->served_by, "gemm_cpu_blocked");
  // The activation is fused: the first stage writes [5, I], never [5, 2I].
  EXPECT_EQ(record->stages[0].record->outputs[0].shape, (Shape{5, 40}));
  EXPECT_EQ(record->stages[1].record->outputs[0].shape, (Shape{5, 48}));
  EXPECT_NE(op.kernel_config().find("gate_up: bm="), std::string::npos) << op.kernel_config();

  op.call(mlp_inputs(1, 48, 40));  // decode: both projections are matrix-vector products
  EXPECT_EQ(op.last_call()->stages[0].record->served_by, "gemv_cpu");
  EXPECT_EQ(op.last_call()->stages[1].record->served_by, "gemv_cpu");
}

TEST(GatedMLPComposite, IterKernelsIncludesEverySubOpKernel) {
  GatedMLPFwdOp op;
  op.call(mlp_inputs(5, 48, 40));
  op.call(mlp_inputs(1, 48, 40));
  const std::vector<Kernel*> all = op.iter_kernels();
  size_t sub_kernels = 0;
  for (const Op* sub : op.held_delegates()) {
    for (Kernel* k : sub->iter_kernels()) {
      ++sub_kernels;
      EXPECT_NE(std::find(all.begin(), all.end(), k), all.end()) << sub->stage();
    }
  }
  // gate_up and down each built a blocked and a gemv entry.
  EXPECT_EQ(sub_kernels, 4u);
  EXPECT_EQ(all.size(), sub_kernels);
}

TEST(GatedMLPErrors, RejectsDisallowedDtype) {
  GatedMLPFwdOp op;
  EXPECT_THROW(op(random_tensor(Shape{2, 8}, DType::kFloat64, 1),
                  random_tensor(Shape{8, 8}, DType::kFloat64, 2),
                  random_tensor(Shape{8, 4}, DType::kFloat64, 3)),
               DTypeError);
}

TEST(GatedMLPErrors, RejectsMixedDtypes) {
  GatedMLPFwdOp op;
  std::vector<Tensor> in = mlp_inputs(2, 8, 4);
  in[2] = random_tensor(Shape{8, 4}, DType::kBFloat16, 1);
  EXPECT_THROW(op.call(in), DTypeError);
}

TEST(GatedMLPErrors, RejectsInconsistentShapes) {
  GatedMLPFwdOp op;
  const Tensor x = random_tensor(Shape{2, 8}, DType::kFloat32, 1);
  const Tensor w_gate_up = random_tensor(Shape{8, 8}, DType::kFloat32, 2);
  const Tensor w_down = random_tensor(Shape{8, 4}, DType::kFloat32, 3);
  EXPECT_NO_THROW(op(x, w_gate_up, w_down));
  EXPECT_THROW(op(x, random_tensor(Shape{7, 8}, DType::kFloat32, 4), w_down), ShapeError);
  EXPECT_THROW(op(x, random_tensor(Shape{8, 9}, DType::kFloat32, 4), w_down), ShapeError);
  EXPECT_THROW(op(x, w_gate_up, random_tensor(Shape{8, 5}, DType::kFloat32, 4)), ShapeError);
  EXPECT_THROW(op(x, w_gate_up, random_tensor(Shape{9, 4}, DType::kFloat32, 4)), ShapeError);
  EXPECT_THROW(op(random_tensor(Shape{8}, DType::kFloat32, 4), w_gate_up, w_down), ShapeError);
}

TEST(GatedMLPErrors, RejectsUnknownParams) {
  EXPECT_THROW(make_op("GatedMLPFwdOp", {{"activation", ParamValue(std::string("gelu"))}}),
               ParamError);
}

TEST(GatedMLPRoofline, CountsBothProjectionsAndTheActivation) {
  GatedMLPFwdOp op;
  op.call(mlp_inputs(3, 8, 4, DType::kBFloat16));
  const int64_t m = 3, h = 8, i = 4;
  EXPECT_EQ(op.eval_roofline(), (RooflineValue{2 * m * h * 2 * i + 2 * m * i * h + 6 * m * i,
                                               (m * h + 2 * i * h + h * i + m * h) * 2}));
}

}  // namespace
}  // namespace tileops
