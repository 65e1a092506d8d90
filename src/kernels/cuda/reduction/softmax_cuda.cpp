// SoftmaxFwdOp and LogSoftmaxFwdOp on CUDA: a row kernel when the reduced dim is the last one
// (inner == 1), a column kernel otherwise.
#include <fmt/format.h>

#include "kernels/cuda/common/elementwise_launch.hpp"
#include "kernels/cuda/common/row_launch.hpp"
#include "tileops/op/implementation.hpp"
#include "tileops/ops/reduction/log_softmax_fwd_op.hpp"
#include "tileops/ops/reduction/softmax_fwd_op.hpp"

namespace tileops::cuda {
namespace {

KernelSource softmax_source(DType dtype, int vec, bool log) {
  return specialise(
      fmt::format("{}_{}_v{}", log ? "log_softmax" : "softmax", cuda_type(dtype), vec),
      "reduction/softmax.cu",
      fmt::format("typedef {} T;\nconstexpr int VEC = {};\nconstexpr int CACHE = {};\n"
                  "constexpr bool LOG = {};",
                  cuda_type(dtype), vec, kRowCache, log));
}

int wide(DType dtype) {
  return static_cast<int>(16 / dtype_size(dtype));
}

// Shared by both interfaces: they differ only in LOG.
class SoftmaxLauncher {
 public:
  SoftmaxLauncher(DType d, bool log)
      : vec_(wide(d)),
        wide_(softmax_source(d, vec_, log), "softmax_rows_kernel"),
        narrow_(softmax_source(d, 1, log), "softmax_rows_kernel"),
        strided_(softmax_source(d, 1, log), "softmax_strided_kernel"),
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
      // Few long rows (an LM head's logits): split each row so every SM has work.
      const int vec = row_vector_width(call.dtype, call.n, {xp, yp});
      const int64_t packs = call.n / vec;
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
      launch((vec == vec_ ? wide_ : narrow_).get(device), device, static_cast<unsigned>(call.outer),
             1, row_block_size(call.n, vec, call.outer, sms, true), 0, {&xp, &yp, &n});
    } else {
      launch(strided_.get(device), device, elementwise_grid(outer * inner, device), 1,
             kElementwiseBlock, 0, {&xp, &yp, &outer, &n, &inner});
    }
  }

 private:
  int vec_;
  CudaFunction wide_, narrow_, strided_, partial_wide_, finish_wide_, partial_narrow_,
      finish_narrow_;
};

class SoftmaxCuda final : public SoftmaxKernel {
 public:
  using Interface = SoftmaxKernel;
  static constexpr DeviceType devices[] = {kCUDA};
  explicit SoftmaxCuda(DType d) : launcher_(d, false) {}
  static BuildPlan entry_for(const SoftmaxCall& call, const DeviceFacts&) {
    const DType d = call.dtype;
    return {std::string(dtype_name(d)), [d] { return std::make_unique<SoftmaxCuda>(d); }};
  }
  void run(const SoftmaxCall& call, const Tensor& x, const Tensor& y) override {
    launcher_.run(call, x, y);
  }

 private:
  SoftmaxLauncher launcher_;
};

class LogSoftmaxCuda final : public LogSoftmaxKernel {
 public:
  using Interface = LogSoftmaxKernel;
  static constexpr DeviceType devices[] = {kCUDA};
  explicit LogSoftmaxCuda(DType d) : launcher_(d, true) {}
  static BuildPlan entry_for(const SoftmaxCall& call, const DeviceFacts&) {
    const DType d = call.dtype;
    return {std::string(dtype_name(d)), [d] { return std::make_unique<LogSoftmaxCuda>(d); }};
  }
  void run(const SoftmaxCall& call, const Tensor& x, const Tensor& y) override {
    launcher_.run(call, x, y);
  }

 private:
  SoftmaxLauncher launcher_;
};

const StaticKernelRegistration<SoftmaxCuda> kSoftmax("SoftmaxFwdOp", "softmax_cuda");
const StaticKernelRegistration<LogSoftmaxCuda> kLogSoftmax("LogSoftmaxFwdOp", "log_softmax_cuda");
const bool kVariants = [] {
  register_cuda_variants("softmax", [] {
    std::vector<KernelSource> v;
    for (DType d : {DType::kFloat16, DType::kBFloat16, DType::kFloat32}) {
      for (bool log : {false, true}) {
        v.push_back(softmax_source(d, wide(d), log));
        v.push_back(softmax_source(d, 1, log));
      }
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
