#include "expr_emitter.hpp"

#include <fmt/format.h>

#include "diagnostics.hpp"

namespace opgen {
namespace {

bool numeric(Ty t) {
  return t == Ty::kInt || t == Ty::kFloat;
}

std::string unwrap(const Typed& v) {
  if (!v.optional) return v.code;
  return fmt::format("::tileops::detail::value_of({})", v.code);
}

Typed need(const Typed& v, Ty ty, const char* where) {
  if (v.ty == ty) return {ty, false, unwrap(v)};
  if (ty == Ty::kFloat && v.ty == Ty::kInt) return {Ty::kFloat, false, "double(" + unwrap(v) + ")"};
  throw GenError(fmt::format("{} expects {}, got {}", where, ty_name(ty), ty_name(v.ty)));
}

Typed emit_call(const Expr& e, const Scope& scope);

Typed emit_tensor_attribute(const Expr& e, const Scope& scope) {
  const Expr& obj = *e.args[0];
  if (scope.arithmetic_only && obj.kind == ExprKind::kName) {
    throw GenError(fmt::format("'{}.{}' is not allowed in flops/bytes; bind it in a var first",
                               obj.text, e.text));
  }
  if (obj.kind != ExprKind::kName || !scope.tensor(obj.text)) {
    throw GenError(fmt::format("attribute '.{}' applies only to a tensor name", e.text));
  }
  if (scope.arithmetic_only) {
    throw GenError(fmt::format("'{}.{}' is not allowed in flops/bytes; bind it in a var first",
                               obj.text, e.text));
  }
  const TensorBinding& t = *scope.tensor(obj.text);
  if (e.text == "shape") return {Ty::kShape, false, t.shape_code};
  if (e.text == "ndim") return {Ty::kInt, false, fmt::format("int64_t(({}).rank())", t.shape_code)};
  if (e.text == "dtype" && !t.dtype_code.empty()) {
    return {Ty::kStr, false, fmt::format("::tileops::dtype_name({})", t.dtype_code)};
  }
  throw GenError(fmt::format(
      "unknown tensor attribute '.{}'; expected .shape, .ndim, .dtype or .numel()", e.text));
}

Typed emit_binary(const Expr& e, const Scope& scope) {
  const std::string& op = e.text;
  Typed a = emit_expression(*e.args[0], scope);
  Typed b = emit_expression(*e.args[1], scope);
  if (op == "and" || op == "or") {
    return {Ty::kBool, false,
            fmt::format("({} {} {})", as_condition(a), op == "and" ? "&&" : "||", as_condition(b))};
  }
  if (op == "+" && a.ty == Ty::kShape && b.ty == Ty::kShape) {
    return {Ty::kShape, false, fmt::format("::tileops::shape_ops::concat({}, {})", a.code, b.code)};
  }
  if (!numeric(a.ty) || !numeric(b.ty)) {
    throw GenError(fmt::format("operator '{}' expects numbers (or two shapes for +), got {} and {}",
                               op, ty_name(a.ty), ty_name(b.ty)));
  }
  const bool both_int = a.ty == Ty::kInt && b.ty == Ty::kInt;
  const std::string x = unwrap(a), y = unwrap(b);
  if (op == "//") {
    if (both_int)
      return {Ty::kInt, false, fmt::format("::tileops::shape_ops::floordiv({}, {})", x, y)};
    return {Ty::kFloat, false, fmt::format("std::floor(double({}) / double({}))", x, y)};
  }
  if (op == "%") {
    if (!both_int) throw GenError("operator '%' expects integers");
    return {Ty::kInt, false, fmt::format("::tileops::shape_ops::floormod({}, {})", x, y)};
  }
  if (op == "/") return {Ty::kFloat, false, fmt::format("(double({}) / double({}))", x, y)};
  const Ty ty = both_int ? Ty::kInt : Ty::kFloat;
  if (both_int) return {ty, false, fmt::format("({} {} {})", x, op, y)};
  return {ty, false, fmt::format("(double({}) {} double({}))", x, op, y)};
}

std::string compare_pair(const Typed& a, const std::string& op, const Typed& b) {
  if (op == "in" || op == "not in") {
    std::string test;
    if (b.ty == Ty::kShape && numeric(a.ty)) {
      test = fmt::format("::tileops::detail::shape_contains({}, {})", b.code, unwrap(a));
    } else {
      throw GenError(fmt::format("'in' expects an integer and a tuple of integers, got {} in {}",
                                 ty_name(a.ty), ty_name(b.ty)));
    }
    return op == "in" ? test : "!" + test;
  }
  if (op == "is" || op == "is not") {
    throw GenError("'is' compares only with None, as 'x is None' or 'x is not None'");
  }
  if (numeric(a.ty) && numeric(b.ty)) {
    if (a.ty == Ty::kInt && b.ty == Ty::kInt) {
      return fmt::format("({} {} {})", unwrap(a), op, unwrap(b));
    }
    return fmt::format("(double({}) {} double({}))", unwrap(a), op, unwrap(b));
  }
  if (a.ty != b.ty || (op != "==" && op != "!=")) {
    throw GenError(fmt::format("cannot compare {} {} {}", ty_name(a.ty), op, ty_name(b.ty)));
  }
  return fmt::format("({} {} {})", unwrap(a), op, unwrap(b));
}

Typed emit_compare(const Expr& e, const Scope& scope) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < e.ops.size(); ++i) {
    const std::string& op = e.ops[i];
    const Expr& left = *e.args[i];
    const Expr& right = *e.args[i + 1];
    if (op == "is" || op == "is not") {
      if (right.kind != ExprKind::kNone || left.kind != ExprKind::kName) {
        throw GenError("'is' compares only a name with None ('x is None')");
      }
      std::string absent;
      if (const TensorBinding* t = scope.tensor(left.text)) {
        if (!t->optional)
          throw GenError(fmt::format("input '{}' is not optional, so it is never None", left.text));
        absent = "!(" + t->present_code + ")";
      } else if (const Typed* v = scope.value(left.text)) {
        if (!v->optional) throw GenError(fmt::format("'{}' does not admit None", left.text));
        absent = "!(" + v->code + ").has_value()";
      } else {
        throw GenError(fmt::format("unknown name '{}'", left.text));
      }
      parts.push_back(op == "is" ? absent : "!" + absent);
      continue;
    }
    if (op == "in" || op == "not in") {
      if (right.kind == ExprKind::kTuple && !right.args.empty() &&
          right.args[0]->kind == ExprKind::kString) {
        Typed a = emit_expression(left, scope);
        if (a.ty != Ty::kStr) throw GenError("'in' over strings expects a string on the left");
        std::vector<std::string> items;
        for (const auto& item : right.args) {
          if (item->kind != ExprKind::kString)
            throw GenError("a tuple of strings holds only strings");
          items.push_back(fmt::format("std::string_view(\"{}\")", item->text));
        }
        std::string test = fmt::format("::tileops::shape_ops::contains({{{}}}, {})",
                                       fmt::join(items, ", "), unwrap(a));
        parts.push_back(op == "in" ? test : "!" + test);
        continue;
      }
    }
    parts.push_back(compare_pair(emit_expression(left, scope), op, emit_expression(right, scope)));
  }
  return {Ty::kBool, false, fmt::format("({})", fmt::join(parts, " && "))};
}

