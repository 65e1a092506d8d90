#include "device_select.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "arguments.hpp"
#include "dry_run.hpp"
#include "tileops/core/error.hpp"
#include "tileops/framework/device_facts.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/framework/target.hpp"
#include "tileops/runtime/cuda.hpp"

namespace tileops::cli {
DeviceChoice choose_device(const std::optional<std::string>& requested) {
  if (requested) {
    Device device;
    try {
      device = Device::parse(*requested);
      read_device_facts(device);
    } catch (const Error& e) {
      throw UsageError(fmt::format("--device {}: {}", *requested, e.what()));
    }
    return {device, true};
  }
  try {
    read_device_facts(Device::cuda(0));
    return {Device::cuda(0), false};
  } catch (const Error&) {
    return {Device::cpu(), false};
  }
}

bool may_run_on(const OpClassInfo& op, Device device) {
  if (op.composite) return true;
  for (const auto& impl : implementations_for(op.schema->name)) {
    if (std::find(impl->devices.begin(), impl->devices.end(), device.type) != impl->devices.end()) {
      return true;
    }
  }
  for (const std::string& target : registered_targets(op.schema->name)) {
    if (target != kDryRunTarget) return true;
  }
  return false;
}

Device device_for(const OpClassInfo& op, const DeviceChoice& choice) {
  if (choice.requested || may_run_on(op, choice.device)) return choice.device;
  return Device::cpu();
}

std::vector<Tensor> place_inputs(const std::vector<Tensor>& host, Device device) {
  if (device.type == kCPU) return host;
  std::vector<Tensor> placed;
  for (const Tensor& t : host) {
    if (!t.defined()) {
      placed.push_back(t);
      continue;
    }
    Tensor on_device = Tensor::empty(t.shape(), t.dtype(), device);
    on_device.copy_from(t.contiguous());  // through the device's copier
    placed.push_back(std::move(on_device));
  }
  return placed;
}

Tensor to_host(const Tensor& t) {
  if (!t.defined() || t.device().type == kCPU) return t;
  Tensor host = Tensor::empty(t.shape(), t.dtype(), Device::cpu());
  host.copy_from(t);
  return host;
}

void synchronize(Device device) {
  if (device.type == kCUDA) cuda::synchronize(device.index);
}

}  // namespace tileops::cli
