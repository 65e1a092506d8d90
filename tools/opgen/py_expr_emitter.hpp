// Writes an expression of the expression language as Python for the torch binding's fakes. The
// C++ emitter has already type-checked every expression, so this one only translates: names to
// the fake's locals, tensor attributes to shape tuples, and the helpers to functions of
// tileops_torch._runtime that behave as the C++ helpers do (and work on torch SymInts).
#pragma once

#include <map>
#include <string>

#include "expr.hpp"

namespace opgen {

struct PyName {
  enum Kind { kTensor, kOutput, kValue } kind = kValue;
  std::string code;       // kTensor: the tensor's local; kOutput: its shape tuple; kValue: value
  bool nullable = false;  // a parameter that admits None: reading it as a value fails the rule
};

class PyScope {
 public:
  void add(const std::string& name, PyName value) { names_[name] = std::move(value); }
  const PyName* find(const std::string& name) const;

 private:
  std::map<std::string, PyName> names_;
};

// Throws GenError for a construct the Python fakes do not support.
std::string emit_python(const Expr& e, const PyScope& scope);

// A Python string literal for text.
std::string py_string(const std::string& text);

}  // namespace opgen
