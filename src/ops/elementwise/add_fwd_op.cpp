#include "tileops/ops/elementwise/add_fwd_op.hpp"

namespace tileops {

std::string AddCall::describe() const {
  return fmt::format("{}, {}, {}, {}, {}, {}", describe_field("device", device),
                     describe_field("dtype", dtype), describe_field("input_shape", input_shape),
                     describe_field("other_shape", other_shape),
                     describe_field("output_shape", output_shape), describe_field("alpha", alpha));
}

AddFwdOp::AddFwdOp(Params params, Target target)
    : AddFwdOpBase(std::move(params), decl(), std::move(target)) {}

const OpDecl& AddFwdOp::decl() {
  static const OpDecl kDecl{{&AddKernel::info()}, {}, {}};
  return kDecl;
}

void AddFwdOp::forward(const Tensor& input, const Tensor& other, Tensor& output) {
  const AddCall call{{input.device()}, input.dtype(),  input.shape(),
                     other.shape(),    output.shape(), params().alpha};
  kernel_for<AddKernel>(call).run(call, input, other, output);
}

}  // namespace tileops
