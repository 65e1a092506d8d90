// float16, bfloat16 and float8 conversions: exact where representable, round to nearest even,
// and the special values.
#include <cmath>
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
