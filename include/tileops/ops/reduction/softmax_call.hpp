// The call spec shared by SoftmaxFwdOp and LogSoftmaxFwdOp: x seen as [outer, n, inner], with the
// reduced dim in the middle, and the resolution of the dim parameter (torch's legacy implicit
// dim when None).
#pragma once

#include <optional>

#include "tileops/core/tensor.hpp"
#include "tileops/export.hpp"
#include "tileops/framework/call_spec.hpp"

namespace tileops {

struct TILEOPS_API SoftmaxCall : CallSpec {
  DType dtype = DType::kFloat32;
  int64_t outer = 0;       // product of the dims before the reduced one
  int64_t n = 0;           // the reduced dim (1 for a 0-d x)
  int64_t inner = 0;       // product of the dims after it: the stride of the reduced dim
  bool aligned16 = false;  // x and the output both start on a 16-byte boundary
  friend bool operator==(const SoftmaxCall&, const SoftmaxCall&) = default;
  size_t hash() const { return CallHasher::of(device, dtype, outer, n, inner, aligned16); }
  std::string describe() const;

  // The call for x reduced over dim into output (dim None: 0 when x.ndim is 0, 1 or 3, else 1,
  // as torch's _get_softmax_dim); dim is in range (the manifest rule checks it).
  static SoftmaxCall of(const Tensor& x, const Tensor& output, std::optional<int64_t> dim);
};

}  // namespace tileops
