// torch's gated-MLP activations in fp32: silu(g) = g * sigmoid(g); gelu(g) = g/2 * (1 +
// erf(g / sqrt(2))); gelu_tanh(g) = g/2 * (1 + tanh(sqrt(2/pi) * (g + 0.044715 g^3))). The codes
// are GatedActivation's (0 silu, 1 gelu, 2 gelu_tanh).
#pragma once

namespace tileops::dev {

__device__ __forceinline__ float activate(int act, float g) {
  if (act == 0) return g / (1.0f + expf(-g));
  if (act == 1) return 0.5f * g * (1.0f + erff(g * 0.70710678118654752f));
  return 0.5f * g * (1.0f + tanhf(0.79788456080286536f * (g + 0.044715f * g * g * g)));
}

}  // namespace tileops::dev
