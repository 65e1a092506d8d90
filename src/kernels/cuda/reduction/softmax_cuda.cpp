// SoftmaxFwdOp and LogSoftmaxFwdOp on CUDA: a row kernel when the reduced dim is the last one
// (inner == 1), with the row norms' tuning candidates (common/row_tuning.hpp); rows split over
// several blocks when there are few long ones; a column kernel otherwise.
#include <fmt/format.h>

#include "kernels/cuda/common/elementwise_launch.hpp"
#include "kernels/cuda/common/row_tuning.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/reduction/log_softmax_fwd_op.hpp"
#include "tileops/ops/reduction/softmax_fwd_op.hpp"

namespace tileops::cuda {
namespace {

constexpr const char* kPath = "reduction/softmax.cu";

const char* kernel_name(bool log) {
  return log ? "log_softmax" : "softmax";
}
std::string log_prelude(bool log) {
  return fmt::format("constexpr bool LOG = {};", log);
}

KernelSource softmax_source(DType dtype, int vec, bool log) {
  return row_kernel_source(kernel_name(log), kPath, dtype, vec, kRowCache, log_prelude(log));
}

// softmax_cluster_kernel's shape (CLUSTER, CLUSTER_CACHE and its launch bounds in softmax.cu).
constexpr unsigned kCluster = 8;
constexpr int64_t kClusterCache = 8;
constexpr unsigned kClusterThreads = 512;

int wide(DType dtype) {
  return static_cast<int>(16 / dtype_size(dtype));
}

// Shared by both interfaces: they differ only in LOG.
class SoftmaxLauncher {
 public:
  SoftmaxLauncher(DType d, bool log)
      : vec_(wide(d)),
        rows_(kernel_name(log), kPath, "softmax_rows_kernel", d,
              log ? "log_softmax_cuda" : "softmax_cuda", log_prelude(log)),
        strided_(softmax_source(d, 1, log), "softmax_strided_kernel"),
        cluster_wide_(softmax_source(d, vec_, log), "softmax_cluster_kernel"),
        cluster_narrow_(softmax_source(d, 1, log), "softmax_cluster_kernel"),
        partial_wide_(softmax_source(d, vec_, log), "softmax_partial_kernel"),
        finish_wide_(softmax_source(d, vec_, log), "softmax_finish_kernel"),
        partial_narrow_(softmax_source(d, 1, log), "softmax_partial_kernel"),
        finish_narrow_(softmax_source(d, 1, log), "softmax_finish_kernel") {}

  void run(const SoftmaxCall& call, const Tensor& x, const Tensor& y) {
    const int device = device_of(x);
    const void* xp = x.data();
    void* yp = y.data();
    int64_t outer = call.outer, n = call.n, inner = call.inner;
    const int sms = sm_count(device);
    if (call.inner == 1 && call.outer < sms && call.n >= 16384) {
      // Few long rows (an LM head's logits). On Hopper, a cluster of blocks per row in one
      // pass when the row fits the cluster's registers; else each row split over blocks in two
      // kernels, so every SM has work.
      const int vec = row_vector_width(call.dtype, call.n, {xp, yp});
      const int64_t packs = call.n / vec;
      int64_t cluster_chunk = (packs + kCluster - 1) / kCluster;
      if (device_arch(device) >= 90 && cluster_chunk <= kClusterCache * kClusterThreads) {
        launch_clusters((vec == vec_ ? cluster_wide_ : cluster_narrow_).get(device), device,
                        kCluster, static_cast<unsigned>(call.outer), kClusterThreads, kCluster,
                        {&xp, &yp, &n, &cluster_chunk});
        return;
      }
      const int64_t chunks =
          std::clamp<int64_t>(2 * sms / call.outer, 1, std::max<int64_t>(1, packs / 256));
      int64_t chunk = (packs + chunks - 1) / chunks;
      Tensor partial = Tensor::empty(Shape{call.outer * chunks * 2}, DType::kFloat32, x.device());
      void* pp = partial.data();
      const bool w = vec == vec_;
      launch((w ? partial_wide_ : partial_narrow_).get(device), device,
             static_cast<unsigned>(chunks), static_cast<unsigned>(call.outer), 256, 0,
             {&xp, &pp, &n, &chunk});
      launch((w ? finish_wide_ : finish_narrow_).get(device), device, static_cast<unsigned>(chunks),
             static_cast<unsigned>(call.outer), 256, 0, {&xp, &yp, &pp, &n, &chunk});
    } else if (call.inner == 1) {
      const int vec = row_vector_width(call.dtype, call.n, {xp, yp});
      int config = default_row_config(kRowCache, call.outer, sms, 4);
      if (rows_.tuned()) {
        config = rows_.choose(device, call.dtype, call.outer, call.n, vec, config, {&x}, {&y},
                              [this, call, vec, device](int c, std::span<const Tensor> in,
                                                        std::span<const Tensor> o) {
                                enqueue_rows(call, vec, device, c, in[0].data(), o[0].data());
                              });
      }
      enqueue_rows(call, vec, device, config, xp, yp);
    } else {
      launch(strided_.get(device), device, elementwise_grid(outer * inner, device), 1,
             kElementwiseBlock, 0, {&xp, &yp, &outer, &n, &inner});
    }
  }

