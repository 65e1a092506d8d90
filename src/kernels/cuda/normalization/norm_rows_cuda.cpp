// LayerNormFwdOp and FusedAddRMSNormFwdOp on CUDA: one block per row, like RMSNorm, with the
// same tuning candidates (common/row_tuning.hpp).
#include <fmt/format.h>

#include "kernels/cuda/common/row_tuning.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/normalization/fused_add_rms_norm_fwd_op.hpp"
#include "tileops/ops/normalization/layer_norm_fwd_op.hpp"

namespace tileops::cuda {
namespace {

constexpr const char* kLayerNormPath = "normalization/layer_norm.cu";
constexpr const char* kFusedPath = "normalization/fused_add_rms_norm.cu";

// Untuned, LayerNorm keeps nothing in registers and takes four accesses per thread on many rows:
// `tileops tune` on the H200 chose that for every prefill workload and dtype (bfloat16
// llama-70b 42% -> 76% of the copy).
class LayerNormCuda final : public LayerNormKernel {
 public:
  using Interface = LayerNormKernel;
  static constexpr DeviceType devices[] = {kCUDA};
  explicit LayerNormCuda(DType d)
      : set_("layer_norm", kLayerNormPath, "layer_norm_kernel", d, "layer_norm_cuda") {}
  static BuildPlan entry_for(const LayerNormCall& call, const DeviceFacts&) {
    const DType d = call.dtype;
    return {std::string(dtype_name(d)), [d] { return std::make_unique<LayerNormCuda>(d); }};
  }
  void run(const LayerNormCall& call, const Tensor& x, const Tensor& w, const Tensor& b,
           const Tensor& y) override {
    const int vec = row_vector_width(call.dtype, call.n, {x.data(), w.data(), b.data(), y.data()});
    const int device = device_of(x);
    int config = default_row_config(0, call.rows, sm_count(device), 4);
    if (set_.tuned()) {
      config = set_.choose(
          device, call.dtype, call.rows, call.n, vec, config, {&x, &w, &b}, {&y},
          [this, call, vec, device](int c, std::span<const Tensor> in, std::span<const Tensor> o) {
            enqueue(call, vec, device, c, in[0].data(), in[1].data(), in[2].data(), o[0].data());
          });
    }
    enqueue(call, vec, device, config, x.data(), w.data(), b.data(), y.data());
  }
  std::string config() const override { return set_.last_config(); }
  bool tunable() const override { return true; }
  void request_tune(const TuneOptions& options) override { set_.enter_tuned_mode(options); }

 private:
  void enqueue(const LayerNormCall& call, int vec, int device, int config, const void* xp,
               const void* wp, const void* bp, void* yp) {
    int64_t n = call.n;
    float eps = static_cast<float>(call.eps);
    set_.launch_rows(device, call.rows, call.n, vec, config, {&xp, &wp, &bp, &yp, &n, &eps});
  }

  RowKernelSet set_;
};

// FusedAddRMSNorm keeps nothing in registers by default: measured on the H200, re-reading
// residual_out (which the block just wrote) ran at 94-96% of the copy, caching at 70-77%; tuning
// preferred two accesses per thread on most prefill rows.
class FusedAddRMSNormCuda final : public FusedAddRMSNormKernel {
 public:
  using Interface = FusedAddRMSNormKernel;
  static constexpr DeviceType devices[] = {kCUDA};
  explicit FusedAddRMSNormCuda(DType d)
      : set_("fused_add_rms_norm", kFusedPath, "fused_add_rms_norm_kernel", d,
             "fused_add_rms_norm_cuda") {}
  static BuildPlan entry_for(const FusedAddRMSNormCall& call, const DeviceFacts&) {
    const DType d = call.dtype;
    return {std::string(dtype_name(d)), [d] { return std::make_unique<FusedAddRMSNormCuda>(d); }};
  }
  void run(const FusedAddRMSNormCall& call, const Tensor& x, const Tensor& residual,
           const Tensor& w, const Tensor& y, const Tensor& residual_out) override {
    const int vec = row_vector_width(
        call.dtype, call.n, {x.data(), residual.data(), w.data(), y.data(), residual_out.data()});
    const int device = device_of(x);
    int config = default_row_config(0, call.rows, sm_count(device), 2);
    if (set_.tuned()) {
      config = set_.choose(
          device, call.dtype, call.rows, call.n, vec, config, {&x, &residual, &w},
          {&y, &residual_out},
          [this, call, vec, device](int c, std::span<const Tensor> in, std::span<const Tensor> o) {
            enqueue(call, vec, device, c, in[0].data(), in[1].data(), in[2].data(), o[0].data(),
                    o[1].data());
          });
    }
    enqueue(call, vec, device, config, x.data(), residual.data(), w.data(), y.data(),
            residual_out.data());
  }
  std::string config() const override { return set_.last_config(); }
  bool tunable() const override { return true; }
  void request_tune(const TuneOptions& options) override { set_.enter_tuned_mode(options); }

 private:
  void enqueue(const FusedAddRMSNormCall& call, int vec, int device, int config, const void* xp,
               const void* rp, const void* wp, void* yp, void* op) {
    int64_t n = call.n;
    float eps = static_cast<float>(call.eps);
    set_.launch_rows(device, call.rows, call.n, vec, config, {&xp, &rp, &wp, &yp, &op, &n, &eps});
  }

  RowKernelSet set_;
};

const StaticKernelRegistration<LayerNormCuda> kLayerNorm("LayerNormFwdOp", "layer_norm_cuda");
const StaticKernelRegistration<FusedAddRMSNormCuda> kFused("FusedAddRMSNormFwdOp",
                                                           "fused_add_rms_norm_cuda");
const bool kVariants = [] {
  register_cuda_variants("norm_rows", [] {
    std::vector<KernelSource> v;
    for (DType d : {DType::kFloat16, DType::kBFloat16, DType::kFloat32}) {
      for (KernelSource& s : row_kernel_variants("layer_norm", kLayerNormPath, d)) v.push_back(s);
      for (KernelSource& s : row_kernel_variants("fused_add_rms_norm", kFusedPath, d))
        v.push_back(s);
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
