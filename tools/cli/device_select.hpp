// Which device `tileops run` and `tileops explain` use, and moving tensors between it and the
// host (through the copier the device's backend installed; the CPU needs no copies).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tileops/core/device.hpp"
#include "tileops/core/tensor.hpp"
#include "tileops/framework/schema.hpp"

namespace tileops::cli {

struct DeviceChoice {
  Device device;
  bool requested = false;  // named by --device (then never replaced)
};

// --device when given (UsageError when it does not parse or has no device facts), else the best
// device present: cuda:0 when its facts can be read, else the CPU.
DeviceChoice choose_device(const std::optional<std::string>& requested);

// Whether anything may serve the op on device: a kernel for its type, sub-ops (composite ops:
// their sub-ops decide), or a whole-op target.
bool may_run_on(const OpClassInfo& op, Device device);

// The device to run op on: the chosen one, or the CPU when the device was not requested and
// nothing serves the op on it (an op with CPU kernels only, on a GPU machine).
Device device_for(const OpClassInfo& op, const DeviceChoice& choice);

// Host tensors copied to device (the same tensors for the CPU). ValueError naming the device
// type when its backend installed no copier.
std::vector<Tensor> place_inputs(const std::vector<Tensor>& host, Device device);
// A host copy of a tensor on any device tileops can copy from.
Tensor to_host(const Tensor& t);
// Waits for the work queued on device (nothing to wait for on the CPU).
void synchronize(Device device);

}  // namespace tileops::cli
