#include "tileops/framework/device_facts.hpp"

#include <map>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "registration_scope.hpp"
#include "tileops/core/error.hpp"

namespace tileops {
namespace {

struct FactsRegistry {
  std::mutex mutex;
  std::map<DeviceType, DeviceFactsProvider> providers{
      {kCPU, [](Device) {
         DeviceFacts facts;
         facts.sm_count = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
         facts.calibration = "cpu";
         return facts;
       }}};
};

FactsRegistry& registry() {
  static FactsRegistry r;
  return r;
}

DeviceFactsProvider install(DeviceType type, DeviceFactsProvider provider) {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  DeviceFactsProvider previous = r.providers[type];
  if (provider) {
    r.providers[type] = std::move(provider);
  } else {
    r.providers.erase(type);
  }
  return previous;
}

}  // namespace

DeviceFactsProvider set_device_facts_provider(DeviceType type, DeviceFactsProvider provider) {
  DeviceFactsProvider previous = install(type, std::move(provider));
  // A backend whose registration fails loses its provider with the rest of what it registered.
  detail::RegistrationScope::record([type, previous] { install(type, previous); });
  return previous;
}

DeviceFacts read_device_facts(Device device) {
  DeviceFactsProvider provider;
  {
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    auto it = r.providers.find(device.type);
    if (it != r.providers.end()) provider = it->second;
  }
  if (!provider) {
    throw OpNotAvailableError(
        fmt::format("no device facts for {}: expected the backend of device "
                    "type '{}' to be loaded",
                    device.str(), device_type_name(device.type)));
  }
  return provider(device);
}

}  // namespace tileops
