#include "tileops/core/dtype.hpp"

#include <array>

namespace tileops {
namespace {

struct DTypeInfo {
  std::string_view name;
  size_t size;
  bool floating;
  bool integral;
};

constexpr std::array<DTypeInfo, kDTypeCount> kInfo = {{
    {"bool", 1, false, false},
    {"uint8", 1, false, true},
    {"int8", 1, false, true},
    {"int16", 2, false, true},
    {"int32", 4, false, true},
    {"int64", 8, false, true},
    {"float16", 2, true, false},
    {"bfloat16", 2, true, false},
    {"float32", 4, true, false},
    {"float64", 8, true, false},
    {"float8_e4m3fn", 1, true, false},
    {"float8_e5m2", 1, true, false},
}};

}  // namespace

std::string_view dtype_name(DType dtype) noexcept {
  return kInfo[static_cast<int>(dtype)].name;
}
size_t dtype_size(DType dtype) noexcept {
  return kInfo[static_cast<int>(dtype)].size;
}
bool is_floating(DType dtype) noexcept {
  return kInfo[static_cast<int>(dtype)].floating;
}
bool is_integral(DType dtype) noexcept {
  return kInfo[static_cast<int>(dtype)].integral;
}

std::optional<DType> dtype_from_name(std::string_view name) noexcept {
  for (int i = 0; i < kDTypeCount; ++i) {
    if (kInfo[i].name == name) return static_cast<DType>(i);
  }
  return std::nullopt;
}

}  // namespace tileops
