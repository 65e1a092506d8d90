// float16, bfloat16 and float8 conversions: exact where representable, round to nearest even,
// and the special values.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

#include "tileops/core/half.hpp"

namespace tileops {
namespace {

TEST(Half, ExactValuesRoundTrip) {
  for (float v :
       {0.0f, 1.0f, -2.0f, 0.5f, 65504.0f, -65504.0f, 6.103515625e-05f, 5.960464477539063e-08f}) {
    EXPECT_EQ(static_cast<float>(Half(v)), v) << v;
  }
  EXPECT_EQ(Half(1.0f).bits, 0x3c00);
  EXPECT_EQ(Half(-2.0f).bits, 0xc000);
}

TEST(Half, RoundsToNearestEven) {
  // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10: ties go to the even mantissa (1.0).
  EXPECT_EQ(Half(1.0f + std::ldexp(1.0f, -11)).bits, 0x3c00);
  // 1 + 3 * 2^-11 is halfway between 1 + 2^-10 and 1 + 2^-9: ties go up to the even one.
  EXPECT_EQ(Half(1.0f + 3 * std::ldexp(1.0f, -11)).bits, 0x3c02);
  EXPECT_EQ(Half(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)).bits, 0x3c01);
}

TEST(Half, OverflowSubnormalsAndSpecials) {
  EXPECT_TRUE(std::isinf(static_cast<float>(Half(65520.0f))));
  EXPECT_EQ(static_cast<float>(Half(65519.0f)), 65504.0f);
  EXPECT_EQ(Half(std::ldexp(1.0f, -24)).bits, 0x0001);
  EXPECT_EQ(Half(std::ldexp(1.0f, -26)).bits, 0x0000);  // below half the smallest subnormal
  EXPECT_TRUE(std::isnan(static_cast<float>(Half(std::nanf("")))));
  EXPECT_EQ(Half(-INFINITY).bits, 0xfc00);
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {  // every finite half survives a round trip
    const float v = Half::to_float(static_cast<uint16_t>(bits));
    if (std::isfinite(v)) EXPECT_EQ(Half::from_float(v), bits);
  }
}

// The conversions are computed without branches (or with F16C); these references take the long
// way in double, from the format's definition.
double reference_half_value(uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  const double sign = (bits & 0x8000) ? -1.0 : 1.0;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  if (exponent == 31) {
    return mantissa == 0 ? sign * std::numeric_limits<double>::infinity()
                         : std::numeric_limits<double>::quiet_NaN();
  }
  return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

// The nearest half (ties to the even encoding), found by searching the ordered positive
// encodings; 0x7c00 (infinity) stands for 65536 so that rounding past 65504 gives infinity.
uint16_t reference_half_bits(float value) {
  const double magnitude = std::fabs(static_cast<double>(value));
  auto value_of = [](uint32_t bits) {
    return bits == 0x7c00 ? 65536.0 : reference_half_value(bits);
  };
  uint32_t lo = 0, hi = 0x7c00;  // value_of(lo) <= magnitude < value_of(hi), or magnitude >= 65536
  if (magnitude >= 65536.0) {
    lo = 0x7c00;
  } else {
    while (hi - lo > 1) {
      const uint32_t mid = (lo + hi) / 2;
      (value_of(mid) <= magnitude ? lo : hi) = mid;
    }
    const double below = magnitude - value_of(lo), above = value_of(hi) - magnitude;
    if (above < below || (above == below && (hi & 1) == 0)) lo = hi;
  }
  return static_cast<uint16_t>(lo | (std::signbit(value) ? 0x8000 : 0));
}

TEST(Half, EveryEncodingConvertsToItsValue) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const float got = Half::to_float(static_cast<uint16_t>(bits));
    const double want = reference_half_value(static_cast<uint16_t>(bits));
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got)) << std::hex << bits;
    } else {
      EXPECT_EQ(static_cast<double>(got), want) << std::hex << bits;
      EXPECT_EQ(std::signbit(got), (bits & 0x8000) != 0) << std::hex << bits;
    }
  }
}

