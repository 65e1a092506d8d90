// The gated activations of an MLP: output = act(x[..., :N]) * x[..., N:] for x of shape
// [..., 2N] (vLLM convention: the first half is the gate). One call spec and one kernel interface
// template serve SiluAndMulFwdOp, GeluAndMulFwdOp and GeluTanhAndMulFwdOp; each op has its own
// interface instance, so an implementation says which activations it serves by which ones it
// registers.
#pragma once

#include <string_view>

#include <fmt/format.h>

#include "tileops/core/tensor.hpp"
#include "tileops/export.hpp"
#include "tileops/framework/call_spec.hpp"
#include "tileops/framework/kernel.hpp"

namespace tileops {

// torch's definitions: silu(g) = g * sigmoid(g); gelu(g) = g/2 * (1 + erf(g / sqrt(2)));
// gelu_tanh(g) = g/2 * (1 + tanh(sqrt(2/pi) * (g + 0.044715 g^3))) (approximate="tanh").
enum class GatedActivation { kSilu, kGelu, kGeluTanh };

constexpr std::string_view interface_name(GatedActivation a) {
  switch (a) {
    case GatedActivation::kSilu:
      return "silu_and_mul";
    case GatedActivation::kGelu:
      return "gelu_and_mul";
    case GatedActivation::kGeluTanh:
      return "gelu_tanh_and_mul";
  }
  return "";
}

template <GatedActivation A>
struct TILEOPS_API ActAndMulCall : CallSpec {
  DType dtype = DType::kFloat32;
  int64_t m = 0;  // rows
  int64_t n = 0;  // output columns (half of x's)
  friend bool operator==(const ActAndMulCall&, const ActAndMulCall&) = default;
  size_t hash() const { return CallHasher::of(device, dtype, m, n); }
  std::string describe() const {
    return fmt::format("{}, {}, {}, {}", describe_field("device", device),
                       describe_field("dtype", dtype), describe_field("m", m),
                       describe_field("n", n));
  }
};

// The call of x [..., 2n] into output [..., n]: the leading dims, flattened, are the rows.
template <GatedActivation A>
ActAndMulCall<A> act_and_mul_call(const Tensor& x, const Tensor& output) {
  const int64_t n = output.size(-1);
  return {{x.device()}, x.dtype(), n == 0 ? 0 : output.numel() / n, n};
}

// Interface "<act>_and_mul": x is [..., 2n] and output [..., n], both contiguous, their leading
// dims flattened into m rows.
template <GatedActivation A>
class TILEOPS_API ActAndMulKernel : public KernelInterface<ActAndMulKernel<A>, ActAndMulCall<A>> {
 public:
  static constexpr GatedActivation kActivation = A;
  static constexpr std::string_view kName = interface_name(A);
  virtual void run(const ActAndMulCall<A>& call, const Tensor& x, const Tensor& output) = 0;
};

}  // namespace tileops
