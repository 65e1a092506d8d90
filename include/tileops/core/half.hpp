// Storage types for the 16- and 8-bit floating formats, with exact conversions to and from float.
#pragma once

#include <bit>
#include <cstdint>

#include "tileops/export.hpp"

namespace tileops {

// IEEE binary16.
struct TILEOPS_API Half {
  uint16_t bits = 0;
  Half() = default;
  explicit Half(float value) noexcept : bits(from_float(value)) {}
  explicit operator float() const noexcept { return to_float(bits); }
  static uint16_t from_float(float value) noexcept;
  static float to_float(uint16_t bits) noexcept;
};

// bfloat16: the upper half of a binary32, rounded to nearest even.
struct TILEOPS_API BFloat16 {
  uint16_t bits = 0;
  BFloat16() = default;
  explicit BFloat16(float value) noexcept : bits(from_float(value)) {}
  explicit operator float() const noexcept { return std::bit_cast<float>(uint32_t{bits} << 16); }
  static uint16_t from_float(float value) noexcept {
    uint32_t u = std::bit_cast<uint32_t>(value);
    if ((u & 0x7fffffffu) > 0x7f800000u)
      return static_cast<uint16_t>((u >> 16) | 0x40);  // quiet NaN
    u += 0x7fffu + ((u >> 16) & 1u);
    return static_cast<uint16_t>(u >> 16);
  }
};

// OCP float8 e4m3fn (bias 7, no infinities, saturating) and e5m2 (bias 15, IEEE-like).
struct TILEOPS_API Float8E4M3 {
  uint8_t bits = 0;
  Float8E4M3() = default;
  explicit Float8E4M3(float value) noexcept : bits(from_float(value)) {}
  explicit operator float() const noexcept { return to_float(bits); }
  static uint8_t from_float(float value) noexcept;
  static float to_float(uint8_t bits) noexcept;
};

struct TILEOPS_API Float8E5M2 {
  uint8_t bits = 0;
  Float8E5M2() = default;
  explicit Float8E5M2(float value) noexcept : bits(from_float(value)) {}
  explicit operator float() const noexcept { return to_float(bits); }
  static uint8_t from_float(float value) noexcept;
  static float to_float(uint8_t bits) noexcept;
};

}  // namespace tileops
