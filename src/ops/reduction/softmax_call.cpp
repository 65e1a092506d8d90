#include "tileops/ops/reduction/softmax_call.hpp"

#include <cstdint>

namespace tileops {

std::string SoftmaxCall::describe() const {
  return fmt::format("{}, {}, {}, {}, {}, {}", describe_field("device", device),
                     describe_field("dtype", dtype), describe_field("outer", outer),
                     describe_field("n", n), describe_field("inner", inner),
                     describe_field("aligned16", aligned16));
}

SoftmaxCall SoftmaxCall::of(const Tensor& x, const Tensor& output, std::optional<int64_t> dim) {
  const int rank = x.rank();
  const int64_t implicit = (rank == 0 || rank == 1 || rank == 3) ? 0 : 1;
  int64_t d = dim.value_or(implicit);
  if (d < 0) d += std::max(rank, 1);
  SoftmaxCall call;
  call.device = x.device();
  call.dtype = x.dtype();
  call.outer = 1;
  call.n = rank == 0 ? 1 : x.shape()[static_cast<int>(d)];
  call.inner = 1;
  for (int i = 0; i < rank; ++i) {
    if (i < d) call.outer *= x.shape()[i];
    if (i > d) call.inner *= x.shape()[i];
  }
  auto on16 = [](const Tensor& t) { return (reinterpret_cast<uintptr_t>(t.data()) & 15u) == 0; };
  call.aligned16 = on16(x) && on16(output);
  return call;
}

}  // namespace tileops
