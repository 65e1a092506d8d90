// Where a tensor lives: "cpu", "cuda:N", or a device type a backend registered by name ("acme:0").
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "tileops/export.hpp"

namespace tileops {

// Device types are small integers; cpu and cuda are fixed, others are registered by name.
using DeviceType = uint16_t;
inline constexpr DeviceType kCPU = 0;
inline constexpr DeviceType kCUDA = 1;

// Returns the id of a named device type, registering it on first use. Thread-safe.
TILEOPS_API DeviceType device_type_from_name(std::string_view name);
TILEOPS_API std::string_view device_type_name(DeviceType type);

struct TILEOPS_API Device {
  DeviceType type = kCPU;
  int16_t index = 0;

  static Device cpu() { return {kCPU, 0}; }
  static Device cuda(int index = 0) { return {kCUDA, static_cast<int16_t>(index)}; }
  // Parses "cpu", "cuda", "cuda:1", "acme:0". Throws ValueError on a malformed string.
  static Device parse(std::string_view text);

  std::string str() const;  // "cpu", "cuda:0", "acme:0"
  friend bool operator==(const Device&, const Device&) = default;
};

}  // namespace tileops

template <>
struct std::hash<tileops::Device> {
  size_t operator()(const tileops::Device& d) const noexcept {
    return (size_t{d.type} << 16) ^ static_cast<uint16_t>(d.index);
  }
};
