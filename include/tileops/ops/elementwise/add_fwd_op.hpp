// AddFwdOp: output = input + alpha * other, with NumPy/torch broadcasting (torch.add).
#pragma once

#include "tileops/export.hpp"
#include "tileops/framework/call_spec.hpp"
#include "tileops/framework/kernel.hpp"
#include "tileops/generated/elementwise.gen.hpp"

namespace tileops {

struct TILEOPS_API AddCall : CallSpec {
  DType dtype = DType::kFloat32;
  Shape input_shape;
  Shape other_shape;
  Shape output_shape;  // broadcast_shapes(input_shape, other_shape)
  double alpha = 1;
  friend bool operator==(const AddCall&, const AddCall&) = default;
  size_t hash() const {
    return CallHasher::of(device, dtype, input_shape, other_shape, output_shape, alpha);
  }
  std::string describe() const;
};

// Interface "add": input, other and output are contiguous; input and other broadcast to output.
class TILEOPS_API AddKernel : public KernelInterface<AddKernel, AddCall> {
 public:
  static constexpr std::string_view kName = "add";
  virtual void run(const AddCall& call, const Tensor& input, const Tensor& other,
                   const Tensor& output) = 0;
};

class TILEOPS_API AddFwdOp final : public gen::AddFwdOpBase {
 public:
  explicit AddFwdOp(Params params = {}, Target target = {});
  static const OpDecl& decl();

 private:
  void forward(const Tensor& input, const Tensor& other, Tensor& output) override;
};

}  // namespace tileops
