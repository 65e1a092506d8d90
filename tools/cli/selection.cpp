#include "selection.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "tileops/core/error.hpp"

namespace tileops::cli {
namespace {

std::string known_ops() {
  std::vector<std::string_view> names;
  for (const OpClassInfo* info : op_classes()) names.push_back(info->schema->name);
  return fmt::format("{}", fmt::join(names, ", "));
}

bool is_none(std::string_view text) {
  return text == "None" || text == "none" || text == "null";
}

IntList parse_int_list(std::string_view text, std::string_view what) {
  std::string body(text);
  std::replace_if(
      body.begin(), body.end(), [](char c) { return c == '[' || c == ']' || c == '(' || c == ')'; },
      ' ');
  std::replace(body.begin(), body.end(), ',', ' ');
  IntList list;
  size_t pos = 0;
  while (true) {
    pos = body.find_first_not_of(' ', pos);
    if (pos == std::string::npos) break;
    const size_t end = body.find(' ', pos);
    const std::string piece = body.substr(pos, end == std::string::npos ? end : end - pos);
    if (list.rank() == kMaxRank) {
      throw UsageError(
          fmt::format("{}: expected at most {} values, got '{}'", what, kMaxRank, text));
    }
    list.push_back(parse_int(piece, what));
    if (end == std::string::npos) break;
    pos = end;
  }
  return list;
}

const ParamSlot& find_slot(const OpSchema& schema, std::string_view name) {
  for (const ParamSlot& slot : schema.params) {
    if (slot.name == name) return slot;
  }
  std::vector<std::string_view> names;
  for (const ParamSlot& slot : schema.params) names.push_back(slot.name);
  throw UsageError(fmt::format("{} has no parameter '{}'; expected one of [{}]", schema.name, name,
                               fmt::join(names, ", ")));
}

void set_param(ParamMap& params, const std::string& name, ParamValue value) {
  for (auto& [key, v] : params) {
    if (key == name) {
      v = std::move(value);
      return;
    }
  }
  params.emplace_back(name, std::move(value));
}

// Required dtype parameters (an output dtype, say) follow the case dtype unless given.
void fill_dtype_params(const OpSchema& schema, Case& c) {
  for (const ParamSlot& slot : schema.params) {
    if (slot.kind == ParamKind::kDType && slot.required && !find_param(c.params, slot.name)) {
      c.params.emplace_back(std::string(slot.name), c.dtype);
    }
  }
}

DType default_dtype(const OpSchema& schema) {
  if (!schema.inputs.empty() && !schema.inputs.front().allowed.empty()) {
    return schema.inputs.front().allowed.front();
  }
  return DType::kFloat32;
}

ParamMap parse_params(const OpSchema& schema, const std::vector<std::string>& assignments) {
  ParamMap params;
  for (const std::string& text : assignments) {
    auto [name, value] = split_assignment(text, "--param");
    set_param(params, name, parse_param(schema, find_slot(schema, name), value));
  }
  return params;
}

std::vector<std::optional<Shape>> parse_shapes(const OpSchema& schema,
                                               const std::vector<std::string>& assignments) {
  std::vector<std::optional<Shape>> shapes(schema.inputs.size());
  for (const std::string& text : assignments) {
    auto [name, value] = split_assignment(text, "--shape");
    auto slot = std::find_if(schema.inputs.begin(), schema.inputs.end(),
                             [&](const TensorSlot& s) { return s.name == name; });
    if (slot == schema.inputs.end()) {
      std::vector<std::string_view> names;
      for (const TensorSlot& s : schema.inputs) names.push_back(s.name);
      throw UsageError(fmt::format("--shape: {} has no input '{}'; expected one of [{}]",
                                   schema.name, name, fmt::join(names, ", ")));
    }
    shapes[slot - schema.inputs.begin()] = parse_shape(value, fmt::format("--shape {}", name));
  }
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (!shapes[i] && !schema.inputs[i].optional) {
      throw UsageError(
          fmt::format("--shape: {} needs a shape for input '{}' (--shape {}=AxB); "
                      "got none",
                      schema.name, schema.inputs[i].name, schema.inputs[i].name));
    }
  }
  return shapes;
}

}  // namespace

std::string Case::str() const {
  return fmt::format("{}/{}/{}", op_name(), label, dtype_name(dtype));
}

const OpClassInfo& op_by_name(std::string_view name) {
  for (const OpClassInfo* info : op_classes()) {
    if (info->schema->name == name) return *info;
  }
  throw UsageError(fmt::format("unknown op '{}'; expected one of [{}]", name, known_ops()));
}

const OpClassInfo& implemented_op(std::string_view name) {
  const OpClassInfo& info = op_by_name(name);
  if (!info.factory) {
    throw UsageError(
        fmt::format("{} has status '{}' in the manifest and no op class; expected an "
                    "implemented op",
                    name, info.schema->status));
  }
  return info;
}

