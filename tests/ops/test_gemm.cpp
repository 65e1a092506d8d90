// GemmFwdOp on the CPU against the float64 reference, and its dispatch between gemv_cpu and
// gemm_cpu_blocked.
#include <regex>

#include "support/test_support.hpp"
#include "tileops/ops/gemm/gemm_fwd_op.hpp"

namespace tileops {
namespace {

using testing::matches_reference;

// The shapes of a and b for d = op(a) @ op(b) of size [m, n] with reduction k.
std::vector<std::optional<Shape>> gemm_shapes(int64_t m, int64_t n, int64_t k, bool trans_a,
                                              bool trans_b) {
  return {trans_a ? Shape{k, m} : Shape{m, k}, trans_b ? Shape{n, k} : Shape{k, n}};
}

struct Transposes {
  bool a, b;
};
constexpr Transposes kAllTransposes[] = {
    {false, false}, {false, true}, {true, false}, {true, true}};

class GemmCpu : public ::testing::TestWithParam<DType> {};

TEST_P(GemmCpu, EveryTransposeMatchesReference) {
  for (const Transposes t : kAllTransposes) {
    SCOPED_TRACE(::testing::Message() << "trans_a=" << t.a << " trans_b=" << t.b);
    GemmFwdOp op({.trans_a = t.a, .trans_b = t.b});
    EXPECT_TRUE(matches_reference(op, gemm_shapes(17, 33, 65, t.a, t.b), GetParam()));
    EXPECT_TRUE(matches_reference(op, gemm_shapes(70, 150, 300, t.a, t.b), GetParam()));
  }
}

TEST_P(GemmCpu, OneRowMatchesReference) {
  for (const Transposes t : kAllTransposes) {
    SCOPED_TRACE(::testing::Message() << "trans_a=" << t.a << " trans_b=" << t.b);
    GemmFwdOp op({.trans_a = t.a, .trans_b = t.b});
    EXPECT_TRUE(matches_reference(op, gemm_shapes(1, 300, 257, t.a, t.b), GetParam()));
  }
}

TEST_P(GemmCpu, OneColumnMatchesReference) {
  for (const Transposes t : kAllTransposes) {
    SCOPED_TRACE(::testing::Message() << "trans_a=" << t.a << " trans_b=" << t.b);
    GemmFwdOp op({.trans_a = t.a, .trans_b = t.b});
    EXPECT_TRUE(matches_reference(op, gemm_shapes(129, 1, 200, t.a, t.b), GetParam()));
    EXPECT_TRUE(matches_reference(op, gemm_shapes(1, 1, 77, t.a, t.b), GetParam()));
  }
}

TEST_P(GemmCpu, UnitReductionMatchesReference) {
  for (const Transposes t : kAllTransposes) {
    SCOPED_TRACE(::testing::Message() << "trans_a=" << t.a << " trans_b=" << t.b);
    GemmFwdOp op({.trans_a = t.a, .trans_b = t.b});
    EXPECT_TRUE(matches_reference(op, gemm_shapes(37, 45, 1, t.a, t.b), GetParam()));
  }
}

TEST_P(GemmCpu, EmptyReductionWritesZeros) {
  for (const Transposes t : kAllTransposes) {
    SCOPED_TRACE(::testing::Message() << "trans_a=" << t.a << " trans_b=" << t.b);
    GemmFwdOp op({.trans_a = t.a, .trans_b = t.b});
    EXPECT_TRUE(matches_reference(op, gemm_shapes(9, 14, 0, t.a, t.b), GetParam()));
    EXPECT_TRUE(matches_reference(op, gemm_shapes(1, 14, 0, t.a, t.b), GetParam()));
  }
}

TEST_P(GemmCpu, LargeMatchesReference) {
  GemmFwdOp op;
  EXPECT_TRUE(matches_reference(op, gemm_shapes(256, 384, 512, false, true), GetParam()));
}

TEST_P(GemmCpu, WritesEveryOutputElement) {
  for (const Transposes t : kAllTransposes) {
    SCOPED_TRACE(::testing::Message() << "trans_a=" << t.a << " trans_b=" << t.b);
    GemmFwdOp op({.trans_a = t.a, .trans_b = t.b});
    EXPECT_TRUE(testing::writes_every_element(op, gemm_shapes(33, 65, 40, t.a, t.b), GetParam()));
    EXPECT_TRUE(testing::writes_every_element(op, gemm_shapes(1, 65, 40, t.a, t.b), GetParam()));
    EXPECT_TRUE(testing::writes_every_element(op, gemm_shapes(65, 1, 40, t.a, t.b), GetParam()));
  }
}

INSTANTIATE_TEST_SUITE_P(Dtypes, GemmCpu,
                         ::testing::Values(DType::kFloat16, DType::kBFloat16, DType::kFloat32),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

std::vector<Tensor> random_operands(int64_t m, int64_t n, int64_t k, bool trans_a, bool trans_b,
                                    DType dtype = DType::kFloat32) {
  const auto shapes = gemm_shapes(m, n, k, trans_a, trans_b);
  return {random_tensor(*shapes[0], dtype, testing::fresh_seed()),
          random_tensor(*shapes[1], dtype, testing::fresh_seed())};
}

TEST(GemmDispatch, PicksGemvForOneRowOrColumnAndBlockedOtherwise) {
  for (const Transposes t : kAllTransposes) {
    SCOPED_TRACE(::testing::Message() << "trans_a=" << t.a << " trans_b=" << t.b);
    GemmFwdOp op({.trans_a = t.a, .trans_b = t.b});
    op.call(random_operands(1, 40, 24, t.a, t.b));
    EXPECT_EQ(op.last_call()->served_by, "gemv_cpu");
    op.call(random_operands(40, 1, 24, t.a, t.b));
    EXPECT_EQ(op.last_call()->served_by, "gemv_cpu");
    op.call(random_operands(2, 40, 24, t.a, t.b));
    EXPECT_EQ(op.last_call()->served_by, "gemm_cpu_blocked");
    op.call(random_operands(40, 2, 1, t.a, t.b));
    EXPECT_EQ(op.last_call()->served_by, "gemm_cpu_blocked");
    op.call(random_operands(1, 40, 24, t.a, t.b));  // a cache hit reports its server too
    EXPECT_EQ(op.last_call()->served_by, "gemv_cpu");
  }
}

TEST(GemmTuning, RequestTuneKeepsResultsAndReportsAConfig) {
  GemmFwdOp op;
  const std::vector<Tensor> in = random_operands(70, 150, 300, false, true, DType::kBFloat16);
  const Tensor before = op.call(in)[0];
  EXPECT_EQ(op.kernel_config(), "bm=64,bn=64,bk=256");
  op.request_tune({.warmup_runs = 1, .timed_runs = 2});
  EXPECT_TRUE(op.tuned());
  const Tensor after = op.call(in)[0];
  EXPECT_EQ(op.last_call()->served_by, "gemm_cpu_blocked");
  EXPECT_TRUE(compare(after, before, Tolerance{0, 0}).ok());
  EXPECT_TRUE(std::regex_match(op.kernel_config(), std::regex("bm=[0-9]+,bn=[0-9]+,bk=[0-9]+")))
      << op.kernel_config();
  ASSERT_EQ(op.iter_kernels().size(), 1u);
  EXPECT_TRUE(op.iter_kernels()[0]->tunable());
}

TEST(GemmTuning, KernelsBuiltAfterRequestTuneAreTunedAndMatchReference) {
  GemmFwdOp op({.trans_a = true, .trans_b = false});
  op.request_tune({.warmup_runs = 0, .timed_runs = 1});
  EXPECT_TRUE(matches_reference(op, gemm_shapes(45, 20, 33, true, false), DType::kFloat32));
  EXPECT_FALSE(op.kernel_config().empty());
}

TEST(GemmErrors, RejectsDisallowedDtype) {
  GemmFwdOp op;
  EXPECT_THROW(op.call(random_operands(4, 5, 6, false, true, DType::kFloat64)), DTypeError);
}

TEST(GemmErrors, RejectsMixedDtypes) {
  GemmFwdOp op;
  const Tensor a = random_tensor(Shape{4, 6}, DType::kFloat32, 1);
  const Tensor b = random_tensor(Shape{5, 6}, DType::kBFloat16, 2);
  EXPECT_THROW(op(a, b), DTypeError);
}

TEST(GemmErrors, RejectsMismatchedReduction) {
  GemmFwdOp nt;
  EXPECT_THROW(nt(random_tensor(Shape{4, 6}, DType::kFloat32, 1),
                  random_tensor(Shape{5, 7}, DType::kFloat32, 2)),
               ShapeError);
  // [4, 6] @ [6, 5] needs trans_b = false.
  EXPECT_THROW(nt(random_tensor(Shape{4, 6}, DType::kFloat32, 1),
                  random_tensor(Shape{6, 5}, DType::kFloat32, 2)),
               ShapeError);
  GemmFwdOp tn({.trans_a = true, .trans_b = false});
  EXPECT_THROW(tn(random_tensor(Shape{4, 6}, DType::kFloat32, 1),
                  random_tensor(Shape{6, 5}, DType::kFloat32, 2)),
               ShapeError);
}

TEST(GemmErrors, RejectsOperandsThatAreNotMatrices) {
  GemmFwdOp op;
  EXPECT_THROW(op(random_tensor(Shape{2, 4, 6}, DType::kFloat32, 1),
                  random_tensor(Shape{5, 6}, DType::kFloat32, 2)),
               ShapeError);
  EXPECT_THROW(op(random_tensor(Shape{4, 6}, DType::kFloat32, 1),
                  random_tensor(Shape{6}, DType::kFloat32, 2)),
               ShapeError);
}

TEST(GemmErrors, RejectsParamsOfTheWrongKind) {
  EXPECT_THROW(make_op("GemmFwdOp", {{"trans_b", ParamValue(int64_t{1})}}), ParamError);
  EXPECT_THROW(make_op("GemmFwdOp", {{"transpose_b", ParamValue(true)}}), ParamError);
  EXPECT_NO_THROW(make_op("GemmFwdOp", {{"trans_a", ParamValue(true)}}));
}

TEST(GemmRoofline, CountsTwoFlopsPerMultiplyAdd) {
  GemmFwdOp op({.trans_a = true, .trans_b = false});
  op.call(random_operands(3, 5, 7, true, false, DType::kBFloat16));
  EXPECT_EQ(op.eval_roofline(), (RooflineValue{2 * 3 * 5 * 7, (3 * 7 + 5 * 7 + 3 * 5) * 2}));
}

}  // namespace
}  // namespace tileops
