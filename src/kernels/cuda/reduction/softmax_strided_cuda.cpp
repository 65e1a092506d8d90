// Softmax and LogSoftmax over any dim on CUDA, one thread per (outer, inner) column
// (softmax_strided.cu). General: it serves every call and ranks below the row-wise variants,
// which serve the last dim.
#include "kernels/cuda/common/elementwise_launch.hpp"
#include "kernels/cuda/common/per_dtype_kernel.hpp"
#include "kernels/cuda/reduction/softmax_variants.hpp"

namespace tileops::cuda::softmax {
namespace {

KernelSpec strided_spec(DType dtype, bool log) {
  return KernelSpec("reduction/softmax_strided.cu", "softmax_strided_kernel",
                    {KernelConstant::type_of("T", cuda_type(dtype)), log_constant(log)});
}

template <bool kLog>
class SoftmaxStridedCuda final
    : public PerDTypeCuda<SoftmaxStridedCuda<kLog>, typename Flavour<kLog>::Interface> {
 public:
  static constexpr bool general = true;

  explicit SoftmaxStridedCuda(DType dtype) : fn_(strided_spec(dtype, kLog)) {}

  void run(const SoftmaxCall& call, const Tensor& x, const Tensor& y,
           const Tensor& /*workspace*/) override {
    const int device = device_of(x);
    const void* xp = x.data();
    void* yp = y.data();
    int64_t outer = call.outer, n = call.n, inner = call.inner;
    launch_elementwise(fn_.get(device), device, outer * inner, {&xp, &yp, &outer, &n, &inner});
  }

 private:
  CudaFunction fn_;
};

const StaticKernelRegistration<SoftmaxStridedCuda<false>> kSoftmax(
    Flavour<false>::kOp, std::string(Flavour<false>::kStrided));
const StaticKernelRegistration<SoftmaxStridedCuda<true>> kLogSoftmax(
    Flavour<true>::kOp, std::string(Flavour<true>::kStrided));
const bool kVariants = [] {
  register_cuda_variants("softmax_strided", [] {
    std::vector<KernelSource> v;
    for (DType d : kDTypes) {
      for (bool log : {false, true}) v.push_back(strided_spec(d, log).source());
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda::softmax
