// Checklist §1.15, behaviour 82: injected parameters. The family (here ProbeExpertsFwdOp, shaped
// like FusedMoE) declares and uses them; the base class only checks them against the declaration
// and hands them to the op.
#include "behaviour_helpers.hpp"
#include "probe_ops/probe_experts_op.hpp"

namespace tileops {
namespace {

using testing::contains;
using testing::filled;

// y = x * scale^experts, so a dropped value changes the result.
TEST(B82_InjectedParameters, ValuesGivenByNameReachTheOp) {
  Registration r = register_probe({.key = "k"});
  auto op = make_op("ProbeExpertsFwdOp", {{"experts", int64_t{3}}, {"expert_scale", 1.5}});
  const std::vector<Tensor> y = op->call(std::vector<Tensor>{filled({2, 2}, 2)});
  EXPECT_FLOAT_EQ(y[0].data_as<float>()[3], 2.0f * 1.5f * 1.5f * 1.5f);
  EXPECT_EQ(op->held_delegates().size(), 3u);
}

TEST(B82_InjectedParameters, ValuesGivenInTheTypedParamsReachTheOp) {
  Registration r = register_probe({.key = "k"});
  // An int is accepted for a float parameter and converted, as for manifest parameters.
  ProbeExpertsFwdOp op({.injected = {{"experts", int64_t{2}}, {"expert_scale", int64_t{5}}}});
  EXPECT_EQ(op.experts(), 2);
  EXPECT_EQ(op.expert_scale(), 5.0);
  EXPECT_EQ(op.params().injected.get(ProbeExpertsFwdOp::kExpertScale), 5.0);
  EXPECT_FLOAT_EQ(op(filled({3}, 1)).data_as<float>()[2], 25.0f);
  // Not given: the family's defaults.
  ProbeExpertsFwdOp plain;
  EXPECT_EQ(plain.experts(), 1);
  EXPECT_FALSE(plain.params().injected.get(ProbeExpertsFwdOp::kExperts).has_value());
}

TEST(B82_InjectedParameters, AValueOfTheWrongKindIsAParamErrorAtConstruction) {
  try {
    make_op("ProbeExpertsFwdOp", {{"experts", std::string("three")}});
    FAIL() << "a str for an int injected parameter was accepted";
  } catch (const ParamError& e) {
    EXPECT_EQ(e.op(), "ProbeExpertsFwdOp");
    EXPECT_EQ(e.argument(), "experts");
    EXPECT_TRUE(contains(e.what(), "expected an int, got str 'three'")) << e.what();
  }
}

TEST(B82_InjectedParameters, OnlyDeclaredNamesGivenOnceAreAccepted) {
  try {
    ProbeExpertsFwdOp op({.injected = {{"exprets", int64_t{2}}}});
    FAIL() << "an undeclared injected name was accepted";
  } catch (const ParamError& e) {
    EXPECT_EQ(e.argument(), "exprets");
    EXPECT_TRUE(contains(e.what(), "[experts, expert_scale]")) << e.what();
  }
  EXPECT_THROW(ProbeExpertsFwdOp({.injected = {{"experts", int64_t{2}}, {"experts", int64_t{3}}}}),
               ParamError);
  // An op that declares none takes none, in the typed form too.
  EXPECT_THROW(ProbeFwdOp({.injected = {{"experts", int64_t{2}}}}), ParamError);
}

// The base gives them no meaning: they are not manifest parameters (so not in param_values(),
// which a target's builder receives), and their domain is the family's to check.
TEST(B82_InjectedParameters, TheBaseGivesThemNoMeaning) {
  auto op = make_op("ProbeExpertsFwdOp", {{"experts", int64_t{2}}});
  EXPECT_TRUE(op->param_values().empty());
  try {
    ProbeExpertsFwdOp bad({.injected = {{"experts", int64_t{0}}}});
    FAIL() << "the family's own check did not run";
  } catch (const ParamError& e) {
    EXPECT_TRUE(contains(e.what(), "expected at least 1 expert, got 0")) << e.what();
  }
}

}  // namespace
}  // namespace tileops
