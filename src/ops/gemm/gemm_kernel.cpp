#include "tileops/ops/gemm/gemm_kernel.hpp"

#include "tileops/ops/workspace.hpp"

namespace tileops {

std::string GemmCall::describe() const {
  std::string s =
      fmt::format("{}, {}, {}, {}, {}, {}, {}, {}", describe_field("device", device),
                  describe_field("dtype", dtype), describe_field("m", m), describe_field("n", n),
                  describe_field("k", k), describe_field("trans_a", trans_a),
                  describe_field("trans_b", trans_b), describe_field("aligned16", aligned16));
  if (batch != 1) s += fmt::format(", batch={}", batch);
  if (gated) s += ", gated=" + std::string(interface_name(activation));
  if (bias) s += ", bias=true";
  if (residual) s += ", residual=true";
  return s;
}

void run_gemm(GemmKernel& kernel, const GemmCall& call, const Tensor& a, const Tensor& b,
              const Tensor& d, const GemmTail& tail) {
  kernel.run(call, a, b, d, tail, allocate_workspace(kernel.workspace_bytes(call), a.device()));
}

}  // namespace tileops
