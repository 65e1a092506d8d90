#include "signature_plan.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "cpp_literal.hpp"
#include "op_emitter.hpp"

namespace opgen {
namespace {

struct DimPattern {
  enum Kind { kCheck, kBind, kBindScaled, kBindOffset, kNotReady } kind = kNotReady;
  std::string symbol;
  int64_t k = 0;
};

class Planner {
 public:
  explicit Planner(const Entry& e) : e_(e), out_defined_(e.outputs.size(), false) {
    for (const ParamDecl& p : e.params) {
      if (p.ty == Ty::kTensor) {  // construction-time tensor
        TensorBinding b{"p_" + p.name + ".shape()", "p_" + p.name + ".defined()", p.nullable,
                        "p_" + p.name + ".dtype()"};
        scope_.add_tensor(p.name, b);
        param_only_scope_.add_tensor(p.name, b);
        continue;
      }
      scope_.add_value(p.name, Typed{p.ty, p.nullable, "p_" + p.name});
      param_only_scope_.add_value(p.name, Typed{p.ty, p.nullable, "p_" + p.name});
    }
    for (const TensorDecl& t : e.inputs) {
      scope_.add_tensor(t.name, {"t_" + t.name + ".shape()", "t_" + t.name + ".defined()",
                                 t.optional, "t_" + t.name + ".dtype()"});
    }
  }

  SignaturePlan run() {
    struct Item {
      enum Kind { kInputDecl, kRule, kOutputDecl } kind;
      size_t index;
      bool done = false;
    };
    std::vector<Item> items;
    for (size_t i = 0; i < e_.inputs.size(); ++i) {
      if (!e_.inputs[i].shape_dims.empty() || !e_.inputs[i].shape_text.empty()) {
        items.push_back({Item::kInputDecl, i});
      }
    }
    for (size_t i = 0; i < e_.shape_rules.size(); ++i) items.push_back({Item::kRule, i});
    for (size_t i = 0; i < e_.outputs.size(); ++i) {
      if (!e_.outputs[i].shape_text.empty()) items.push_back({Item::kOutputDecl, i});
    }
    for (bool progress = true; progress;) {
      progress = false;
      for (Item& item : items) {
        if (item.done) continue;
        bool ok = false;
        switch (item.kind) {
          case Item::kInputDecl:
            ok = input_decl(item.index);
            break;
          case Item::kRule:
            ok = rule(item.index);
            break;
          case Item::kOutputDecl:
            ok = output_decl(item.index);
            break;
        }
        if (ok) {
          item.done = progress = true;
          break;  // restart from the first pending item: earlier items keep their precedence
        }
      }
    }
    for (const Item& item : items) {
      if (item.done) continue;
      if (item.kind == Item::kRule) {
        throw FieldError(e_.key, fmt::format("signature.shape_rules[{}]", item.index),
                         fmt::format("'{}': {}", e_.shape_rule_texts[item.index],
                                     unready_reason(*e_.shape_rules[item.index])));
      }
      const TensorDecl& t =
          item.kind == Item::kInputDecl ? e_.inputs[item.index] : e_.outputs[item.index];
      throw FieldError(
          e_.key,
          fmt::format("signature.{}.{}.shape", item.kind == Item::kInputDecl ? "inputs" : "outputs",
                      t.name),
          fmt::format("'{}' uses symbols that no input shape or rule binds", t.shape_text));
    }
    for (size_t i = 0; i < e_.outputs.size(); ++i) {
      if (!out_defined_[i]) {
        throw FieldError(e_.key, "signature.outputs." + e_.outputs[i].name,
                         "output has no shape: declare 'shape' or a rule '" + e_.outputs[i].name +
                             ".shape == ...'");
      }
    }
    return std::move(plan_);
  }

 private:
  bool is_input(const std::string& n) const { return e_.input_index(n) >= 0; }
  bool is_output(const std::string& n) const { return e_.output_index(n) >= 0; }
  bool is_param(const std::string& n) const { return e_.find_param(n) != nullptr; }

