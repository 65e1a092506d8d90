// RMSNormFwdOp: y = x / sqrt(mean(x^2 over the normalized dims) + eps) * weight.
#pragma once

#include "tileops/export.hpp"
#include "tileops/framework/call_spec.hpp"
#include "tileops/framework/kernel.hpp"
#include "tileops/generated/normalization.gen.hpp"

namespace tileops {

struct TILEOPS_API RMSNormCall : CallSpec {
  DType dtype = DType::kFloat32;
  int64_t rows = 0;  // product of the leading (not normalized) dims
  int64_t n = 0;     // product of the normalized dims
  double eps = 0;    // resolved: None becomes the dtype's machine epsilon, as in torch
  friend bool operator==(const RMSNormCall&, const RMSNormCall&) = default;
  size_t hash() const { return CallHasher::of(device, dtype, rows, n, eps); }
  std::string describe() const;
};

// Interface "rms_norm": x and output are [rows, n] contiguous, weight is [n].
class TILEOPS_API RMSNormKernel : public KernelInterface<RMSNormKernel, RMSNormCall> {
 public:
  static constexpr std::string_view kName = "rms_norm";
  // Scratch bytes run needs for call (the grid rows' exchange); the op allocates them.
  virtual int64_t workspace_bytes(const RMSNormCall&) const { return 0; }
  // workspace holds workspace_bytes(call) bytes (an undefined tensor when that is 0).
  virtual void run(const RMSNormCall& call, const Tensor& x, const Tensor& weight,
                   const Tensor& output, const Tensor& workspace) = 0;
};

class TILEOPS_API RMSNormFwdOp final : public gen::RMSNormFwdOpBase {
 public:
  explicit RMSNormFwdOp(Params params, Target target = {});
  static const OpDecl& decl();

 private:
  void forward(const Tensor& x, const Tensor& weight, Tensor& output) override;
};

}  // namespace tileops
