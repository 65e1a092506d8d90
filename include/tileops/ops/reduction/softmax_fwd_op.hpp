// SoftmaxFwdOp (torch.nn.functional.softmax): y = exp(x - max) / sum(exp(x - max)) along dim,
// numerically stable.
#pragma once

#include "tileops/export.hpp"
#include "tileops/framework/kernel.hpp"
#include "tileops/generated/reduction.gen.hpp"
#include "tileops/ops/reduction/softmax_call.hpp"

namespace tileops {

// Interface "softmax": x and output are [outer, n, inner] contiguous, reduced over n.
// Softmax and LogSoftmax keep one interface each (rather than one interface with a log flag in the
// call spec): an implementation registered for one op then serves exactly that op's contract, and
// a backend may provide either without being handed calls for the other.
class TILEOPS_API SoftmaxKernel : public KernelInterface<SoftmaxKernel, SoftmaxCall> {
 public:
  static constexpr std::string_view kName = "softmax";
  // Scratch bytes run needs for call (a split row's partial results); the op allocates them.
  virtual int64_t workspace_bytes(const SoftmaxCall&) const { return 0; }
  // workspace holds workspace_bytes(call) bytes (an undefined tensor when that is 0).
  virtual void run(const SoftmaxCall& call, const Tensor& x, const Tensor& output,
                   const Tensor& workspace) = 0;
};

class TILEOPS_API SoftmaxFwdOp final : public gen::SoftmaxFwdOpBase {
 public:
  explicit SoftmaxFwdOp(Params params = {}, Target target = {});
  static const OpDecl& decl();

 private:
  void forward(const Tensor& x, Tensor& output) override;
};

}  // namespace tileops
