// GemmFwdOp: d = op(a) @ op(b), where op(a) is a ([M, K]) or a^T (a is [K, M]) when trans_a,
// and op(b) is b^T (b is [N, K]) when trans_b or b ([K, N]) otherwise.
#pragma once

#include "tileops/export.hpp"
#include "tileops/generated/gemm.gen.hpp"
#include "tileops/ops/gemm/gemm_kernel.hpp"

namespace tileops {

class TILEOPS_API GemmFwdOp final : public gen::GemmFwdOpBase {
 public:
  explicit GemmFwdOp(Params params = {}, Target target = {});
  static const OpDecl& decl();

 private:
  void forward(const Tensor& a, const Tensor& b, Tensor& d) override;
};

}  // namespace tileops