  bool name_ready(const std::string& n) const {
    if (is_param(n) || is_input(n)) return true;
    if (is_output(n)) return out_defined_[e_.output_index(n)];
    return symbols_.count(n) > 0;
  }
  bool ready(const Expr& ex) const {
    std::vector<std::string> names;
    collect_names(ex, names);
    for (const auto& n : names) {
      if (!name_ready(n)) return false;
    }
    return true;
  }
  std::string unready_reason(const Expr& ex) const {
    std::vector<std::string> names;
    collect_names(ex, names);
    for (const auto& n : names) {
      if (name_ready(n) || is_output(n)) continue;
      return fmt::format(
          "name '{}' is not an input, output or parameter, and no shape "
          "declaration or 'x.shape == (...)' rule binds it",
          n);
    }
    for (const auto& n : names) {
      if (!name_ready(n)) return fmt::format("reads output '{}' whose shape nothing defines", n);
    }
    return "cannot be ordered";
  }

  // Only integer literals and bare names take part in binding patterns.
  DimPattern classify(const Expr& d) const {
    DimPattern p;
    if (ready(d)) {
      p.kind = DimPattern::kCheck;
      return p;
    }
    if (d.kind == ExprKind::kName && !is_param(d.text) && !is_input(d.text) && !is_output(d.text)) {
      p.kind = DimPattern::kBind;
      p.symbol = d.text;
      return p;
    }
    if (d.kind == ExprKind::kBinary && d.args.size() == 2) {
      const Expr& a = *d.args[0];
      const Expr& b = *d.args[1];
      const Expr* name = nullptr;
      const Expr* lit = nullptr;
      if (a.kind == ExprKind::kName && b.kind == ExprKind::kInt) {
        name = &a;
        lit = &b;
      } else if (d.text == "*" && b.kind == ExprKind::kName && a.kind == ExprKind::kInt) {
        name = &b;
        lit = &a;
      }
      if (name && !name_ready(name->text) && !is_param(name->text) && !is_input(name->text)) {
        p.symbol = name->text;
        p.k = lit->int_value;
        if (d.text == "*" && p.k > 0) {
          p.kind = DimPattern::kBindScaled;
        } else if (d.text == "+" || d.text == "-") {
          p.kind = DimPattern::kBindOffset;
          if (d.text == "-") p.k = -p.k;
        }
      }
    }
    return p;
  }

