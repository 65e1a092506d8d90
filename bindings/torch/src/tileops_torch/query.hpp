// The introspection op of every bound op (query.cpp).
#pragma once

#include <span>

#include <torch/library.h>

#include "tileops_torch/registration.hpp"

namespace tileops_torch {

// Defines tileops::_query_<op> for every bound op, with its kernel (one for every device: the
// op reads no tensor data unless asked to explain a call).
void define_queries(torch::Library& m, std::span<const BoundOp> ops);

}  // namespace tileops_torch
