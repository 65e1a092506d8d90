#include "py_expr_emitter.hpp"

#include <fmt/format.h>

#include "diagnostics.hpp"

namespace opgen {
namespace {

std::string emit(const Expr& e, const PyScope& scope);

const PyName& lookup(const std::string& name, const PyScope& scope) {
  const PyName* n = scope.find(name);
  if (!n) throw GenError(fmt::format("unknown name '{}'", name));
  return *n;
}

// The shape tuple of a tensor name (an input, a tensor parameter or an output).
std::string shape_of(const Expr& object, const PyScope& scope) {
  if (object.kind != ExprKind::kName) throw GenError("an attribute applies only to a tensor name");
  const PyName& n = lookup(object.text, scope);
  if (n.kind == PyName::kOutput) return n.code;
  if (n.kind == PyName::kTensor) return fmt::format("_shape({})", n.code);
  throw GenError(fmt::format("'{}' is not a tensor", object.text));
}

std::string emit_attribute(const Expr& e, const PyScope& scope) {
  const Expr& object = *e.args[0];
  if (e.text == "shape") return shape_of(object, scope);
  if (e.text == "ndim") return fmt::format("len({})", shape_of(object, scope));
  if (e.text == "dtype") {
    const PyName& n = lookup(object.text, scope);
    if (n.kind != PyName::kTensor) throw GenError("'.dtype' applies only to an input tensor");
    return fmt::format("_dtype_name({}.dtype)", n.code);
  }
  throw GenError(fmt::format("unknown tensor attribute '.{}'", e.text));
}

std::string emit_call(const Expr& e, const PyScope& scope) {
  if (e.object) {
    if (e.text != "numel") throw GenError(fmt::format("unknown method '.{}()'", e.text));
    return fmt::format("_product({})", shape_of(*e.object, scope));
  }
  std::vector<std::string> args;
  for (const auto& a : e.args) args.push_back(emit(*a, scope));
  const std::string joined = fmt::format("{}", fmt::join(args, ", "));
  static const std::map<std::string, std::string> kFunctions = {
      {"len", "len"},
      {"product", "_product"},
      {"sum", "_sum"},
      {"tuple", "tuple"},
      {"list", "tuple"},
      {"broadcast_shapes", "_broadcast_shapes"},
      {"is_broadcastable_to", "_is_broadcastable_to"},
      {"reduced_shape", "_reduced_shape"},
      {"min", "min"},
      {"max", "max"},
      {"abs", "abs"},
      {"int", "int"},
      {"float", "float"},
      {"ceil", "_ceil"},
      {"floor", "_floor"},
      {"log2", "_log2"},
      {"isfinite", "_isfinite"},
  };
  auto it = kFunctions.find(e.text);
  if (it == kFunctions.end()) throw GenError(fmt::format("unknown function '{}'", e.text));
  return fmt::format("{}({})", it->second, joined);
}

std::string emit_compare(const Expr& e, const PyScope& scope) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < e.ops.size(); ++i) {
    if (e.ops[i] == "is" || e.ops[i] == "is not") {
      // 'x is None' reads the name itself, never its value (the C++ check: a name and None).
      const PyName& n = lookup(e.args[i]->text, scope);
      parts.push_back(fmt::format("({} {} None)", n.code, e.ops[i]));
      continue;
    }
    // One pair at a time, as the C++ does: Python's own chaining would evaluate the same.
    parts.push_back(
        fmt::format("({} {} {})", emit(*e.args[i], scope), e.ops[i], emit(*e.args[i + 1], scope)));
  }
  if (parts.size() == 1) return parts.front();
  return fmt::format("({})", fmt::join(parts, " and "));
}

std::string emit(const Expr& e, const PyScope& scope) {
  switch (e.kind) {
    case ExprKind::kInt:
      return fmt::format("{}", e.int_value);
    case ExprKind::kFloat:
      return e.text;
    case ExprKind::kString:
      return py_string(e.text);
    case ExprKind::kBool:
      return e.text == "True" ? "True" : "False";
    case ExprKind::kNone:
      return "None";
    case ExprKind::kName: {
      const PyName& n = lookup(e.text, scope);
      if (n.kind != PyName::kValue) {
        throw GenError(fmt::format("tensor '{}' is read only through its attributes", e.text));
      }
      return n.nullable ? fmt::format("_v({})", n.code) : n.code;
    }
    case ExprKind::kAttribute:
      return emit_attribute(e, scope);
    case ExprKind::kCall:
      return emit_call(e, scope);
    case ExprKind::kIndex:
      return fmt::format("{}[{}]", emit(*e.args[0], scope), emit(*e.args[1], scope));
    case ExprKind::kSlice:
      return fmt::format("{}[{}:{}]", emit(*e.args[0], scope),
                         e.args[1] ? emit(*e.args[1], scope) : "",
                         e.args[2] ? emit(*e.args[2], scope) : "");
    case ExprKind::kUnary:
      if (e.text == "not") return fmt::format("(not {})", emit(*e.args[0], scope));
      return fmt::format("(-{})", emit(*e.args[0], scope));
    case ExprKind::kBinary:
      if (e.text == "and" || e.text == "or") {
        // Booleans, as in C++ (Python's `and` would yield an operand).
        return fmt::format("(bool({}) {} bool({}))", emit(*e.args[0], scope), e.text,
                           emit(*e.args[1], scope));
      }
      return fmt::format("({} {} {})", emit(*e.args[0], scope), e.text, emit(*e.args[1], scope));
    case ExprKind::kCompare:
      return emit_compare(e, scope);
    case ExprKind::kTernary:
      return fmt::format("({} if {} else {})", emit(*e.args[0], scope), emit(*e.args[1], scope),
                         emit(*e.args[2], scope));
    case ExprKind::kTuple: {
      std::string out = "(";
      for (const auto& item : e.args) out += emit(*item, scope) + ", ";
      if (!e.args.empty()) out.resize(out.size() - 1);
      return out + ")";
    }
  }
  throw GenError("unsupported expression");
}

}  // namespace

const PyName* PyScope::find(const std::string& name) const {
  auto it = names_.find(name);
  return it == names_.end() ? nullptr : &it->second;
}

std::string emit_python(const Expr& e, const PyScope& scope) {
  return emit(e, scope);
}

std::string py_string(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\\' || c == '\'') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "'";
}

}  // namespace opgen