  // Checks rank and dims of one tensor against a list of dim expressions, binding new symbols.
  // Returns false (emitting nothing) when some dim can be neither checked nor bound yet.
  bool bind_dims(const std::string& tensor, const std::string& shape_code,
                 const std::vector<ExprPtr>& dims, const std::string& declared, bool optional,
                 const std::string& field) {
    std::set<std::string> would_bind;
    for (const auto& d : dims) {
      DimPattern p = classify(*d);
      if (p.kind == DimPattern::kNotReady) {
        // A dim may read a symbol bound by an earlier dim of the same declaration.
        std::vector<std::string> names;
        collect_names(*d, names);
        for (const auto& n : names) {
          if (!name_ready(n) && !would_bind.count(n)) return false;
        }
      } else if (p.kind != DimPattern::kCheck) {
        would_bind.insert(p.symbol);
      }
    }
    if (optional && !would_bind.empty()) {
      throw FieldError(e_.key, field,
                       fmt::format("optional input '{}' may not be the first to bind a symbol "
                                   "('{}'); bind it from a required input",
                                   tensor, *would_bind.begin()));
    }
    std::vector<std::string>& out = plan_.call_lines;
    PlanStep step;
    step.kind = PlanStep::kDims;
    step.tensor = tensor;
    step.optional = optional;
    step.declared = declared;
    std::string indent = "  ";
    if (optional) {
      out.push_back(fmt::format("  if (t_{}.defined()) {{", tensor));
      indent = "    ";
    }
    out.push_back(fmt::format("{}::tileops::detail::require_rank(kName, \"{}\", {}, {}, {});",
                              indent, tensor, shape_code, dims.size(), cpp_string(declared)));
    for (size_t i = 0; i < dims.size(); ++i) {
      const Expr& d = *dims[i];
      DimPattern p = classify(d);
      const std::string dim = fmt::format("{}[{}]", shape_code, i);
      DimStep recorded;
      recorded.expr = dims[i];
      recorded.text = expr_text(d);
      recorded.symbol = p.symbol;
      recorded.k = p.k;
      switch (p.kind) {
        case DimPattern::kCheck: {
          Typed v = emit_typed(d, field);
          out.push_back(fmt::format(
              "{}if ({} != ({})) ::tileops::detail::throw_dim(kName, \"{}\", "
              "{}, {}, {}, {});",
              indent, dim, v.code, tensor, i, cpp_string(expr_text(d)), v.code, shape_code));
          recorded.kind = DimStep::kCheck;
          break;
        }
        case DimPattern::kBind:
          out.push_back(fmt::format("{}const int64_t s_{} = {};", indent, p.symbol, dim));
          bind_symbol(p.symbol);
          recorded.kind = DimStep::kBind;
          break;
        case DimPattern::kBindScaled:
          out.push_back(
              fmt::format("{}if ({} % {} != 0) ::tileops::detail::throw_dim(kName, \"{}\", "
                          "{}, \"a multiple of {}\", {} / {} * {}, {});",
                          indent, dim, p.k, tensor, i, p.k, dim, p.k, p.k, shape_code));
          out.push_back(fmt::format("{}const int64_t s_{} = {} / {};", indent, p.symbol, dim, p.k));
          bind_symbol(p.symbol);
          recorded.kind = DimStep::kBindScaled;
          break;
        case DimPattern::kBindOffset:
          out.push_back(
              fmt::format("{}const int64_t s_{} = {} - ({});", indent, p.symbol, dim, p.k));
          bind_symbol(p.symbol);
          recorded.kind = DimStep::kBindOffset;
          break;
        case DimPattern::kNotReady:
          throw FieldError(e_.key, field, "internal: dim became unready");
      }
      step.dims.push_back(std::move(recorded));
    }
    if (optional) out.push_back("  }");
    plan_.steps.push_back(std::move(step));
    return true;
  }

  void bind_symbol(const std::string& name) {
    symbols_.insert(name);
    scope_.add_value(name, Typed{Ty::kInt, false, "s_" + name});
  }

  static std::string expr_text(const Expr& d) {
    switch (d.kind) {
      case ExprKind::kName:
        return d.text;
      case ExprKind::kInt:
        return std::to_string(d.int_value);
      case ExprKind::kBinary:
        return expr_text(*d.args[0]) + " " + d.text + " " + expr_text(*d.args[1]);
      default:
        return "expression";
    }
  }

  Typed emit_typed(const Expr& ex, const std::string& field) {
    try {
      return emit_expression(ex, scope_);
    } catch (const FieldError&) {
      throw;
    } catch (const GenError& err) {
      throw FieldError(e_.key, field, err.what());
    }
  }

  bool input_decl(size_t i) {
    const TensorDecl& t = e_.inputs[i];
    return bind_dims(t.name, "t_" + t.name + ".shape()", t.shape_dims, t.shape_text, t.optional,
                     "signature.inputs." + t.name + ".shape");
  }

