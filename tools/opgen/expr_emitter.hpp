// Type checks an expression against the names in scope and writes the equivalent C++.
#pragma once

#include <map>
#include <string>

#include "expr.hpp"

namespace opgen {

enum class Ty { kInt, kFloat, kBool, kStr, kShape, kNone, kDType, kTensor };

std::string ty_name(Ty ty);
std::string cpp_type(Ty ty);  // int64_t, double, bool, std::string_view, ::tileops::Shape, ...

struct Typed {
  Ty ty;
  bool optional = false;  // a nullable parameter: std::optional<...> in C++
  std::string code;
};

struct TensorBinding {
  std::string shape_code;    // C++ expression of type Shape
  std::string present_code;  // C++ expression: true when the tensor was passed
  bool optional = false;
  std::string dtype_code;  // C++ expression of type DType ("" when not known at this point)
};

class Scope {
 public:
  void add_value(const std::string& name, Typed value) { values_[name] = std::move(value); }
  void add_tensor(const std::string& name, TensorBinding tensor) {
    tensors_[name] = std::move(tensor);
  }
  const Typed* value(const std::string& name) const;
  const TensorBinding* tensor(const std::string& name) const;
  bool has(const std::string& name) const { return value(name) || tensor(name); }
  // The arithmetic layer of a roofline admits only ceil, floor and log2.
  bool arithmetic_only = false;

 private:
  std::map<std::string, Typed> values_;
  std::map<std::string, TensorBinding> tensors_;
};

// Throws GenError naming the construct when the expression is ill-typed or reads unknown names.
Typed emit_expression(const Expr& e, const Scope& scope);

// The C++ of a value coerced to bool (ints compare with zero), or GenError.
std::string as_condition(const Typed& value);

}  // namespace opgen
