// LayerNormFwdOp and FusedAddRMSNormFwdOp on CUDA, like RMSNorm: one block a row with the same
// tuning candidates (common/row_tuning.hpp), for rows of up to 128 packs a group of lanes a row
// (common/warp_rows_cuda.hpp), for few long rows a cluster a row (common/cluster_rows_cuda.hpp)
// while one wave of clusters holds them, else the grid a row (common/grid_rows_cuda.hpp).
#include "kernels/cuda/common/cluster_rows_cuda.hpp"
#include "kernels/cuda/common/grid_rows_cuda.hpp"
#include "kernels/cuda/common/row_kernel_cuda.hpp"
#include "kernels/cuda/common/warp_rows_cuda.hpp"
#include "tileops/ops/normalization/fused_add_rms_norm_fwd_op.hpp"
#include "tileops/ops/normalization/layer_norm_fwd_op.hpp"

namespace tileops::cuda {
namespace {

// Untuned, LayerNorm keeps nothing in registers and takes four accesses per thread on many rows:
// `tileops tune` on the H200 chose that for every prefill workload and dtype (bfloat16
// llama-70b 42% -> 76% of the copy).
class LayerNormCuda final : public RowKernelCuda<LayerNormCuda, LayerNormKernel> {
 public:
  using RowKernelCuda::RowKernelCuda;
  static constexpr bool general = true;  // every call of the interface; rows of any width
  static RowKernelDecl kernel() { return {"normalization/layer_norm.cu", "layer_norm_kernel", {}}; }
  static constexpr const char* kTunerName = "layer_norm_cuda";

  void run(const LayerNormCall& call, const Tensor& x, const Tensor& w, const Tensor& b,
           const Tensor& y, const Tensor& /*workspace*/) override {
    int64_t n = call.n;
    float eps = static_cast<float>(call.eps);
    set_.run(call.rows, call.n, {0, 4}, {&x, &w, &b}, {&y}, {&n, &eps});
  }
};

// FusedAddRMSNorm keeps nothing in registers by default: measured on the H200, re-reading
// residual_out (which the block just wrote) ran at 94-96% of the copy, caching at 70-77%; tuning
// preferred two accesses per thread on most prefill rows.
class FusedAddRMSNormCuda final : public RowKernelCuda<FusedAddRMSNormCuda, FusedAddRMSNormKernel> {
 public:
  using RowKernelCuda::RowKernelCuda;
  static constexpr bool general = true;  // every call of the interface; rows of any width
  static RowKernelDecl kernel() {
    return {"normalization/fused_add_rms_norm.cu", "fused_add_rms_norm_kernel", {}};
  }
  static constexpr const char* kTunerName = "fused_add_rms_norm_cuda";

  void run(const FusedAddRMSNormCall& call, const Tensor& x, const Tensor& residual,
           const Tensor& w, const Tensor& y, const Tensor& residual_out,
           const Tensor& /*workspace*/) override {
    int64_t n = call.n;
    float eps = static_cast<float>(call.eps);
    set_.run(call.rows, call.n, {0, 2}, {&x, &residual, &w}, {&y, &residual_out}, {&n, &eps});
  }
};

class LayerNormWarpRowsCuda final : public WarpRowsCuda<LayerNormWarpRowsCuda, LayerNormKernel> {
 public:
  using WarpRowsCuda::WarpRowsCuda;
  static RowKernelDecl kernel() { return LayerNormCuda::kernel(); }
  static std::optional<std::string> refusal(const LayerNormCall& call, const DeviceFacts&) {
    return warp_rows_refusal(call.dtype, call.n);
  }

