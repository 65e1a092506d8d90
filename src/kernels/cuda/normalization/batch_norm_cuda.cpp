// BatchNormFwdOp on CUDA. Training has three implementations, chosen by shape:
//   batch_norm_train_cuda        general: one block per channel reduces it;
//   batch_norm_train_cuda_rows   [N, C] inputs (L == 1): one thread per channel, coalesced rows;
//   batch_norm_train_cuda_split  few channels (C below the SM count) with long reductions: each
//                                channel split across blocks.
// rows and split overlap on [N, C] inputs with few channels; rows is preferred there.
#include <fmt/format.h>

#include "kernels/cuda/common/elementwise_launch.hpp"
#include "kernels/cuda/cuda_kernel.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/normalization/batch_norm_fwd_op.hpp"
#include "tileops/runtime/cuda.hpp"

namespace tileops::cuda {
namespace {

KernelSpec bn_spec(const char* entry, DType d, bool w, bool b) {
  return KernelSpec(
      "normalization/batch_norm.cu", entry,
      {KernelConstant::type_of("T", cuda_type(d)), KernelConstant::boolean("HAS_WEIGHT", w),
       KernelConstant::boolean("HAS_BIAS", b)});
}

// The functions of one specialisation, and the launches every implementation shares.
struct BatchNormFunctions {
  explicit BatchNormFunctions(const BatchNormCall& c)
      : stats(bn_spec("batch_norm_stats_kernel", c.dtype, c.has_weight, c.has_bias)),
        rows(bn_spec("batch_norm_rows_stats_kernel", c.dtype, c.has_weight, c.has_bias)),
        split(bn_spec("batch_norm_split_stats_kernel", c.dtype, c.has_weight, c.has_bias)),
        finalize(bn_spec("batch_norm_finalize_kernel", c.dtype, c.has_weight, c.has_bias)),
        infer(bn_spec("batch_norm_infer_stats_kernel", c.dtype, c.has_weight, c.has_bias)),
        apply(bn_spec("batch_norm_apply_kernel", c.dtype, c.has_weight, c.has_bias)) {}
  CudaFunction stats, rows, split, finalize, infer, apply;

  void apply_stats(const BatchNormCall& c, const Tensor& x, const void* sp, const Tensor& w,
                   const Tensor& b, const Tensor& y) {
    const int device = device_of(x);
    const void *xp = x.data(), *wp = w.data(), *bp = b.data();
    void* yp = y.data();
    int64_t total = x.numel(), ch = c.c, l = c.l;
    launch(apply.get(device), device, elementwise_grid(total, device), 1, kElementwiseBlock, 0,
           {&xp, &yp, &sp, &wp, &bp, &total, &ch, &l});
  }
};

// Two floats a channel; a multiple of 8 bytes, so a double array may follow.
int64_t stats_bytes(const BatchNormCall& c) {
  return 2 * c.c * static_cast<int64_t>(sizeof(float));
}

BuildPlan plan_for(const BatchNormCall& c, std::function<std::unique_ptr<Kernel>()> make) {
  return {fmt::format("{},w{},b{}", dtype_name(c.dtype), c.has_weight, c.has_bias),
          std::move(make)};
}

template <typename Derived>
class TrainBase : public BatchNormTrainKernel {
 public:
  using Interface = BatchNormTrainKernel;
  static constexpr DeviceType devices[] = {kCUDA};
  explicit TrainBase(const BatchNormCall& c) : fns_(c) {}
  static BuildPlan entry_for(const BatchNormCall& c, const DeviceFacts&) {
    return plan_for(c, [c] { return std::make_unique<Derived>(c); });
  }
  // The channels' scale and shift (2c floats), then whatever statistics() needs of its own.
  int64_t workspace_bytes(const BatchNormCall& c) const override {
    return stats_bytes(c) + Derived::scratch_bytes(c);
  }
  void run(const BatchNormCall& c, const Tensor& x, const Tensor& rm, const Tensor& rv,
           const Tensor& w, const Tensor& b, const Tensor& y, const Tensor& workspace) override {
    const int device = device_of(x);
    auto* base = static_cast<unsigned char*>(workspace.data());
    static_cast<Derived*>(this)->statistics(c, x, base, base + stats_bytes(c), rm, rv, device);
    fns_.apply_stats(c, x, base, w, b, y);
  }
  static int64_t scratch_bytes(const BatchNormCall&) { return 0; }

