// LogSoftmaxFwdOp (torch.nn.functional.log_softmax): y = (x - max) - log(sum(exp(x - max)))
// along dim, numerically stable.
#pragma once

#include "tileops/generated/reduction.gen.hpp"
#include "tileops/framework/kernel.hpp"
#include "tileops/ops/reduction/softmax_call.hpp"

namespace tileops {

// Interface "log_softmax": x and output are [outer, n, inner] contiguous, reduced over n.
// Softmax and LogSoftmax keep one interface each (rather than one interface with a log flag in the
// call spec): an implementation registered for one op then serves exactly that op's contract, and
// a backend may provide either without being handed calls for the other.
class LogSoftmaxKernel : public KernelInterface<LogSoftmaxKernel, SoftmaxCall> {
 public:
  static constexpr std::string_view kName = "log_softmax";
  virtual void run(const SoftmaxCall& call, const Tensor& x, const Tensor& output) = 0;
};

class LogSoftmaxFwdOp final : public gen::LogSoftmaxFwdOpBase {
 public:
  explicit LogSoftmaxFwdOp(Params params = {}, Target target = {});
  static const OpDecl& decl();

 private:
  void forward(const Tensor& x, Tensor& output) override;
};

}  // namespace tileops
