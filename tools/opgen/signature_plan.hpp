// Orders shape declarations and shape rules so that every symbol is bound before it is read and
// every output's shape is defined before a rule reads it, then writes the checks in that order.
#pragma once

#include <string>
#include <vector>

#include "manifest_model.hpp"

namespace opgen {

// One dim of a shape declaration (or of a 't.shape == (A, B)' rule) as the plan handles it.
struct DimStep {
  enum Kind { kCheck, kBind, kBindScaled, kBindOffset } kind = kCheck;
  ExprPtr expr;        // the dim expression
  std::string text;    // as failure messages show it
  std::string symbol;  // kBind*: the symbol bound
  int64_t k = 0;       // kBindScaled: the factor; kBindOffset: what the dim adds to the symbol
};

// The checks of a call in the order the generated C++ runs them, as data over the parsed
// manifest expressions, so that emitters for other languages (the torch binding's Python fakes)
// follow the same order and raise the same messages.
struct PlanStep {
  enum Kind {
    kDims,  // rank and dims of input `tensor` against `dims` (`declared` is the source text)
    kDefineOutput,  // output `tensor` gets its shape: from `shape_dims`, or from `expr` (a rule)
    kCheckOutput,   // output `tensor` (already defined) must equal `shape_dims`
    kRule,          // `expr` must hold at each call
    kParamRule,     // `expr` reads parameters only: checked at construction
  } kind = kRule;
  std::string tensor;
  int output = -1;
  bool optional = false;  // kDims on an optional input: checked only when it is present
  bool from_rule = false;
  std::string declared;
  std::vector<DimStep> dims;
  std::vector<ExprPtr> shape_dims;
  ExprPtr expr;
  std::string text;                // the rule's text
  std::string argument;            // the argument a failure names
  std::vector<std::string> shows;  // names whose values a failure shows, in order
};

struct SignaturePlan {
  std::vector<std::string> call_lines;   // body lines of check_call_ (shape part)
  std::vector<std::string> param_lines;  // body lines of check_params (rules on params only)
  std::vector<PlanStep> steps;           // the same checks as data, call and param steps in order
};

// Throws FieldError naming the rule or declaration that cannot be ordered or typed.
SignaturePlan plan_signature(const Entry& entry);

}  // namespace opgen
