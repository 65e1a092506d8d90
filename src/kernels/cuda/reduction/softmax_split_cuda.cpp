// Softmax and LogSoftmax of few long rows on CUDA (softmax_split.cu): each row split over blocks
// so every SM has work, in two kernels; the chunks' (max, sum) pass through a workspace the op
// allocates. Preferred over the row kernel, which would run one block per row.
#include "kernels/cuda/common/elementwise_launch.hpp"
#include "kernels/cuda/common/per_dtype_kernel.hpp"
#include "kernels/cuda/reduction/softmax_variants.hpp"
#include "tileops/core/error.hpp"

namespace tileops::cuda::softmax {
namespace {

constexpr unsigned kThreads = 256;

KernelSpec split_spec(const char* entry, DType dtype, int vec, bool log) {
  return KernelSpec("reduction/softmax_split.cu", entry,
                    {KernelConstant::type_of("T", cuda_type(dtype)),
                     KernelConstant::integer("VEC", vec), log_constant(log)});
}

// Blocks per row: enough for two per SM over all rows, at most one per 256 packs.
int64_t chunks_per_row(const SoftmaxCall& call, int sms) {
  const int64_t packs = call.n / vector_width(call);
  return std::clamp<int64_t>(2 * sms / std::max<int64_t>(call.outer, 1), 1,
                             std::max<int64_t>(1, packs / 256));
}

template <bool kLog>
class SoftmaxSplitCuda final
    : public PerDTypeCuda<SoftmaxSplitCuda<kLog>, typename Flavour<kLog>::Interface> {
 public:
  static constexpr std::string_view preferred_over[] = {Flavour<kLog>::kRows};

  static std::optional<std::string> refusal(const SoftmaxCall& call, const DeviceFacts& facts) {
    return not_few_long_rows(call, facts);
  }

  explicit SoftmaxSplitCuda(DType dtype)
      : partial_(dtype,
                 [&](int vec) { return split_spec("softmax_partial_kernel", dtype, vec, kLog); }),
        finish_(dtype,
                [&](int vec) { return split_spec("softmax_finish_kernel", dtype, vec, kLog); }) {}

  // One (max, sum) float pair per chunk of every row.
  int64_t workspace_bytes(const SoftmaxCall& call) const override {
    return call.outer * chunks_per_row(call, sm_count(call.device.index)) * 2 *
           static_cast<int64_t>(sizeof(float));
  }

  void run(const SoftmaxCall& call, const Tensor& x, const Tensor& y,
           const Tensor& workspace) override {
    if (!workspace.defined() || static_cast<int64_t>(workspace.nbytes()) < workspace_bytes(call)) {
      throw ContractError(fmt::format(
          "{}: the split rows need the {}-byte workspace that workspace_bytes asked for",
          Flavour<kLog>::kSplit, workspace_bytes(call)));
    }
    const int device = device_of(x);
    const int vec = vector_width(call);
    const int64_t chunks = chunks_per_row(call, sm_count(device));
    const void* xp = x.data();
    void* yp = y.data();
    void* pp = workspace.data();
    int64_t n = call.n;
    int64_t chunk = (call.n / vec + chunks - 1) / chunks;
    const unsigned grid_x = static_cast<unsigned>(chunks);
    const unsigned rows = static_cast<unsigned>(call.outer);
    launch(partial_.get(vec, device), device, grid_x, rows, kThreads, 0, {&xp, &pp, &n, &chunk});
    launch(finish_.get(vec, device), device, grid_x, rows, kThreads, 0,
           {&xp, &yp, &pp, &n, &chunk});
  }

 private:
  WideAndNarrow partial_, finish_;
};

const StaticKernelRegistration<SoftmaxSplitCuda<false>> kSoftmax(
    Flavour<false>::kOp, std::string(Flavour<false>::kSplit));
const StaticKernelRegistration<SoftmaxSplitCuda<true>> kLogSoftmax(
    Flavour<true>::kOp, std::string(Flavour<true>::kSplit));
const bool kVariants = [] {
  register_cuda_variants("softmax_split", [] {
    std::vector<KernelSource> v;
    for (DType d : kDTypes) {
      for (bool log : {false, true}) {
        for (int vec : {wide_vector_width(d), 1}) {
          for (const char* entry : {"softmax_partial_kernel", "softmax_finish_kernel"}) {
            v.push_back(split_spec(entry, d, vec, log).source());
          }
        }
      }
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda::softmax
