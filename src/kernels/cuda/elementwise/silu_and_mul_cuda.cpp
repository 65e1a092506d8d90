// SiluAndMulFwdOp on CUDA.
#include <fmt/format.h>

#include "kernels/cuda/common/elementwise_launch.hpp"
#include "kernels/cuda/common/row_launch.hpp"
#include "tileops/op/implementation.hpp"
#include "tileops/ops/elementwise/silu_and_mul_fwd_op.hpp"

namespace tileops::cuda {
namespace {

KernelSource silu_source(DType dtype, int vec) {
  return specialise(fmt::format("silu_and_mul_{}_v{}", cuda_type(dtype), vec),
                    "elementwise/silu_and_mul.cu",
                    fmt::format("typedef {} T;\nconstexpr int VEC = {};", cuda_type(dtype), vec));
}

class SiluAndMulCuda final : public SiluAndMulKernel {
 public:
  using Interface = SiluAndMulKernel;
  static constexpr DeviceType devices[] = {kCUDA};

  explicit SiluAndMulCuda(DType dtype)
      : vec_(static_cast<int>(16 / dtype_size(dtype))),
        wide_(silu_source(dtype, vec_), "silu_and_mul_kernel"),
        narrow_(silu_source(dtype, 1), "silu_and_mul_kernel") {}

  static BuildPlan entry_for(const SiluAndMulCall& call, const DeviceFacts&) {
    const DType dtype = call.dtype;
    return {std::string(dtype_name(dtype)),
            [dtype] { return std::make_unique<SiluAndMulCuda>(dtype); }};
  }

  void run(const SiluAndMulCall& call, const Tensor& x, const Tensor& out) override {
    const int vec = row_vector_width(call.dtype, call.n, {x.data(), out.data()});
    const int device = device_of(x);
    const void* xp = x.data();
    void* op = out.data();
    int64_t m = call.m, n = call.n;
    launch((vec == vec_ ? wide_ : narrow_).get(device), device,
           elementwise_grid(call.m * call.n / vec, device), 1, kElementwiseBlock, 0,
           {&xp, &op, &m, &n});
  }

 private:
  int vec_;
  CudaFunction wide_, narrow_;
};

const StaticKernelRegistration<SiluAndMulCuda> kRegistration("SiluAndMulFwdOp",
                                                             "silu_and_mul_cuda");
const bool kVariants = [] {
  register_cuda_variants("silu_and_mul", [] {
    std::vector<KernelSource> v;
    for (DType d : {DType::kFloat16, DType::kBFloat16, DType::kFloat32}) {
      v.push_back(silu_source(d, static_cast<int>(16 / dtype_size(d))));
      v.push_back(silu_source(d, 1));
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
