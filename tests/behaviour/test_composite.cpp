// Checklist §1.14: composite ops and delegate_for.
#include "behaviour_helpers.hpp"
#include "tileops/framework/target.hpp"

namespace tileops {
namespace {

using testing::contains;
using testing::filled;

TEST(B75_HeldDelegates, ListsTheSubOpsHeldThroughDelegateFor) {
  Registration r = register_probe({.key = "k"});
  ProbeCompositeFwdOp op;
  EXPECT_TRUE(op.held_delegates().empty());
  op(filled({2, 2}, 1));
  const auto held = op.held_delegates();
  ASSERT_EQ(held.size(), 2u);
  EXPECT_EQ(held[0]->stage(), "first");
  EXPECT_EQ(held[1]->stage(), "second");
}

TEST(B76_DelegateFor, TheSameStageAndIdentityReturnTheSameInstance) {
  Registration r = register_probe({.key = "k"});
  ProbeCompositeFwdOp op;
  Tensor y = op(filled({2, 2}, 1));
  EXPECT_FLOAT_EQ(y.data_as<float>()[0], 6.0f);  // x * 2 * 3
  const auto first = op.held_delegates();
  op(filled({3, 3}, 1));
  EXPECT_EQ(op.held_delegates(), first);
}

TEST(B77_StageFiling, SubOpCallsAreFiledUnderTheirStages) {
  Registration r = register_probe({.key = "k"});
  ProbeCompositeFwdOp op;
  op(filled({2, 3}, 1));
  const CallRecord rec = *op.last_call();
  ASSERT_EQ(rec.stages.size(), 2u);
  EXPECT_EQ(rec.stages[0].stage, "first");
  EXPECT_EQ(rec.stages[1].stage, "second");
  EXPECT_EQ(rec.stages[1].record->inputs[0]->shape, (Shape{2, 3}));
  EXPECT_EQ(rec.served_by, "composite");
  EXPECT_EQ(op.eval_roofline(), (RooflineValue{12, 4 * 6 * 4}));
}

TEST(B78_UnheldSubOp, CompletingACallInsideTheParentFailsTheParent) {
  Registration r = register_probe({.key = "k"});
  ProbeCompositeFwdOp op({.rogue = true});
  try {
    op(filled({2, 2}, 1));
    FAIL();
  } catch (const ContractError& e) {
    EXPECT_TRUE(contains(e.what(), "is not held through delegate_for")) << e.what();
    EXPECT_TRUE(contains(e.what(), "ProbeFwdOp#")) << e.what();
  }
  EXPECT_FALSE(op.last_call().has_value());
}

TEST(B78_UnheldSubOp, TopLevelCallsOnOtherThreadsAreNotNested) {
  // The call stack is per thread: an op called on its own is never a sub-op.
  Registration r = register_probe({.key = "k"});
  ProbeFwdOp standalone;
  EXPECT_NO_THROW(standalone(filled({2}, 1)));
}

TEST(B79_UndoOfAParent, ResetsTheSubOpsItHolds) {
  Registration r = register_probe({.key = "k"});
  ProbeCompositeFwdOp op({.rogue = true});
  EXPECT_THROW(op(filled({1, 1}, 1)), ContractError);
  for (const Op* sub : op.held_delegates()) EXPECT_FALSE(sub->serving_target().has_value());
}

TEST(B80_SubOpsInheritTheTarget, OneInstanceOneExecutionPolicy) {
  Registration r = register_probe({.key = "k"});
  ProbeCompositeFwdOp op({}, std::string(kBuiltinTarget));
  op(filled({1, 1}, 1));
  for (const Op* sub : op.held_delegates()) {
    EXPECT_EQ(sub->target(), std::optional<std::string>(kBuiltinTarget));
    EXPECT_EQ(sub->serving_target(), "builtin");
  }
}

TEST(B81_NoBoundaryForComposites, OnlyTheSubOpsHaveOne) {
  EXPECT_FALSE(find_op_class("ProbeCompositeFwdOp").compile_boundary);
  EXPECT_TRUE(find_op_class("ProbeFwdOp").compile_boundary);
}

}  // namespace
}  // namespace tileops
