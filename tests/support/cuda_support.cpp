#include "cuda_support.hpp"

#include <cstdlib>

#include <fmt/format.h>

#include "test_support.hpp"

namespace tileops::testing {

Tensor device_copy(const Tensor& t, int offset) {
  const Device dev = Device::cuda(0);
  Tensor base = Tensor::empty(Shape{t.numel() + offset}, t.dtype(), dev);
  Tensor view = base.as_strided(t.shape(), contiguous_strides(t.shape()), offset);
  cuda::copy(view, t.contiguous());
  return view;
}

Tensor host_copy(const Tensor& t) {
  Tensor out = Tensor::empty(t.shape(), t.dtype());
  cuda::copy(out, t);
  return out;
}

::testing::AssertionResult cuda_matches_reference(Op& op,
                                                  const std::vector<std::optional<Shape>>& shapes,
                                                  DType dtype, bool misaligned) {
  return cuda_matches_reference(op, shapes, dtype, InputEdit(), misaligned);
}

::testing::AssertionResult cuda_matches_reference(Op& op,
                                                  const std::vector<std::optional<Shape>>& shapes,
                                                  DType dtype, const InputEdit& edit,
                                                  bool misaligned) {
  const uint64_t seed = fresh_seed();
  const OpSchema& schema = op.schema();
  std::vector<Tensor> host_inputs = make_inputs(op.name(), schema, shapes, dtype, seed);
  if (edit) edit(host_inputs, seed);
  std::vector<Tensor> device_inputs;
  for (const Tensor& t : host_inputs) {
    device_inputs.push_back(t.defined() ? device_copy(t, misaligned ? 1 : 0) : Tensor());
  }
  std::vector<Tensor> outputs;
  for (const TensorDesc& p : op.infer_outputs(device_inputs)) {
    Tensor o =
        Tensor::empty(Shape{p.shape.numel() + (misaligned ? 1 : 0)}, p.dtype, Device::cuda(0))
            .as_strided(p.shape, contiguous_strides(p.shape), misaligned ? 1 : 0);
    cuda::fill_bytes(o, 0xff);
    outputs.push_back(o);
  }
  op.call_into(device_inputs, outputs);
  const ReferenceEntry* ref = find_reference(op.name());
  ReferenceResult expected = ref->compute(op.param_values(), host_inputs);
  std::vector<std::string> failures;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Comparison c = compare(host_copy(outputs[i]), expected.outputs.at(i),
                                 default_tolerance(outputs[i].dtype(), expected.tolerance_scale));
    if (!c.ok())
      failures.push_back(fmt::format("output '{}': {}", schema.outputs[i].name, c.str()));
  }
  size_t m = 0;
  for (size_t i = 0; i < device_inputs.size(); ++i) {
    if (!schema.inputs[i].mutated || !device_inputs[i].defined()) continue;
    const Comparison c =
        compare(host_copy(device_inputs[i]), expected.mutated.at(m++),
                default_tolerance(device_inputs[i].dtype(), expected.tolerance_scale));
    if (!c.ok())
      failures.push_back(fmt::format("mutated '{}': {}", schema.inputs[i].name, c.str()));
  }
  if (failures.empty()) return ::testing::AssertionSuccess();
  std::vector<std::string> shape_text;
  for (const auto& s : shapes) shape_text.push_back(s ? s->str() : "None");
  return ::testing::AssertionFailure()
         << op.name() << " on cuda " << dtype_name(dtype) << " shapes "
         << fmt::format("{}", fmt::join(shape_text, " ")) << " seed " << seed
         << (misaligned ? " (misaligned)" : "") << ": "
         << fmt::format("{}", fmt::join(failures, "; "));
}

}  // namespace tileops::testing
