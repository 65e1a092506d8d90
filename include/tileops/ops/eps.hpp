// The epsilon torch uses when a norm's eps is None: the machine epsilon of the input dtype.
#pragma once

#include <optional>

#include "tileops/core/dtype.hpp"
#include "tileops/export.hpp"

namespace tileops {

TILEOPS_API double machine_epsilon(DType dtype) noexcept;
inline double resolve_eps(const std::optional<double>& eps, DType dtype) noexcept {
  return eps ? *eps : machine_epsilon(dtype);
}

}  // namespace tileops