  void run(const LayerNormCall& call, const Tensor& x, const Tensor& w, const Tensor& b,
           const Tensor& y, const Tensor& /*workspace*/) override {
    int64_t n = call.n;
    float eps = static_cast<float>(call.eps);
    set_.run(call.rows, call.n, {&x, &w, &b}, {&y}, {&n, &eps});
  }
};

class FusedAddRMSNormWarpRowsCuda final
    : public WarpRowsCuda<FusedAddRMSNormWarpRowsCuda, FusedAddRMSNormKernel> {
 public:
  using WarpRowsCuda::WarpRowsCuda;
  // Two packs a lane, not four: with x, the residual and their sum a row, four made 65536x128
  // bf16 take 24.1 us against 21.5 with two on the H200 (docs/perf/h200-rows-2026-12-02).
  static constexpr int kPacksPerLane = 2;
  static RowKernelDecl kernel() { return FusedAddRMSNormCuda::kernel(); }
  static std::optional<std::string> refusal(const FusedAddRMSNormCall& call, const DeviceFacts&) {
    return warp_rows_refusal(call.dtype, call.n);
  }

  void run(const FusedAddRMSNormCall& call, const Tensor& x, const Tensor& residual,
           const Tensor& w, const Tensor& y, const Tensor& residual_out,
           const Tensor& /*workspace*/) override {
    int64_t n = call.n;
    float eps = static_cast<float>(call.eps);
    set_.run(call.rows, call.n, {&x, &residual, &w}, {&y, &residual_out}, {&n, &eps});
  }
};

class LayerNormGridCuda final : public GridRowsCuda<LayerNormGridCuda, LayerNormKernel> {
 public:
  using GridRowsCuda::GridRowsCuda;
  static RowKernelDecl kernel() { return LayerNormCuda::kernel(); }
  static std::optional<std::string> refusal(const LayerNormCall& call, const DeviceFacts& facts) {
    return grid_rows_refusal(call.dtype, call.rows, call.n, kGridNormLongRow, facts);
  }
  int64_t workspace_bytes(const LayerNormCall& call) const override {
    return grid_rows_workspace_bytes(call.dtype, call.rows, call.n, sm_count(call.device.index));
  }

  void run(const LayerNormCall& call, const Tensor& x, const Tensor& w, const Tensor& b,
           const Tensor& y, const Tensor& workspace) override {
    int64_t n = call.n;
    float eps = static_cast<float>(call.eps);
    set_.run("layer_norm_grid_cuda", call.rows, call.n, {&x, &w, &b}, {&y}, {&n, &eps}, workspace);
  }
};

class FusedAddRMSNormGridCuda final
    : public GridRowsCuda<FusedAddRMSNormGridCuda, FusedAddRMSNormKernel> {
 public:
  using GridRowsCuda::GridRowsCuda;
  static RowKernelDecl kernel() { return FusedAddRMSNormCuda::kernel(); }
  static std::optional<std::string> refusal(const FusedAddRMSNormCall& call,
                                            const DeviceFacts& facts) {
    return grid_rows_refusal(call.dtype, call.rows, call.n, kGridNormLongRow, facts);
  }
  int64_t workspace_bytes(const FusedAddRMSNormCall& call) const override {
    return grid_rows_workspace_bytes(call.dtype, call.rows, call.n, sm_count(call.device.index));
  }

  void run(const FusedAddRMSNormCall& call, const Tensor& x, const Tensor& residual,
           const Tensor& w, const Tensor& y, const Tensor& residual_out,
           const Tensor& workspace) override {
    int64_t n = call.n;
    float eps = static_cast<float>(call.eps);
    set_.run("fused_add_rms_norm_grid_cuda", call.rows, call.n, {&x, &residual, &w},
             {&y, &residual_out}, {&n, &eps}, workspace);
  }
};

class LayerNormClusterCuda final : public ClusterRowsCuda<LayerNormClusterCuda, LayerNormKernel> {
 public:
  using ClusterRowsCuda::ClusterRowsCuda;
  static constexpr std::string_view preferred_over[] = {"layer_norm_grid_cuda"};
  static RowKernelDecl kernel() { return LayerNormCuda::kernel(); }
  static std::optional<std::string> refusal(const LayerNormCall& call, const DeviceFacts& facts) {
    return cluster_rows_refusal(call.dtype, call.rows, call.n, facts);
  }

