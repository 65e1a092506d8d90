#include "docs_emitter.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "op_emitter.hpp"
#include "torch_emitter.hpp"

namespace opgen {
namespace {

// Markdown table cells: a '|' inside one would end the cell.
std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string code(const std::string& text) {
  return text.empty() ? std::string() : "`" + cell(text) + "`";
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return in ? text.str() : std::string();
}

// "x, weight": the tensors' names as the C++ operator() and the Python class take or return
// them.
std::string names_of(const std::vector<TensorDecl>& tensors) {
  std::vector<std::string> names;
  for (const TensorDecl& t : tensors) names.push_back(t.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

void emit_calls(std::ostream& md, const Entry& e) {
  std::vector<std::string> designated, keywords;
  for (const ParamDecl& p : e.params) {
    designated.push_back(fmt::format(".{} = ...", p.name));
    keywords.push_back(p.required ? fmt::format("{}=...", p.name)
                                  : fmt::format("{}={}", p.name, python_default(p)));
  }
  const std::string params =
      designated.empty() ? "" : fmt::format("({{{}}})", fmt::join(designated, ", "));
  const std::string result = e.outputs.size() > 1 ? fmt::format("auto [{}]", names_of(e.outputs))
                                                  : "tileops::Tensor " + e.outputs.front().name;
  md << "```cpp\n";
  md << fmt::format("#include \"{}\"\n\n", e.op_header);
  md << fmt::format("tileops::{} op{};\n", e.key, params);
  md << fmt::format("{} = op({});\n", result, names_of(e.inputs));
  md << "```\n\n";
  md << "```python\n";
  md << fmt::format("op = tileops_torch.{}({})\n", e.key, fmt::join(keywords, ", "));
  md << fmt::format("{} = op({})\n", names_of(e.outputs), names_of(e.inputs));
  md << "```\n\n";
  if (torch_bound(e)) {
    md << fmt::format("Custom op: `torch.ops.tileops.{}` (`{}`).\n\n", torch_op_name(e.key),
                      cell(torch_schema(e)));
  } else if (torch_composite(e)) {
    md << "Composite: the Python class composes bound ops, so it traces as their custom ops.\n\n";
  }
}

void emit_tensors(std::ostream& md, const Entry& e) {
  md << "| tensor | | dtype | shape |\n|---|---|---|---|\n";
  auto rows = [&](const std::vector<TensorDecl>& tensors, const char* role) {
    for (const TensorDecl& t : tensors) {
      std::string kind = role;
      if (t.optional) kind += ", optional";
      if (t.mutated) kind += ", written in place";
      md << fmt::format("| `{}` | {} | {} | {} |\n", t.name, kind, code(t.dtype.text),
                        code(t.shape_text));
    }
  };
  rows(e.inputs, "input");
  rows(e.outputs, "output");
  md << "\n";
  if (!e.dtype_combos.empty()) {
    md << "Dtype combinations:";
    for (const auto& combo : e.dtype_combos) {
      std::vector<std::string> parts;
      for (const auto& [name, dtype] : combo) parts.push_back(name + "=" + dtype);
      md << fmt::format(" `({})`", fmt::join(parts, ", "));
    }
    md << ".\n\n";
  }
}

void emit_params(std::ostream& md, const Entry& e) {
  if (e.params.empty()) return;
  md << "| parameter | type | default | C++ member |\n|---|---|---|---|\n";
  for (const ParamDecl& p : e.params) {
    const std::string kw = p.kw_only ? " (keyword only)" : "";
    md << fmt::format("| `{}`{} | {} | {} | {} |\n", p.name, kw, code(p.type_text),
                      p.required ? std::string("required") : code(python_default(p)),
                      code(param_member_type(p)));
  }
  md << "\n";
}

void emit_rules(std::ostream& md, const Entry& e) {
  if (e.shape_rule_texts.empty()) return;
  md << "Shape rules (each must hold; a rule on parameters alone is checked at construction, "
        "the others at each call):\n\n";
  for (const std::string& r : e.shape_rule_texts) md << "- " << code(r) << "\n";
  md << "\n";
}

void emit_workloads(std::ostream& md, const Entry& e) {
  if (e.workloads.empty()) return;
  md << "| workload | inputs | parameters | dtypes |\n|---|---|---|---|\n";
  for (const WorkloadDecl& w : e.workloads) {
    std::vector<std::string> shapes, params;
    for (const TensorDecl& t : e.inputs) {
      const auto it = w.input_shapes.find(t.name);
      if (it != w.input_shapes.end()) {
        shapes.push_back(fmt::format("{} [{}]", t.name, fmt::join(it->second, ", ")));
      }
    }
    for (const auto& [name, text] : w.param_texts) params.push_back(name + "=" + text);
    md << fmt::format("| `{}` | {} | {} | {} |\n", w.label,
                      cell(fmt::format("{}", fmt::join(shapes, ", "))),
                      cell(fmt::format("{}", fmt::join(params, ", "))), fmt::join(w.dtypes, ", "));
  }
  md << "\n";
}

void emit_roofline(std::ostream& md, const Entry& e) {
  if (e.roofline.flops_text.empty()) return;
  md << fmt::format("Roofline (`eval_roofline()`): flops {}, bytes {}", code(e.roofline.flops_text),
                    code(e.roofline.bytes_text));
  if (!e.roofline.var_texts.empty()) {
    std::vector<std::string> vars;
    for (size_t i = 0; i < e.roofline.vars.size() && i < e.roofline.var_texts.size(); ++i) {
      vars.push_back(code(e.roofline.vars[i].first + " = " + e.roofline.var_texts[i]));
    }
    md << fmt::format(", where {}", fmt::join(vars, ", "));
  }
  md << ".\n\n";
}

}  // namespace

std::string leading_comment(const std::string& header_text) {
  std::istringstream in(header_text);
  std::string line, out;
  bool in_block = false;  // lines indented past the marker (formulas) stay lines: a code block
  while (std::getline(in, line) && line.rfind("//", 0) == 0) {
    std::string text = line.substr(2);
    if (!text.empty() && text[0] == ' ') text.erase(0, 1);
    if (text.rfind("  ", 0) == 0) {
      out += (in_block ? "\n    " : "\n\n    ") + text;
      in_block = true;
    } else if (!text.empty()) {
      out += in_block ? "\n\n" : out.empty() ? "" : " ";
      out += text;
      in_block = false;
    }
  }
  return out;
}

std::string emit_op_reference(const std::vector<const Entry*>& entries,
                              const std::string& header_root) {
  std::map<std::string, std::vector<const Entry*>> by_family;
  for (const Entry* e : entries) by_family[e->family].push_back(e);
  std::ostringstream md;
  md << "# Op reference\n\n"
        "Generated by `tileops-opgen --docs` from `manifest/*.yaml` and the ops' headers; do not "
        "edit: change the manifest or the header's leading comment, then run "
        "`scripts/dev/gen-op-docs.sh` (CI fails while this file is stale). The fields are "
        "described in [design/manifest.md](design/manifest.md), the expressions in "
        "[design/expression-language.md](design/expression-language.md).\n\n"
        "Every op is constructed once with its parameters and called on tensors; the call "
        "checks dtypes and shapes against the rules below and raises a typed error "
        "(`tileops::DTypeError`, `ShapeError`, `ParamError`; `TypeError` or `ValueError` in "
        "Python) naming the op, the argument, what was expected and what came. `call_into` "
        "writes into outputs the caller allocated. From PyTorch, each op is a class in "
        "`tileops_torch` and, unless composite, a custom op under `torch.ops.tileops`.\n\n";
  for (const auto& [family, ops] : by_family) {
    md << "- " << family << ":";
    for (const Entry* e : ops)
      md << fmt::format(" [{}](#{})", e->key, [&] {
        std::string anchor = e->key;
        std::transform(anchor.begin(), anchor.end(), anchor.begin(), ::tolower);
        return anchor;
      }());
    md << "\n";
  }
  md << "\n";
  for (const auto& [family, ops] : by_family) {
    for (const Entry* e : ops) {
      md << "## " << e->key << "\n\n";
      const std::string summary =
          leading_comment(read_file(std::filesystem::path(header_root) / e->op_header));
      if (!summary.empty()) md << summary << "\n\n";
      md << fmt::format("Family `{}`, status `{}`", e->family, e->status);
      if (!e->ref_api.empty() && e->ref_api != "none")
        md << ", same results as `" << e->ref_api << "`";
      md << ".\n\n";
      emit_calls(md, *e);
      emit_tensors(md, *e);
      emit_params(md, *e);
      emit_rules(md, *e);
      emit_roofline(md, *e);
      emit_workloads(md, *e);
    }
  }
  return md.str();
}

}  // namespace opgen
