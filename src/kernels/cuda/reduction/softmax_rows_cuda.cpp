// Softmax and LogSoftmax over the last dim on CUDA (softmax_rows.cu): one block per row, with the
// row norms' tuning candidates (common/row_tuning.hpp), or for rows of up to 128 packs a group of
// lanes a row (common/warp_rows_cuda.hpp).
#include "kernels/cuda/common/row_kernel_cuda.hpp"
#include "kernels/cuda/common/warp_rows_cuda.hpp"
#include "kernels/cuda/reduction/softmax_variants.hpp"

namespace tileops::cuda::softmax {
namespace {

template <bool kLog>
class SoftmaxRowsCuda final
    : public RowKernelCuda<SoftmaxRowsCuda<kLog>, typename Flavour<kLog>::Interface> {
 public:
  using Base = RowKernelCuda<SoftmaxRowsCuda<kLog>, typename Flavour<kLog>::Interface>;
  using Base::Base;
  static RowKernelDecl kernel() { return rows_kernel_decl(kLog); }
  static constexpr const char* kTunerName = Flavour<kLog>::kRowsTuner;

  static std::optional<std::string> refusal(const SoftmaxCall& call, const DeviceFacts&) {
    return not_last_dim(call);
  }

  void run(const SoftmaxCall& call, const Tensor& x, const Tensor& y,
           const Tensor& /*workspace*/) override {
    int64_t n = call.n;
    this->set_.run(call.outer, call.n, {kRowCache, 4}, {&x}, {&y}, {&n});
  }
};

template <bool kLog>
class SoftmaxWarpRowsCuda final
    : public WarpRowsCuda<SoftmaxWarpRowsCuda<kLog>, typename Flavour<kLog>::Interface> {
 public:
  using Base = WarpRowsCuda<SoftmaxWarpRowsCuda<kLog>, typename Flavour<kLog>::Interface>;
  using Base::Base;
  static constexpr std::string_view preferred_over[] = {Flavour<kLog>::kRows};
  static RowKernelDecl kernel() { return SoftmaxRowsCuda<kLog>::kernel(); }

  static std::optional<std::string> refusal(const SoftmaxCall& call, const DeviceFacts&) {
    if (auto why = not_last_dim(call)) return why;
    return warp_rows_refusal(call.dtype, call.n);
  }

  void run(const SoftmaxCall& call, const Tensor& x, const Tensor& y,
           const Tensor& /*workspace*/) override {
    int64_t n = call.n;
    this->set_.run(call.outer, call.n, {&x}, {&y}, {&n});
  }
};

const StaticKernelRegistration<SoftmaxWarpRowsCuda<false>> kSoftmaxWarpRows(
    Flavour<false>::kOp, std::string(Flavour<false>::kWarpRows));
const StaticKernelRegistration<SoftmaxWarpRowsCuda<true>> kLogSoftmaxWarpRows(
    Flavour<true>::kOp, std::string(Flavour<true>::kWarpRows));
const StaticKernelRegistration<SoftmaxRowsCuda<false>> kSoftmax(Flavour<false>::kOp,
                                                                std::string(Flavour<false>::kRows));
const StaticKernelRegistration<SoftmaxRowsCuda<true>> kLogSoftmax(
    Flavour<true>::kOp, std::string(Flavour<true>::kRows));
const bool kVariants = [] {
  register_cuda_variants("softmax_rows", [] {
    std::vector<KernelSource> v;
    for (DType d : kDTypes) {
      for (KernelSource& s : row_kernel_variants(SoftmaxRowsCuda<false>::kernel(), d)) {
        v.push_back(s);
      }
      for (KernelSource& s : row_kernel_variants(SoftmaxRowsCuda<true>::kernel(), d)) {
        v.push_back(s);
      }
      for (bool log : {false, true}) {
        const RowKernelDecl k =
            log ? SoftmaxRowsCuda<true>::kernel() : SoftmaxRowsCuda<false>::kernel();
        for (KernelSource& s : warp_row_kernel_variants(k, d)) v.push_back(s);
      }
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda::softmax