 protected:
  BatchNormFunctions fns_;
};

class TrainGeneral final : public TrainBase<TrainGeneral> {
 public:
  static constexpr bool general = true;
  using TrainBase::TrainBase;
  void statistics(const BatchNormCall& c, const Tensor& x, void* sp, void*, const Tensor& rm,
                  const Tensor& rv, int device) {
    const void* xp = x.data();
    void *mp = rm.data(), *vp = rv.data();
    int64_t n = c.n, ch = c.c, l = c.l;
    float eps = static_cast<float>(c.eps), mom = static_cast<float>(c.momentum);
    launch(fns_.stats.get(device), device, static_cast<unsigned>(c.c), 1, 512, 0,
           {&xp, &sp, &mp, &vp, &n, &ch, &l, &eps, &mom});
  }
};

class TrainRows final : public TrainBase<TrainRows> {
 public:
  static constexpr std::string_view preferred_over[] = {"batch_norm_train_cuda_split"};
  using TrainBase::TrainBase;
  static std::optional<std::string> refusal(const BatchNormCall& c, const DeviceFacts&) {
    if (c.l != 1) return fmt::format("serves [N, C] inputs only (spatial size 1), got L = {}", c.l);
    return std::nullopt;
  }
  void statistics(const BatchNormCall& c, const Tensor& x, void* sp, void*, const Tensor& rm,
                  const Tensor& rv, int device) {
    const void* xp = x.data();
    void *mp = rm.data(), *vp = rv.data();
    int64_t n = c.n, ch = c.c;
    float eps = static_cast<float>(c.eps), mom = static_cast<float>(c.momentum);
    launch(fns_.rows.get(device), device, static_cast<unsigned>((c.c + 127) / 128), 1, 128, 0,
           {&xp, &sp, &mp, &vp, &n, &ch, &eps, &mom});
  }
};

class TrainSplit final : public TrainBase<TrainSplit> {
 public:
  using TrainBase::TrainBase;
  static std::optional<std::string> refusal(const BatchNormCall& c, const DeviceFacts& f) {
    if (c.c >= f.sm_count) {
      return fmt::format("serves fewer channels than SMs ({}), got C = {}", f.sm_count, c.c);
    }
    if (c.n * c.l < 4096) {
      return fmt::format("serves reductions of at least 4096 elements, got N*L = {}", c.n * c.l);
    }
    return std::nullopt;
  }
  // Each channel's sum and sum of squares in double, accumulated by the blocks of its split.
  static int64_t scratch_bytes(const BatchNormCall& c) {
    return 2 * c.c * static_cast<int64_t>(sizeof(double));
  }
  void statistics(const BatchNormCall& c, const Tensor& x, void* sp, void* up, const Tensor& rm,
                  const Tensor& rv, int device) {
    fill_bytes(up, scratch_bytes(c), 0, device);
    const void* xp = x.data();
    void *mp = rm.data(), *vp = rv.data();
    int64_t n = c.n, ch = c.c, l = c.l, count = c.n * c.l;
    float eps = static_cast<float>(c.eps), mom = static_cast<float>(c.momentum);
    const unsigned chunks = static_cast<unsigned>(std::max<int64_t>(1, 4 * sm_count(device) / c.c));
    launch(fns_.split.get(device), device, chunks, static_cast<unsigned>(c.c), 512, 0,
           {&xp, &up, &n, &ch, &l});
    launch(fns_.finalize.get(device), device, static_cast<unsigned>((c.c + 127) / 128), 1, 128, 0,
           {&up, &sp, &mp, &vp, &count, &ch, &eps, &mom});
  }
};

class InferCuda final : public BatchNormInferKernel {
 public:
  using Interface = BatchNormInferKernel;
  static constexpr DeviceType devices[] = {kCUDA};
  explicit InferCuda(const BatchNormCall& c) : fns_(c) {}
  static BuildPlan entry_for(const BatchNormCall& c, const DeviceFacts&) {
    return plan_for(c, [c] { return std::make_unique<InferCuda>(c); });
  }
  int64_t workspace_bytes(const BatchNormCall& c) const override { return stats_bytes(c); }
  void run(const BatchNormCall& c, const Tensor& x, const Tensor& rm, const Tensor& rv,
           const Tensor& w, const Tensor& b, const Tensor& y, const Tensor& workspace) override {
    const int device = device_of(x);
    const void *mp = rm.data(), *vp = rv.data();
    void* sp = workspace.data();
    int64_t ch = c.c;
    float eps = static_cast<float>(c.eps);
    launch(fns_.infer.get(device), device, static_cast<unsigned>((c.c + 127) / 128), 1, 128, 0,
           {&sp, &mp, &vp, &ch, &eps});
    fns_.apply_stats(c, x, sp, w, b, y);
  }

 private:
  BatchNormFunctions fns_;
};

const StaticKernelRegistration<TrainGeneral> kGeneral("BatchNormFwdOp", "batch_norm_train_cuda");
const StaticKernelRegistration<TrainRows> kRows("BatchNormFwdOp", "batch_norm_train_cuda_rows");
const StaticKernelRegistration<TrainSplit> kSplit("BatchNormFwdOp", "batch_norm_train_cuda_split");
const StaticKernelRegistration<InferCuda> kInfer("BatchNormFwdOp", "batch_norm_infer_cuda");
const bool kVariants = [] {
  register_cuda_variants("batch_norm", [] {
    std::vector<KernelSource> v;
    for (DType d : {DType::kFloat16, DType::kBFloat16, DType::kFloat32}) {
      for (bool w : {false, true}) {
        for (bool b : {false, true})
          v.push_back(bn_spec("batch_norm_apply_kernel", d, w, b).source());
      }
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
