// RopeNeoxFwdOp on CUDA.
#include "kernels/cuda/common/elementwise_launch.hpp"
#include "kernels/cuda/common/per_dtype_kernel.hpp"
#include "tileops/ops/position_encoding/rope_neox_fwd_op.hpp"

namespace tileops::cuda {
namespace {

KernelSpec rope_spec(DType dtype) {
  return KernelSpec("position_encoding/rope_neox.cu", "rope_neox_kernel",
                    {KernelConstant::type_of("T", cuda_type(dtype))});
}

class RopeNeoxCuda final : public PerDTypeCuda<RopeNeoxCuda, RopeNeoxKernel> {
 public:
  explicit RopeNeoxCuda(DType dtype) : fn_(rope_spec(dtype)) {}

  void run(const RopeNeoxCall& call, const Tensor& x, const Tensor& out) override {
    const int device = device_of(x);
    const void* xp = x.data();
    void* op = out.data();
    int64_t b = call.batch, s = call.seq, h = call.heads, d = call.dim;
    double base = call.base;
    launch_elementwise(fn_.get(device), device, s * (d / 2), {&xp, &op, &b, &s, &h, &d, &base});
  }

 private:
  CudaFunction fn_;
};

const StaticKernelRegistration<RopeNeoxCuda> kRegistration("RopeNeoxFwdOp", "rope_neox_cuda");
const bool kVariants = [] {
  register_cuda_variants("rope_neox", [] {
    std::vector<KernelSource> v;
    for (DType d : {DType::kFloat16, DType::kBFloat16, DType::kFloat32})
      v.push_back(rope_spec(d).source());
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
