// The steps of a call through the binding that the op's boxed kernel (registration.cpp) and the
// introspection ops (query.cpp) share: wrapping torch inputs, and running an op into outputs
// torch allocates, on torch's current stream.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include <ATen/core/Tensor.h>

#include "tileops/core/tensor.hpp"
#include "tileops/framework/op.hpp"

namespace tileops_torch {

struct WrappedInputs {
  // The torch tensors, kept alive while the tileops views of them are used.
  std::array<at::Tensor, tileops::kMaxTensors> held;
  std::array<tileops::Tensor, tileops::kMaxTensors> views;
  size_t count = 0;
  std::optional<c10::Device> device;  // the first given input's
  std::span<const tileops::Tensor> span() const { return {views.data(), count}; }
};

// The op's inputs in schema order (an undefined tensor for an absent optional one), wrapped
// without copies. A non-mutated input that is not contiguous is copied to contiguous memory by
// torch (on its stream and allocator); a mutated one is passed as it is, and the op's check
// rejects it if it is not contiguous.
WrappedInputs wrap_inputs(std::string_view op, const tileops::OpSchema& schema,
                          std::span<const at::Tensor> given);

// Runs `op` into outputs it has torch's allocator give once the call is checked (one check), on
// torch's current stream of the inputs' device, and bumps the version of each mutated input.
std::vector<at::Tensor> run_into_new_outputs(std::string_view op_name,
                                             const tileops::OpSchema& schema, tileops::Op& op,
                                             const WrappedInputs& inputs);

}  // namespace tileops_torch
