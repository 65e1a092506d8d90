// SiluAndMulFwdOp: output = silu(x[:, :N]) * x[:, N:] for x of shape [M, 2N] (vLLM convention:
// the first half is the gate).
#pragma once

#include "tileops/generated/elementwise.gen.hpp"
#include "tileops/op/call_spec.hpp"
#include "tileops/op/kernel.hpp"

namespace tileops {

struct SiluAndMulCall : CallSpec {
  DType dtype = DType::kFloat32;
  int64_t m = 0;  // rows
  int64_t n = 0;  // output columns (half of x's)
  friend bool operator==(const SiluAndMulCall&, const SiluAndMulCall&) = default;
  size_t hash() const { return CallHasher::of(device, dtype, m, n); }
  std::string describe() const;
};

// Interface "silu_and_mul": x is [m, 2n] and output [m, n], both contiguous.
class SiluAndMulKernel : public KernelInterface<SiluAndMulKernel, SiluAndMulCall> {
 public:
  static constexpr std::string_view kName = "silu_and_mul";
  virtual void run(const SiluAndMulCall& call, const Tensor& x, const Tensor& output) = 0;
};

class SiluAndMulFwdOp final : public gen::SiluAndMulFwdOpBase {
 public:
  explicit SiluAndMulFwdOp(Params params = {}, Target target = {});
  static const OpDecl& decl();

 private:
  void forward(const Tensor& x, Tensor& output) override;
};

}  // namespace tileops
