// Autograd for the bound ops: none has a backward yet, so a backward through one raises
// NotImplementedError naming the op, instead of torch's fallback for custom ops, which warns and
// leaves the inputs' .grad None (a model training through a tileops op would silently stop
// learning there). The forward is untouched: called on tensors that require grad it still runs.
//
// A C++ kernel at the Autograd key, not torch.library.register_autograd: the Python one runs on
// every call, grad or not.
#pragma once

#include <span>

#include <torch/library.h>

#include "tileops_torch/registration.hpp"

namespace tileops_torch {

// Whether the op can take the raising backward: it writes none of its inputs (torch takes no
// autograd formula for an op that mutates one; such an op keeps torch's fallback).
bool takes_raising_backward(const BoundOp& op);

// Registers the raising backward at the Autograd key of every bound op that takes it; called
// from the TORCH_LIBRARY block that defines the ops.
void implement_raising_autograd(torch::Library& m, std::span<const BoundOp> ops);

}  // namespace tileops_torch
