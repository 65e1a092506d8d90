#include "manifest_reader.hpp"

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace opgen {
namespace {

const std::set<std::string> kDTypeTokens = {"bool",    "uint8",   "int8",          "int16",
                                            "int32",   "int64",   "float16",       "bfloat16",
                                            "float32", "float64", "float8_e4m3fn", "float8_e5m2"};

// Problems found in one entry; the first one per field is enough to act on.
class EntryChecker {
 public:
  EntryChecker(std::string file, std::string op, std::vector<Diagnostic>& out)
      : file_(std::move(file)), op_(std::move(op)), out_(out) {}
  void error(const std::string& field, const std::string& problem) {
    out_.push_back({file_, op_, field, problem});
    ++count_;
  }
  int count() const { return count_; }

 private:
  std::string file_, op_;
  std::vector<Diagnostic>& out_;
  int count_ = 0;
};

void require_keys(EntryChecker& c, const YAML::Node& node, const std::string& field,
                  const std::set<std::string>& allowed, const std::set<std::string>& required) {
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string key = it->first.as<std::string>();
    if (!allowed.count(key)) {
      std::vector<std::string> names(allowed.begin(), allowed.end());
      c.error(field.empty() ? key : field + "." + key,
              fmt::format("unknown key; expected one of: {}", fmt::join(names, ", ")));
    }
  }
  for (const std::string& key : required) {
    if (!node[key]) c.error(field.empty() ? key : field + "." + key, "required key is missing");
  }
}

DTypeExpr parse_dtype(const std::string& text, bool output) {
  DTypeExpr d;
  d.text = text;
  std::stringstream stream(text);
  std::string part;
  while (std::getline(stream, part, '|')) {
    part.erase(0, part.find_first_not_of(' '));
    part.erase(part.find_last_not_of(' ') + 1);
    std::smatch m;
    static const std::regex same_as(R"(same_as\((\w+)\))");
    static const std::regex promote(R"(promote_int_to_float\((\w+)\))");
    if (std::regex_match(part, m, same_as)) {
      d.same_as.push_back(m[1]);
    } else if (std::regex_match(part, m, promote)) {
      if (!output) throw GenError("promote_int_to_float(...) is allowed on outputs only");
      d.promote_int_to_float = m[1];
    } else if (kDTypeTokens.count(part)) {
      d.tokens.push_back(part);
    } else {
      std::vector<std::string> names(kDTypeTokens.begin(), kDTypeTokens.end());
      throw GenError(fmt::format("'{}' is not a dtype; expected a union of {} or same_as(t)", part,
                                 fmt::join(names, ", ")));
    }
  }
  if (d.tokens.empty() && d.same_as.empty() && d.promote_int_to_float.empty()) {
    throw GenError("empty dtype expression");
  }
  return d;
}

std::vector<ExprPtr> parse_shape_decl(const std::string& text) {
  static const std::regex form(R"(\s*\[(.*)\]\s*)");
  std::smatch m;
  if (!std::regex_match(text, m, form)) {
    throw GenError(fmt::format("shape '{}' must be a bracketed list like '[M, K]'", text));
  }
  std::vector<ExprPtr> dims;
  std::string body = m[1];
  std::stringstream stream(body);
  std::string dim;
  while (std::getline(stream, dim, ',')) {
    if (dim.find_first_not_of(' ') == std::string::npos) continue;
    if (dim.find("...") != std::string::npos) {
      throw GenError(
          "shape declarations have a fixed rank; '...' is not allowed (use shape_rules)");
    }
    dims.push_back(parse_expression(dim));
  }
  return dims;
}

void parse_param_type(ParamDecl& p) {
  std::set<std::string> parts;
  std::string text = p.type_text;
  // Split on '|' outside brackets.
  int depth = 0;
  std::string cur;
  for (char ch : text) {
    if (ch == '[') ++depth;
    if (ch == ']') --depth;
    if (ch == '|' && depth == 0) {
      parts.insert(cur);
      cur.clear();
    } else if (ch != ' ') {
      cur += ch;
    }
  }
  parts.insert(cur);
  p.nullable = parts.erase("None") > 0;
  const std::set<std::string> int_list = {"list[int]", "tuple[int,...]"};
  if (parts == std::set<std::string>{"int"}) {
    p.ty = Ty::kInt;
  } else if (parts == std::set<std::string>{"float"} ||
             parts == std::set<std::string>{"int", "float"}) {
    p.ty = Ty::kFloat;
    p.int_or_float = parts.size() == 2;
  } else if (parts == std::set<std::string>{"bool"}) {
    p.ty = Ty::kBool;
  } else if (parts == std::set<std::string>{"str"}) {
    p.ty = Ty::kStr;
  } else if (!parts.empty() &&
             std::includes(int_list.begin(), int_list.end(), parts.begin(), parts.end())) {
    p.ty = Ty::kShape;
  } else if (parts == std::set<std::string>{"dtype"} ||
             parts == std::set<std::string>{"torch.dtype"}) {
    p.ty = Ty::kDType;
  } else if (parts == std::set<std::string>{"tensor"} ||
             parts == std::set<std::string>{"torch.Tensor"}) {
    p.ty = Ty::kTensor;  // a construction-time tensor
  } else {
    throw GenError(
        fmt::format("type '{}' is not supported; expected int, float, int | float, bool, "
                    "str, list[int] | tuple[int, ...], dtype or tensor, each optionally | None",
                    p.type_text));
  }
}

// The C++ ParamValue initializer for a YAML scalar or list of the parameter's type.
std::string param_value_cpp(const ParamDecl& p, const YAML::Node& v) {
  if (v.IsNull()) {
    if (!p.nullable)
      throw GenError(fmt::format("null given, but type '{}' does not admit None", p.type_text));
    return "::tileops::ParamValue(::tileops::NoneValue{})";
  }
  switch (p.ty) {
    case Ty::kInt:
      return fmt::format("::tileops::ParamValue(int64_t{{{}}})", v.as<int64_t>());
    case Ty::kFloat:
      return fmt::format("::tileops::ParamValue(double({}))", v.as<double>());
    case Ty::kBool:
      return fmt::format("::tileops::ParamValue({})", v.as<bool>() ? "true" : "false");
    case Ty::kStr:
      return fmt::format("::tileops::ParamValue(std::string(\"{}\"))", v.as<std::string>());
    case Ty::kShape: {
      if (!v.IsSequence()) throw GenError("expected a list of integers");
      std::vector<int64_t> items;
      for (const auto& item : v) items.push_back(item.as<int64_t>());
      return fmt::format("::tileops::ParamValue(::tileops::IntList{{{}}})", fmt::join(items, ", "));
    }
    case Ty::kTensor:
      throw GenError("a tensor parameter can only default to null; workloads cannot pin it");
    case Ty::kDType: {
      const std::string name = v.as<std::string>();
      if (!kDTypeTokens.count(name)) throw GenError(fmt::format("'{}' is not a dtype", name));
      return fmt::format("::tileops::ParamValue(*::tileops::dtype_from_name(\"{}\"))", name);
    }
    default:
      break;
  }
  throw GenError("unsupported parameter type");
}

// The C++ member initializer of a parameter's default.
std::string default_cpp(const ParamDecl& p, const YAML::Node& v) {
  if (v.IsNull()) return p.ty == Ty::kTensor ? "{}" : "std::nullopt";
  switch (p.ty) {
    case Ty::kInt:
      return fmt::format("{}", v.as<int64_t>());
    case Ty::kFloat:
      return fmt::format("{}", v.as<double>());
    case Ty::kBool:
      return v.as<bool>() ? "true" : "false";
    case Ty::kStr:
      return fmt::format("\"{}\"", v.as<std::string>());
    case Ty::kShape: {
      std::vector<int64_t> items;
      for (const auto& item : v) items.push_back(item.as<int64_t>());
      return fmt::format("::tileops::IntList{{{}}}", fmt::join(items, ", "));
    }
    case Ty::kDType:
      return fmt::format("*::tileops::dtype_from_name(\"{}\")", v.as<std::string>());
    default:
      break;
  }
  throw GenError("unsupported parameter type");
}

std::vector<TensorDecl> read_tensors(EntryChecker& c, const YAML::Node& node,
                                     const std::string& field, bool outputs) {
  std::vector<TensorDecl> out;
  if (!node) return out;
  if (!node.IsMap()) {
    c.error(field, "expected a mapping of tensor name to its declaration");
    return out;
  }
  for (auto it = node.begin(); it != node.end(); ++it) {
    TensorDecl t;
    t.name = it->first.as<std::string>();
    const std::string f = field + "." + t.name;
    const YAML::Node decl = it->second;  // a copy: it-> yields a temporary
    if (!decl.IsMap()) {
      c.error(f, "expected a mapping with at least 'dtype'");
      continue;
    }
    const std::set<std::string> allowed =
        outputs ? std::set<std::string>{"dtype", "shape", "note"}
                : std::set<std::string>{"dtype", "shape", "optional", "mutated", "note"};
    require_keys(c, decl, f, allowed, {"dtype"});
    try {
      if (decl["dtype"]) t.dtype = parse_dtype(decl["dtype"].as<std::string>(), outputs);
    } catch (const GenError& e) {
      c.error(f + ".dtype", e.what());
    }
    if (decl["shape"]) {
      t.shape_text = decl["shape"].as<std::string>();
      try {
        t.shape_dims = parse_shape_decl(t.shape_text);
      } catch (const GenError& e) {
        c.error(f + ".shape", e.what());
      }
    }
    for (const char* flag : {"optional", "mutated"}) {
      if (!decl[flag]) continue;
      if (!decl[flag].IsScalar() || decl[flag].as<std::string>() != "true") {
        c.error(f + "." + flag, "expected the literal true (omit the key otherwise)");
      }
    }
    t.optional = static_cast<bool>(decl["optional"]);
    t.mutated = static_cast<bool>(decl["mutated"]);
    out.push_back(std::move(t));
  }
  return out;
}

void read_signature(EntryChecker& c, Entry& e, const YAML::Node& sig) {
  if (!sig.IsMap()) {
    c.error("signature", "expected a mapping");
    return;
  }
  require_keys(c, sig, "signature", {"inputs", "outputs", "params", "shape_rules", "dtype_combos"},
               {"inputs", "outputs"});
  e.inputs = read_tensors(c, sig["inputs"], "signature.inputs", false);
  e.outputs = read_tensors(c, sig["outputs"], "signature.outputs", true);
  if (e.outputs.empty()) c.error("signature.outputs", "expected at least one output");
  if (e.inputs.size() > 8 || e.outputs.size() > 8) {
    c.error("signature", "expected at most 8 inputs and 8 outputs");
  }
  bool seen_optional = false;
  for (const TensorDecl& t : e.inputs) {
    if (seen_optional && !t.optional) {
      c.error("signature.inputs." + t.name,
              "optional inputs must come last; this required input "
              "follows an optional one");
    }
    seen_optional = seen_optional || t.optional;
  }
  if (const YAML::Node params = sig["params"]) {
    for (auto it = params.begin(); it != params.end(); ++it) {
      ParamDecl p;
      p.name = it->first.as<std::string>();
      const std::string f = "signature.params." + p.name;
      const YAML::Node decl = it->second;  // a copy: it-> yields a temporary
      if (!decl.IsMap()) {
        c.error(f, "expected a mapping with 'type'");
        continue;
      }
      require_keys(c, decl, f, {"type", "default", "kw_only"}, {"type"});
      if (p.name == "injected" || p.name == "target") {
        // Params::injected holds the family's injected parameters; target is every op's policy.
        c.error(f, "'" + p.name + "' is reserved: it is not a manifest parameter name");
        continue;
      }
      if (!decl["type"]) continue;
      p.type_text = decl["type"].as<std::string>();
      try {
        parse_param_type(p);
        if (decl["default"]) {
          p.required = false;
          p.default_text = YAML::Dump(decl["default"]);
          p.default_cpp = default_cpp(p, decl["default"]);
          param_value_cpp(p, decl["default"]);  // validates the value against the type
        }
      } catch (const GenError& err) {
        c.error(f, err.what());
      } catch (const YAML::Exception& err) {
        c.error(f + ".default",
                fmt::format("does not match type '{}': {}", p.type_text, err.what()));
      }
      p.kw_only = decl["kw_only"] && decl["kw_only"].as<bool>();
      e.params.push_back(std::move(p));
    }
  }
  if (e.inputs.empty() && e.params.empty()) {
    c.error("signature", "expected at least one input or one parameter");
  }
  std::set<std::string> names;
  for (const auto& t : e.inputs) names.insert(t.name);
  for (const auto& t : e.outputs) {
    if (!names.insert(t.name).second) c.error("signature.outputs." + t.name, "name used twice");
  }
  for (const auto& p : e.params) {
    if (!names.insert(p.name).second) c.error("signature.params." + p.name, "name used twice");
  }
  for (const auto& t : e.inputs) {
    for (const auto& ref : t.dtype.same_as) {
      if (e.input_index(ref) < 0) {
        c.error("signature.inputs." + t.name + ".dtype",
                fmt::format("same_as('{}') names no input", ref));
      }
    }
  }
  for (const auto& t : e.outputs) {
    for (const auto& ref : t.dtype.same_as) {
      if (e.input_index(ref) < 0) {
        c.error("signature.outputs." + t.name + ".dtype",
                fmt::format("same_as('{}') names no input", ref));
      }
    }
  }
  if (const YAML::Node rules = sig["shape_rules"]) {
    if (!rules.IsSequence()) c.error("signature.shape_rules", "expected a list of expressions");
    int i = 0;
    for (const auto& rule : rules) {
      const std::string text = rule.as<std::string>();
      try {
        e.shape_rules.push_back(parse_expression(text));
        e.shape_rule_texts.push_back(text);
      } catch (const GenError& err) {
        c.error(fmt::format("signature.shape_rules[{}]", i),
                fmt::format("'{}': {}", text, err.what()));
      }
      ++i;
    }
  }
  if (const YAML::Node combos = sig["dtype_combos"]) {
    int i = 0;
    for (const auto& row : combos) {
      std::map<std::string, std::string> r;
      for (auto it = row.begin(); it != row.end(); ++it) {
        const std::string name = it->first.as<std::string>();
        const std::string value = it->second.as<std::string>();
        if (!e.find_tensor(name)) {
          c.error(fmt::format("signature.dtype_combos[{}].{}", i, name),
                  "names no declared tensor");
        } else if (!kDTypeTokens.count(value)) {
          c.error(fmt::format("signature.dtype_combos[{}].{}", i, name),
                  fmt::format("'{}' is not a single concrete dtype", value));
        }
        r[name] = value;
      }
      for (const auto& t : e.inputs) {
        if (!t.optional && !r.count(t.name)) {
          c.error(fmt::format("signature.dtype_combos[{}]", i),
                  fmt::format("row does not cover required input '{}'", t.name));
        }
      }
      e.dtype_combos.push_back(std::move(r));
      ++i;
    }
  }
}

void read_workloads(EntryChecker& c, Entry& e, const YAML::Node& rows) {
  if (!rows.IsSequence()) {
    c.error("workloads", "expected a list of rows");
    return;
  }
  int i = 0;
  std::map<std::string, int> optional_present;
  std::set<std::string> labels;
  for (const auto& row : rows) {
    const std::string f = fmt::format("workloads[{}]", i++);
    WorkloadDecl w;
    if (!row["dtypes"] || !row["dtypes"].IsSequence()) {
      c.error(f + ".dtypes", "required list of dtypes is missing");
      continue;
    }
    for (const auto& d : row["dtypes"]) {
      const std::string name = d.as<std::string>();
      if (!kDTypeTokens.count(name))
        c.error(f + ".dtypes", fmt::format("'{}' is not a dtype", name));
      w.dtypes.push_back(name);
    }
    if (row["label"]) {
      w.label = row["label"].as<std::string>();
      if (!labels.insert(w.label).second) {
        c.error(f + ".label", fmt::format("label '{}' is used by an earlier row; labels name rows "
                                          "uniquely",
                                          w.label));
      }
      for (const auto& d : w.dtypes) {
        static const std::map<std::string, std::vector<std::string>> kShort = {
            {"float16", {"fp16", "half"}},
            {"bfloat16", {"bf16"}},
            {"float32", {"fp32"}},
            {"float8_e4m3fn", {"e4m3", "fp8"}},
            {"float8_e5m2", {"e5m2", "fp8"}}};
        std::vector<std::string> spellings{d};
        if (kShort.count(d)) {
          for (const auto& s : kShort.at(d)) spellings.push_back(s);
        }
        for (const auto& s : spellings) {
          if (w.label.find(s) != std::string::npos) {
            c.error(f + ".label", fmt::format("label '{}' spells the dtype '{}'; the case id adds "
                                              "the dtype itself",
                                              w.label, s));
          }
        }
      }
    }
    for (auto it = row.begin(); it != row.end(); ++it) {
      const std::string key = it->first.as<std::string>();
      if (key == "dtypes" || key == "label" || key.rfind("__", 0) == 0) continue;
      if (!e.find_param(key) && key.size() > 6 && key.substr(key.size() - 6) == "_shape") {
        const std::string input = key.substr(0, key.size() - 6);
        if (e.input_index(input) < 0) {
          c.error(f + "." + key, fmt::format("'{}' is not an input of the op", input));
          continue;
        }
        std::vector<int64_t> dims;
        const YAML::Node values = it->second;  // a copy: it-> yields a temporary
        for (const auto& d : values) dims.push_back(d.as<int64_t>());
        w.input_shapes[input] = dims;
        continue;
      }
      const ParamDecl* p = e.find_param(key);
      if (!p) {
        c.error(f + "." + key, "is neither '<input>_shape', 'dtypes', 'label' nor a parameter");
        continue;
      }
      try {
        w.params.emplace_back(key, param_value_cpp(*p, it->second));
        YAML::Emitter spelled;
        spelled << YAML::Flow << it->second;
        w.param_texts.emplace_back(key, spelled.c_str());
      } catch (const std::exception& err) {
        c.error(f + "." + key, err.what());
      }
    }
    for (const auto& t : e.inputs) {
      if (w.input_shapes.count(t.name)) {
        if (t.optional) ++optional_present[t.name];
      } else if (!t.optional) {
        c.error(f, fmt::format("required input '{}' has no '{}_shape'", t.name, t.name));
      }
    }
    for (const auto& p : e.params) {
      const bool pinned = std::any_of(w.params.begin(), w.params.end(),
                                      [&](const auto& kv) { return kv.first == p.name; });
      if (p.required && !pinned) {
        c.error(f, fmt::format("required parameter '{}' is not pinned", p.name));
      }
    }
    e.workloads.push_back(std::move(w));
  }
  if (e.status == "implemented" && e.workloads.size() < 2) {
    c.error("workloads",
            fmt::format("an implemented op needs at least 2 rows, got {}", e.workloads.size()));
  }
  for (const auto& t : e.inputs) {
    if (!t.optional) continue;
    const int present = optional_present[t.name];
    if (present == 0 || present == static_cast<int>(e.workloads.size())) {
      c.error("workloads", fmt::format("optional input '{}' needs at least one row that passes it "
                                       "and one that leaves it out",
                                       t.name));
    }
  }
}

void read_roofline(EntryChecker& c, Entry& e, const YAML::Node& node) {
  if (!node.IsMap()) {
    c.error("roofline", "expected a mapping with flops and bytes");
    return;
  }
  require_keys(c, node, "roofline", {"vars", "flops", "bytes"}, {"flops", "bytes"});
  if (const YAML::Node vars = node["vars"]) {
    for (auto it = vars.begin(); it != vars.end(); ++it) {
      const std::string name = it->first.as<std::string>();
      const std::string text = it->second.as<std::string>();
      try {
        e.roofline.vars.emplace_back(name, parse_expression(text));
        e.roofline.var_texts.push_back(text);
      } catch (const GenError& err) {
        c.error("roofline.vars." + name, fmt::format("'{}': {}", text, err.what()));
      }
    }
  }
  for (const char* key : {"flops", "bytes"}) {
    if (!node[key]) continue;
    const std::string text = node[key].as<std::string>();
    try {
      ExprPtr parsed = parse_expression(text);
      if (std::string(key) == "flops") {
        e.roofline.flops = parsed;
        e.roofline.flops_text = text;
      } else {
        e.roofline.bytes = parsed;
        e.roofline.bytes_text = text;
      }
    } catch (const GenError& err) {
      c.error(std::string("roofline.") + key, fmt::format("'{}': {}", text, err.what()));
    }
  }
}

void read_entry(const std::string& file, const std::string& key, const YAML::Node& node,
                ReadResult& result) {
  EntryChecker c(file, key, result.errors);
  static const std::regex key_form(R"([A-Z][A-Za-z0-9]*Op)");
  if (!std::regex_match(key, key_form)) {
    c.error("key", "expected a PascalCase name ending in 'Op' (e.g. RMSNormFwdOp)");
  }
  if (!node.IsMap()) {
    c.error("entry", "expected a mapping");
    return;
  }
  require_keys(c, node, "",
               {"ref_api", "family", "status", "torch_compile_fullgraph", "source", "signature",
                "workloads", "roofline"},
               {"ref_api", "family", "status", "signature", "workloads", "roofline"});
  Entry e;
  e.key = key;
  e.file = file;
  try {
    if (node["family"]) e.family = node["family"].as<std::string>();
    if (node["ref_api"]) e.ref_api = node["ref_api"].as<std::string>();
    if (node["status"]) e.status = node["status"].as<std::string>();
  } catch (const YAML::Exception&) {
    c.error("entry", "family, ref_api and status must be strings");
  }
  if (!e.status.empty() && e.status != "implemented" && e.status != "spec-only") {
    c.error("status", fmt::format("expected 'implemented' or 'spec-only', got '{}'", e.status));
  }
  if (const YAML::Node fg = node["torch_compile_fullgraph"]) {
    if (fg.as<std::string>() != "true")
      c.error("torch_compile_fullgraph", "expected the literal true");
    if (e.status == "spec-only")
      c.error("torch_compile_fullgraph", "not allowed on a spec-only entry");
    e.fullgraph = true;
  }
  if (const YAML::Node source = node["source"]) {
    require_keys(c, source, "source", {"op", "kernels"}, {});
    if (source["op"]) e.op_header = source["op"].as<std::string>();
  }
  if (e.status == "implemented" && e.op_header.empty()) {
    c.error("source.op", "an implemented op names the header that declares its class");
  }
  if (node["signature"]) read_signature(c, e, node["signature"]);
  if (node["workloads"]) read_workloads(c, e, node["workloads"]);
  if (node["roofline"]) read_roofline(c, e, node["roofline"]);
  if (c.count() == 0) result.entries.push_back(std::move(e));
}

void read_document(const std::string& file, const YAML::Node& doc, ReadResult& result,
                   std::map<std::string, std::string>& seen) {
  if (!doc.IsMap()) {
    result.errors.push_back({file, "-", "file", "expected a mapping of op key to entry"});
    return;
  }
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    const std::string key = it->first.as<std::string>();
    if (auto s = seen.find(key); s != seen.end()) {
      result.errors.push_back({file, key, "key", fmt::format("already defined in {}", s->second)});
      continue;
    }
    seen[key] = file;
    try {
      read_entry(file, key, it->second, result);
    } catch (const YAML::Exception& e) {
      result.errors.push_back(
          {file, key, "entry", fmt::format("malformed YAML value: {}", e.what())});
    }
  }
}

}  // namespace

