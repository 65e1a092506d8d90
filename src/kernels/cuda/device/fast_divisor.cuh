// Division by a divisor fixed for a launch as a multiply-high, an add and a shift: a 64-bit `/`
// is a software routine of dozens of instructions, which made the one-element path of
// per-element kernels compute-bound (SiluAndMul over 2048 x 4095 at 39% of a copy on the H200).
// Dividends and divisors below 2^31. The host builds the value (host/fast_divisor.hpp, the same
// layout) and passes it by value.
#pragma once

#include "device/numeric.cuh"

namespace tileops::dev {

struct FastDivisor {
  u32 divisor, magic, shift;

  __device__ __forceinline__ u32 div(u32 n) const { return (__umulhi(n, magic) + n) >> shift; }
  // q = n / divisor and r = n % divisor.
  __device__ __forceinline__ void divmod(u32 n, u32& q, u32& r) const {
    q = div(n);
    r = n - q * divisor;
  }
};

}  // namespace tileops::dev
