// Float64 reference of GatedMLPFwdOp, composed from the references of its stages exactly as the
// op composes its sub-ops: GatedLinearFwdOp (silu) -> LinearFwdOp. The first stage's result is
// rounded to the op's dtype before the second reads it, since the sub-ops hand each other a
// tensor of that dtype.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "tileops/core/dtype_traits.hpp"
#include "tileops/core/error.hpp"
#include "tileops/reference/check.hpp"
#include "tileops/reference/reference.hpp"

namespace tileops {
namespace {

const ReferenceEntry& stage_reference(std::string_view op) {
  const ReferenceEntry* entry = find_reference(op);
  if (entry == nullptr) {
    throw ValueError(
        fmt::format("GatedMLPFwdOp reference: expected a reference for {}, got none", op));
  }
  return *entry;
}

// The float64 values of t rounded to dtype (as a tensor of that dtype).
Tensor rounded_to(const Tensor& t, DType dtype) {
  const std::vector<double> values = to_doubles(t);
  Tensor out = Tensor::empty(t.shape(), dtype);
  visit_float_dtype(dtype, [&]<DType D>() {
    using T = element_t<D>;
    T* p = out.data_as<T>();
    for (size_t i = 0; i < values.size(); ++i) {
      if constexpr (std::is_floating_point_v<T>) {
        p[i] = static_cast<T>(values[i]);
      } else {
        p[i] = T(static_cast<float>(values[i]));
      }
    }
  });
  return out;
}

ReferenceResult gated_mlp_reference(const ParamMap&, std::span<const Tensor> in) {
  const Tensor& x = in[0];
  const ReferenceEntry& gated = stage_reference("GatedLinearFwdOp");
  const ReferenceEntry& linear = stage_reference("LinearFwdOp");
  const ParamMap silu{{"activation", ParamValue(std::string("silu"))}};
  const Tensor gate_up_in[] = {x, in[1]};
  const ReferenceResult h = gated.compute(silu, gate_up_in);
  const Tensor down_in[] = {rounded_to(h.outputs.at(0), x.dtype()), in[2], Tensor(), Tensor()};
  ReferenceResult out = linear.compute({}, down_in);
  out.tolerance_scale = std::max(h.tolerance_scale, out.tolerance_scale);
  return out;
}

// Weights as torch.nn.Linear-style layers would hold them: uniform in +-sqrt(3 / fan_in) (unit
// variance preserving), so every stage's values stay O(1) as in a real MLP. With +-1 weights the
// hidden values would grow like sqrt(H), and a one-ulp difference in one of them (fp32 sums
// that round to the other side of a 16-bit value) would move the output past its tolerance.
std::optional<Tensor> gated_mlp_input(int index, const Shape& shape, DType dtype, uint64_t seed,
                                      std::span<const std::optional<Shape>>) {
  if (index == 0 || shape.rank() != 2 || shape[1] == 0) return std::nullopt;
  const double bound = std::sqrt(3.0 / static_cast<double>(shape[1]));
  return random_tensor(shape, dtype, seed, -bound, bound);
}

const StaticReferenceRegistration<> kRegistration("GatedMLPFwdOp",
                                                  {&gated_mlp_reference, &gated_mlp_input});

}  // namespace
}  // namespace tileops