Typed emit_tuple(const Expr& e, const Scope& scope) {
  std::vector<std::string> items;
  for (const auto& item : e.args) {
    Typed v = emit_expression(*item, scope);
    if (v.ty != Ty::kInt) {
      throw GenError(fmt::format("a tuple holds integers (a shape), got {}", ty_name(v.ty)));
    }
    items.push_back(unwrap(v));
  }
  return {Ty::kShape, false, fmt::format("::tileops::Shape{{{}}}", fmt::join(items, ", "))};
}

Typed emit_call(const Expr& e, const Scope& scope) {
  if (e.object) {  // method call: only tensor.numel()
    if (e.text != "numel" || !e.args.empty() || e.object->kind != ExprKind::kName ||
        !scope.tensor(e.object->text)) {
      throw GenError(
          fmt::format("unknown method '.{}()'; the only method is tensor.numel()", e.text));
    }
    if (scope.arithmetic_only) throw GenError("'.numel()' is not allowed in flops/bytes");
    return {Ty::kInt, false, fmt::format("({}).numel()", scope.tensor(e.object->text)->shape_code)};
  }
  const std::string& f = e.text;
  std::vector<Typed> a;
  for (const auto& arg : e.args) a.push_back(emit_expression(*arg, scope));
  auto arity = [&](size_t n) {
    if (a.size() != n)
      throw GenError(fmt::format("{}() takes {} argument(s), got {}", f, n, a.size()));
  };
  if (scope.arithmetic_only && f != "ceil" && f != "floor" && f != "log2") {
    throw GenError(
        fmt::format("function '{}' is not allowed in flops/bytes (only ceil, floor, "
                    "log2); compute it in a var",
                    f));
  }
  if (f == "len") {
    arity(1);
    return {Ty::kInt, false,
            fmt::format("int64_t(({}).rank())", need(a[0], Ty::kShape, "len()").code)};
  }
  if (f == "product" || f == "sum") {
    arity(1);
    return {
        Ty::kInt, false,
        fmt::format("::tileops::shape_ops::{}({})", f, need(a[0], Ty::kShape, "product()").code)};
  }
  if (f == "tuple" || f == "list") {
    arity(1);
    return {Ty::kShape, false, need(a[0], Ty::kShape, "tuple()").code};
  }
  if (f == "broadcast_shapes") {
    arity(2);
    return {Ty::kShape, false,
            fmt::format("::tileops::detail::broadcast_or_fail({}, {})",
                        need(a[0], Ty::kShape, f.c_str()).code,
                        need(a[1], Ty::kShape, f.c_str()).code)};
  }
  if (f == "is_broadcastable_to") {
    arity(2);
    return {Ty::kBool, false,
            fmt::format("::tileops::detail::broadcastable_to({}, {})",
                        need(a[0], Ty::kShape, f.c_str()).code,
                        need(a[1], Ty::kShape, f.c_str()).code)};
  }
  if (f == "reduced_shape") {
    arity(3);
    std::string dims = a[1].ty == Ty::kInt ? fmt::format("::tileops::Shape{{{}}}", unwrap(a[1]))
                                           : need(a[1], Ty::kShape, f.c_str()).code;
    return {Ty::kShape, false,
            fmt::format("::tileops::shape_ops::reduced_shape({}, {}, {})",
                        need(a[0], Ty::kShape, f.c_str()).code, dims, as_condition(a[2]))};
  }
  if (f == "min" || f == "max") {
    if (a.size() < 2) throw GenError(fmt::format("{}() takes at least 2 arguments", f));
    bool all_int = true;
    for (const auto& v : a) {
      if (!numeric(v.ty)) throw GenError(fmt::format("{}() expects numbers", f));
      all_int = all_int && v.ty == Ty::kInt;
    }
    std::vector<std::string> items;
    for (const auto& v : a) items.push_back(all_int ? unwrap(v) : "double(" + unwrap(v) + ")");
    return {all_int ? Ty::kInt : Ty::kFloat, false,
            fmt::format("std::{}({{{}}})", f, fmt::join(items, ", "))};
  }
  if (f == "abs") {
    arity(1);
    if (!numeric(a[0].ty)) throw GenError("abs() expects a number");
    return {a[0].ty, false, fmt::format("std::abs({})", unwrap(a[0]))};
  }
  if (f == "int") {
    arity(1);
    if (!numeric(a[0].ty)) throw GenError("int() expects a number");
    return {Ty::kInt, false, fmt::format("int64_t({})", unwrap(a[0]))};
  }
  if (f == "float") {
    arity(1);
    return {Ty::kFloat, false, need(a[0], Ty::kFloat, "float()").code};
  }
  if (f == "ceil" || f == "floor") {
    arity(1);
    return {Ty::kInt, false,
            fmt::format("int64_t(std::{}({}))", f, need(a[0], Ty::kFloat, f.c_str()).code)};
  }
  if (f == "log2") {
    arity(1);
    return {Ty::kFloat, false, fmt::format("std::log2({})", need(a[0], Ty::kFloat, "log2()").code)};
  }
  if (f == "isfinite") {
    arity(1);
    return {Ty::kBool, false,
            fmt::format("std::isfinite({})", need(a[0], Ty::kFloat, "isfinite()").code)};
  }
  throw GenError(fmt::format(
      "unknown function '{}'; expected one of len, product, sum, tuple, list, broadcast_shapes, "
      "is_broadcastable_to, reduced_shape, min, max, abs, int, float, ceil, floor, log2, isfinite",
      f));
}

}  // namespace

