// Bulk conversions between IEEE half and float for the CPU kernels. On an x86 CPU with F16C (and
// AVX) they use its conversion instructions, eight elements at a time; elsewhere, or with
// TILEOPS_CPU_F16C=0, the portable inline conversions of tileops/core/half.hpp. The choice is made
// once, at first use, from the CPU itself, so one baseline build serves both (only the two
// converting functions are compiled for F16C, so no inline function differs between objects).
// Results are identical on both paths except for a NaN's payload, which F16C keeps.
#pragma once

#include <cstdint>
#include <optional>

#include "tileops/core/half.hpp"

namespace tileops::cpu {

void half_to_float(const Half* src, float* dst, int64_t n);
void float_to_half(const float* src, Half* dst, int64_t n);

// Whether the conversions above use F16C in this process.
bool half_conversions_use_f16c();

// Each path on its own, for tests that compare them (tests/ops builds this file into its own
// binary: libtileops exports nothing of tileops::cpu): the portable loops, and the F16C ones,
// which exist only when the CPU has F16C and AVX (nullptr otherwise).
struct HalfConversions {
  void (*to_float)(const Half*, float*, int64_t);
  void (*from_float)(const float*, Half*, int64_t);
};
HalfConversions portable_half_conversions();
std::optional<HalfConversions> f16c_half_conversions();

}  // namespace tileops::cpu
