// Orders shape declarations and shape rules so that every symbol is bound before it is read and
// every output's shape is defined before a rule reads it, then writes the checks in that order.
#pragma once

#include <string>
#include <vector>

#include "manifest_model.hpp"

namespace opgen {

struct SignaturePlan {
  std::vector<std::string> call_lines;   // body lines of check_call_ (shape part)
  std::vector<std::string> param_lines;  // body lines of check_params (rules on params only)
};

// Throws FieldError naming the rule or declaration that cannot be ordered or typed.
SignaturePlan plan_signature(const Entry& entry);

}  // namespace opgen