std::vector<Case> workload_cases(const OpClassInfo& op, const Workload& row,
                                 std::optional<DType> dtype_override) {
  std::vector<DType> dtypes = row.dtypes;
  if (dtype_override) dtypes = {*dtype_override};
  if (dtypes.empty()) dtypes = {default_dtype(*op.schema)};
  std::vector<Case> cases;
  for (DType d : dtypes) {
    Case c{&op, row.label, row.params, row.input_shapes, d};
    fill_dtype_params(*op.schema, c);
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<Case> all_workload_cases(const OpClassInfo& op, std::optional<DType> dtype_override) {
  std::vector<Case> cases;
  for (const Workload& row : op.schema->workloads()) {
    for (Case& c : workload_cases(op, row, dtype_override)) cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<Case> select_cases(const OpClassInfo& op, const Arguments& args,
                               bool allow_all_workloads) {
  const OpSchema& schema = *op.schema;
  const std::optional<std::string> label = args.value("--workload");
  const bool all = allow_all_workloads && args.flag("--all-workloads");
  const bool custom = args.has("--shape");
  if (int(label.has_value()) + int(all) + int(custom) != 1) {
    throw UsageError(fmt::format("{}: expected exactly one of --workload LABEL{}, --shape NAME=AxB",
                                 args.command(), allow_all_workloads ? ", --all-workloads" : ""));
  }
  std::optional<DType> dtype;
  if (auto text = args.value("--dtype")) dtype = parse_dtype(*text);
  const ParamMap overrides = parse_params(schema, args.values("--param"));

  std::vector<Case> cases;
  if (custom) {
    Case c{&op, "custom", overrides, parse_shapes(schema, args.values("--shape")),
           dtype.value_or(default_dtype(schema))};
    fill_dtype_params(schema, c);
    return {c};
  }
  if (all) {
    cases = all_workload_cases(op, dtype);
  } else {
    const std::vector<Workload> rows = schema.workloads();
    // One label may span rows that differ in dtypes only (the case name adds the dtype).
    std::vector<const Workload*> matching;
    for (const Workload& w : rows) {
      if (w.label == *label) matching.push_back(&w);
    }
    if (matching.empty()) {
      std::vector<std::string_view> labels;
      for (const Workload& w : rows) {
        if (std::find(labels.begin(), labels.end(), w.label) == labels.end()) {
          labels.push_back(w.label);
        }
      }
      throw UsageError(fmt::format("{} has no workload '{}'; expected one of [{}]", schema.name,
                                   *label, fmt::join(labels, ", ")));
    }
    if (dtype) {
      // With --dtype, one case: from the row that lists the dtype, else the first row.
      auto lists = [&](const Workload* w) {
        return std::find(w->dtypes.begin(), w->dtypes.end(), *dtype) != w->dtypes.end();
      };
      auto row = std::find_if(matching.begin(), matching.end(), lists);
      matching = {row != matching.end() ? *row : matching.front()};
    }
    for (const Workload* row : matching) {
      for (Case& c : workload_cases(op, *row, dtype)) cases.push_back(std::move(c));
    }
  }
  for (Case& c : cases) {
    for (const auto& [name, value] : overrides) set_param(c.params, name, value);
  }
  return cases;
}

std::unique_ptr<Op> make_case_op(const Case& c, Target target) {
  return make_op(c.op_name(), c.params, std::move(target));
}

std::unique_ptr<Op> make_requested_op(const Case& c, const Arguments& args) {
  try {
    return make_case_op(c);
  } catch (const Error& e) {
    if (args.has("--param") || args.has("--shape")) {
      throw UsageError(fmt::format("cannot construct {}: {}", c.op_name(), e.what()));
    }
    throw;
  }
}

DType slot_dtype(const TensorSlot& slot, DType dtype) {
  if (slot.allowed.empty() ||
      std::find(slot.allowed.begin(), slot.allowed.end(), dtype) != slot.allowed.end()) {
    return dtype;
  }
  return slot.allowed.front();
}

ParamValue parse_param(const OpSchema& schema, const ParamSlot& slot, std::string_view text) {
  const std::string what = fmt::format("--param {} ({} of {})", slot.name, slot.type, schema.name);
  if (slot.nullable && is_none(text)) return NoneValue{};
  switch (slot.kind) {
    case ParamKind::kBool:
      return parse_bool(text, what);
    case ParamKind::kInt:
      return parse_int(text, what);
    case ParamKind::kFloat:
      return parse_double(text, what);
    case ParamKind::kStr: {
      std::string_view s = text;
      if (s.size() >= 2 && (s.front() == '\'' || s.front() == '"') && s.back() == s.front()) {
        s = s.substr(1, s.size() - 2);
      }
      return std::string(s);
    }
    case ParamKind::kIntList:
      return parse_int_list(text, what);
    case ParamKind::kDType:
      return parse_dtype(text);
    case ParamKind::kTensor:
      throw UsageError(
          fmt::format("{}: expected None; a tensor parameter cannot be given on "
                      "the command line, got '{}'",
                      what, text));
  }
  throw UsageError(fmt::format("{}: unsupported parameter kind", what));
}

std::vector<Case> named_or_all_cases(const Arguments& args) {
  std::optional<DType> dtype;
  if (auto d = args.value("--dtype")) dtype = parse_dtype(*d);
  std::vector<Case> cases;
  if (args.flag("--all")) {
    args.expect_no_positionals();
    if (args.has("--workload")) throw UsageError(args.command() + ": --all takes no --workload");
    for (const OpClassInfo* info : op_classes()) {
      if (!info->factory || info->schema->status != "implemented") continue;
      for (Case& c : all_workload_cases(*info, dtype)) cases.push_back(std::move(c));
    }
  } else {
    for (const std::string& name : args.positionals()) {
      const OpClassInfo& info = implemented_op(name);
      for (Case& c : (args.has("--workload") ? select_cases(info, args, false)
                                             : all_workload_cases(info, dtype))) {
        cases.push_back(std::move(c));
      }
    }
  }
  if (cases.empty()) throw UsageError(args.command() + ": name ops (or --all)");
  return cases;
}

}  // namespace tileops::cli