  std::string config() const { return rows_.last_config(); }
  void enter_tuned_mode(const TuneOptions& options) { rows_.enter_tuned_mode(options); }

 private:
  void enqueue_rows(const SoftmaxCall& call, int vec, int device, int config, const void* xp,
                    void* yp) {
    int64_t n = call.n;
    rows_.launch_rows(device, call.outer, call.n, vec, config, {&xp, &yp, &n});
  }

  int vec_;
  RowKernelSet rows_;
  CudaFunction strided_, cluster_wide_, cluster_narrow_, partial_wide_, finish_wide_,
      partial_narrow_, finish_narrow_;
};

// The kernel classes of both interfaces: they differ only in LOG.
template <typename KernelInterfaceT, bool kLog>
class SoftmaxCudaKernel final : public KernelInterfaceT {
 public:
  using Interface = KernelInterfaceT;
  static constexpr DeviceType devices[] = {kCUDA};
  explicit SoftmaxCudaKernel(DType d) : launcher_(d, kLog) {}
  static BuildPlan entry_for(const SoftmaxCall& call, const DeviceFacts&) {
    const DType d = call.dtype;
    return {std::string(dtype_name(d)), [d] { return std::make_unique<SoftmaxCudaKernel>(d); }};
  }
  void run(const SoftmaxCall& call, const Tensor& x, const Tensor& y) override {
    launcher_.run(call, x, y);
  }
  std::string config() const override { return launcher_.config(); }
  bool tunable() const override { return true; }
  void request_tune(const TuneOptions& options) override { launcher_.enter_tuned_mode(options); }

 private:
  SoftmaxLauncher launcher_;
};
using SoftmaxCuda = SoftmaxCudaKernel<SoftmaxKernel, false>;
using LogSoftmaxCuda = SoftmaxCudaKernel<LogSoftmaxKernel, true>;

const StaticKernelRegistration<SoftmaxCuda> kSoftmax("SoftmaxFwdOp", "softmax_cuda");
const StaticKernelRegistration<LogSoftmaxCuda> kLogSoftmax("LogSoftmaxFwdOp", "log_softmax_cuda");
const bool kVariants = [] {
  register_cuda_variants("softmax", [] {
    std::vector<KernelSource> v;
    for (DType d : {DType::kFloat16, DType::kBFloat16, DType::kFloat32}) {
      for (bool log : {false, true}) {
        for (KernelSource& s : row_kernel_variants(kernel_name(log), kPath, d, log_prelude(log))) {
          v.push_back(std::move(s));
        }
      }
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
