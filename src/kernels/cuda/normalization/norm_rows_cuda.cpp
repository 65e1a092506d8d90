// LayerNormFwdOp and FusedAddRMSNormFwdOp on CUDA: one block per row, like RMSNorm.
#include <atomic>

#include <fmt/format.h>

#include "kernels/cuda/common/row_launch.hpp"
#include "tileops/op/implementation.hpp"
#include "tileops/ops/normalization/fused_add_rms_norm_fwd_op.hpp"
#include "tileops/ops/normalization/layer_norm_fwd_op.hpp"

namespace tileops::cuda {
namespace {

// FusedAddRMSNorm keeps nothing in registers: measured on the H200, re-reading residual_out
// (which the block just wrote) ran at 94-96% of the copy, caching at 70-77%.
int cache_depth(const char* kernel, DType dtype) {
  return std::string_view(kernel) == "fused_add_rms_norm" ? 0 : norm_cache_depth(dtype);
}

KernelSource row_source(const char* kernel, const char* path, DType dtype, int vec) {
  const int depth = cache_depth(kernel, dtype);
  return specialise(fmt::format("{}_{}_v{}_c{}", kernel, cuda_type(dtype), vec, depth), path,
                    fmt::format("typedef {} T;\nconstexpr int VEC = {};\nconstexpr int CACHE = {};",
                                cuda_type(dtype), vec, depth));
}

int wide(DType dtype) {
  return static_cast<int>(16 / dtype_size(dtype));
}

class LayerNormCuda final : public LayerNormKernel {
 public:
  using Interface = LayerNormKernel;
  static constexpr DeviceType devices[] = {kCUDA};
  explicit LayerNormCuda(DType d)
      : vec_(wide(d)),
        wide_(row_source("layer_norm", "normalization/layer_norm.cu", d, vec_),
              "layer_norm_kernel"),
        narrow_(row_source("layer_norm", "normalization/layer_norm.cu", d, 1),
                "layer_norm_kernel") {}
  static BuildPlan entry_for(const LayerNormCall& call, const DeviceFacts&) {
    const DType d = call.dtype;
    return {std::string(dtype_name(d)), [d] { return std::make_unique<LayerNormCuda>(d); }};
  }
  void run(const LayerNormCall& call, const Tensor& x, const Tensor& w, const Tensor& b,
           const Tensor& y) override {
    const int vec = row_vector_width(call.dtype, call.n, {x.data(), w.data(), b.data(), y.data()});
    const int device = device_of(x);
    const void *xp = x.data(), *wp = w.data(), *bp = b.data();
    void* yp = y.data();
    int64_t n = call.n;
    float eps = static_cast<float>(call.eps);
    launch(
        (vec == vec_ ? wide_ : narrow_).get(device), device, static_cast<unsigned>(call.rows), 1,
        row_block_size(call.n, vec, call.rows, sm_count(device), norm_cache_depth(call.dtype) > 0),
        0, {&xp, &wp, &bp, &yp, &n, &eps});
  }

 private:
  int vec_;
  CudaFunction wide_, narrow_;
};

class FusedAddRMSNormCuda final : public FusedAddRMSNormKernel {
 public:
  using Interface = FusedAddRMSNormKernel;
  static constexpr DeviceType devices[] = {kCUDA};
  explicit FusedAddRMSNormCuda(DType d)
      : vec_(wide(d)),
        wide_(row_source("fused_add_rms_norm", "normalization/fused_add_rms_norm.cu", d, vec_),
              "fused_add_rms_norm_kernel"),
        narrow_(row_source("fused_add_rms_norm", "normalization/fused_add_rms_norm.cu", d, 1),
                "fused_add_rms_norm_kernel") {}
  static BuildPlan entry_for(const FusedAddRMSNormCall& call, const DeviceFacts&) {
    const DType d = call.dtype;
    return {std::string(dtype_name(d)), [d] { return std::make_unique<FusedAddRMSNormCuda>(d); }};
  }
  void run(const FusedAddRMSNormCall& call, const Tensor& x, const Tensor& residual,
           const Tensor& w, const Tensor& y, const Tensor& residual_out) override {
    const int vec = row_vector_width(
        call.dtype, call.n, {x.data(), residual.data(), w.data(), y.data(), residual_out.data()});
    const int device = device_of(x);
    const void *xp = x.data(), *rp = residual.data(), *wp = w.data();
    void *yp = y.data(), *op = residual_out.data();
    int64_t n = call.n;
    float eps = static_cast<float>(call.eps);
    launch((vec == vec_ ? wide_ : narrow_).get(device), device, static_cast<unsigned>(call.rows), 1,
           row_block_size(call.n, vec, call.rows, sm_count(device), false), 0,
           {&xp, &rp, &wp, &yp, &op, &n, &eps});
  }

 private:
  int vec_;
  CudaFunction wide_, narrow_;
};

const StaticKernelRegistration<LayerNormCuda> kLayerNorm("LayerNormFwdOp", "layer_norm_cuda");
const StaticKernelRegistration<FusedAddRMSNormCuda> kFused("FusedAddRMSNormFwdOp",
                                                           "fused_add_rms_norm_cuda");
const bool kVariants = [] {
  register_cuda_variants("norm_rows", [] {
    std::vector<KernelSource> v;
    for (DType d : {DType::kFloat16, DType::kBFloat16, DType::kFloat32}) {
      for (int vec : {wide(d), 1}) {
        v.push_back(row_source("layer_norm", "normalization/layer_norm.cu", d, vec));
        v.push_back(
            row_source("fused_add_rms_norm", "normalization/fused_add_rms_norm.cu", d, vec));
      }
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
