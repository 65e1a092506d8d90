// Registration of the tileops ops as torch custom ops. The generated source (tileops-opgen
// --torch-cpp) lists the bound ops with their schemas and calls these from TORCH_LIBRARY and
// TORCH_LIBRARY_IMPL; everything per call happens in the boxed kernel (registration.cpp).
#pragma once

#include <span>
#include <string_view>

#include <torch/library.h>

namespace tileops_torch {

struct BoundOp {
  const char* op;          // manifest key: "RMSNormFwdOp"
  const char* torch_name;  // "rms_norm_fwd" (tileops::rms_norm_fwd)
  const char* schema;  // "rms_norm_fwd(Tensor x, Tensor weight, ..., str? target=None) -> Tensor"
  const char* query_schema;  // "_query_rms_norm_fwd(str query, str device, Tensor?[] inputs, ...)"
};

// Defines every bound op's schema, and the binding's introspection ops:
//   tileops::_binding_problems() -> str[]  where the generated list and the op registry disagree
//   tileops::_binding_instances() -> str[] the cached op instances, one line each
//   tileops::_query_<op>(...) -> str       an op instance's last call, kernel configuration,
//                                           roofline, tuning and dispatch choice (query.cpp)
void define_ops(torch::Library& m, std::span<const BoundOp> ops,
                std::span<const std::string_view> composite_ops);
// Defines tileops::_fast_call_api() -> int, the address of the fast path's FastCallApi
// (fast_call.hpp), for the extension tileops_torch._fast_call.
void define_fast_call_api(torch::Library& m);
// Registers the boxed kernel of every bound op for the library's dispatch key (CPU or CUDA).
void implement_ops(torch::Library& m, std::span<const BoundOp> ops);

}  // namespace tileops_torch
