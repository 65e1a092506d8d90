// Checklist §1.3 #21 and §1.18 #90: what a call decides is not construction's, and inferring a
// call's outputs (what a fake, a trace or a graph capture runs) builds nothing.
#include "behaviour_helpers.hpp"
#include "tileops/framework/device_facts.hpp"
#include "tileops/framework/target.hpp"

namespace tileops {
namespace {

using testing::contains;
using testing::filled;

// The parameters of an op's first workload (its required parameters have no default).
ParamMap workload_params(const OpClassInfo& info) {
  const std::vector<Workload> workloads = info.schema->workloads();
  return workloads.empty() ? ParamMap{} : workloads.front().params;
}

// For every op class with a tensor input: naming an input, its shape (as workloads spell it) or
// its dtype at construction is an unknown parameter. Only a manifest param may carry a shape, a
// dtype or a tensor (ops without tensor inputs, and construction-time tensors: B83, B84).
TEST(B21_CallTimeFactsAreNoConstructionParameters, InputsTheirShapesAndDtypesAreRejected) {
  int checked = 0;
  for (const OpClassInfo* info : op_classes()) {
    if (!info->factory || info->schema->inputs.empty()) continue;
    const std::string input(info->schema->inputs.front().name);
    const std::vector<std::pair<std::string, ParamValue>> attempts = {
        {input, Tensor::empty({2}, DType::kFloat32)},
        {input + "_shape", IntList{2, 4}},
        {input + "_dtype", DType::kFloat32},
        {"dtypes", DType::kFloat32},
    };
    for (const auto& [name, value] : attempts) {
      ParamMap params = workload_params(*info);
      params.emplace_back(name, value);
      try {
        info->factory(params, {});
        ADD_FAILURE() << info->schema->name << " accepted the construction parameter " << name;
      } catch (const ParamError& e) {
        EXPECT_EQ(e.argument(), name) << e.what();
        EXPECT_TRUE(contains(e.what(), "an unknown parameter name")) << e.what();
      }
    }
    ++checked;
  }
  EXPECT_GE(checked, 12) << "the library's ops and the probes";
  // The exceptions: an op without tensor inputs takes its shape and dtype as parameters.
  EXPECT_NO_THROW(make_op("ProbeNoInputFwdOp", {{"n", int64_t{4}}, {"dtype", DType::kFloat16}}));
}

// What a trace or a CUDA graph capture runs of an op (its fake: infer_outputs) checks the
// signature and infers the outputs, and never selects, builds or asks a target's builder.
TEST(B90_CaptureBuildsNothing, InferringOutputsSelectsBuildsAndSettlesNothing) {
  ProbeCounters counters;
  Registration impl = register_probe({.key = "k", .counters = &counters});
  int builder_calls = 0;
  Registration builder =
      register_kernel_builder("ProbeFwdOp", "capture-target",
                              [&](std::span<const std::optional<TensorDesc>>,
                                  const ParamMap&) -> std::unique_ptr<TargetKernel> {
                                ++builder_calls;
                                return nullptr;
                              });
  testing::ScopedDeviceFacts facts(kCPU, [](Device) -> DeviceFacts {
    throw RuntimeError("device facts read while inferring outputs");
  });
  ProbeFwdOp in_tree;
  ProbeFwdOp targeted({}, "capture-target");
  for (Op* op : {static_cast<Op*>(&in_tree), static_cast<Op*>(&targeted)}) {
    const std::vector<Tensor> inputs{filled({3, 5}, 1), filled({5}, 1)};
    const std::vector<TensorDesc> out = op->infer_outputs(inputs);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].shape, (Shape{3, 5}));
    EXPECT_EQ(out[0].dtype, DType::kFloat32);
    EXPECT_FALSE(op->serving_target().has_value());
    EXPECT_TRUE(op->iter_kernels().empty());
    EXPECT_FALSE(op->last_call().has_value());
    // The signature check still runs: a bad call fails here as it would eagerly.
    EXPECT_THROW(op->infer_outputs(std::vector<Tensor>{filled({3, 5}, 1), filled({4}, 1)}),
                 ShapeError);
  }
  EXPECT_EQ(counters.refusal_calls, 0);
  EXPECT_EQ(counters.builds, 0);
  EXPECT_EQ(builder_calls, 0);
}

}  // namespace
}  // namespace tileops
