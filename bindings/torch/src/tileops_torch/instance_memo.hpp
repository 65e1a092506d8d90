// A thread's recent instances of the bound ops, found from a call's parameter values, target and
// device as they arrive (IValues), without building the instance cache's key. The key is a string
// formatted from every parameter (instance_cache.hpp); a repeated call need not pay for it.
#pragma once

#include <optional>

#include <ATen/core/ivalue.h>
#include <c10/core/Device.h>
#include <c10/util/ArrayRef.h>

#include "tileops/framework/op.hpp"

namespace tileops_torch {

// The instance that an earlier call on this thread, by `owner` (the bound op's kernel), with
// equal parameters and target (`params_and_target`, in schema order) on `device` resolved to; or
// null.
tileops::Op* find_memoized(const void* owner, c10::ArrayRef<c10::IValue> params_and_target,
                           const std::optional<c10::Device>& device);

// Remembers that such a call resolved to `op` (a cached instance, which lives until the process
// ends). Calls whose parameters are of a kind the memo does not compare are not remembered.
void remember_instance(const void* owner, c10::ArrayRef<c10::IValue> params_and_target,
                       const std::optional<c10::Device>& device, tileops::Op* op);

}  // namespace tileops_torch
