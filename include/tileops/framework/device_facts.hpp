// Facts about a device that dispatch may consult: read from the call's own device, and only when
// kernel_for misses its cache (never at construction, never on a hit).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "tileops/core/device.hpp"
#include "tileops/export.hpp"

namespace tileops {

struct DeviceFacts {
  int arch = 0;             // SM version for CUDA (90 for Hopper); 0 on the CPU
  int sm_count = 0;         // streaming multiprocessors; worker threads on the CPU
  std::string calibration;  // calibrated board model: "h200", "h20_3e", "cpu", ... ("" = unknown)
  int64_t smem_budget = 0;  // shared memory per block, bytes
};

using DeviceFactsProvider = std::function<DeviceFacts(Device)>;

// Installs the provider for a device type and returns the previous one (tests install counting or
// poisoned providers). The CPU provider is built in; the CUDA runtime installs the CUDA one.
TILEOPS_API DeviceFactsProvider set_device_facts_provider(DeviceType type,
                                                          DeviceFactsProvider provider);

// Asks the provider of device.type. Throws OpNotAvailableError when the type has none.
TILEOPS_API DeviceFacts read_device_facts(Device device);

}  // namespace tileops
