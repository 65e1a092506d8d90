// LayerNormFwdOp: y = (x - mean) / sqrt(var + eps) * weight + bias, with the mean and the biased
// variance taken over the normalized (trailing) dims.
#pragma once

#include "tileops/export.hpp"
#include "tileops/framework/call_spec.hpp"
#include "tileops/framework/kernel.hpp"
#include "tileops/generated/normalization.gen.hpp"

namespace tileops {

struct TILEOPS_API LayerNormCall : CallSpec {
  DType dtype = DType::kFloat32;
  int64_t rows = 0;  // product of the leading (not normalized) dims
  int64_t n = 0;     // product of the normalized dims
  double eps = 0;    // resolved: None becomes the dtype's machine epsilon, as for RMSNorm
  friend bool operator==(const LayerNormCall&, const LayerNormCall&) = default;
  size_t hash() const { return CallHasher::of(device, dtype, rows, n, eps); }
  std::string describe() const;
};

// Interface "layer_norm": x and output are [rows, n] contiguous, weight and bias are [n].
class TILEOPS_API LayerNormKernel : public KernelInterface<LayerNormKernel, LayerNormCall> {
 public:
  static constexpr std::string_view kName = "layer_norm";
  // Scratch bytes run needs for call (the grid rows' exchange); the op allocates them.
  virtual int64_t workspace_bytes(const LayerNormCall&) const { return 0; }
  // workspace holds workspace_bytes(call) bytes (an undefined tensor when that is 0).
  virtual void run(const LayerNormCall& call, const Tensor& x, const Tensor& weight,
                   const Tensor& bias, const Tensor& output, const Tensor& workspace) = 0;
};

class TILEOPS_API LayerNormFwdOp final : public gen::LayerNormFwdOpBase {
 public:
  explicit LayerNormFwdOp(Params params, Target target = {});
  static const OpDecl& decl();

 private:
  void forward(const Tensor& x, const Tensor& weight, const Tensor& bias, Tensor& output) override;
};

}  // namespace tileops
