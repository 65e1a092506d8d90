// What the CUDA implementations of SoftmaxFwdOp and LogSoftmaxFwdOp share. Each implementation is
// a class template over LOG, registered once per op under the keys below; dispatch chooses among
// them (`tileops explain SoftmaxFwdOp ...` shows why):
//   cluster  (sm_90+) few long rows, a cluster of blocks per row in one pass, as many rows as
//            the device runs clusters at once; preferred over grid and rows
//   grid     few long rows of 32768 or more, each spread over blocks on every SM in one
//            cooperative launch; preferred over rows
//   warp_rows the reduced dim is the last and rows are at most 128 packs: a group of lanes a
//            row, several rows a block; preferred over rows
//   rows     the reduced dim is the last: one block per row, tunable
//   strided  general: any dim, one thread per column
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "kernels/cuda/common/long_rows.hpp"
#include "kernels/cuda/common/row_launch.hpp"
#include "kernels/cuda/common/row_tuning.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/reduction/log_softmax_fwd_op.hpp"
#include "tileops/ops/reduction/softmax_fwd_op.hpp"

namespace tileops::cuda::softmax {

template <bool kLog>
struct Flavour;
template <>
struct Flavour<false> {
  using Interface = SoftmaxKernel;
  static constexpr const char* kOp = "SoftmaxFwdOp";
  static constexpr std::string_view kGrid = "softmax_grid_cuda";
  static constexpr std::string_view kCluster = "softmax_cluster_cuda";
  static constexpr std::string_view kRows = "softmax_rows_cuda";
  static constexpr std::string_view kWarpRows = "softmax_warp_rows_cuda";
  static constexpr std::string_view kStrided = "softmax_strided_cuda";
  static constexpr const char* kRowsTuner = "softmax_cuda";  // the tuning store's name
};
template <>
struct Flavour<true> {
  using Interface = LogSoftmaxKernel;
  static constexpr const char* kOp = "LogSoftmaxFwdOp";
  static constexpr std::string_view kGrid = "log_softmax_grid_cuda";
  static constexpr std::string_view kCluster = "log_softmax_cluster_cuda";
  static constexpr std::string_view kRows = "log_softmax_rows_cuda";
  static constexpr std::string_view kWarpRows = "log_softmax_warp_rows_cuda";
  static constexpr std::string_view kStrided = "log_softmax_strided_cuda";
  static constexpr const char* kRowsTuner = "log_softmax_cuda";
};

inline constexpr DType kDTypes[] = {DType::kFloat16, DType::kBFloat16, DType::kFloat32};

inline KernelConstant log_constant(bool log) {
  return KernelConstant::boolean("LOG", log);
}

// The row kernel (softmax_rows.cu) that the rows, warp-rows and grid implementations run.
inline RowKernelDecl rows_kernel_decl(bool log) {
  return {"reduction/softmax_rows.cu", "softmax_rows_kernel", {log_constant(log)}};
}

// The access width of the row-wise kernels: 16 bytes when n is a multiple of a pack and x and
// the output both start on a 16-byte boundary, else one element.
inline int vector_width(const SoftmaxCall& call) {
  const int wide = wide_vector_width(call.dtype);
  return call.aligned16 && call.n % wide == 0 ? wide : 1;
}

inline std::optional<std::string> not_last_dim(const SoftmaxCall& call) {
  if (call.inner == 1) return std::nullopt;
  return fmt::format("the reduced dim is not the last (inner = {}): rows are not contiguous",
                     call.inner);
}

// Few long rows (an LM head's logits), contiguous: common/long_rows.hpp.
inline std::optional<std::string> not_few_long_rows(const SoftmaxCall& call,
                                                    const DeviceFacts& facts) {
  if (auto why = not_last_dim(call)) return why;
  return few_long_rows_refusal(call.dtype, call.outer, call.n, facts);
}

}  // namespace tileops::cuda::softmax
