// FusedAddRMSNormFwdOp (vLLM fused_add_rms_norm): residual_out = x + residual, rounded to the
// dtype; output = residual_out / sqrt(mean(residual_out^2 over the last dim) + eps) * weight.
#pragma once

#include "tileops/export.hpp"
#include "tileops/framework/call_spec.hpp"
#include "tileops/framework/kernel.hpp"
#include "tileops/generated/normalization.gen.hpp"

namespace tileops {

struct TILEOPS_API FusedAddRMSNormCall : CallSpec {
  DType dtype = DType::kFloat32;
  int64_t rows = 0;  // product of the leading dims
  int64_t n = 0;     // the last dim
  double eps = 0;
  friend bool operator==(const FusedAddRMSNormCall&, const FusedAddRMSNormCall&) = default;
  size_t hash() const { return CallHasher::of(device, dtype, rows, n, eps); }
  std::string describe() const;
};

// Interface "fused_add_rms_norm": x, residual, output and residual_out are [rows, n] contiguous,
// weight is [n]. The output is normalized from residual_out as stored (rounded to the dtype).
class TILEOPS_API FusedAddRMSNormKernel
    : public KernelInterface<FusedAddRMSNormKernel, FusedAddRMSNormCall> {
 public:
  static constexpr std::string_view kName = "fused_add_rms_norm";
  // Scratch bytes run needs for call (the grid rows' exchange); the op allocates them.
  virtual int64_t workspace_bytes(const FusedAddRMSNormCall&) const { return 0; }
  // workspace holds workspace_bytes(call) bytes (an undefined tensor when that is 0).
  virtual void run(const FusedAddRMSNormCall& call, const Tensor& x, const Tensor& residual,
                   const Tensor& weight, const Tensor& output, const Tensor& residual_out,
                   const Tensor& workspace) = 0;
};

class TILEOPS_API FusedAddRMSNormFwdOp final : public gen::FusedAddRMSNormFwdOpBase {
 public:
  explicit FusedAddRMSNormFwdOp(Params params = {}, Target target = {});
  static const OpDecl& decl();

 private:
  void forward(const Tensor& x, const Tensor& residual, const Tensor& weight, Tensor& output,
               Tensor& residual_out) override;
};

}  // namespace tileops
