// BmmFwdOp: d[i] = op(a[i]) @ op(b[i]) for i < B (torch.bmm), where op(a[i]) is a[i] ([M, K]) or
// its transpose (a[i] is [K, M]) when trans_a, and op(b[i]) is b[i] ([K, N]) or its transpose
// (b[i] is [N, K]) when trans_b. One call of the "gemm" interface with batch = B.
#pragma once

#include "tileops/export.hpp"
#include "tileops/generated/gemm.gen.hpp"
#include "tileops/ops/gemm/gemm_kernel.hpp"

namespace tileops {

class TILEOPS_API BmmFwdOp final : public gen::BmmFwdOpBase {
 public:
  explicit BmmFwdOp(Params params = {}, Target target = {});
  static const OpDecl& decl();

 private:
  void forward(const Tensor& a, const Tensor& b, Tensor& d) override;
};

}  // namespace tileops
