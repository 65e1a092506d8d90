// BatchNormFwdOp (torch.nn.functional.batch_norm): normalizes each channel (dim 1) of x.
// Training uses the batch statistics over every other dim and updates running_mean and
// running_var in place (momentum-weighted, with the unbiased variance); inference uses the
// running statistics and leaves them alone.
#pragma once

#include "tileops/export.hpp"
#include "tileops/framework/call_spec.hpp"
#include "tileops/framework/kernel.hpp"
#include "tileops/generated/normalization.gen.hpp"

namespace tileops {

// x is seen as [n, c, l]: l is the product of the dims after the channel dim (1 for [n, c]).
struct TILEOPS_API BatchNormCall : CallSpec {
  DType dtype = DType::kFloat32;  // of x and output; statistics, weight and bias are float32
  int64_t n = 0;
  int64_t c = 0;
  int64_t l = 0;
  bool has_weight = false;
  bool has_bias = false;
  double eps = 0;
  double momentum = 0;  // used by the training interface only
  friend bool operator==(const BatchNormCall&, const BatchNormCall&) = default;
  size_t hash() const {
    return CallHasher::of(device, dtype, n, c, l, has_weight, has_bias, eps, momentum);
  }
  std::string describe() const;
};

// Interface "batch_norm_fwd_train": x and output [n, c, l] contiguous; running_mean and
// running_var [c] float32, updated in place from the batch statistics (left unchanged when
// n * l == 0, as torch does); weight and bias [c] float32 or absent (undefined).
class TILEOPS_API BatchNormTrainKernel
    : public KernelInterface<BatchNormTrainKernel, BatchNormCall> {
 public:
  static constexpr std::string_view kName = "batch_norm_fwd_train";
  // Scratch bytes run needs for call (the per-channel statistics between the kernels of a
  // device implementation); the op allocates them.
  virtual int64_t workspace_bytes(const BatchNormCall&) const { return 0; }
  // workspace holds workspace_bytes(call) bytes (an undefined tensor when that is 0).
  virtual void run(const BatchNormCall& call, const Tensor& x, const Tensor& running_mean,
                   const Tensor& running_var, const Tensor& weight, const Tensor& bias,
                   const Tensor& output, const Tensor& workspace) = 0;
};

// Interface "batch_norm_fwd_infer": as above, but normalizes with running_mean and running_var
// and never writes them.
class TILEOPS_API BatchNormInferKernel
    : public KernelInterface<BatchNormInferKernel, BatchNormCall> {
 public:
  static constexpr std::string_view kName = "batch_norm_fwd_infer";
  virtual int64_t workspace_bytes(const BatchNormCall&) const { return 0; }
  virtual void run(const BatchNormCall& call, const Tensor& x, const Tensor& running_mean,
                   const Tensor& running_var, const Tensor& weight, const Tensor& bias,
                   const Tensor& output, const Tensor& workspace) = 0;
};

class TILEOPS_API BatchNormFwdOp final : public gen::BatchNormFwdOpBase {
 public:
  explicit BatchNormFwdOp(Params params = {}, Target target = {});
  static const OpDecl& decl();

 private:
  void forward(const Tensor& x, const Tensor& running_mean, const Tensor& running_var,
               const Tensor& weight, const Tensor& bias, Tensor& output) override;
};

}  // namespace tileops
