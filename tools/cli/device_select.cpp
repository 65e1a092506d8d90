#include "device_select.hpp"

#include <fmt/format.h>

#include "arguments.hpp"
#include "tileops/core/error.hpp"
#include "tileops/op/device_facts.hpp"

namespace tileops::cli {

Device choose_device(const std::optional<std::string>& requested) {
  if (requested) {
    Device device;
    try {
      device = Device::parse(*requested);
      read_device_facts(device);
    } catch (const Error& e) {
      throw UsageError(fmt::format("--device {}: {}", *requested, e.what()));
    }
    return device;
  }
  try {
    read_device_facts(Device::cuda(0));
    return Device::cuda(0);
  } catch (const Error&) {
    return Device::cpu();
  }
}

std::vector<Tensor> place_inputs(std::vector<Tensor> inputs, Device device) {
  if (device.type == kCPU) return inputs;
  throw OpNotAvailableError(fmt::format(
      "cannot place inputs on {}: tileops has no host-to-device copy for device type '{}'; "
      "expected --device cpu",
      device.str(), device_type_name(device.type)));
}

}  // namespace tileops::cli
