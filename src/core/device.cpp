#include "tileops/core/device.hpp"

#include <charconv>
#include <deque>
#include <mutex>

#include <fmt/format.h>

#include "tileops/core/error.hpp"

namespace tileops {
namespace {

struct DeviceTypeTable {
  std::mutex mutex;
  std::deque<std::string> names{"cpu", "cuda"};  // deque: references stay valid as it grows
};

DeviceTypeTable& table() {
  static DeviceTypeTable t;
  return t;
}

}  // namespace

DeviceType device_type_from_name(std::string_view name) {
  auto& t = table();
  std::lock_guard lock(t.mutex);
  for (size_t i = 0; i < t.names.size(); ++i) {
    if (t.names[i] == name) return static_cast<DeviceType>(i);
  }
  if (name.empty() || name.find(':') != std::string_view::npos) {
    throw ValueError(
        fmt::format("device type name '{}' is not valid: expected a non-empty name "
                    "without ':'",
                    name));
  }
  t.names.emplace_back(name);
  return static_cast<DeviceType>(t.names.size() - 1);
}

std::string_view device_type_name(DeviceType type) {
  auto& t = table();
  std::lock_guard lock(t.mutex);
  if (type >= t.names.size()) return "unknown";
  return t.names[type];
}

Device Device::parse(std::string_view text) {
  const auto colon = text.find(':');
  const std::string_view type_name = text.substr(0, colon);
  int index = 0;
  if (colon != std::string_view::npos) {
    const std::string_view digits = text.substr(colon + 1);
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
    if (ec != std::errc() || ptr != digits.data() + digits.size() || index < 0 || index > 32767) {
      throw ValueError(
          fmt::format("device '{}': expected '<type>' or '<type>:<index>' with a "
                      "non-negative index, got index '{}'",
                      text, digits));
    }
  }
  if (type_name.empty()) {
    throw ValueError(fmt::format("device '{}': expected a device type name before ':'", text));
  }
  return Device{device_type_from_name(type_name), static_cast<int16_t>(index)};
}

std::string Device::str() const {
  if (type == kCPU) return "cpu";
  return fmt::format("{}:{}", device_type_name(type), index);
}

}  // namespace tileops
