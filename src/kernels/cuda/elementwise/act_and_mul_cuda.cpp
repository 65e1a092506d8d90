// The gated activations on CUDA (SiluAndMulFwdOp, GeluAndMulFwdOp, GeluTanhAndMulFwdOp): one
// kernel source and one host class template, parameterised by the activation. This flat kernel
// serves every call (general); rows off the 16-byte pack prefer the staged kernel
// (act_and_mul_staged_cuda.cpp).
#include "kernels/cuda/common/elementwise_launch.hpp"
#include "kernels/cuda/common/per_dtype_kernel.hpp"
#include "kernels/cuda/host/fast_divisor.hpp"
#include "tileops/ops/elementwise/gelu_and_mul_fwd_op.hpp"
#include "tileops/ops/elementwise/gelu_tanh_and_mul_fwd_op.hpp"
#include "tileops/ops/elementwise/silu_and_mul_fwd_op.hpp"

namespace tileops::cuda {
namespace {

KernelSpec act_spec(GatedActivation act, DType dtype, int vec) {
  return KernelSpec(
      "elementwise/act_and_mul.cu", "act_and_mul_kernel",
      {KernelConstant::type_of("T", cuda_type(dtype)), KernelConstant::integer("VEC", vec),
       KernelConstant::integer("ACT", static_cast<int>(act))});
}

template <GatedActivation A>
class ActAndMulCuda final : public PerDTypeCuda<ActAndMulCuda<A>, ActAndMulKernel<A>> {
 public:
  static constexpr bool general = true;

  explicit ActAndMulCuda(DType dtype)
      : fns_(dtype, [&](int vec) { return act_spec(A, dtype, vec); }) {}

  void run(const ActAndMulCall<A>& call, const Tensor& x, const Tensor& out) override {
    const int vec = row_vector_width(call.dtype, call.n, {x.data(), out.data()});
    const int device = device_of(x);
    const void* xp = x.data();
    void* op = out.data();
    int64_t m = call.m, n = call.n;
    const int64_t per_row = n / vec;
    FastDivisor divisor = FastDivisor::of(
        per_row >= 1 && per_row <= FastDivisor::kMax ? static_cast<uint32_t>(per_row) : 1);
    launch_elementwise(fns_.get(vec, device), device, call.m * call.n / vec,
                       {&xp, &op, &m, &n, &divisor});
  }

 private:
  WideAndNarrow fns_;
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
        for (int vec : {wide_vector_width(d), 1}) v.push_back(act_spec(act, d, vec).source());
      }
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
