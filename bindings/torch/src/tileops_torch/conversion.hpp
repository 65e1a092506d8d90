// Conversions between torch and tileops values: dtypes, devices, tensors (wrapped, never
// copied) and construction parameters from a schema's IValues.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <ATen/core/Tensor.h>
#include <ATen/core/ivalue.h>

#include "tileops/core/tensor.hpp"
#include "tileops/framework/params.hpp"
#include "tileops/framework/schema.hpp"

namespace tileops_torch {

std::optional<tileops::DType> to_tileops(c10::ScalarType type) noexcept;
c10::ScalarType to_torch(tileops::DType type) noexcept;
// torch's own name of a dtype ("float16", "complex64"), as Python spells it without "torch.".
std::string torch_dtype_name(c10::ScalarType type);

// A tileops view of t's memory (no copy): t must stay alive while the result is used. Throws
// tileops errors, in the C++ op's message form, when tileops cannot hold t: a rank above
// kMaxRank (ValueError) or a dtype tileops does not have (DTypeError). `same_as` is the tensor
// whose dtype the slot's expression refers to first (for the message), or null.
tileops::Tensor wrap(std::string_view op, const tileops::TensorSlot& slot, const at::Tensor& t,
                     const at::Tensor* same_as);
at::Tensor allocate(const tileops::TensorDesc& desc);

// A construction parameter from the IValue torch passed for it. Appends an exact spelling of the
// value to key (the instance cache's key); returns false in *cacheable for a tensor parameter.
tileops::ParamValue param_value(std::string_view op, const tileops::ParamSlot& slot,
                                const c10::IValue& value, std::string& key, bool& cacheable);

}  // namespace tileops_torch