TEST(Half, RoundsEveryMidpointAndItsNeighboursLikeTheDefinition) {
  int checked = 0;
  for (uint32_t bits = 0; bits < 0x7c00; ++bits) {
    const double v = reference_half_value(static_cast<uint16_t>(bits));
    const double next = bits + 1 == 0x7c00 ? 65536.0 : reference_half_value(bits + 1);
    const float mid = static_cast<float>((v + next) / 2);  // exact: 12 significant bits
    for (float x :
         {static_cast<float>(v), mid, std::nextafter(mid, 0.0f), std::nextafter(mid, INFINITY)}) {
      for (float signed_x : {x, -x}) {
        ASSERT_EQ(Half::from_float(signed_x), reference_half_bits(signed_x)) << signed_x;
        ++checked;
      }
    }
  }
  // Floats far below the smallest subnormal and far above the largest finite half.
  for (float x : {1e-30f, 2.9e-8f, 3.0e-8f, 1e5f, 3e38f}) {
    EXPECT_EQ(Half::from_float(x), reference_half_bits(x)) << x;
    EXPECT_EQ(Half::from_float(-x), reference_half_bits(-x)) << x;
  }
  EXPECT_EQ(checked, 0x7c00 * 8);
}

TEST(Half, RandomFloatsRoundLikeTheDefinition) {
  uint32_t state = 12345u;
  for (int i = 0; i < 200000; ++i) {
    state = state * 1664525u + 1013904223u;
    const float x = std::bit_cast<float>(state);
    if (std::isnan(x)) {
      EXPECT_TRUE(std::isnan(Half::to_float(Half::from_float(x))));
      continue;
    }
    ASSERT_EQ(Half::from_float(x), reference_half_bits(x)) << x;
  }
}

TEST(BFloat16, RoundsToNearestEvenAndKeepsNaN) {
  EXPECT_EQ(BFloat16(1.0f).bits, 0x3f80);
  EXPECT_EQ(BFloat16(1.0f + std::ldexp(1.0f, -8)).bits, 0x3f80);  // tie to even
  EXPECT_EQ(BFloat16(1.0f + 3 * std::ldexp(1.0f, -8)).bits, 0x3f82);
  EXPECT_TRUE(std::isnan(static_cast<float>(BFloat16(std::nanf("")))));
  EXPECT_EQ(static_cast<float>(BFloat16(3.0f)), 3.0f);
}

TEST(Float8E4M3, KnownEncodingsAndSaturation) {
  EXPECT_EQ(Float8E4M3(1.0f).bits, 0x38);
  EXPECT_EQ(Float8E4M3(448.0f).bits, 0x7e);
  EXPECT_EQ(Float8E4M3(1000.0f).bits, 0x7e);  // saturates: e4m3fn has no infinity
  EXPECT_EQ(Float8E4M3(-0.5f).bits, 0xb0);
  EXPECT_EQ(static_cast<float>(Float8E4M3(std::ldexp(1.0f, -9))),
            std::ldexp(1.0f, -9));  // subnormal
  EXPECT_TRUE(std::isnan(Float8E4M3::to_float(0x7f)));
  for (int bits = 0; bits < 256; ++bits) {
    const float v = Float8E4M3::to_float(static_cast<uint8_t>(bits));
    if (!std::isnan(v) && v != 0) EXPECT_EQ(Float8E4M3::from_float(v), bits) << bits;
  }
}

TEST(Float8E5M2, KnownEncodingsAndInfinity) {
  EXPECT_EQ(Float8E5M2(1.0f).bits, 0x3c);
  EXPECT_EQ(Float8E5M2(57344.0f).bits, 0x7b);
  EXPECT_TRUE(std::isinf(Float8E5M2::to_float(Float8E5M2(1e6f).bits)));
  EXPECT_TRUE(std::isinf(Float8E5M2::to_float(0x7c)));
  for (int bits = 0; bits < 256; ++bits) {
    const float v = Float8E5M2::to_float(static_cast<uint8_t>(bits));
    if (std::isfinite(v) && v != 0) EXPECT_EQ(Float8E5M2::from_float(v), bits) << bits;
  }
}

}  // namespace
}  // namespace tileops
