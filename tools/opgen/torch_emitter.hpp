// Writes the torch binding's generated parts from the manifest (docs/design/torch-binding.md):
// a C++ source with the TORCH_LIBRARY schema of every bound op and its CPU and CUDA
// registrations, and a Python module with each op's fake (output shapes and dtypes, with the
// same checks and messages as the C++ op), the Python class mirroring each C++ op, and a table
// describing them. Nothing here includes or links torch; the text is compiled by bindings/torch.
#pragma once

#include <string>
#include <vector>

#include "manifest_model.hpp"

namespace opgen {

struct TorchFiles {
  std::string cpp;
  std::string python;
};

// A torch custom op exists for an implemented entry that has a call-time tensor input and is not
// composite (family 'composite'). Composite entries get a Python class composing bound ops.
bool torch_bound(const Entry& e);
bool torch_composite(const Entry& e);
// "RMSNormFwdOp" -> "rms_norm_fwd": snake_case of the key without its "Op" suffix.
std::string torch_op_name(const std::string& key);
// "rms_norm_fwd(Tensor x, Tensor weight, int[] normalized_shape, float? eps=1e-06) -> Tensor"
std::string torch_schema(const Entry& e);
// "_query_rms_norm_fwd(str query, str device, Tensor?[] inputs, *, <params>, str? target=None)
// -> str": the binding's introspection op for a bound op (bindings/torch/src/query.cpp).
std::string torch_query_schema(const Entry& e);

// A parameter's default as a Python expression ("True", "(4096,)", "'silu'", "None").
std::string python_default(const ParamDecl& p);

// Throws FieldError naming the entry and field the binding cannot express.
TorchFiles emit_torch(const std::vector<const Entry*>& entries);

}  // namespace opgen
