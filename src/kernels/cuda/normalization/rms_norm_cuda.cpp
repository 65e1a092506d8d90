// RMSNormFwdOp on CUDA: compiled at first launch per dtype, access width and cache depth; the
// cache depth and block size are tuning candidates (common/row_tuning.hpp).
#include <fmt/format.h>

#include "kernels/cuda/common/row_tuning.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/normalization/rms_norm_fwd_op.hpp"

namespace tileops::cuda {
namespace {

constexpr const char* kPath = "normalization/rms_norm.cu";

class RMSNormCuda final : public RMSNormKernel {
 public:
  using Interface = RMSNormKernel;
  static constexpr DeviceType devices[] = {kCUDA};

  explicit RMSNormCuda(DType dtype)
      : set_("rms_norm", kPath, "rms_norm_kernel", dtype, "rms_norm_cuda") {}

  static BuildPlan entry_for(const RMSNormCall& call, const DeviceFacts&) {
    const DType dtype = call.dtype;
    return {std::string(dtype_name(dtype)),
            [dtype] { return std::make_unique<RMSNormCuda>(dtype); }};
  }

  void run(const RMSNormCall& call, const Tensor& x, const Tensor& weight,
           const Tensor& out) override {
    const int vec = row_vector_width(call.dtype, call.n, {x.data(), weight.data(), out.data()});
    const int device = device_of(x);
    int config = default_row_config(norm_cache_depth(call.dtype), call.rows, sm_count(device), 4);
    if (set_.tuned()) {
      config = set_.choose(
          device, call.dtype, call.rows, call.n, vec, config, {&x, &weight}, {&out},
          [this, call, vec, device](int c, std::span<const Tensor> in, std::span<const Tensor> o) {
            enqueue(call, vec, device, c, in[0].data(), in[1].data(), o[0].data());
          });
    }
    enqueue(call, vec, device, config, x.data(), weight.data(), out.data());
  }

  std::string config() const override { return set_.last_config(); }
  bool tunable() const override { return true; }
  void request_tune(const TuneOptions& options) override { set_.enter_tuned_mode(options); }

 private:
  void enqueue(const RMSNormCall& call, int vec, int device, int config, const void* xp,
               const void* wp, void* yp) {
    int64_t n = call.n;
    float eps = static_cast<float>(call.eps);
    set_.launch_rows(device, call.rows, call.n, vec, config, {&xp, &wp, &yp, &n, &eps});
  }

  RowKernelSet set_;
};

const StaticKernelRegistration<RMSNormCuda> kRegistration("RMSNormFwdOp", "rms_norm_cuda");
const bool kVariants = [] {
  register_cuda_variants("rms_norm", [] {
    std::vector<KernelSource> v;
    for (DType d : {DType::kFloat16, DType::kBFloat16, DType::kFloat32}) {
      for (KernelSource& s : row_kernel_variants("rms_norm", kPath, d)) v.push_back(std::move(s));
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
