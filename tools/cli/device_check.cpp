#include "device_check.hpp"

#include <fmt/format.h>

#include "device_select.hpp"
#include "tileops/reference/reference.hpp"

namespace tileops::cli {
namespace {

void compare_into(CheckResult& result, const std::string& what, const Tensor& actual,
                  const Tensor& expected, double tolerance_scale) {
  const Comparison c =
      compare(to_host(actual), expected, default_tolerance(actual.dtype(), tolerance_scale));
  if (!c.ok()) {
    result.ok = false;
    result.failures.push_back(fmt::format("{}: {}", what, c.str()));
  }
}

}  // namespace

CheckedCall check_on_device(Op& op, const std::vector<Tensor>& host_inputs, Device device) {
  if (device.type == kCPU) return {run_and_check(op, host_inputs), host_inputs};
  CheckedCall checked{{}, place_inputs(host_inputs, device)};
  const OpSchema& schema = op.schema();
  const ReferenceEntry* ref = find_reference(schema.name);
  if (ref == nullptr) {
    checked.check.ok = false;
    checked.check.failures.push_back(fmt::format("{} has no registered reference", schema.name));
    return checked;
  }
  const std::vector<Tensor> outputs = op.call(checked.inputs);
  synchronize(device);
  // The host inputs are the originals: the op mutated only the device copies.
  const ReferenceResult expected = ref->compute(op.param_values(), host_inputs);
  for (size_t i = 0; i < outputs.size(); ++i) {
    compare_into(checked.check, fmt::format("output '{}'", schema.outputs[i].name), outputs[i],
                 expected.outputs.at(i), expected.tolerance_scale);
  }
  size_t m = 0;
  for (size_t i = 0; i < checked.inputs.size(); ++i) {
    if (!schema.inputs[i].mutated || !checked.inputs[i].defined()) continue;
    compare_into(checked.check, fmt::format("mutated input '{}'", schema.inputs[i].name),
                 checked.inputs[i], expected.mutated.at(m++), expected.tolerance_scale);
  }
  return checked;
}

}  // namespace tileops::cli
