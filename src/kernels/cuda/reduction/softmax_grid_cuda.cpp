// Softmax and LogSoftmax of few long rows on CUDA: the row kernel (softmax_rows.cu) with GRID,
// each row spread over blocks on every SM in one cooperative launch, the blocks' (max, sum)
// exchanged through the workspace (common/grid_rows_cuda.hpp). Serves few long rows of 32768
// elements or more; preferred over the row kernel, outranked by the cluster while one wave of
// clusters holds the rows.
#include "kernels/cuda/common/grid_rows_cuda.hpp"
#include "kernels/cuda/reduction/softmax_variants.hpp"

namespace tileops::cuda::softmax {
namespace {

template <bool kLog>
class SoftmaxGridCuda final
    : public GridRowsCuda<SoftmaxGridCuda<kLog>, typename Flavour<kLog>::Interface> {
 public:
  using Base = GridRowsCuda<SoftmaxGridCuda<kLog>, typename Flavour<kLog>::Interface>;
  using Base::Base;
  static constexpr std::string_view preferred_over[] = {Flavour<kLog>::kRows};
  static RowKernelDecl kernel() { return rows_kernel_decl(kLog); }

  static std::optional<std::string> refusal(const SoftmaxCall& call, const DeviceFacts& facts) {
    if (auto why = not_last_dim(call)) return why;
    return grid_rows_refusal(call.dtype, call.outer, call.n, kGridSoftmaxLongRow, facts);
  }

  int64_t workspace_bytes(const SoftmaxCall& call) const override {
    return grid_rows_workspace_bytes(call.dtype, call.outer, call.n, sm_count(call.device.index));
  }

  void run(const SoftmaxCall& call, const Tensor& x, const Tensor& y,
           const Tensor& workspace) override {
    int64_t n = call.n;
    this->set_.run(Flavour<kLog>::kGrid, call.outer, call.n, {&x}, {&y}, {&n}, workspace);
  }
};

const StaticKernelRegistration<SoftmaxGridCuda<false>> kSoftmax(Flavour<false>::kOp,
                                                                std::string(Flavour<false>::kGrid));
const StaticKernelRegistration<SoftmaxGridCuda<true>> kLogSoftmax(
    Flavour<true>::kOp, std::string(Flavour<true>::kGrid));
const bool kVariants = [] {
  register_cuda_variants("softmax_grid", [] {
    std::vector<KernelSource> v;
    for (DType d : kDTypes) {
      for (bool log : {false, true}) {
        for (KernelSource& s : grid_row_kernel_variants(rows_kernel_decl(log), d)) {
          v.push_back(s);
        }
      }
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda::softmax
