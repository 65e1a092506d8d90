// What a command runs: an op, its construction parameters, per-input shapes and a dtype, taken
// from a workload row of the manifest or from --shape / --param given by hand.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arguments.hpp"
#include "tileops/framework/op.hpp"
#include "tileops/framework/schema.hpp"

namespace tileops::cli {

struct Case {
  const OpClassInfo* op = nullptr;
  std::string label;                         // the workload label, or "custom" for --shape
  ParamMap params;                           // by manifest name; construction fills defaults
  std::vector<std::optional<Shape>> shapes;  // per input slot; nullopt: optional input left out
  DType dtype = DType::kFloat32;

  std::string_view op_name() const { return op->schema->name; }
  std::string str() const;  // "RMSNormFwdOp/llama-8b-decode/bfloat16"
};

// The op of the manifest with this name; UsageError listing the known names otherwise.
const OpClassInfo& op_by_name(std::string_view name);
// As op_by_name, and UsageError when the entry has no op class (spec-only).
const OpClassInfo& implemented_op(std::string_view name);

// One case per dtype of the row, or one with dtype_override when given.
std::vector<Case> workload_cases(const OpClassInfo& op, const Workload& row,
                                 std::optional<DType> dtype_override);
// The cases of every row of the op's manifest entry.
std::vector<Case> all_workload_cases(const OpClassInfo& op, std::optional<DType> dtype_override);

// The cases that --workload LABEL, --all-workloads (when allowed) or --shape NAME=AxB... select,
// with --param NAME=VALUE and --dtype D applied. UsageError for anything that does not resolve.
std::vector<Case> select_cases(const OpClassInfo& op, const Arguments& args,
                               bool allow_all_workloads);

// The cases of commands that take `OP ... [--workload LABEL] | --all` with --dtype (bench, tune,
// warmup): every workload of every implemented op, or of the named ones. UsageError when none.
std::vector<Case> named_or_all_cases(const Arguments& args);

// The op constructed with the case's parameters.
std::unique_ptr<Op> make_case_op(const Case& c, Target target = {});
// As make_case_op for a case the user described: when --param or --shape was given, a
// construction error is the user's (UsageError); otherwise it propagates as is.
std::unique_ptr<Op> make_requested_op(const Case& c, const Arguments& args);

// The dtype an input slot gets for a case dtype: the case dtype when the slot admits it, else
// the slot's first admitted dtype (as make_inputs chooses).
DType slot_dtype(const TensorSlot& slot, DType dtype);

// The parameter value text parsed as the slot's kind ("None" for nullable slots).
ParamValue parse_param(const OpSchema& schema, const ParamSlot& slot, std::string_view text);

}  // namespace tileops::cli