  bool output_decl(size_t i) {
    const TensorDecl& t = e_.outputs[i];
    for (const auto& d : t.shape_dims) {
      if (!ready(*d)) return false;
    }
    const std::string field = "signature.outputs." + t.name + ".shape";
    std::vector<std::string> dims;
    for (const auto& d : t.shape_dims) {
      Typed v = emit_typed(*d, field);
      if (v.ty != Ty::kInt) throw FieldError(e_.key, field, "a shape dim must be an integer");
      dims.push_back(v.code);
    }
    const std::string shape = fmt::format("::tileops::Shape{{{}}}", fmt::join(dims, ", "));
    PlanStep step;
    step.kind = out_defined_[i] ? PlanStep::kCheckOutput : PlanStep::kDefineOutput;
    step.tensor = t.name;
    step.output = static_cast<int>(i);
    step.declared = t.shape_text;
    step.shape_dims = t.shape_dims;
    plan_.steps.push_back(std::move(step));
    if (!out_defined_[i]) {
      plan_.call_lines.push_back(fmt::format("  f.out_shapes[{}] = {};", i, shape));
      define_output(i);
    } else {
      plan_.call_lines.push_back(fmt::format(
          "  if (!(f.out_shapes[{}] == {})) ::tileops::detail::throw_rule(kName, \"{}\", {}, "
          "{{{{\"{}.shape\", ::tileops::detail::show(f.out_shapes[{}])}}}});",
          i, shape, t.name, cpp_string(t.shape_text), t.name, i));
    }
    return true;
  }

  void define_output(size_t i) {
    out_defined_[i] = true;
    const std::string code = fmt::format("f.out_shapes[{}]", i);
    scope_.add_tensor(e_.outputs[i].name, {code, "true", false});
  }

  // The names whose values the failure message of ex shows, in order of first appearance.
  std::vector<std::string> show_names(const Expr& ex) const {
    std::vector<std::string> names, out;
    collect_names(ex, names);
    std::set<std::string> seen;
    for (const auto& n : names) {
      if (!seen.insert(n).second) continue;
      if (is_input(n) || is_output(n) || is_param(n) || symbols_.count(n)) out.push_back(n);
    }
    return out;
  }

  std::string shows(const Expr& ex) const {
    std::vector<std::string> parts;
    for (const auto& n : show_names(ex)) {
      if (is_input(n)) {
        parts.push_back(
            fmt::format("{{\"{0}.shape\", t_{0}.defined() ? ::tileops::detail::show("
                        "t_{0}.shape()) : std::string(\"None\")}}",
                        n));
      } else if (is_output(n)) {
        parts.push_back(fmt::format("{{\"{}.shape\", ::tileops::detail::show(f.out_shapes[{}])}}",
                                    n, e_.output_index(n)));
      } else if (is_param(n)) {
        parts.push_back(fmt::format("{{\"{0}\", ::tileops::detail::show(p_{0})}}", n));
      } else if (symbols_.count(n)) {
        parts.push_back(fmt::format("{{\"{0}\", ::tileops::detail::show(s_{0})}}", n));
      }
    }
    return fmt::format("{{{}}}", fmt::join(parts, ", "));
  }

  std::string first_argument(const Expr& ex) const {
    std::vector<std::string> names;
    collect_names(ex, names);
    for (const auto& n : names) {
      if (is_input(n) || is_param(n)) return n;
    }
    for (const auto& n : names) {
      if (is_output(n)) return n;
    }
    return names.empty() ? std::string("shape_rules") : names.front();
  }

