// Checklist §1.10-1.13: failure and undo, last_call and roofline, tuning, enumeration.
#include <regex>

#include "behaviour_helpers.hpp"
#include "tileops/framework/target.hpp"

namespace tileops {
namespace {

using testing::contains;
using testing::filled;

TEST(B62_FailedCallKeepsThePreviousRecord, LastCallIsUnchangedByAFailure) {
  Registration r = register_probe({.key = "k"});
  ProbeFwdOp op;
  op(filled({3}, 1));
  EXPECT_THROW(op(Tensor::empty({3}, DType::kInt8)), DTypeError);
  EXPECT_EQ(op.last_call()->inputs[0]->shape, (Shape{3}));
  EXPECT_EQ(op.last_call()->inputs[0]->dtype, DType::kFloat32);
}

TEST(B63_FirstCallFailureUndoesEverything, ABuilderThatFailsOnceIsRetried) {
  int attempts = 0;
  Registration b = register_kernel_builder(
      "ProbeFwdOp", "flaky",
      [&](std::span<const std::optional<TensorDesc>>,
          const ParamMap&) -> std::unique_ptr<TargetKernel> {
        if (++attempts == 1) throw RuntimeError("first build fails");
        struct Copy final : TargetKernel {
          void run(std::span<const Tensor> in, std::span<const Tensor> out) override {
            std::copy_n(in[0].data_as<const float>(), in[0].numel(), out[0].data_as<float>());
          }
        };
        return std::make_unique<Copy>();
      });
  ProbeFwdOp op({}, "flaky");
  EXPECT_THROW(op(filled({2}, 5)), RuntimeError);
  EXPECT_FALSE(op.serving_target().has_value());  // the failing first call pinned nothing
  EXPECT_TRUE(op.iter_kernels().empty());
  Tensor y = op(filled({2}, 5));
  EXPECT_EQ(op.serving_target(), "flaky");
  EXPECT_FLOAT_EQ(y.data_as<float>()[1], 5.0f);
  EXPECT_EQ(attempts, 2);
}

TEST(B63_FirstCallFailureUndoesEverything, KernelsBuiltDuringTheFailedFirstCallAreDropped) {
  Registration r = register_probe({.key = "k"});
  ProbeFwdOp op({.mode = "bad-output"});  // builds a kernel, then fails the return check
  EXPECT_THROW(op(filled({2}, 1)), ContractError);
  EXPECT_FALSE(op.serving_target().has_value());
  EXPECT_TRUE(op.built_entries("probe_a").empty());
}

TEST(B63_FirstCallFailureUndoesEverything, SubOpBindingsAreUndoneLevelByLevel) {
  Registration r = register_probe({.key = "k"});
  ProbeCompositeFwdOp op({.rogue = true});  // fails after its sub-ops ran
  EXPECT_THROW(op(filled({2, 2}, 1)), ContractError);
  EXPECT_FALSE(op.serving_target().has_value());
  ASSERT_EQ(op.held_delegates().size(), 2u);
  for (const Op* sub : op.held_delegates()) {
    EXPECT_FALSE(sub->serving_target().has_value());
    EXPECT_TRUE(sub->iter_kernels().empty());
  }
}

// The undo resets records with bindings: before, each sub-op's last_call still named the kernels
// the undo destroyed, and kernel_config() read freed memory (seen by ASan).
TEST(B63_FirstCallFailureUndoesEverything, SubOpRecordsAreUndoneWithTheirBindings) {
  Registration r = register_probe({.key = "k"});
  ProbeCompositeFwdOp op({.rogue = true});
  EXPECT_THROW(op(filled({2, 2}, 1)), ContractError);
  ASSERT_EQ(op.held_delegates().size(), 2u);
  for (const Op* sub : op.held_delegates()) {
    EXPECT_FALSE(sub->last_call().has_value());
    EXPECT_EQ(sub->kernel_config(), "");
  }
  EXPECT_FALSE(op.last_call().has_value());
}

// A sub-op that is a local of forward is gone when the parent checks its call: the error names it
// from a copy of its key (before, the message was built from the destroyed op; ASan).
TEST(B63_FirstCallFailureUndoesEverything, AnUnheldLocalSubOpIsNamedAfterItIsGone) {
  Registration r = register_probe({.key = "k"});
  ProbeCompositeFwdOp op({.rogue_local = true});
  try {
    op(filled({2, 2}, 1));
    ADD_FAILURE() << "expected a ContractError";
  } catch (const ContractError& e) {
    EXPECT_TRUE(std::regex_search(e.what(), std::regex("sub-op ProbeFwdOp#[0-9]+ completed a call "
                                                       "inside this call but is not held")))
        << e.what();
  }
}

// A record copied out of last_call() stays readable after its op and the registration that named
// its implementation are gone (served_by used to view the registration's key).
TEST(B62_FailedCallKeepsThePreviousRecord, ACopiedRecordOutlivesItsOpAndRegistration) {
  std::optional<CallRecord> record;
  {
    Registration r = register_probe({.key = "probe_copied_record"});
    ProbeFwdOp op;
    op(filled({3}, 1));
    record = op.last_call();
  }
  ASSERT_TRUE(record.has_value());
  EXPECT_EQ(record->served_by, "probe_copied_record");
  EXPECT_EQ(record->outputs[0].shape, (Shape{3}));
}

TEST(B64_LaterFailureKeepsTheBinding, TargetAndKernelsSurviveAFailingLaterCall) {
  ProbeCounters counters;
  Registration r =
      register_probe({.key = "k",
                      .refuse = [](const ProbeCall& c) -> std::optional<std::string> {
                        if (c.n == 13) return "13 is unlucky";
                        return std::nullopt;
                      },
                      .identity = [](const ProbeCall& c) { return std::to_string(c.n); },
                      .counters = &counters,
                      .fail_run_for_n = 7});
  ProbeFwdOp op;
  op(filled({2}, 1));
  EXPECT_THROW(op(filled({13}, 1)), NoImplementationError);  // fails in dispatch
  EXPECT_THROW(op(filled({7}, 1)), RuntimeError);            // fails after building its kernel
  EXPECT_EQ(op.serving_target(), "builtin");
  // The kernel built during the failed call is kept, with the earlier one.
  EXPECT_EQ(op.built_entries("probe_a").size(), 2u);
  EXPECT_EQ(op.iter_kernels().size(), 2u);
  op(filled({2}, 1));
  EXPECT_THROW(op(filled({7}, 1)), RuntimeError);
  EXPECT_EQ(counters.builds, 2);                            // neither kernel was built again
  EXPECT_EQ(op.last_call()->inputs[0]->shape, (Shape{2}));  // failures leave last_call alone
}

TEST(B65_LastCallContents, DescribesInputsOutputsAndWhoServed) {
  Registration r = register_probe({.key = "k"});
  ProbeFwdOp op;
  op(filled({2, 4}, 1, DType::kFloat16), filled({4}, 1, DType::kFloat16));
  const CallRecord rec = *op.last_call();
  EXPECT_EQ(rec.inputs[1]->dtype, DType::kFloat16);
  EXPECT_EQ(rec.outputs[0].dtype, DType::kFloat16);
  EXPECT_EQ(rec.served_by, "k");
  ASSERT_EQ(rec.n_kernels, 1);
  EXPECT_EQ(rec.kernels[0]->config(), "k");
}

TEST(B66_EvalRoofline, FollowsTheCallThatRanAndFailsBeforeAnyCall) {
  Registration r = register_probe({.key = "k"});
  ProbeFwdOp op;
  EXPECT_THROW(op.eval_roofline(), ValueError);
  op(filled({2, 4}, 1));
  EXPECT_EQ(op.eval_roofline(), (RooflineValue{8, 2 * 8 * 4}));
  op(filled({2, 4}, 1), filled({4}, 1));  // the optional bias counts only when passed
  EXPECT_EQ(op.eval_roofline(), (RooflineValue{8, (2 * 8 + 4) * 4}));
}

TEST(B67_RooflineHooks, KeyReadBytesAndDataTerms) {
  Registration r = register_probe({.key = "k"});
  ProbeFwdOp op;
  op(filled({2, 4}, 1, DType::kFloat16), filled({4}, 1, DType::kFloat16));
  EXPECT_EQ(op.roof_key(), "ProbeFwdOp/tensor-16bit");
  EXPECT_EQ(op.eval_roofline_read_bytes(), (8 + 4) * 2);
  const auto terms = op.roofline_data_terms();
  ASSERT_EQ(terms.size(), 3u);
  EXPECT_EQ(terms[2].tensor, "y");
  EXPECT_TRUE(terms[2].written);
  EXPECT_EQ(terms[2].bytes, 16);
}

TEST(B68_RequestTune, MarksTheOpAndTunesBuiltKernels) {
  ProbeCounters counters;
  Registration r = register_probe({.key = "k", .counters = &counters, .tunable = true});
  ProbeFwdOp op;
  op(filled({2}, 1));
  EXPECT_EQ(counters.tune_requests, 0);
  op.request_tune();
  EXPECT_TRUE(op.tuned());
  EXPECT_EQ(counters.tune_requests, 1);
}

TEST(B69_TunedMode, KernelsBuiltAfterwardsAreTunedForEverySpecialisation) {
  ProbeCounters counters;
  Registration r =
      register_probe({.key = "k",
                      .identity = [](const ProbeCall& c) { return std::to_string(c.n); },
                      .counters = &counters,
                      .tunable = true});
  ProbeFwdOp op;
  op.request_tune();
  op(filled({2}, 1));
  op(filled({3}, 1));
  EXPECT_EQ(counters.builds, 2);
  EXPECT_EQ(counters.tune_requests, 2);
}

TEST(B69_TunedMode, SubOpsCreatedLaterAreTunedToo) {
  ProbeCounters counters;
  Registration r = register_probe({.key = "k", .counters = &counters, .tunable = true});
  ProbeCompositeFwdOp op;
  op.request_tune();
  op(filled({2, 2}, 1));
  for (const Op* sub : op.held_delegates()) EXPECT_TRUE(sub->tuned());
  EXPECT_EQ(counters.tune_requests, 2);  // one kernel per sub-op
}

TEST(B71_KernelConfig, ReportsTheConfigurationThatServedTheLastCall) {
  Registration a = register_probe({.key = "alpha"});
  Registration b = register_probe({.key = "beta", .interface = &ProbeBKernel::info()});
  ProbeFwdOp op;
  EXPECT_EQ(op.kernel_config(), "");
  op(filled({2}, 1));
  EXPECT_EQ(op.kernel_config(), "alpha");
  ProbeCompositeFwdOp composite;
  composite(filled({1, 2}, 1));
  EXPECT_EQ(composite.kernel_config(), "first: alpha; second: alpha");
}

TEST(B73_IterKernels, EveryKernelOfEveryEntryAndHeldSubOp) {
  Registration r = register_probe(
      {.key = "k", .identity = [](const ProbeCall& c) { return std::to_string(c.n); }});
  ProbeCompositeFwdOp op;
  op(filled({2, 2}, 1));
  op(filled({2, 2}, 1));
  EXPECT_EQ(op.iter_kernels().size(), 2u);  // one per held sub-op; none of its own
  ProbeFwdOp plain;
  plain(filled({2}, 1));
  plain(filled({3}, 1));
  EXPECT_EQ(plain.iter_kernels().size(), 2u);
}

// Two calls whose identities match share one entry: two hit-cache keys, one kernel, listed once
// (enumerating the hit cache instead of the entries would list it twice).
TEST(B73_IterKernels, AKernelSharedByTwoCallsIsListedOnce) {
  ProbeCounters counters;
  Registration r = register_probe({.key = "k", .counters = &counters});  // one identity for all
  ProbeFwdOp op;
  op(filled({2}, 1));
  op(filled({3}, 1));
  op(filled({4}, 1, DType::kFloat16));
  EXPECT_EQ(counters.builds, 1);
  EXPECT_EQ(op.iter_kernels().size(), 1u);
  op.request_tune();
  EXPECT_EQ(counters.tune_requests, 1);  // and tuned once, not once per call that used it
}

TEST(B74_BuiltEntries, EmptyBeforeTheFirstBuildAndReadOnly) {
  Registration r = register_probe({.key = "k"});
  ProbeFwdOp op;
  EXPECT_TRUE(op.built_entries("probe_a").empty());
  op(filled({2}, 1));
  auto entries = op.built_entries("probe_a");
  static_assert(std::is_same_v<decltype(entries), std::vector<const Kernel*>>,
                "entries are handed out read-only");
  entries.clear();  // clearing the copy does not touch the op
  EXPECT_EQ(op.built_entries("probe_a").size(), 1u);
  EXPECT_THROW(op.built_entries("no_such_interface"), ValueError);
}

}  // namespace
}  // namespace tileops
