#include "tileops/ops/position_encoding/rope_neox_fwd_op.hpp"

namespace tileops {

std::string RopeNeoxCall::describe() const {
  return fmt::format("{}, {}, {}, {}, {}, {}, {}", describe_field("device", device),
                     describe_field("dtype", dtype), describe_field("batch", batch),
                     describe_field("seq", seq), describe_field("heads", heads),
                     describe_field("dim", dim), describe_field("base", base));
}

RopeNeoxFwdOp::RopeNeoxFwdOp(Params params, Target target)
    : RopeNeoxFwdOpBase(std::move(params), decl(), std::move(target)) {}

const OpDecl& RopeNeoxFwdOp::decl() {
  static const OpDecl kDecl{{&RopeNeoxKernel::info()}, {}, {}};
  return kDecl;
}

void RopeNeoxFwdOp::forward(const Tensor& x, Tensor& output) {
  // The signature admits only '1d' ([S, D]) and '2d' ([B, S, H, D]).
  const bool two_d = params().layout == "2d";
  const RopeNeoxCall call{
      {x.device()},          x.dtype(),  two_d ? x.size(0) : 1, two_d ? x.size(1) : x.size(0),
      two_d ? x.size(2) : 1, x.size(-1), params().base};
  kernel_for<RopeNeoxKernel>(call).run(call, x, output);
}

}  // namespace tileops
