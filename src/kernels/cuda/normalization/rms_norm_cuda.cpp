// RMSNormFwdOp on CUDA: one block a row (rms_norm_cuda; the cache depth and block size are tuning
// candidates, common/row_tuning.hpp) or, for rows of up to 128 packs, a group of lanes a row
// (rms_norm_warp_rows_cuda, common/warp_rows_cuda.hpp), or for few long rows a cluster a row
// (rms_norm_cluster_cuda, common/cluster_rows_cuda.hpp) while one wave of clusters holds them,
// else the grid a row (rms_norm_grid_cuda, common/grid_rows_cuda.hpp). Compiled at first launch
// per dtype, access width, cache depth, lanes, cluster and grid.
#include "kernels/cuda/common/cluster_rows_cuda.hpp"
#include "kernels/cuda/common/grid_rows_cuda.hpp"
#include "kernels/cuda/common/row_kernel_cuda.hpp"
#include "kernels/cuda/common/warp_rows_cuda.hpp"
#include "tileops/ops/normalization/rms_norm_fwd_op.hpp"

namespace tileops::cuda {
namespace {

class RMSNormCuda final : public RowKernelCuda<RMSNormCuda, RMSNormKernel> {
 public:
  using RowKernelCuda::RowKernelCuda;
  static constexpr bool general = true;  // every call of the interface; rows of any width
  static RowKernelDecl kernel() { return {"normalization/rms_norm.cu", "rms_norm_kernel", {}}; }
  static constexpr const char* kTunerName = "rms_norm_cuda";

  void run(const RMSNormCall& call, const Tensor& x, const Tensor& weight, const Tensor& out,
           const Tensor& /*workspace*/) override {
    int64_t n = call.n;
    float eps = static_cast<float>(call.eps);
    set_.run(call.rows, call.n, {norm_cache_depth(call.dtype), 4}, {&x, &weight}, {&out},
             {&n, &eps});
  }
};

class RMSNormWarpRowsCuda final : public WarpRowsCuda<RMSNormWarpRowsCuda, RMSNormKernel> {
 public:
  using WarpRowsCuda::WarpRowsCuda;
  static RowKernelDecl kernel() { return RMSNormCuda::kernel(); }
  static std::optional<std::string> refusal(const RMSNormCall& call, const DeviceFacts&) {
    return warp_rows_refusal(call.dtype, call.n);
  }

  void run(const RMSNormCall& call, const Tensor& x, const Tensor& weight, const Tensor& out,
           const Tensor& /*workspace*/) override {
    int64_t n = call.n;
    float eps = static_cast<float>(call.eps);
    set_.run(call.rows, call.n, {&x, &weight}, {&out}, {&n, &eps});
  }
};

class RMSNormGridCuda final : public GridRowsCuda<RMSNormGridCuda, RMSNormKernel> {
 public:
  using GridRowsCuda::GridRowsCuda;
  static RowKernelDecl kernel() { return RMSNormCuda::kernel(); }
  static std::optional<std::string> refusal(const RMSNormCall& call, const DeviceFacts& facts) {
    return grid_rows_refusal(call.dtype, call.rows, call.n, kGridNormLongRow, facts);
  }
  int64_t workspace_bytes(const RMSNormCall& call) const override {
    return grid_rows_workspace_bytes(call.dtype, call.rows, call.n, sm_count(call.device.index));
  }

  void run(const RMSNormCall& call, const Tensor& x, const Tensor& weight, const Tensor& out,
           const Tensor& workspace) override {
    int64_t n = call.n;
    float eps = static_cast<float>(call.eps);
    set_.run("rms_norm_grid_cuda", call.rows, call.n, {&x, &weight}, {&out}, {&n, &eps}, workspace);
  }
};

class RMSNormClusterCuda final : public ClusterRowsCuda<RMSNormClusterCuda, RMSNormKernel> {
 public:
  using ClusterRowsCuda::ClusterRowsCuda;
  static constexpr std::string_view preferred_over[] = {"rms_norm_grid_cuda"};
  static RowKernelDecl kernel() { return RMSNormCuda::kernel(); }
  static std::optional<std::string> refusal(const RMSNormCall& call, const DeviceFacts& facts) {
    return cluster_rows_refusal(call.dtype, call.rows, call.n, facts);
  }

  void run(const RMSNormCall& call, const Tensor& x, const Tensor& weight, const Tensor& out,
           const Tensor& /*workspace*/) override {
    int64_t n = call.n;
    float eps = static_cast<float>(call.eps);
    set_.run(call.rows, call.n, {&x, &weight}, {&out}, {&n, &eps});
  }
};

const StaticKernelRegistration<RMSNormCuda> kRegistration("RMSNormFwdOp", "rms_norm_cuda");
const StaticKernelRegistration<RMSNormClusterCuda> kCluster("RMSNormFwdOp",
                                                            "rms_norm_cluster_cuda");
const StaticKernelRegistration<RMSNormGridCuda> kGrid("RMSNormFwdOp", "rms_norm_grid_cuda");
const StaticKernelRegistration<RMSNormWarpRowsCuda> kWarpRows("RMSNormFwdOp",
                                                              "rms_norm_warp_rows_cuda");
const bool kVariants = [] {
  register_cuda_variants("rms_norm", [] {
    std::vector<KernelSource> v;
    for (DType d : {DType::kFloat16, DType::kBFloat16, DType::kFloat32}) {
      for (KernelSource& s : row_kernel_variants(RMSNormCuda::kernel(), d)) v.push_back(s);
      for (KernelSource& s : warp_row_kernel_variants(RMSNormCuda::kernel(), d)) v.push_back(s);
      for (KernelSource& s : cluster_row_kernel_variants(RMSNormCuda::kernel(), d)) v.push_back(s);
      for (KernelSource& s : grid_row_kernel_variants(RMSNormCuda::kernel(), d)) v.push_back(s);
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
