// How an op instance finds its target and the target's kernel builder (the Op base class's side
// of the target registry in target.hpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "tileops/framework/target.hpp"

namespace tileops::detail {

// Resolves the target for a call of op on device (precedence in target.hpp; detection asks only
// the detectors of targets with a builder for op that are not excluded). "builtin" for in-tree.
std::string select_target(std::string_view op, const Target& instance_target,
                          std::optional<Device> device);
const KernelBuilder* find_builder(std::string_view op, std::string_view target);

}  // namespace tileops::detail
