// Checklist §1.1-1.3 and §1.15: object model, class definition and construction.
// Test names start with the behaviour number of ../shared/spec/behaviours.md (B<n>_...).
#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <typeinfo>

#include <gtest/gtest.h>

#include "probe_ops/probe_ops.hpp"
#include "support/scoped_state.hpp"
#include "tileops/framework/device_facts.hpp"
#include "tileops/reference/check.hpp"

namespace tileops {
namespace {

Tensor ones(const Shape& shape) {
  Tensor t = Tensor::empty(shape, DType::kFloat32);
  std::fill_n(t.data_as<float>(), t.numel(), 1.0f);
  return t;
}

TEST(B01_OpAndKernel, KernelIsBuiltAtFirstCallNotAtConstruction) {
  ProbeCounters counters;
  Registration reg = register_probe({.key = "k", .counters = &counters});
  ProbeFwdOp op;
  EXPECT_EQ(counters.builds, 0);
  op(ones({2, 3}));
  EXPECT_EQ(counters.builds, 1);
}

// Every op class with a factory (the library's ops and the probes), each constructed with the
// parameters of its first workload (its required parameters have no default), else with none.
// "RMSNormFwdOp" for tileops::RMSNormFwdOp.
std::string unqualified_class_name(const std::type_info& type) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> name(
      abi::__cxa_demangle(type.name(), nullptr, nullptr, &status), std::free);
  const std::string full = status == 0 ? name.get() : type.name();
  const size_t colon = full.rfind("::");
  return colon == std::string::npos ? full : full.substr(colon + 2);
}

TEST(B02_ClassNamedAsEntry, EveryOpClassCarriesItsManifestKey) {
  int checked = 0;
  for (const OpClassInfo* info : op_classes()) {
    if (!info->factory) continue;
    const std::vector<Workload> workloads = info->schema->workloads();
    const ParamMap params = workloads.empty() ? ParamMap{} : workloads.front().params;
    auto op = info->factory(params, {});
    EXPECT_EQ(op->name(), info->schema->name);
    EXPECT_EQ(&op->schema(), info->schema) << info->schema->name;
    // The C++ class the factory constructs is named exactly like the manifest key.
    const Op& instance = *op;
    EXPECT_EQ(unqualified_class_name(typeid(instance)), info->schema->name);
    ++checked;
  }
  EXPECT_GE(checked, 12) << "the library's op classes and the probe ops";
  EXPECT_EQ(ProbeFwdOp::kName, "ProbeFwdOp");
  EXPECT_EQ(ProbeFwdOp::static_schema().name, "ProbeFwdOp");
}

template <typename T>
concept ForwardCallable = requires(T& t, const Tensor& x, Tensor& y) {
  t.forward(x, x, y);
};
template <typename T>
concept CheckCallable = requires(T& t, detail::CallFrame& f) {
  t.check_call_(f);
};

TEST(B03_CallEntersForward, ForwardIsNotPublicAndTheOpIsNoModule) {
  static_assert(!ForwardCallable<ProbeFwdOp>, "forward must not be callable from outside");
  static_assert(std::is_invocable_v<ProbeFwdOp&, const Tensor&>);
  static_assert(!std::is_copy_constructible_v<ProbeFwdOp>);
  SUCCEED();
}

TEST(B04_ClassDefinitionBeforeConstruction, OpClassesAreRegisteredAtLoad) {
  // No probe op has been constructed by this test; its class is known from load time.
  const OpClassInfo& info = find_op_class("ProbeMutateFwdOp");
  EXPECT_TRUE(info.factory != nullptr);
  EXPECT_EQ(find_op_class("ProbeSpecOnlyFwdOp").factory, nullptr);
}

TEST(B05_CompositeHoldsOnlySubOps, CompositeDeclaresNoInterface) {
  EXPECT_TRUE(ProbeCompositeFwdOp::decl().composite());
  EXPECT_TRUE(ProbeCompositeFwdOp::decl().interfaces.empty());
  EXPECT_TRUE(find_op_class("ProbeCompositeFwdOp").composite);
}

// From outside the op. From inside a hand-written subclass, where protected members would be
// reachable, the compile checks compile.{run_call,reset_binding,check_call}_bad show the private
// layer is out of reach (tests/compile_fail).
TEST(B05a_PrivateLayer, GeneratedAndBaseInternalsAreInaccessible) {
  static_assert(!CheckCallable<ProbeFwdOp>, "check_call_ is private to the base");
  SUCCEED();
}

TEST(B06_GeneratedMembers, SignatureCheckInferenceAndRooflineComeFromTheManifest) {
  Registration reg = register_probe({.key = "k"});
  ProbeFwdOp op;
  Tensor y = op(ones({2, 5}));
  EXPECT_EQ(y.shape(), (Shape{2, 5}));  // output.shape == x.shape, inferred
  EXPECT_EQ(op.eval_roofline(), (RooflineValue{10, 2 * 10 * 4}));
  EXPECT_THROW(op(Tensor::empty({2, 5}, DType::kBFloat16)), DTypeError);
}

TEST(B07_CompileBoundary, PresentForTensorOpsAbsentForCompositeAndNoInputOps) {
  EXPECT_TRUE(find_op_class("ProbeFwdOp").compile_boundary);
  EXPECT_FALSE(find_op_class("ProbeCompositeFwdOp").compile_boundary);
  EXPECT_FALSE(find_op_class("ProbeNoInputFwdOp").compile_boundary);
}

TEST(B08_ParamNames, RecordedInManifestOrderPerClass) {
  const auto& params = ProbeFwdOp::static_schema().params;
  ASSERT_EQ(params.size(), 3u);
  EXPECT_EQ(params[0].name, "scale");
  EXPECT_EQ(params[1].name, "mode");
  EXPECT_EQ(params[2].name, "table");
  const auto& composite = ProbeCompositeFwdOp::static_schema().params;
  ASSERT_EQ(composite.size(), 2u);
  EXPECT_EQ(composite[0].name, "rogue");
  EXPECT_EQ(composite[1].name, "rogue_local");
}

TEST(B09_Declarations, InterfacesAndDelegateTypesAreDeclaredByTheClass) {
  ASSERT_EQ(ProbeFwdOp::decl().interfaces.size(), 2u);
  EXPECT_EQ(ProbeFwdOp::decl().interfaces[0]->name, "probe_a");
  EXPECT_EQ(ProbeCompositeFwdOp::decl().delegate_types.front(), "ProbeFwdOp");
}

TEST(B11_AllowedConstructorParameters, UnknownNamesAreRejectedInjectedOnesAccepted) {
  EXPECT_NO_THROW(make_op("ProbeExpertsFwdOp", {{"experts", int64_t{4}}}));
  try {
    make_op("ProbeFwdOp", {{"scael", 2.0}});
    FAIL() << "an unknown parameter must be rejected";
  } catch (const ParamError& e) {
    EXPECT_NE(std::string(e.what()).find("scael"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("scale, mode, table"), std::string::npos);
  }
  // Injected names are per op class: ProbeFwdOp and the composite declare none.
  EXPECT_THROW(make_op("ProbeFwdOp", {{"experts", int64_t{4}}}), ParamError);
  EXPECT_THROW(make_op("ProbeCompositeFwdOp", {{"experts", int64_t{4}}}), ParamError);
}

TEST(B12_ParamsStoredBeforeDerivedState, ParamsAreReadableFromTheInstance) {
  ProbeFwdOp op({.scale = 2.5, .mode = "b"});
  EXPECT_EQ(op.params().scale, 2.5);
  EXPECT_EQ(op.params().mode, "b");
  // The derived constructor's member initializers saw the caller's values, not defaults.
  EXPECT_EQ(op.derived_label(), "bx2.5");
  // A bad parameter raises in the base initializer: no derived state is built from it.
  EXPECT_THROW(ProbeFwdOp({.scale = -1.0}), ParamError);
}

TEST(B13_ConstructionOrder, BadParameterRaisesBeforeAContractError) {
  // An implementation of an interface ProbeFwdOp does not declare breaks its contract...
  Registration reg = register_probe({.key = "stray", .interface = &ProbeUndeclaredKernel::info()});
  EXPECT_THROW(ProbeFwdOp({.scale = -1.0}), ParamError);  // ...but the parameter check runs first
  try {
    ProbeFwdOp op;
    FAIL() << "a contract error was expected";
  } catch (const ContractError& e) {
    EXPECT_NE(std::string(e.what()).find("stray"), std::string::npos);
  }
}

TEST(B13_ConstructionOrder, ContractErrorLeavesNoRegisteredInstance) {
  std::string before;
  {
    ProbeFwdOp probe;
    before = probe.instance_key();
  }
  const int next = std::stoi(before.substr(before.find('#') + 1)) + 1;
  {
    Registration reg =
        register_probe({.key = "stray", .interface = &ProbeUndeclaredKernel::info()});
    EXPECT_THROW(ProbeFwdOp(), ContractError);
  }
  EXPECT_EQ(find_instance("ProbeFwdOp#" + std::to_string(next)), nullptr);
}

TEST(B15_ParameterCheck, RequiredMissingAndRuleViolationsRaiseParamError) {
  EXPECT_THROW(ProbeNoInputFwdOp({}), ParamError);  // n is required
  EXPECT_THROW(ProbeNoInputFwdOp({.n = -1}), ParamError);
  EXPECT_THROW(ProbeFwdOp({.mode = "c"}), ParamError);
  try {
    ProbeFwdOp op({.scale = -3.0});
    FAIL() << "scale = -3 was accepted";
  } catch (const ParamError& e) {
    EXPECT_NE(std::string(e.what()).find("scale >= 0.0"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("scale=-3"), std::string::npos);
  }
}

TEST(B83_ConstructionTimeTensor, IsCheckedAtConstruction) {
  EXPECT_NO_THROW(ProbeFwdOp({.table = Tensor::empty({4}, DType::kFloat32)}));
  EXPECT_THROW(ProbeFwdOp({.table = Tensor::empty({4, 4}, DType::kFloat32)}), ParamError);
  EXPECT_THROW(ProbeFwdOp({.table = Tensor::empty({4}, DType::kFloat16)}), ParamError);
  auto op = make_op("ProbeFwdOp", {{"table", Tensor::empty({3}, DType::kFloat32)}});
  EXPECT_TRUE(std::holds_alternative<Tensor>(*find_param(op->param_values(), "table")));
}

TEST(B16_ImplementationTable, RegistrationAfterConstructionDoesNotChangeAnInstance) {
  Registration a = register_probe({.key = "first"});
  ProbeFwdOp op;
  Registration b = register_probe({.key = "second"});  // would make dispatch ambiguous
  EXPECT_NO_THROW(op(ones({2, 2})));
  EXPECT_EQ(op.last_call()->served_by, "first");
  ProbeFwdOp later;
  EXPECT_THROW(later(ones({2, 2})), AmbiguousDispatchError);
}

TEST(B16_ImplementationTable, PreferredOverMustNameASiblingOfTheSameInterface) {
  Registration a = register_probe({.key = "a1", .preferred_over = {"b1"}});
  Registration b = register_probe({.key = "b1", .interface = &ProbeBKernel::info()});
  EXPECT_THROW(ProbeFwdOp(), ContractError);
}

TEST(B16_ImplementationTable, PreferredOverCyclesAreRejected) {
  Registration a = register_probe({.key = "a1", .preferred_over = {"a2"}});
  Registration b = register_probe({.key = "a2", .preferred_over = {"a1"}});
  EXPECT_THROW(ProbeFwdOp(), ContractError);
}

TEST(B16_ImplementationTable, DuplicateKeyIsABackendError) {
  Registration a = register_probe({.key = "same"});
  EXPECT_THROW(register_probe({.key = "same"}), BackendError);
}

TEST(B17_InstanceKeys, MonotonicNeverReusedAndNotKeptAlive) {
  std::string first_key;
  {
    ProbeFwdOp first;
    first_key = first.instance_key();
    EXPECT_EQ(find_instance(first_key), &first);
  }
  EXPECT_EQ(find_instance(first_key), nullptr);
  ProbeFwdOp second;
  EXPECT_EQ(second.instance_key().rfind("ProbeFwdOp#", 0), 0u);
  EXPECT_GT(std::stoi(second.instance_key().substr(11)), std::stoi(first_key.substr(11)));
}

TEST(B18_FreshState, NewInstanceHasNothingSettledOrBuilt) {
  Registration reg = register_probe({.key = "k"});
  ProbeFwdOp op;
  EXPECT_FALSE(op.serving_target().has_value());
  EXPECT_TRUE(op.built_entries("probe_a").empty());
  EXPECT_FALSE(op.last_call().has_value());
  EXPECT_FALSE(op.tuned());
  EXPECT_TRUE(op.held_delegates().empty());
  EXPECT_TRUE(op.iter_kernels().empty());
}

TEST(B19_ConstructionTouchesNoDevice, PoisonedFactsProviderDoesNotBreakConstruction) {
  testing::ScopedDeviceFacts poisoned(kCPU, [](Device) -> DeviceFacts {
    throw RuntimeError("device facts read during construction");
  });
  EXPECT_NO_THROW(ProbeFwdOp());
  EXPECT_NO_THROW(ProbeCompositeFwdOp());
}

TEST(B20_DtypeMember, NoneByDefaultOverriddenByADtypeParameter) {
  Registration reg = register_probe({.key = "k"});
  EXPECT_FALSE(ProbeFwdOp().dtype().has_value());
  EXPECT_EQ(ProbeNoInputFwdOp({.n = 3, .dtype = DType::kFloat16}).dtype(), DType::kFloat16);
}

TEST(B84_NoTensorInput, ParamsGiveShapeAndDtype) {
  Registration reg = register_fill_cpu();
  ProbeNoInputFwdOp op({.n = 5, .dtype = DType::kFloat16});
  Tensor y = op();
  EXPECT_EQ(y.shape(), (Shape{5}));
  EXPECT_EQ(y.dtype(), DType::kFloat16);
  EXPECT_EQ(static_cast<float>(y.data_as<Half>()[4]), 4.0f);
  // A call with no tensor probes nothing and settles nothing (B36).
  EXPECT_FALSE(op.serving_target().has_value());
}

}  // namespace
}  // namespace tileops
