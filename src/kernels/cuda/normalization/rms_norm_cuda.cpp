// RMSNormFwdOp on CUDA: compiled at first launch per dtype, access width and cache depth; the
// cache depth and block size are tuning candidates (common/row_tuning.hpp).
#include "kernels/cuda/common/row_kernel_cuda.hpp"
#include "tileops/ops/normalization/rms_norm_fwd_op.hpp"

namespace tileops::cuda {
namespace {

class RMSNormCuda final : public RowKernelCuda<RMSNormCuda, RMSNormKernel> {
 public:
  using RowKernelCuda::RowKernelCuda;
  static RowKernelDecl kernel() { return {"normalization/rms_norm.cu", "rms_norm_kernel", {}}; }
  static constexpr const char* kTunerName = "rms_norm_cuda";

  void run(const RMSNormCall& call, const Tensor& x, const Tensor& weight,
           const Tensor& out) override {
    int64_t n = call.n;
    float eps = static_cast<float>(call.eps);
    set_.run(call.rows, call.n, {norm_cache_depth(call.dtype), 4}, {&x, &weight}, {&out},
             {&n, &eps});
  }
};

const StaticKernelRegistration<RMSNormCuda> kRegistration("RMSNormFwdOp", "rms_norm_cuda");
const bool kVariants = [] {
  register_cuda_variants("rms_norm", [] {
    std::vector<KernelSource> v;
    for (DType d : {DType::kFloat16, DType::kBFloat16, DType::kFloat32}) {
      for (KernelSource& s : row_kernel_variants(RMSNormCuda::kernel(), d)) v.push_back(s);
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
