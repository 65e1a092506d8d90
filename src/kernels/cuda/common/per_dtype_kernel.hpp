// The registration facts shared by the CUDA host classes built once per dtype (the row kernels,
// the elementwise kernels): runs on CUDA, and one entry per dtype, built as Derived(dtype).
#pragma once

#include <memory>
#include <string>

#include "tileops/framework/implementation.hpp"

namespace tileops::cuda {

template <typename Derived, typename InterfaceT>
class PerDTypeCuda : public InterfaceT {
 public:
  using Interface = InterfaceT;
  static constexpr DeviceType devices[] = {kCUDA};

  static BuildPlan entry_for(const typename InterfaceT::Call& call, const DeviceFacts&) {
    const DType dtype = call.dtype;
    return {std::string(dtype_name(dtype)), [dtype] { return std::make_unique<Derived>(dtype); }};
  }
};

}  // namespace tileops::cuda
