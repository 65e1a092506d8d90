// The fast divisor of the per-element kernels (host/fast_divisor.hpp, the same arithmetic as
// device/fast_divisor.cuh) against `/`: small and large divisors, powers of two and their
// neighbours, dividends up to 2^31 - 1. Runs on the CPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "kernels/cuda/host/fast_divisor.hpp"

namespace tileops {
namespace {

using cuda::FastDivisor;

TEST(FastDivisor, QuotientsMatchIntegerDivision) {
  std::vector<uint32_t> divisors;
  for (uint32_t d = 1; d <= 600; ++d) divisors.push_back(d);
  for (int s = 10; s <= 30; ++s) {
    for (int64_t delta : {-1, 0, 1}) divisors.push_back(static_cast<uint32_t>((1 << s) + delta));
  }
  divisors.push_back(static_cast<uint32_t>(FastDivisor::kMax));
  std::mt19937_64 rng(std::random_device{}());
  std::uniform_int_distribution<uint32_t> any(1, static_cast<uint32_t>(FastDivisor::kMax));
  for (int i = 0; i < 200; ++i) divisors.push_back(any(rng));
  for (uint32_t d : divisors) {
    const FastDivisor f = FastDivisor::of(d);
    std::vector<uint32_t> dividends{0,
                                    1,
                                    d - 1,
                                    d,
                                    d + 1,
                                    2 * (d / 2) + 1,
                                    static_cast<uint32_t>(FastDivisor::kMax),
                                    static_cast<uint32_t>(FastDivisor::kMax - 1)};
    for (uint32_t k = 0; k < 2000; ++k) dividends.push_back(k);
    for (int i = 0; i < 2000; ++i) dividends.push_back(any(rng));
    for (uint32_t n : dividends) {
      if (n > FastDivisor::kMax) continue;
      ASSERT_EQ(f.div(n), n / d) << n << " / " << d;
    }
  }
}

}  // namespace
}  // namespace tileops