std::string ty_name(Ty ty) {
  switch (ty) {
    case Ty::kInt:
      return "int";
    case Ty::kFloat:
      return "float";
    case Ty::kBool:
      return "bool";
    case Ty::kStr:
      return "str";
    case Ty::kShape:
      return "shape";
    case Ty::kNone:
      return "None";
    case Ty::kDType:
      return "dtype";
    case Ty::kTensor:
      return "tensor";
  }
  return "?";
}

std::string cpp_type(Ty ty) {
  switch (ty) {
    case Ty::kInt:
      return "int64_t";
    case Ty::kFloat:
      return "double";
    case Ty::kBool:
      return "bool";
    case Ty::kStr:
      return "std::string";
    case Ty::kShape:
      return "::tileops::Shape";
    case Ty::kNone:
      return "::tileops::NoneValue";
    case Ty::kDType:
      return "::tileops::DType";
    case Ty::kTensor:
      return "::tileops::Tensor";
  }
  return "?";
}

const Typed* Scope::value(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? nullptr : &it->second;
}

const TensorBinding* Scope::tensor(const std::string& name) const {
  auto it = tensors_.find(name);
  return it == tensors_.end() ? nullptr : &it->second;
}

std::string as_condition(const Typed& value) {
  if (value.ty == Ty::kBool) return unwrap(value);
  if (value.ty == Ty::kInt) return fmt::format("({} != 0)", unwrap(value));
  throw GenError(fmt::format("expected a condition (bool), got {}", ty_name(value.ty)));
}

