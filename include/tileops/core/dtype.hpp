// Element types a tensor may hold, with their names and sizes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "tileops/export.hpp"

namespace tileops {

enum class DType : uint8_t {
  kBool,
  kUInt8,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kFloat16,
  kBFloat16,
  kFloat32,
  kFloat64,
  kFloat8E4M3,  // float8_e4m3fn: no infinities, one NaN pattern
  kFloat8E5M2,
};

inline constexpr int kDTypeCount = 12;

// The manifest spelling: "float16", "bfloat16", "float8_e4m3fn", ...
TILEOPS_API std::string_view dtype_name(DType dtype) noexcept;
TILEOPS_API std::optional<DType> dtype_from_name(std::string_view name) noexcept;
TILEOPS_API size_t dtype_size(DType dtype) noexcept;
TILEOPS_API bool is_floating(DType dtype) noexcept;
TILEOPS_API bool is_integral(DType dtype) noexcept;  // bool excluded

// C++ element type for each dtype, used by CPU kernels and tests.
template <DType D>
struct DTypeTraits;

}  // namespace tileops