  bool rule(size_t i) {
    const Expr& r = *e_.shape_rules[i];
    const std::string field = fmt::format("signature.shape_rules[{}]", i);
    const std::string& text = e_.shape_rule_texts[i];
    // T.shape == (a, b, ...) on an input binds the free symbols it names.
    if (r.kind == ExprKind::kCompare && r.ops.size() == 1 && r.ops[0] == "==" &&
        r.args[0]->kind == ExprKind::kAttribute && r.args[0]->text == "shape" &&
        r.args[0]->args[0]->kind == ExprKind::kName && is_input(r.args[0]->args[0]->text) &&
        r.args[1]->kind == ExprKind::kTuple && !ready(r)) {
      const std::string t = r.args[0]->args[0]->text;
      return bind_dims(t, "t_" + t + ".shape()", r.args[1]->args, text,
                       e_.inputs[e_.input_index(t)].optional, field);
    }
    // OUT.shape == expr defines an output's shape.
    if (r.kind == ExprKind::kCompare && r.ops.size() == 1 && r.ops[0] == "==" &&
        r.args[0]->kind == ExprKind::kAttribute && r.args[0]->text == "shape" &&
        r.args[0]->args[0]->kind == ExprKind::kName && is_output(r.args[0]->args[0]->text) &&
        !out_defined_[e_.output_index(r.args[0]->args[0]->text)]) {
      if (!ready(*r.args[1])) return false;
      const int j = e_.output_index(r.args[0]->args[0]->text);
      Typed v = emit_typed(*r.args[1], field);
      if (v.ty != Ty::kShape) throw FieldError(e_.key, field, "an output shape must be a shape");
      plan_.call_lines.push_back(
          fmt::format("  if (!::tileops::detail::try_assign(f.out_shapes[{}], [&] {{ return "
                      "::tileops::Shape({}); "
                      "}})) ::tileops::detail::throw_rule(kName, \"{}\", {}, {});",
                      j, v.code, first_argument(*r.args[1]), cpp_string(text), shows(*r.args[1])));
      record_rule(PlanStep::kDefineOutput, r.args[1], text, first_argument(*r.args[1]),
                  show_names(*r.args[1]));
      plan_.steps.back().tensor = e_.outputs[j].name;
      plan_.steps.back().output = j;
      plan_.steps.back().from_rule = true;
      define_output(static_cast<size_t>(j));
      return true;
    }
    if (!ready(r)) return false;
    std::vector<std::string> names;
    collect_names(r, names);
    const bool params_only =
        !names.empty() &&
        std::all_of(names.begin(), names.end(), [&](const auto& n) { return is_param(n); });
    if (params_only) {
      Typed v;
      try {
        v = emit_expression(r, param_only_scope_);
      } catch (const GenError& err) {
        throw FieldError(e_.key, field, err.what());
      }
      plan_.param_lines.push_back(
          fmt::format("  if (!::tileops::detail::rule_holds([&] {{ return {}; }})) "
                      "::tileops::detail::throw_param_rule(kName, \"{}\", {}, {});",
                      as_condition(v), first_argument(r), cpp_string(text), shows(r)));
      record_rule(PlanStep::kParamRule, e_.shape_rules[i], text, first_argument(r), show_names(r));
      return true;
    }
    Typed v = emit_typed(r, field);
    std::string cond;
    try {
      cond = as_condition(v);
    } catch (const GenError& err) {
      throw FieldError(e_.key, field, err.what());
    }
    plan_.call_lines.push_back(
        fmt::format("  if (!::tileops::detail::rule_holds([&] {{ return {}; }})) "
                    "::tileops::detail::throw_rule(kName, \"{}\", {}, {});",
                    cond, first_argument(r), cpp_string(text), shows(r)));
    record_rule(PlanStep::kRule, e_.shape_rules[i], text, first_argument(r), show_names(r));
    return true;
  }

  void record_rule(PlanStep::Kind kind, const ExprPtr& expr, const std::string& text,
                   const std::string& argument, std::vector<std::string> shows) {
    PlanStep step;
    step.kind = kind;
    step.expr = expr;
    step.text = text;
    step.argument = argument;
    step.shows = std::move(shows);
    plan_.steps.push_back(std::move(step));
  }

  const Entry& e_;
  Scope scope_;
  Scope param_only_scope_;
  std::set<std::string> symbols_;
  std::vector<bool> out_defined_;
  SignaturePlan plan_;
};

}  // namespace

SignaturePlan plan_signature(const Entry& entry) {
  return Planner(entry).run();
}

}  // namespace opgen