const TensorDecl* Entry::find_tensor(const std::string& name) const {
  for (const auto& t : inputs)
    if (t.name == name) return &t;
  for (const auto& t : outputs)
    if (t.name == name) return &t;
  return nullptr;
}

const ParamDecl* Entry::find_param(const std::string& name) const {
  for (const auto& p : params)
    if (p.name == name) return &p;
  return nullptr;
}

int Entry::input_index(const std::string& name) const {
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].name == name) return static_cast<int>(i);
  return -1;
}

int Entry::output_index(const std::string& name) const {
  for (size_t i = 0; i < outputs.size(); ++i)
    if (outputs[i].name == name) return static_cast<int>(i);
  return -1;
}

ReadResult read_manifest(const std::vector<std::string>& files) {
  ReadResult result;
  std::map<std::string, std::string> seen;
  std::vector<std::string> sorted = files;
  std::sort(sorted.begin(), sorted.end());
  for (const std::string& file : sorted) {
    try {
      read_document(file, YAML::LoadFile(file), result, seen);
    } catch (const YAML::Exception& e) {
      result.errors.push_back({file, "-", "file", fmt::format("not valid YAML: {}", e.what())});
    }
  }
  std::sort(result.entries.begin(), result.entries.end(),
            [](const Entry& a, const Entry& b) { return a.key < b.key; });
  return result;
}

ReadResult read_manifest_text(const std::string& file_label, const std::string& yaml_text) {
  ReadResult result;
  std::map<std::string, std::string> seen;
  try {
    read_document(file_label, YAML::Load(yaml_text), result, seen);
  } catch (const YAML::Exception& e) {
    result.errors.push_back({file_label, "-", "file", fmt::format("not valid YAML: {}", e.what())});
  }
  return result;
}

}  // namespace opgen
