// Checklist §1.5: targets (execution policies that take over whole ops).
#include "behaviour_helpers.hpp"
#include "tileops/framework/target.hpp"
#include "tileops/framework/warnings.hpp"

namespace tileops {
namespace {

using testing::contains;
using testing::DefaultTargetGuard;
using testing::filled;

// A target kernel computing y = x + 100, recording what its builder received.
struct Recorded {
  int builds = 0;
  std::vector<std::optional<TensorDesc>> last_inputs;
  ParamMap last_params;
};

// Defines no request_tune().
class PlusHundred : public TargetKernel {
 public:
  void run(std::span<const Tensor> inputs, std::span<const Tensor> outputs) override {
    for (int64_t i = 0; i < inputs[0].numel(); ++i) {
      outputs[0].data_as<float>()[i] = inputs[0].data_as<const float>()[i] + 100.0f;
    }
  }
};

// Reports tunable() but defines no request_tune(): still untuned, so still warned about.
class ClaimsTunablePlusHundred final : public PlusHundred {
 public:
  bool tunable() const override { return true; }
};

// Defines request_tune() but not tunable(): guide A asks only for the former.
class TunedPlusHundred final : public PlusHundred {
 public:
  void request_tune(const TuneOptions&) override { ++tune_requests; }
  int tune_requests = 0;
};

KernelBuilder recording_builder(Recorded* rec, bool tunable = false) {
  return [rec, tunable](std::span<const std::optional<TensorDesc>> inputs, const ParamMap& params) {
    ++rec->builds;
    rec->last_inputs.assign(inputs.begin(), inputs.end());
    rec->last_params = params;
    return tunable ? std::unique_ptr<TargetKernel>(std::make_unique<TunedPlusHundred>())
                   : std::unique_ptr<TargetKernel>(std::make_unique<PlusHundred>());
  };
}

KernelBuilder claims_tunable_builder() {
  return [](std::span<const std::optional<TensorDesc>>, const ParamMap&) {
    return std::unique_ptr<TargetKernel>(std::make_unique<ClaimsTunablePlusHundred>());
  };
}

TEST(B31_TargetPrecedence, InstanceBeatsDefaultBeatsDetectionBeatsInTree) {
  DefaultTargetGuard guard;
  Registration impl = register_probe({.key = "k"});
  Recorded a, b, c;
  Registration ba = register_kernel_builder("ProbeFwdOp", "t-instance", recording_builder(&a));
  Registration bb = register_kernel_builder("ProbeFwdOp", "t-default", recording_builder(&b));
  Registration bc = register_kernel_builder("ProbeFwdOp", "t-detected", recording_builder(&c));
  Registration det = register_detector("t-detected", [](Device d) { return d.type == kCPU; });
  set_default_target("t-default");
  ProbeFwdOp explicit_op({}, "t-instance");
  explicit_op(filled({2}, 1));
  EXPECT_EQ(explicit_op.serving_target(), "t-instance");
  ProbeFwdOp default_op;
  default_op(filled({2}, 1));
  EXPECT_EQ(default_op.serving_target(), "t-default");
  set_default_target(std::nullopt);
  ProbeFwdOp detected_op;
  Tensor y = detected_op(filled({2}, 1));
  EXPECT_EQ(detected_op.serving_target(), "t-detected");
  EXPECT_FLOAT_EQ(y.data_as<float>()[0], 101.0f);
  EXPECT_EQ(detected_op.last_call()->served_by, "t-detected");
}

TEST(B32_Builtin, ForcesInTreeEvenWhenADetectorClaimsTheDevice) {
  DefaultTargetGuard guard;
  Registration impl = register_probe({.key = "k"});
  Recorded rec;
  Registration b = register_kernel_builder("ProbeFwdOp", "claimer", recording_builder(&rec));
  Registration det = register_detector("claimer", [](Device) { return true; });
  ProbeFwdOp op({}, std::string(kBuiltinTarget));
  op(filled({2}, 1));
  EXPECT_EQ(op.serving_target(), "builtin");
  EXPECT_EQ(rec.builds, 0);
  set_default_target(std::string(kBuiltinTarget));
  ProbeFwdOp by_default;
  by_default(filled({2}, 1));
  EXPECT_EQ(by_default.serving_target(), "builtin");
  const auto targets = registered_targets();
  EXPECT_EQ(std::count(targets.begin(), targets.end(), "builtin"), 0);
}

TEST(B33_UnknownTarget, NamingAnUnregisteredTargetFails) {
  DefaultTargetGuard guard;
  Registration impl = register_probe({.key = "k"});
  EXPECT_THROW(set_default_target("nobody"), UnknownTargetError);
  ProbeFwdOp op({}, "nobody");
  try {
    op(filled({2}, 1));
    FAIL();
  } catch (const UnknownTargetError& e) {
    EXPECT_TRUE(contains(e.what(), "target 'nobody' is not registered")) << e.what();
  }
  EXPECT_FALSE(op.serving_target().has_value());
}

TEST(B33_ExplicitTargetIsTakenAsGiven, NoDetectorIsAsked) {
  Registration impl = register_probe({.key = "k"});
  int asked = 0;
  Recorded rec;
  Registration b = register_kernel_builder("ProbeFwdOp", "named", recording_builder(&rec));
  Registration det = register_detector("named", [&](Device) {
    ++asked;
    return false;
  });
  ProbeFwdOp op({}, "named");
  op(filled({2}, 1));
  EXPECT_EQ(asked, 0);
  EXPECT_EQ(op.serving_target(), "named");
}

TEST(B34_Detection, NoClaimMeansInTreeSeveralClaimsAreAmbiguous) {
  Registration impl = register_probe({.key = "k"});
  Recorded r1, r2;
  Registration b1 = register_kernel_builder("ProbeFwdOp", "zeta", recording_builder(&r1));
  Registration b2 = register_kernel_builder("ProbeFwdOp", "alpha", recording_builder(&r2));
  bool claim = false;
  Registration d1 = register_detector("zeta", [&](Device) { return claim; });
  Registration d2 = register_detector("alpha", [&](Device) { return claim; });
  ProbeFwdOp quiet;
  quiet(filled({1}, 1));
  EXPECT_EQ(quiet.serving_target(), "builtin");
  claim = true;  // detectors are asked afresh for unsettled instances
  ProbeFwdOp contested;
  try {
    contested(filled({1}, 1));
    FAIL();
  } catch (const AmbiguousTargetError& e) {
    EXPECT_TRUE(contains(e.what(), "[alpha, zeta]")) << e.what();
  }
  EXPECT_FALSE(contested.serving_target().has_value());
  EXPECT_EQ(quiet.serving_target(), "builtin");  // settled instances keep theirs (B37)
}

TEST(B34_Detection, ADetectorThatThrowsIsABackendErrorNamingTheTarget) {
  Registration impl = register_probe({.key = "k"});
  Recorded rec;
  Registration b = register_kernel_builder("ProbeFwdOp", "fragile", recording_builder(&rec));
  Registration d =
      register_detector("fragile", [](Device) -> bool { throw std::runtime_error("boom"); });
  ProbeFwdOp op;
  try {
    op(filled({1}, 1));
    FAIL();
  } catch (const BackendError& e) {
    EXPECT_TRUE(contains(e.what(), "fragile")) << e.what();
    EXPECT_TRUE(contains(e.what(), "boom")) << e.what();
  }
}

TEST(B34_Detection, ADetectorThatThrowsANonStandardExceptionIsABackendErrorToo) {
  Registration impl = register_probe({.key = "k"});
  Recorded rec;
  Registration b = register_kernel_builder("ProbeFwdOp", "odd", recording_builder(&rec));
  Registration d = register_detector("odd", [](Device) -> bool { throw 42; });
  ProbeFwdOp op;
  try {
    op(filled({1}, 1));
    FAIL();
  } catch (const BackendError& e) {
    EXPECT_TRUE(contains(e.what(), "'odd'")) << e.what();
    EXPECT_TRUE(contains(e.what(), "not a std::exception")) << e.what();
  }
}

// A target's builders declare the ops it takes (docs/design/decisions.md): a detector that claims
// the device does not take ops its target has no builder for; they stay in-tree.
TEST(B34_Detection, AClaimingTargetWithoutABuilderForTheOpLeavesItInTree) {
  Registration impl = register_probe({.key = "k"});
  Recorded rec;
  Registration other =
      register_kernel_builder("ProbeNoInputFwdOp", "greedy", recording_builder(&rec));
  int asked = 0;
  Registration d = register_detector("greedy", [&](Device) {
    ++asked;
    return true;
  });
  ProbeFwdOp op;
  op(filled({1}, 1));
  EXPECT_EQ(op.serving_target(), "builtin");
  EXPECT_EQ(op.last_call()->served_by, "k");
  EXPECT_EQ(asked, 0);  // its detector is not even asked for this op
}

TEST(B34_Detection, ExcludedTargetsAreNeverDetectedButServeWhenNamed) {
  Registration impl = register_probe({.key = "k"});
  Recorded rec;
  Registration b = register_kernel_builder("ProbeFwdOp", "shy", recording_builder(&rec));
  Registration d = register_detector("shy", [](Device) { return true; });
  const std::vector<std::string> before = excluded_targets();
  set_excluded_targets({"shy"});
  ProbeFwdOp detected;
  detected(filled({1}, 1));
  EXPECT_EQ(detected.serving_target(), "builtin");
  ProbeFwdOp named({}, "shy");
  named(filled({1}, 1));
  EXPECT_EQ(named.serving_target(), "shy");
  set_excluded_targets({});
  ProbeFwdOp again;
  again(filled({1}, 1));
  EXPECT_EQ(again.serving_target(), "shy");
  set_excluded_targets(before);
}

TEST(B35_TargetWithoutBuilder, ANamedOneIsOpNotAvailableNamingTheTargetsThatServe) {
  Registration impl = register_probe({.key = "k"});
  Recorded rec;
  Registration other = register_kernel_builder("ProbeFwdOp", "server", recording_builder(&rec));
  Registration d = register_detector("lazy", [](Device) { return true; });
  ProbeFwdOp op({}, "lazy");
  try {
    op(filled({1}, 1));
    FAIL();
  } catch (const OpNotAvailableError& e) {
    EXPECT_TRUE(contains(e.what(), "target 'lazy' registers no kernel builder")) << e.what();
    EXPECT_TRUE(contains(e.what(), "targets that do: [server]")) << e.what();
  }
  EXPECT_FALSE(op.serving_target().has_value());  // no fall back to in-tree
  DefaultTargetGuard guard;
  set_default_target("lazy");
  ProbeFwdOp by_default;
  EXPECT_THROW(by_default(filled({1}, 1)), OpNotAvailableError);
}

TEST(B36_DetectionDevice, ACallWithNoTensorSettlesNothing) {
  Registration fill = register_fill_cpu();
  int asked = 0;
  Registration d = register_detector("watcher", [&](Device) {
    ++asked;
    return false;
  });
  ProbeNoInputFwdOp op({.n = 2});
  op();
  EXPECT_EQ(asked, 0);
  EXPECT_FALSE(op.serving_target().has_value());
}

TEST(B37_SettledTargetIsFinal, DefaultChangesDoNotMoveASettledInstance) {
  DefaultTargetGuard guard;
  Registration impl = register_probe({.key = "k"});
  Recorded rec;
  Registration b = register_kernel_builder("ProbeFwdOp", "later", recording_builder(&rec));
  ProbeFwdOp op;
  op(filled({1}, 1));
  set_default_target("later");
  op(filled({1}, 1));
  EXPECT_EQ(op.serving_target(), "builtin");
  EXPECT_EQ(rec.builds, 0);
}

TEST(B38_BuilderArguments, OneDescriptorPerInputSlotThenParamsByName) {
  Recorded rec;
  Registration b = register_kernel_builder("ProbeFwdOp", "args", recording_builder(&rec));
  ProbeFwdOp op({.scale = 4.0}, "args");
  op(filled({2, 3}, 1));
  ASSERT_EQ(rec.last_inputs.size(), 2u);
  ASSERT_TRUE(rec.last_inputs[0].has_value());
  EXPECT_EQ(rec.last_inputs[0]->shape, (Shape{2, 3}));
  EXPECT_EQ(rec.last_inputs[0]->dtype, DType::kFloat32);
  EXPECT_FALSE(rec.last_inputs[1].has_value());  // the absent optional bias
  ASSERT_EQ(rec.last_params.size(), 3u);
  EXPECT_EQ(rec.last_params[0].first, "scale");
  EXPECT_EQ(std::get<double>(rec.last_params[0].second), 4.0);
  EXPECT_EQ(std::get<std::string>(rec.last_params[1].second), "a");
}

TEST(B38_BuilderArguments, ABuilderReturningNothingIsOpNotAvailable) {
  Registration b = register_kernel_builder("ProbeFwdOp", "empty-handed",
                                           [](auto, const ParamMap&) { return nullptr; });
  ProbeFwdOp op({}, "empty-handed");
  EXPECT_THROW(op(filled({1}, 1)), OpNotAvailableError);
}

TEST(B39_TargetKernelCache, KeyedByDeviceAndPerSlotDtypeShapeOrAbsence) {
  Recorded rec;
  Registration b = register_kernel_builder("ProbeFwdOp", "cache", recording_builder(&rec));
  ProbeFwdOp op({}, "cache");
  op(filled({2, 3}, 1));
  op(filled({2, 3}, 2));
  EXPECT_EQ(rec.builds, 1);
  op(filled({2, 4}, 1));
  EXPECT_EQ(rec.builds, 2);
  op(filled({2, 4}, 1), filled({4}, 1));  // same shapes, bias now present
  EXPECT_EQ(rec.builds, 3);
  EXPECT_EQ(op.iter_kernels().size(), 3u);
}

TEST(B40_OpLayerStillChecks, BadCallsFailBeforeTheBuilderIsAsked) {
  Recorded rec;
  Registration b = register_kernel_builder("ProbeFwdOp", "strict", recording_builder(&rec));
  ProbeFwdOp op({}, "strict");
  EXPECT_THROW(op(Tensor::empty({2}, DType::kInt64)), DTypeError);
  EXPECT_EQ(rec.builds, 0);
}

TEST(B41_Registration, OneDetectorPerTargetOneBuilderPerOpAndTarget) {
  Registration d = register_detector("solo", [](Device) { return false; });
  EXPECT_THROW(static_cast<void>(register_detector("solo", [](Device) { return false; })),
               BackendError);
  Recorded rec;
  Registration b = register_kernel_builder("ProbeFwdOp", "solo", recording_builder(&rec));
  try {
    static_cast<void>(register_kernel_builder("ProbeFwdOp", "solo", recording_builder(&rec)));
    FAIL();
  } catch (const BackendError& e) {
    EXPECT_TRUE(contains(e.what(), "misinstall")) << e.what();
  }
  Registration only_builder =
      register_kernel_builder("ProbeFwdOp", "by-name-only", recording_builder(&rec));
  const auto all = registered_targets();
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end()));
  EXPECT_NE(std::find(all.begin(), all.end(), "by-name-only"), all.end());
  const auto for_op = registered_targets("ProbeFwdOp");
  EXPECT_EQ(for_op, (std::vector<std::string>{"by-name-only", "solo"}));
}

