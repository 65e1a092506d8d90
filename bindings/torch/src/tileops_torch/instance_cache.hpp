// One op instance per (op, device, construction parameters), shared by every call and thread, so
// repeated calls reuse the instance's dispatch and kernel caches.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tileops/framework/op.hpp"

namespace tileops_torch {

// The instance for key, constructed from params on the first request (construction errors
// propagate and nothing is cached). Thread-safe; instances live until the process ends.
tileops::Op& cached_instance(const std::string& key, std::string_view op,
                             const tileops::ParamMap& params);
// "RMSNormFwdOp@cpu(normalized_shape=[8], eps=1e-06)" for each cached instance, sorted.
std::vector<std::string> cached_instances();

}  // namespace tileops_torch