  void run(const LayerNormCall& call, const Tensor& x, const Tensor& w, const Tensor& b,
           const Tensor& y, const Tensor& /*workspace*/) override {
    int64_t n = call.n;
    float eps = static_cast<float>(call.eps);
    set_.run(call.rows, call.n, {&x, &w, &b}, {&y}, {&n, &eps});
  }
};

class FusedAddRMSNormClusterCuda final
    : public ClusterRowsCuda<FusedAddRMSNormClusterCuda, FusedAddRMSNormKernel> {
 public:
  using ClusterRowsCuda::ClusterRowsCuda;
  static constexpr std::string_view preferred_over[] = {"fused_add_rms_norm_grid_cuda"};
  static RowKernelDecl kernel() { return FusedAddRMSNormCuda::kernel(); }
  static std::optional<std::string> refusal(const FusedAddRMSNormCall& call,
                                            const DeviceFacts& facts) {
    return cluster_rows_refusal(call.dtype, call.rows, call.n, facts);
  }

  void run(const FusedAddRMSNormCall& call, const Tensor& x, const Tensor& residual,
           const Tensor& w, const Tensor& y, const Tensor& residual_out,
           const Tensor& /*workspace*/) override {
    int64_t n = call.n;
    float eps = static_cast<float>(call.eps);
    set_.run(call.rows, call.n, {&x, &residual, &w}, {&y, &residual_out}, {&n, &eps});
  }
};

const StaticKernelRegistration<LayerNormCuda> kLayerNorm("LayerNormFwdOp", "layer_norm_cuda");
const StaticKernelRegistration<LayerNormClusterCuda> kLayerNormCluster("LayerNormFwdOp",
                                                                       "layer_norm_cluster_cuda");
const StaticKernelRegistration<FusedAddRMSNormClusterCuda> kFusedCluster(
    "FusedAddRMSNormFwdOp", "fused_add_rms_norm_cluster_cuda");
const StaticKernelRegistration<LayerNormGridCuda> kLayerNormGrid("LayerNormFwdOp",
                                                                 "layer_norm_grid_cuda");
const StaticKernelRegistration<FusedAddRMSNormGridCuda> kFusedGrid("FusedAddRMSNormFwdOp",
                                                                   "fused_add_rms_norm_grid_cuda");
const StaticKernelRegistration<LayerNormWarpRowsCuda> kLayerNormWarpRows(
    "LayerNormFwdOp", "layer_norm_warp_rows_cuda");
const StaticKernelRegistration<FusedAddRMSNormWarpRowsCuda> kFusedWarpRows(
    "FusedAddRMSNormFwdOp", "fused_add_rms_norm_warp_rows_cuda");
const StaticKernelRegistration<FusedAddRMSNormCuda> kFused("FusedAddRMSNormFwdOp",
                                                           "fused_add_rms_norm_cuda");
const bool kVariants = [] {
  register_cuda_variants("norm_rows", [] {
    std::vector<KernelSource> v;
    for (DType d : {DType::kFloat16, DType::kBFloat16, DType::kFloat32}) {
      for (KernelSource& s : row_kernel_variants(LayerNormCuda::kernel(), d)) v.push_back(s);
      for (KernelSource& s : row_kernel_variants(FusedAddRMSNormCuda::kernel(), d)) v.push_back(s);
      for (const RowKernelDecl& k : {LayerNormCuda::kernel(), FusedAddRMSNormCuda::kernel()}) {
        for (KernelSource& s : warp_row_kernel_variants(k, d)) v.push_back(s);
        for (KernelSource& s : cluster_row_kernel_variants(k, d)) v.push_back(s);
        for (KernelSource& s : grid_row_kernel_variants(k, d)) v.push_back(s);
      }
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
