// The host side of device/fast_divisor.cuh: the magic number and shift of a divisor (the round-up
// method of Granlund and Montgomery), laid out as the device struct so a kernel takes it by value,
// and the same quotient computed on the host (what the CPU tests check against `/`).
#pragma once

#include <cstdint>
#include <limits>

namespace tileops::cuda {

struct FastDivisor {
  uint32_t divisor = 1, magic = 1, shift = 0;

  static constexpr int64_t kMax = std::numeric_limits<int32_t>::max();

  // Divisor d in [1, kMax]; dividends up to kMax.
  static constexpr FastDivisor of(uint32_t d) {
    uint32_t s = 0;
    while ((uint64_t{1} << s) < d) ++s;
    const uint64_t m = (uint64_t{1} << 32) * ((uint64_t{1} << s) - d) / d + 1;
    return {d, static_cast<uint32_t>(m), s};
  }
  constexpr uint32_t div(uint32_t n) const {
    const auto high = static_cast<uint32_t>((uint64_t{n} * magic) >> 32);
    return (high + n) >> shift;
  }
};
static_assert(sizeof(FastDivisor) == 12, "the device struct's layout: three 32-bit words");

}  // namespace tileops::cuda
