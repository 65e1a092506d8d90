// Call specs: the immutable facts of one call that affect kernel selection and building.
// Each op family declares its own struct deriving CallSpec, with defaulted ==, a hash() and a
// describe() used in dispatch error messages.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include <fmt/format.h>

#include "tileops/core/device.hpp"
#include "tileops/core/dtype.hpp"
#include "tileops/core/shape.hpp"
#include "tileops/export.hpp"

namespace tileops {

struct TILEOPS_API CallSpec {
  Device device;
  friend bool operator==(const CallSpec&, const CallSpec&) = default;
};

// Hashes any mix of integers, floats, enums, devices and shapes.
class CallHasher {
 public:
  template <typename... Ts>
  static size_t of(const Ts&... values) {
    CallHasher h;
    (h.add(values), ...);
    return h.value_;
  }

 private:
  void mix(uint64_t v) { value_ ^= v + 0x9e3779b97f4a7c15ull + (value_ << 6) + (value_ >> 2); }
  void add(const Device& d) { mix(std::hash<Device>{}(d)); }
  void add(const Shape& s) {
    mix(static_cast<uint64_t>(s.rank()));
    for (int64_t v : s) mix(static_cast<uint64_t>(v));
  }
  void add(double v) { mix(std::bit_cast<uint64_t>(v)); }
  template <typename T>
  requires std::is_integral_v<T> || std::is_enum_v<T>
  void add(T v) { mix(static_cast<uint64_t>(v)); }
  size_t value_ = 0;
};

// "name=value" pieces for describe().
inline std::string describe_field(std::string_view name, const Device& d) {
  return fmt::format("{}={}", name, d.str());
}
inline std::string describe_field(std::string_view name, DType d) {
  return fmt::format("{}={}", name, dtype_name(d));
}
inline std::string describe_field(std::string_view name, const Shape& s) {
  return fmt::format("{}={}", name, s.str());
}
template <typename T>
requires std::is_arithmetic_v<T> std::string describe_field(std::string_view name, T v) {
  return fmt::format("{}={}", name, v);
}

}  // namespace tileops
