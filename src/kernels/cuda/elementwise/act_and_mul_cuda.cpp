// The gated activations on CUDA (SiluAndMulFwdOp, GeluAndMulFwdOp, GeluTanhAndMulFwdOp): one
// kernel source and one host class template, parameterised by the activation.
#include <fmt/format.h>

#include "kernels/cuda/common/elementwise_launch.hpp"
#include "kernels/cuda/common/row_launch.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/elementwise/gelu_and_mul_fwd_op.hpp"
#include "tileops/ops/elementwise/gelu_tanh_and_mul_fwd_op.hpp"
#include "tileops/ops/elementwise/silu_and_mul_fwd_op.hpp"

namespace tileops::cuda {
namespace {

KernelSource act_source(GatedActivation act, DType dtype, int vec) {
  return specialise(fmt::format("{}_{}_v{}", interface_name(act), cuda_type(dtype), vec),
                    "elementwise/act_and_mul.cu",
                    fmt::format("typedef {} T;\nconstexpr int VEC = {};\nconstexpr int ACT = {};",
                                cuda_type(dtype), vec, static_cast<int>(act)));
}

template <GatedActivation A>
class ActAndMulCuda final : public ActAndMulKernel<A> {
 public:
  using Interface = ActAndMulKernel<A>;
  static constexpr DeviceType devices[] = {kCUDA};

  explicit ActAndMulCuda(DType dtype)
      : vec_(static_cast<int>(16 / dtype_size(dtype))),
        wide_(act_source(A, dtype, vec_), "act_and_mul_kernel"),
        narrow_(act_source(A, dtype, 1), "act_and_mul_kernel") {}

  static BuildPlan entry_for(const ActAndMulCall<A>& call, const DeviceFacts&) {
    const DType dtype = call.dtype;
    return {std::string(dtype_name(dtype)),
            [dtype] { return std::make_unique<ActAndMulCuda>(dtype); }};
  }

  void run(const ActAndMulCall<A>& call, const Tensor& x, const Tensor& out) override {
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

const StaticKernelRegistration<ActAndMulCuda<GatedActivation::kSilu>> kSilu("SiluAndMulFwdOp",
                                                                            "silu_and_mul_cuda");
const StaticKernelRegistration<ActAndMulCuda<GatedActivation::kGelu>> kGelu("GeluAndMulFwdOp",
                                                                            "gelu_and_mul_cuda");
const StaticKernelRegistration<ActAndMulCuda<GatedActivation::kGeluTanh>> kGeluTanh(
    "GeluTanhAndMulFwdOp", "gelu_tanh_and_mul_cuda");
const bool kVariants = [] {
  register_cuda_variants("act_and_mul", [] {
    std::vector<KernelSource> v;
    for (GatedActivation act :
         {GatedActivation::kSilu, GatedActivation::kGelu, GatedActivation::kGeluTanh}) {
      for (DType d : {DType::kFloat16, DType::kBFloat16, DType::kFloat32}) {
        v.push_back(act_source(act, d, static_cast<int>(16 / dtype_size(d))));
        v.push_back(act_source(act, d, 1));
      }
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