// The kernel says tunable() but defines no request_tune(): what counts is the latter (a check of
// tunable() would stay silent here). The op warns, naming itself and the target, for the kernel
// built before request_tune() and for the one built after, and keeps serving calls.
TEST(B70_TargetKernelWithoutTuning, RequestTuneWarnsInsteadOfFailing) {
  Registration b = register_kernel_builder("ProbeFwdOp", "untunable", claims_tunable_builder());
  std::vector<std::string> warnings;
  auto previous = set_warning_handler([&](const std::string& m) { warnings.push_back(m); });
  ProbeFwdOp op({}, "untunable");
  op(filled({1}, 1));
  EXPECT_NO_THROW(op.request_tune());
  Tensor y;
  EXPECT_NO_THROW(y = op(filled({3}, 2)));  // a new specialisation, built in tuned mode
  set_warning_handler(previous);
  ASSERT_EQ(warnings.size(), 2u);
  for (const std::string& warning : warnings) {
    EXPECT_TRUE(contains(warning, "defines no request_tune")) << warning;
    EXPECT_TRUE(contains(warning, "ProbeFwdOp")) << warning;
    EXPECT_TRUE(contains(warning, "'untunable'")) << warning;
  }
  ASSERT_TRUE(y.defined());
  EXPECT_FLOAT_EQ(y.data_as<float>()[2], 102.0f);
  EXPECT_TRUE(op.tuned());
}

TEST(B68_TuningReachesTargetKernels, BuiltAndLaterBuiltTargetKernelsAreTuned) {
  Recorded rec;
  Registration b = register_kernel_builder("ProbeFwdOp", "tunable", recording_builder(&rec, true));
  std::vector<std::string> warnings;
  auto previous = set_warning_handler([&](const std::string& m) { warnings.push_back(m); });
  ProbeFwdOp op({}, "tunable");
  op(filled({1}, 1));
  op.request_tune();
  op(filled({3}, 1));  // a new specialisation, built in tuned mode
  set_warning_handler(previous);
  auto kernels = op.iter_kernels();
  ASSERT_EQ(kernels.size(), 2u);
  // Tuned although tunable() is false: defining request_tune() is what counts.
  for (Kernel* k : kernels) {
    EXPECT_FALSE(k->tunable());
    EXPECT_EQ(static_cast<TunedPlusHundred*>(k)->tune_requests, 1);
  }
  EXPECT_TRUE(warnings.empty()) << warnings[0];
}

}  // namespace
}  // namespace tileops
