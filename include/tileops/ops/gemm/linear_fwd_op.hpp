// LinearFwdOp: y = x @ weight^T (+ bias) (+ residual), torch.nn.functional.linear with an
// optional residual fused into the same store. x is [*, K], weight [N, K], bias [N], residual
// and y [*, N]. Served by the "gemm" interface's implementations with the tail fused.
#pragma once

#include "tileops/export.hpp"
#include "tileops/generated/gemm.gen.hpp"
#include "tileops/ops/gemm/gemm_kernel.hpp"

namespace tileops {

class TILEOPS_API LinearFwdOp final : public gen::LinearFwdOpBase {
 public:
  explicit LinearFwdOp(Params params = {}, Target target = {});
  static const OpDecl& decl();

 private:
  void forward(const Tensor& x, const Tensor& weight, const Tensor& bias, const Tensor& residual,
               Tensor& y) override;
};

}  // namespace tileops
