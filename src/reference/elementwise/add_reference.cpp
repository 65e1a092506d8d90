// Float64 reference of AddFwdOp (torch.add): output = input + alpha * other, broadcast.
#include "tileops/core/shape_helpers.hpp"
#include "tileops/reference/reference.hpp"

namespace tileops {
namespace {

// The flat row-major offset into s of the output element at multi-index `index` (of out's rank),
// aligning s to out's trailing dims and repeating s's size-1 dims.
int64_t broadcast_offset(const Shape& s, const Shape& out, const std::vector<int64_t>& index) {
  int64_t offset = 0;
  const int lead = out.rank() - s.rank();
  for (int j = 0; j < s.rank(); ++j) offset = offset * s[j] + (s[j] == 1 ? 0 : index[j + lead]);
  return offset;
}

ReferenceResult add_reference(const ParamMap& params, std::span<const Tensor> in) {
  const Tensor& input = in[0];
  const Tensor& other = in[1];
  const Shape out_shape = *shape_ops::broadcast_shapes(input.shape(), other.shape());
  const std::vector<double> a = to_doubles(input), b = to_doubles(other);
  const double alpha = param_double(params, "alpha");
  std::vector<double> y(static_cast<size_t>(out_shape.numel()));
  std::vector<int64_t> index(static_cast<size_t>(out_shape.rank()), 0);
  for (size_t flat = 0; flat < y.size(); ++flat) {
    int64_t rest = static_cast<int64_t>(flat);
    for (int d = out_shape.rank() - 1; d >= 0; --d) {
      index[d] = rest % out_shape[d];
      rest /= out_shape[d];
    }
    y[flat] = a[broadcast_offset(input.shape(), out_shape, index)] +
              alpha * b[broadcast_offset(other.shape(), out_shape, index)];
  }
  return {{from_doubles(y, out_shape)}, {}};
}

const StaticReferenceRegistration<> kRegistration("AddFwdOp", {&add_reference, {}});

}  // namespace
}  // namespace tileops
