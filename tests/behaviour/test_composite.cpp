// Checklist §1.14: composite ops and delegate_for.
#include <atomic>
#include <thread>

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

// "ProbeCompositeFwdOp#<n>" -> n.
int instance_number(const std::string& key) {
  return std::stoi(key.substr(key.find('#') + 1));
}

// The rogue is a local of the parent's forward (behaviour 87: it is neither held nor kept), so it
// is gone when the parent checks its call; the error names exactly that op and the parent.
TEST(B78_UnheldSubOp, CompletingACallInsideTheParentFailsTheParent) {
  Registration r = register_probe({.key = "k"});
  ProbeCompositeFwdOp op({.rogue_local = true});
  // Instance numbers count every op in the process: forward creates the held "first" and
  // "second", then the local, the third op after the composite.
  const std::string local_key =
      "ProbeFwdOp#" + std::to_string(instance_number(op.instance_key()) + 3);
  try {
    op(filled({2, 2}, 1));
    FAIL() << "the parent call completed although an unheld sub-op completed inside it";
  } catch (const ContractError& e) {
    EXPECT_TRUE(contains(e.what(), op.instance_key() + ": sub-op " + local_key +
                                       " completed a call inside this call but is not held "
                                       "through delegate_for"))
        << e.what();
  }
  EXPECT_FALSE(op.last_call().has_value());
  EXPECT_FALSE(op.serving_target().has_value());  // the failed first call is undone (63)
  // The held sub-ops are not rogues: the same composite without the local completes.
  ProbeCompositeFwdOp honest;
  EXPECT_NO_THROW(honest(filled({2, 2}, 1)));
}

// The call stack is per thread: while a parent's call is in progress on this thread, an op
// called on another thread is a top-level call, not a sub-op of the parent.
TEST(B78_UnheldSubOp, TopLevelCallsOnOtherThreadsAreNotNested) {
  std::atomic<bool> spawned{false};
  std::string other_thread_error;
  Registration r = register_probe(
      {.key = "k", .on_run = [&] {
         if (spawned.exchange(true)) return;  // only inside the parent's first sub-op call
         std::thread other([&] {
           try {
             ProbeFwdOp standalone;
             standalone(filled({2}, 1));
           } catch (const std::exception& e) {
             other_thread_error = e.what();
           }
         });
         other.join();  // completes while the parent's call is still running on this thread
       }});
  ProbeCompositeFwdOp parent;
  EXPECT_NO_THROW(parent(filled({2, 2}, 1)));
  EXPECT_TRUE(spawned);
  EXPECT_EQ(other_thread_error, "");
  EXPECT_EQ(parent.last_call()->stages.size(), 2u);
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
