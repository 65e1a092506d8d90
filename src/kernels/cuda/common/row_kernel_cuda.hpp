// The host class template of the one-block-per-row kernels (RMSNorm, LayerNorm,
// FusedAddRMSNorm, softmax's row kernel): per dtype, the kernel's RowKernelSet and its tuner.
// Derived declares `static RowKernelDecl kernel()`, `static constexpr const char* kTunerName`
// (the tuning store's name) and run(), which hands its tensors and scalars to set_.run.
#pragma once

#include <string>

#include "kernels/cuda/common/per_dtype_kernel.hpp"
#include "kernels/cuda/common/row_tuning.hpp"

namespace tileops::cuda {

template <typename Derived, typename InterfaceT>
class RowKernelCuda : public PerDTypeCuda<Derived, InterfaceT> {
 public:
  explicit RowKernelCuda(DType dtype) : set_(Derived::kernel(), dtype, Derived::kTunerName) {}

  std::string config() const override { return set_.last_config(); }
  bool tunable() const override { return true; }
  void request_tune(const TuneOptions& options) override { set_.enter_tuned_mode(options); }

 protected:
  RowKernelSet set_;
};

}  // namespace tileops::cuda
