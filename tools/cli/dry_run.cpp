#include "dry_run.hpp"

#include <cstddef>

#include "tileops/core/error.hpp"
#include "tileops/framework/schema.hpp"

namespace tileops::cli {
namespace {

// The one address every dry-run tensor points at. Nothing reads or writes it: the only kernel
// that ever runs on the dry-run device is DryRunKernel.
alignas(64) std::byte g_no_memory[64];

class NoMemoryAllocator final : public Allocator {
 public:
  void* allocate(size_t, Device) override { return g_no_memory; }
  void deallocate(void*, size_t, Device) noexcept override {}
};

class DryRunKernel final : public TargetKernel {
 public:
  void run(std::span<const Tensor>, std::span<const Tensor>) override {}
};

NoMemoryAllocator g_allocator;

}  // namespace

DryRun::DryRun() : device_{device_type_from_name("dry-run"), 0} {
  previous_allocator_ = set_allocator(device_.type, &g_allocator);
}

DryRun::~DryRun() {
  set_allocator(device_.type, previous_allocator_);
}

DryRunOutcome DryRun::run(const Case& c) const {
  const OpSchema& schema = *c.op->schema;
  // The private target exists only during the dry run, so that real calls between dry runs
  // never list it among the registered targets in their messages.
  const Registration builder = register_kernel_builder(
      std::string(schema.name), std::string(kDryRunTarget),
      [](std::span<const std::optional<TensorDesc>>, const ParamMap&) {
        return std::unique_ptr<TargetKernel>(std::make_unique<DryRunKernel>());
      });
  std::unique_ptr<Op> op = make_case_op(c, Target(std::string(kDryRunTarget)));
  std::vector<Tensor> inputs;
  for (size_t i = 0; i < schema.inputs.size(); ++i) {
    if (i >= c.shapes.size() || !c.shapes[i]) {
      inputs.emplace_back();
      continue;
    }
    const Shape& shape = *c.shapes[i];
    inputs.push_back(Tensor::from_blob(g_no_memory, shape, contiguous_strides(shape),
                                       slot_dtype(schema.inputs[i], c.dtype), device_));
  }
  op->call(inputs);
  DryRunOutcome outcome;
  const std::optional<CallRecord> record = op->last_call();
  for (int i = 0; record && i < record->n_outputs; ++i)
    outcome.outputs.push_back(record->outputs[i]);
  if (record) outcome.served_by = std::string(record->served_by);
  try {
    outcome.roofline = op->eval_roofline();
  } catch (const std::exception& e) {
    outcome.roofline_error = e.what();
  }
  return outcome;
}

}  // namespace tileops::cli
