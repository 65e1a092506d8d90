// Static registration of an implementation of the "gemm" interface for every op that calls it.
#pragma once

#include <string>

#include "tileops/framework/implementation.hpp"
#include "tileops/ops/gemm/gemm_kernel.hpp"

namespace tileops {

// The ops whose forward calls a GemmKernel.
inline constexpr const char* kGemmInterfaceOps[] = {"GemmFwdOp", "BmmFwdOp", "LinearFwdOp",
                                                    "GatedLinearFwdOp"};

template <typename Impl>
struct StaticGemmRegistration {
  explicit StaticGemmRegistration(const std::string& key) {
    for (const char* op : kGemmInterfaceOps) register_kernel_type<Impl>(op, key).release();
  }
};

}  // namespace tileops
