// Which device `tileops run` and `tileops explain` use, and placing host inputs on it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tileops/core/device.hpp"
#include "tileops/core/tensor.hpp"

namespace tileops::cli {

// --device when given (UsageError when it does not parse or has no device facts), else the best
// device present: cuda:0 when its facts can be read, else the CPU.
Device choose_device(const std::optional<std::string>& requested);

// The inputs placed on device. tileops has no generic host-to-device copy yet, so anything but
// the CPU raises OpNotAvailableError naming the device.
std::vector<Tensor> place_inputs(std::vector<Tensor> inputs, Device device);

}  // namespace tileops::cli
