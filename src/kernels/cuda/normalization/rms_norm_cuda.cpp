// RMSNormFwdOp on CUDA: compiled at first launch per dtype and access width.
#include <atomic>

#include <fmt/format.h>

#include "kernels/cuda/common/row_launch.hpp"
#include "tileops/op/implementation.hpp"
#include "tileops/ops/normalization/rms_norm_fwd_op.hpp"

namespace tileops::cuda {
namespace {

KernelSource rms_norm_source(DType dtype, int vec) {
  return specialise(fmt::format("rms_norm_{}_v{}", cuda_type(dtype), vec),
                    "normalization/rms_norm.cu",
                    fmt::format("typedef {} T;\nconstexpr int VEC = {};\nconstexpr int CACHE = {};",
                                cuda_type(dtype), vec, norm_cache_depth(dtype)));
}

class RMSNormCuda final : public RMSNormKernel {
 public:
  using Interface = RMSNormKernel;
  static constexpr DeviceType devices[] = {kCUDA};

  explicit RMSNormCuda(DType dtype)
      : wide_(rms_norm_source(dtype, static_cast<int>(16 / dtype_size(dtype))), "rms_norm_kernel"),
        narrow_(rms_norm_source(dtype, 1), "rms_norm_kernel"),
        vec_(static_cast<int>(16 / dtype_size(dtype))) {}

  static BuildPlan entry_for(const RMSNormCall& call, const DeviceFacts&) {
    const DType dtype = call.dtype;
    return {std::string(dtype_name(dtype)),
            [dtype] { return std::make_unique<RMSNormCuda>(dtype); }};
  }

  void run(const RMSNormCall& call, const Tensor& x, const Tensor& weight,
           const Tensor& out) override {
    const int vec = row_vector_width(call.dtype, call.n, {x.data(), weight.data(), out.data()});
    const int device = device_of(x);
    CUfunction fn = (vec == vec_ ? wide_ : narrow_).get(device);
    const void* xp = x.data();
    const void* wp = weight.data();
    void* yp = out.data();
    int64_t n = call.n;
    float eps = static_cast<float>(call.eps);
    block_ =
        row_block_size(call.n, vec, call.rows, sm_count(device), norm_cache_depth(call.dtype) > 0);
    launch(fn, device, static_cast<unsigned>(call.rows), 1, block_, 0, {&xp, &wp, &yp, &n, &eps});
  }

  std::string config() const override {
    return fmt::format("block={},vec<={}", block_.load(), vec_);
  }

 private:
  CudaFunction wide_, narrow_;
  int vec_;
  std::atomic<unsigned> block_{0};  // last launch, for config()
};

const StaticKernelRegistration<RMSNormCuda> kRegistration("RMSNormFwdOp", "rms_norm_cuda");
const bool kVariants = [] {
  register_cuda_variants("rms_norm", [] {
    std::vector<KernelSource> v;
    for (DType d : {DType::kFloat16, DType::kBFloat16, DType::kFloat32}) {
      v.push_back(rms_norm_source(d, static_cast<int>(16 / dtype_size(d))));
      v.push_back(rms_norm_source(d, 1));
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
