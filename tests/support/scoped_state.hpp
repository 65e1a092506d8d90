// Process state a test changes for its duration and restores afterwards, also when an assertion
// or an exception ends the test early: an environment variable, a device type's facts provider.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

#include "tileops/framework/device_facts.hpp"

namespace tileops::testing {

// Sets an environment variable (or, with a null value, unsets it) while alive.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) previous_ = old;
    if (value != nullptr) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (previous_) {
      ::setenv(name_.c_str(), previous_->c_str(), 1);
    } else {
      ::unsetenv(name_.c_str());
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::optional<std::string> previous_;
};

// Installs a device-facts provider for one device type while alive.
class ScopedDeviceFacts {
 public:
  ScopedDeviceFacts(DeviceType type, DeviceFactsProvider provider)
      : type_(type), previous_(set_device_facts_provider(type, std::move(provider))) {}
  // The same facts for every device of the type.
  ScopedDeviceFacts(DeviceType type, DeviceFacts facts)
      : ScopedDeviceFacts(type, [facts](Device) { return facts; }) {}
  ~ScopedDeviceFacts() { set_device_facts_provider(type_, previous_); }
  ScopedDeviceFacts(const ScopedDeviceFacts&) = delete;
  ScopedDeviceFacts& operator=(const ScopedDeviceFacts&) = delete;

 private:
  DeviceType type_;
  DeviceFactsProvider previous_;
};

}  // namespace tileops::testing
