// Storage types for the 16- and 8-bit floating formats, with exact conversions to and from float.
#pragma once

#include <bit>
#include <cstdint>

#if defined(__F16C__)
#include <immintrin.h>
#endif

#include "tileops/export.hpp"

namespace tileops {

// IEEE binary16. The conversions are inline and free of branches and library calls, so loops over
// half elements vectorise; a build for a CPU with F16C (-mf16c, -march=native) uses its
// conversion instructions instead (docs/design/decisions.md, "Half conversions on the CPU").
struct Half {
  uint16_t bits = 0;
  Half() = default;
  explicit Half(float value) noexcept : bits(from_float(value)) {}
  explicit operator float() const noexcept { return to_float(bits); }
  static uint16_t from_float(float value) noexcept;
  static float to_float(uint16_t bits) noexcept;
};

namespace detail {
// cond ? a : b on bit patterns, as masks: loops over half elements vectorise only when the
// conversion has no branches, and compilers keep some ternaries as branches.
inline int32_t select_bits(bool cond, int32_t a, int32_t b) noexcept {
  const int32_t mask = -static_cast<int32_t>(cond);
  return (a & mask) | (b & ~mask);
}
}  // namespace detail

// Signed 32-bit arithmetic throughout, since SSE2 has no unsigned compares or conversions.
inline float Half::to_float(uint16_t bits) noexcept {
#if defined(__F16C__)
  return _cvtsh_ss(bits);
#else
  const int32_t magnitude = bits & 0x7fff;
  // Normal, infinity and NaN: move exponent and mantissa into place and rebias (15 -> 127, or
  // 31 -> 255 for infinity and NaN, which keep their mantissa).
  const int32_t normal =
      (magnitude << 13) + detail::select_bits(magnitude >= 0x7c00, 224 << 23, 112 << 23);
  // Subnormal (and zero): mantissa * 2^-24, exact in float.
  const int32_t subnormal = std::bit_cast<int32_t>(static_cast<float>(magnitude) * 0x1p-24f);
  const int32_t unsigned_bits = detail::select_bits(magnitude < 0x400, subnormal, normal);
  return std::bit_cast<float>(unsigned_bits | static_cast<int32_t>(uint32_t{bits & 0x8000u} << 16));
#endif
}

inline uint16_t Half::from_float(float value) noexcept {
#if defined(__F16C__)
  return _cvtss_sh(value, _MM_FROUND_TO_NEAREST_INT);
#else
  const int32_t u = std::bit_cast<int32_t>(value);
  const int32_t sign = (u >> 16) & 0x8000;
  const int32_t abs = u & 0x7fffffff;
  // Normal: rebias the exponent 127 -> 15 and round the mantissa to 10 bits, ties to even.
  const int32_t rebiased = abs - (112 << 23);
  const int32_t normal = (rebiased + 0xfff + ((rebiased >> 13) & 1)) >> 13;
  // Below the smallest normal half: adding 0.5 leaves the value rounded to a multiple of 2^-24
  // (ties to even) in the low mantissa bits, which are the subnormal's bits.
  const int32_t subnormal =
      std::bit_cast<int32_t>(std::bit_cast<float>(abs) + 0.5f) - std::bit_cast<int32_t>(0.5f);
  int32_t result = detail::select_bits(abs < 0x38800000, subnormal, normal);
  result = detail::select_bits(abs >= 0x477ff000, 0x7c00, result);  // past 65504: infinity
  result = detail::select_bits(abs > 0x7f800000, 0x7e00, result);   // NaN stays a quiet NaN
  return static_cast<uint16_t>(sign | result);
#endif
}

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
