#include "tileops/ops/gemm/gemm_fwd_op.hpp"

namespace tileops {

std::string GemmCall::describe() const {
  return fmt::format("{}, {}, {}, {}, {}, {}, {}, {}", describe_field("device", device),
                     describe_field("dtype", dtype), describe_field("m", m), describe_field("n", n),
                     describe_field("k", k), describe_field("trans_a", trans_a),
                     describe_field("trans_b", trans_b), describe_field("aligned16", aligned16));
}

GemmFwdOp::GemmFwdOp(Params params, Target target)
    : GemmFwdOpBase(std::move(params), decl(), std::move(target)) {}

const OpDecl& GemmFwdOp::decl() {
  static const OpDecl kDecl{{&GemmKernel::info()}, {}, {}};
  return kDecl;
}

void GemmFwdOp::forward(const Tensor& a, const Tensor& b, Tensor& d) {
  const bool trans_a = params().trans_a;
  const bool trans_b = params().trans_b;
  const auto on16 = [](const Tensor& t) {
    return (reinterpret_cast<uintptr_t>(t.data()) & 15u) == 0;
  };
  const GemmCall call{
      {a.device()}, a.dtype(), d.size(0),         d.size(1), trans_a ? a.size(0) : a.size(1),
      trans_a,      trans_b,   on16(a) && on16(b)};
  GemmKernel& kernel = kernel_for<GemmKernel>(call);
  const int64_t scratch = kernel.workspace_bytes(call);
  const Tensor workspace =
      scratch > 0 ? Tensor::empty(Shape{scratch}, DType::kUInt8, a.device()) : Tensor();
  kernel.run(call, a, b, d, workspace);
}

}  // namespace tileops
