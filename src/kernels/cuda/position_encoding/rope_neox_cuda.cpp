// RopeNeoxFwdOp on CUDA.
#include <fmt/format.h>

#include "kernels/cuda/common/elementwise_launch.hpp"
#include "kernels/cuda/cuda_kernel.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/position_encoding/rope_neox_fwd_op.hpp"

namespace tileops::cuda {
namespace {

KernelSource rope_source(DType dtype) {
  return specialise(fmt::format("rope_neox_{}", cuda_type(dtype)), "position_encoding/rope_neox.cu",
                    fmt::format("typedef {} T;", cuda_type(dtype)));
}

class RopeNeoxCuda final : public RopeNeoxKernel {
 public:
  using Interface = RopeNeoxKernel;
  static constexpr DeviceType devices[] = {kCUDA};

  explicit RopeNeoxCuda(DType dtype) : fn_(rope_source(dtype), "rope_neox_kernel") {}

  static BuildPlan entry_for(const RopeNeoxCall& call, const DeviceFacts&) {
    const DType dtype = call.dtype;
    return {std::string(dtype_name(dtype)),
            [dtype] { return std::make_unique<RopeNeoxCuda>(dtype); }};
  }

  void run(const RopeNeoxCall& call, const Tensor& x, const Tensor& out) override {
    const int device = device_of(x);
    const void* xp = x.data();
    void* op = out.data();
    int64_t b = call.batch, s = call.seq, h = call.heads, d = call.dim;
    double base = call.base;
    launch(fn_.get(device), device, elementwise_grid(s * (d / 2), device), 1, kElementwiseBlock, 0,
           {&xp, &op, &b, &s, &h, &d, &base});
  }

 private:
  CudaFunction fn_;
};

const StaticKernelRegistration<RopeNeoxCuda> kRegistration("RopeNeoxFwdOp", "rope_neox_cuda");
const bool kVariants = [] {
  register_cuda_variants("rope_neox", [] {
    std::vector<KernelSource> v;
    for (DType d : {DType::kFloat16, DType::kBFloat16, DType::kFloat32})
      v.push_back(rope_source(d));
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
