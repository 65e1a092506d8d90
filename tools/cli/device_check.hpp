// The checked first call of `tileops run` on any device: on the CPU it is run_and_check; on
// another device the inputs are copied over, and the outputs and mutated inputs copied back and
// compared with the float64 reference as run_and_check compares them.
#pragma once

#include <vector>

#include "tileops/reference/check.hpp"

namespace tileops::cli {

// Above this many flops (from the roofline) the float64 reference is too costly and the first
// call is not checked.
inline constexpr double kReferenceFlopLimit = 4e9;

struct CheckedCall {
  CheckResult check;
  std::vector<Tensor> inputs;  // the inputs on the device, for the timed calls
};

CheckedCall check_on_device(Op& op, const std::vector<Tensor>& host_inputs, Device device);

}  // namespace tileops::cli
