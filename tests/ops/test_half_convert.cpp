// The CPU kernels' bulk half conversions: the F16C path (where this CPU has it) against the
// portable one on every half encoding, on every rounding midpoint between neighbouring halves and
// its float neighbours, and on random floats; and bulk lengths around the 8-element vector step.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/half_convert.hpp"

namespace tileops::cpu {
namespace {

std::vector<Half> every_half() {
  std::vector<Half> all(65536);
  for (uint32_t b = 0; b < 65536; ++b) all[b].bits = static_cast<uint16_t>(b);
  return all;
}

bool is_nan_half(uint16_t bits) {
  return (bits & 0x7c00) == 0x7c00 && (bits & 0x3ff) != 0;
}

TEST(HalfConvert, F16cAndPortableAgreeOnEveryHalf) {
  const auto f16c = f16c_half_conversions();
  if (!f16c) GTEST_SKIP() << "this CPU has no F16C";
  const std::vector<Half> all = every_half();
  std::vector<float> portable(all.size()), vector(all.size());
  portable_half_conversions().to_float(all.data(), portable.data(), int64_t(all.size()));
  f16c->to_float(all.data(), vector.data(), int64_t(all.size()));
  for (size_t i = 0; i < all.size(); ++i) {
    if (is_nan_half(all[i].bits)) {
      EXPECT_TRUE(std::isnan(vector[i]) && std::isnan(portable[i])) << std::hex << i;
      EXPECT_EQ(std::signbit(vector[i]), std::signbit(portable[i])) << std::hex << i;
    } else {
      EXPECT_EQ(std::bit_cast<uint32_t>(vector[i]), std::bit_cast<uint32_t>(portable[i]))
          << std::hex << i;
    }
  }
}

TEST(HalfConvert, F16cAndPortableRoundFloatsAlike) {
  const auto f16c = f16c_half_conversions();
  if (!f16c) GTEST_SKIP() << "this CPU has no F16C";
  // Every half's value, the midpoints to its upper neighbour (ties), one float ulp either side
  // of them, values past the largest half, and random floats over the whole range.
  std::vector<float> inputs;
  for (uint32_t b = 0; b < 0x7c00; ++b) {
    const float lo = Half::to_float(static_cast<uint16_t>(b));
    const float hi = Half::to_float(static_cast<uint16_t>(b + 1));
    const float mid = lo + (hi - lo) / 2;
    for (float v : {lo, mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e9f)}) {
      inputs.push_back(v);
      inputs.push_back(-v);
    }
  }
  for (float v : {65504.0f, 65519.0f, 65520.0f, 1e9f, INFINITY}) {
    inputs.push_back(v);
    inputs.push_back(-v);
  }
  std::mt19937 rng(7);
  for (int i = 0; i < 100000; ++i) {
    float v = std::bit_cast<float>(static_cast<uint32_t>(rng()));
    if (!std::isnan(v)) inputs.push_back(v);
  }
  std::vector<Half> portable(inputs.size()), vector(inputs.size());
  portable_half_conversions().from_float(inputs.data(), portable.data(), int64_t(inputs.size()));
  f16c->from_float(inputs.data(), vector.data(), int64_t(inputs.size()));
  size_t differ = 0;
  for (size_t i = 0; i < inputs.size(); ++i) differ += portable[i].bits != vector[i].bits;
  EXPECT_EQ(differ, 0u) << "of " << inputs.size() << " floats";
}

// Whichever path this process uses, every bulk length gives the scalar conversions' results:
// the vector step and its tail.
TEST(HalfConvert, BulkLengthsMatchTheScalarConversions) {
  for (int64_t n : {0, 1, 7, 8, 9, 15, 16, 17, 1000}) {
    std::vector<Half> h(static_cast<size_t>(n));
    std::vector<float> f(static_cast<size_t>(n)), back(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) h[i].bits = static_cast<uint16_t>((0x3c00 + 37 * i) % 0x7c00);
    half_to_float(h.data(), f.data(), n);
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(f[i], Half::to_float(h[i].bits)) << n << " " << i;
    for (int64_t i = 0; i < n; ++i) f[i] = f[i] * 1.001f;
    std::vector<Half> out(static_cast<size_t>(n));
    float_to_half(f.data(), out.data(), n);
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(out[i].bits, Half::from_float(f[i])) << n << " " << i;
  }
}

TEST(HalfConvert, TheProcessUsesF16cWhereTheCpuHasIt) {
  const char* env = std::getenv("TILEOPS_CPU_F16C");
  const bool off = env != nullptr && std::string(env) == "0";
  EXPECT_EQ(half_conversions_use_f16c(), f16c_half_conversions().has_value() && !off);
}

}  // namespace
}  // namespace tileops::cpu
