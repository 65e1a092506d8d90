#include "tileops_torch/call_path.hpp"

#include <c10/core/impl/DeviceGuardImplInterface.h>

#include "tileops/runtime/cuda.hpp"
#include "tileops_torch/conversion.hpp"

namespace tileops_torch {
namespace {

// The tensor whose dtype the slot's expression names first ("same_as(x)"), for messages.
const at::Tensor* same_as_tensor(const tileops::OpSchema& schema, const tileops::TensorSlot& slot,
                                 std::span<const at::Tensor> inputs) {
  const std::string_view text = slot.dtype;
  const size_t at = text.find("same_as(");
  if (at == std::string_view::npos) return nullptr;
  const size_t begin = at + 8;
  const std::string_view name = text.substr(begin, text.find(')', begin) - begin);
  for (size_t i = 0; i < schema.inputs.size(); ++i) {
    if (schema.inputs[i].name == name) return &inputs[i];
  }
  return nullptr;
}

}  // namespace

WrappedInputs wrap_inputs(std::string_view op, const tileops::OpSchema& schema,
                          std::span<const at::Tensor> given) {
  WrappedInputs w;
  w.count = schema.inputs.size();
  for (size_t i = 0; i < w.count; ++i) {
    if (!given[i].defined()) continue;
    w.held[i] = schema.inputs[i].mutated ? given[i] : given[i].contiguous();
  }
  for (size_t i = 0; i < w.count; ++i) {
    if (!w.held[i].defined()) continue;
    w.views[i] = wrap(op, schema.inputs[i], w.held[i],
                      same_as_tensor(schema, schema.inputs[i], {w.held.data(), w.count}));
    if (!w.device) w.device = w.held[i].device();
  }
  return w;
}

namespace {

// Outputs from torch's allocator, kept as torch tensors for the caller and handed to the op as
// views of their memory.
class TorchOutputs final : public tileops::OutputAllocator {
 public:
  TorchOutputs(std::string_view op_name, const tileops::OpSchema& schema)
      : op_name_(op_name), schema_(schema) {}
  tileops::Tensor allocate(int index, const tileops::TensorDesc& desc) override {
    tensors.push_back(tileops_torch::allocate(desc));
    return wrap(op_name_, schema_.outputs[static_cast<size_t>(index)], tensors.back(), nullptr);
  }
  std::vector<at::Tensor> tensors;

 private:
  std::string_view op_name_;
  const tileops::OpSchema& schema_;
};

}  // namespace

std::vector<at::Tensor> run_into_new_outputs(std::string_view op_name,
                                             const tileops::OpSchema& schema, tileops::Op& op,
                                             const WrappedInputs& inputs) {
  TorchOutputs outputs(op_name, schema);
  outputs.tensors.reserve(schema.outputs.size());
  if (inputs.device && inputs.device->is_cuda()) {
    // Work goes on torch's current stream of the device: ordered after whatever torch enqueued
    // there (the outputs' allocation included) and capturable in a CUDA graph.
    const c10::impl::DeviceGuardImplInterface* cuda =
        c10::impl::getDeviceGuardImpl(c10::DeviceType::CUDA);
    // torch's default stream has a null handle: StreamGuard takes that as the legacy default
    // stream, which it is.
    void* handle = cuda->getStreamNativeHandle(cuda->getStream(*inputs.device));
    tileops::cuda::StreamGuard guard(inputs.device->index(), handle);
    op.call_into(inputs.span(), outputs);
  } else {
    op.call_into(inputs.span(), outputs);
  }
  // As an in-place aten op does, so that autograd notices a saved tensor that was written.
  // Inference tensors have no version counter.
  for (size_t i = 0; i < inputs.count; ++i) {
    const at::Tensor& t = inputs.held[i];
    if (schema.inputs[i].mutated && t.defined() && !t.is_inference()) {
      t.unsafeGetTensorImpl()->bump_version();
    }
  }
  return std::move(outputs.tensors);
}

}  // namespace tileops_torch
