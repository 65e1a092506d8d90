// The tileops expression language: a small, statically typed subset of Python used by shape
// rules, shape declarations and roofline formulas (docs/design/expression-language.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace opgen {

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

enum class ExprKind {
  kInt,        // 42
  kFloat,      // 1e-6
  kString,     // 'valid'
  kNone,       // None
  kBool,       // True / False
  kName,       // x
  kAttribute,  // x.shape   (text = attribute name; args[0] = object)
  kCall,       // f(a, b) or x.numel()   (text = function name; args; object in `object`)
  kIndex,      // s[i]      (args = {s, i})
  kSlice,      // s[a:b]    (args = {s, a or null, b or null})
  kUnary,      // -a, not a (text = "-" or "not")
  kBinary,     // a + b     (text = operator: + - * / // % and or)
  kCompare,    // a < b <= c (ops = operators, args = operands)
  kTernary,    // a if c else b (args = {a, c, b})
  kTuple,      // (a, b)
};

struct Expr {
  ExprKind kind;
  std::string text;
  int64_t int_value = 0;
  double float_value = 0;
  std::vector<ExprPtr> args;
  std::vector<std::string> ops;  // comparison operators: == != < <= > >= in "not in" is "is not"
  ExprPtr object;                // receiver of a method call
};

// Parses source; throws GenError with the column and what was expected.
ExprPtr parse_expression(const std::string& source);

// Every bare name the expression reads (not attribute or function names), in order of appearance.
void collect_names(const Expr& e, std::vector<std::string>& out);

}  // namespace opgen
