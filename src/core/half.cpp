#include "tileops/core/half.hpp"

#include <cmath>
#include <cstring>

namespace tileops {

namespace {

// Generic minifloat encode: exponent bits E, mantissa bits M, bias B. Rounds to nearest even.
// `max_finite` is the largest representable magnitude; larger values saturate (e4m3fn) or become
// infinity (e5m2, has_inf).
uint8_t encode_minifloat(float value, int E, int M, int bias, float max_finite, bool has_inf,
                         uint8_t nan_bits) {
  const uint8_t sign = std::signbit(value) ? 0x80 : 0x00;
  if (std::isnan(value)) return sign | nan_bits;
  float magnitude = std::fabs(value);
  if (magnitude > max_finite) {
    if (has_inf) {
      // Values that round to max_finite still map there; beyond half an ulp they become infinity.
      const float ulp = std::ldexp(1.0f, ((1 << E) - 2) - bias - M);
      if (magnitude >= max_finite + ulp / 2)
        return sign | static_cast<uint8_t>(((1 << E) - 1) << M);
    }
    magnitude = max_finite;
  }
  const int min_exp = 1 - bias;  // exponent of the smallest normal
  int exp;
  std::frexp(magnitude, &exp);  // magnitude = f * 2^exp, f in [0.5, 1)
  int e = exp - 1;
  if (e < min_exp) e = min_exp;
  const float step = std::ldexp(1.0f, e - M);
  auto q = static_cast<uint32_t>(std::nearbyint(magnitude / step));
  if (q == (1u << (M + 1))) {  // mantissa overflowed into the next binade
    q >>= 1;
    ++e;
  }
  uint32_t code;
  if (q < (1u << M)) {
    code = q;  // subnormal (e == min_exp)
  } else {
    code = (static_cast<uint32_t>(e + bias) << M) | (q & ((1u << M) - 1));
  }
  return sign | static_cast<uint8_t>(code);
}

float decode_minifloat(uint8_t bits, int E, int M, int bias) {
  const bool negative = bits & 0x80;
  const int exponent = (bits >> M) & ((1 << E) - 1);
  const int mantissa = bits & ((1 << M) - 1);
  float magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), 1 - bias - M);
  } else {
    magnitude = std::ldexp(static_cast<float>((1 << M) | mantissa), exponent - bias - M);
  }
  return negative ? -magnitude : magnitude;
}

}  // namespace

uint8_t Float8E4M3::from_float(float value) noexcept {
  return encode_minifloat(value, 4, 3, 7, 448.0f, false, 0x7f);
}

float Float8E4M3::to_float(uint8_t bits) noexcept {
  if ((bits & 0x7f) == 0x7f) return std::nanf("");
  return decode_minifloat(bits, 4, 3, 7);
}

uint8_t Float8E5M2::from_float(float value) noexcept {
  if (std::isinf(value)) return (value < 0 ? 0x80 : 0x00) | 0x7c;
  return encode_minifloat(value, 5, 2, 15, 57344.0f, true, 0x7e);
}

float Float8E5M2::to_float(uint8_t bits) noexcept {
  const int exponent = (bits >> 2) & 0x1f;
  if (exponent == 0x1f) {
    if (bits & 0x3) return std::nanf("");
    return (bits & 0x80) ? -INFINITY : INFINITY;
  }
  return decode_minifloat(bits, 5, 2, 15);
}

}  // namespace tileops
