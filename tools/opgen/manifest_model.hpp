// The manifest as the generator sees it, after validation.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "expr.hpp"
#include "expr_emitter.hpp"

namespace opgen {

struct DTypeExpr {
  std::vector<std::string> tokens;   // concrete dtype names
  std::vector<std::string> same_as;  // tensor names
  std::string promote_int_to_float;  // tensor name, outputs only
  std::string text;
};

struct TensorDecl {
  std::string name;
  DTypeExpr dtype;
  std::string shape_text;           // "[M, 2 * N]" or ""
  std::vector<ExprPtr> shape_dims;  // parsed dims of shape_text
  bool optional = false;
  bool mutated = false;
};

struct ParamDecl {
  std::string name;
  std::string type_text;
  Ty ty = Ty::kInt;
  bool nullable = false;
  bool required = true;
  bool kw_only = false;
  bool int_or_float = false;  // declared 'int | float' (a number of either kind; C++ double)
  std::string default_text;   // manifest spelling
  std::string default_cpp;    // C++ initializer ("" when required)
};

struct WorkloadDecl {
  std::string label;
  std::vector<std::string> dtypes;
  std::map<std::string, std::vector<int64_t>> input_shapes;
  std::vector<std::pair<std::string, std::string>> params;  // name -> C++ ParamValue initializer
  std::vector<std::pair<std::string, std::string>> param_texts;  // name -> manifest spelling
};

struct RooflineDecl {
  std::vector<std::pair<std::string, ExprPtr>> vars;
  std::vector<std::string> var_texts;
  ExprPtr flops, bytes;
  std::string flops_text, bytes_text;
};

struct Entry {
  std::string key;
  std::string file;
  std::string family;
  std::string ref_api;
  std::string status;
  bool fullgraph = false;
  std::string op_header;  // source.op: the header declaring the op class
  std::vector<TensorDecl> inputs, outputs;
  std::vector<ParamDecl> params;
  std::vector<std::string> shape_rule_texts;
  std::vector<ExprPtr> shape_rules;
  std::vector<std::map<std::string, std::string>> dtype_combos;
  std::vector<WorkloadDecl> workloads;
  RooflineDecl roofline;

  const TensorDecl* find_tensor(const std::string& name) const;
  const ParamDecl* find_param(const std::string& name) const;
  int input_index(const std::string& name) const;
  int output_index(const std::string& name) const;
};

}  // namespace opgen
