// torch's gated-MLP activations in fp32 on the CPU (definitions in
// tileops/ops/elementwise/act_and_mul.hpp).
#pragma once

#include <cmath>

#include "tileops/ops/elementwise/act_and_mul.hpp"

namespace tileops::cpu {

template <GatedActivation A>
float activate(float g) {
  if constexpr (A == GatedActivation::kSilu) {
    return g / (1.0f + std::exp(-g));
  } else if constexpr (A == GatedActivation::kGelu) {
    return 0.5f * g * (1.0f + std::erf(g * 0.70710678118654752f));
  } else {
    const float inner = 0.79788456080286536f * (g + 0.044715f * g * g * g);
    return 0.5f * g * (1.0f + std::tanh(inner));
  }
}

inline float activate(GatedActivation a, float g) {
  switch (a) {
    case GatedActivation::kSilu:
      return activate<GatedActivation::kSilu>(g);
    case GatedActivation::kGelu:
      return activate<GatedActivation::kGelu>(g);
    case GatedActivation::kGeluTanh:
      return activate<GatedActivation::kGeluTanh>(g);
  }
  return g;
}

}  // namespace tileops::cpu