Typed emit_expression(const Expr& e, const Scope& scope) {
  switch (e.kind) {
    case ExprKind::kInt:
      return {Ty::kInt, false, fmt::format("int64_t{{{}}}", e.int_value)};
    case ExprKind::kFloat:
      return {Ty::kFloat, false, fmt::format("double({})", e.text)};
    case ExprKind::kString:
      return {Ty::kStr, false, fmt::format("std::string_view(\"{}\")", e.text)};
    case ExprKind::kBool:
      return {Ty::kBool, false, e.text == "True" ? "true" : "false"};
    case ExprKind::kNone:
      throw GenError("None may appear only in 'x is None' / 'x is not None'");
    case ExprKind::kName: {
      if (const Typed* v = scope.value(e.text)) return *v;
      if (scope.tensor(e.text)) {
        throw GenError(
            fmt::format("tensor '{}' is read only through .shape, .ndim, .numel() or "
                        "'is None'",
                        e.text));
      }
      throw GenError(fmt::format("unknown name '{}'", e.text));
    }
    case ExprKind::kAttribute:
      return emit_tensor_attribute(e, scope);
    case ExprKind::kCall:
      return emit_call(e, scope);
    case ExprKind::kIndex: {
      Typed s = need(emit_expression(*e.args[0], scope), Ty::kShape, "indexing");
      Typed i = need(emit_expression(*e.args[1], scope), Ty::kInt, "an index");
      return {Ty::kInt, false, fmt::format("::tileops::shape_ops::at({}, {})", s.code, i.code)};
    }
    case ExprKind::kSlice: {
      Typed s = need(emit_expression(*e.args[0], scope), Ty::kShape, "slicing");
      auto bound = [&](const ExprPtr& b) {
        if (!b) return std::string("std::nullopt");
        return "std::optional<int64_t>(" +
               need(emit_expression(*b, scope), Ty::kInt, "a slice bound").code + ")";
      };
      return {Ty::kShape, false,
              fmt::format("::tileops::shape_ops::slice({}, {}, {})", s.code, bound(e.args[1]),
                          bound(e.args[2]))};
    }
    case ExprKind::kUnary: {
      Typed v = emit_expression(*e.args[0], scope);
      if (e.text == "not") return {Ty::kBool, false, "!" + as_condition(v)};
      if (!numeric(v.ty))
        throw GenError(fmt::format("unary '-' expects a number, got {}", ty_name(v.ty)));
      return {v.ty, false, "(-" + unwrap(v) + ")"};
    }
    case ExprKind::kBinary:
      return emit_binary(e, scope);
    case ExprKind::kCompare:
      return emit_compare(e, scope);
    case ExprKind::kTernary: {
      Typed a = emit_expression(*e.args[0], scope);
      const std::string cond = as_condition(emit_expression(*e.args[1], scope));
      Typed b = emit_expression(*e.args[2], scope);
      if (a.ty != b.ty) {
        if (numeric(a.ty) && numeric(b.ty)) {
          return {Ty::kFloat, false,
                  fmt::format("({} ? double({}) : double({}))", cond, unwrap(a), unwrap(b))};
        }
        throw GenError(
            fmt::format("the branches of 'a if c else b' have different types: {} and {}",
                        ty_name(a.ty), ty_name(b.ty)));
      }
      return {a.ty, false, fmt::format("({} ? {} : {})", cond, unwrap(a), unwrap(b))};
    }
    case ExprKind::kTuple:
      return emit_tuple(e, scope);
  }
  throw GenError("unsupported expression");
}

}  // namespace opgen
