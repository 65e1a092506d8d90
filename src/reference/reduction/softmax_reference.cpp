// Float64 references of SoftmaxFwdOp and LogSoftmaxFwdOp (torch.nn.functional.softmax and
// log_softmax), which differ only in the last step.
#include <algorithm>
#include <cmath>
#include <limits>

#include "tileops/reference/reference.hpp"

namespace tileops {
namespace {

template <bool kLog>
ReferenceResult softmax_reference(const ParamMap& params, std::span<const Tensor> in) {
  const Tensor& x = in[0];
  const std::vector<double> xv = to_doubles(x);
  const int rank = x.rank();
  // torch.nn.functional._get_softmax_dim for dim=None; a 0-d x is one element.
  int64_t dim =
      param_optional_int(params, "dim").value_or(rank == 0 || rank == 1 || rank == 3 ? 0 : 1);
  if (dim < 0) dim += std::max(rank, 1);
  const int64_t n = rank == 0 ? 1 : x.shape()[static_cast<int>(dim)];
  int64_t stride = 1;  // elements between neighbours along dim
  for (int i = static_cast<int>(dim) + 1; i < rank; ++i) stride *= x.shape()[i];
  std::vector<double> y(xv.size());
  for (size_t start = 0; start < xv.size(); ++start) {
    // Each line along dim starts where the index along dim is 0.
    if ((static_cast<int64_t>(start) / stride) % n != 0) continue;
    double max = -std::numeric_limits<double>::infinity();
    for (int64_t k = 0; k < n; ++k) max = std::max(max, xv[start + k * stride]);
    double sum = 0;
    for (int64_t k = 0; k < n; ++k) sum += std::exp(xv[start + k * stride] - max);
    for (int64_t k = 0; k < n; ++k) {
      const double shifted = xv[start + k * stride] - max;
      y[start + k * stride] = kLog ? shifted - std::log(sum) : std::exp(shifted) / sum;
    }
  }
  return {{from_doubles(y, x.shape())}, {}};
}

const StaticReferenceRegistration<> kSoftmax("SoftmaxFwdOp", {&softmax_reference<false>, {}});
const StaticReferenceRegistration<> kLogSoftmax("LogSoftmaxFwdOp", {&softmax_reference<true>, {}});

}  // namespace
}  // namespace tileops
