// `tileops explain`: one call of an op under a DispatchTrace, and why it was served as it was.
#include <iostream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "arguments.hpp"
#include "commands.hpp"
#include "device_select.hpp"
#include "json_values.hpp"
#include "selection.hpp"
#include "tileops/core/error.hpp"
#include "tileops/framework/dispatch_trace.hpp"
#include "tileops/reference/check.hpp"

namespace tileops::cli {
namespace {

struct Explanation {
  Case c;
  Device device;
  std::vector<Tensor> inputs;
  std::optional<CallRecord> record;
  std::optional<std::string> serving_target;
  std::optional<RooflineValue> roofline;
  ParamMap params;
  std::vector<DispatchDecision> decisions;
  std::string error;
};

json decision_json(const DispatchDecision& d) {
  json dropped = json::array();
  for (const auto& [key, reason] : d.dropped) dropped.push_back({{"key", key}, {"reason", reason}});
  json j = {{"op", d.op},         {"interface", d.interface}, {"call", d.call},
            {"target", d.target}, {"winner", d.winner},       {"dropped", dropped}};
  if (!d.error.empty()) j["error"] = d.error;
  return j;
}

json stages_json(const CallRecord& record) {
  json stages = json::array();
  for (const StageRecord& s : record.stages) {
    stages.push_back({{"stage", s.stage},
                      {"op", s.op ? s.op->instance_key() : std::string("?")},
                      {"served_by", std::string(s.record->served_by)},
                      {"stages", stages_json(*s.record)}});
  }
  return stages;
}

void print_stages(const CallRecord& record, int depth) {
  for (const StageRecord& s : record.stages) {
    std::cout << fmt::format("{:{}}{} -> {} served by {}\n", "", depth * 2 + 2, s.stage,
                             s.op ? s.op->instance_key() : std::string("?"), s.record->served_by);
    print_stages(*s.record, depth + 1);
  }
}

std::string tensors_str(const OpSchema& schema, const std::vector<Tensor>& inputs) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor& t = inputs[i];
    parts.push_back(fmt::format(
        "{}={}", schema.inputs[i].name,
        t.defined() ? TensorDesc{t.device(), t.dtype(), t.shape()}.str() : std::string("None")));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

void print_text(const Explanation& e) {
  const OpSchema& schema = *e.c.op->schema;
  std::vector<std::string> params;
  for (const auto& [name, value] : e.params) {
    params.push_back(fmt::format("{}={}", name, param_value_str(value)));
  }
  std::cout << fmt::format("{} (workload {}, {}) on {}\n", schema.name, e.c.label,
                           dtype_name(e.c.dtype), e.device.str());
  std::cout << fmt::format("  params:         {}\n",
                           params.empty() ? "(none)" : fmt::format("{}", fmt::join(params, ", ")));
  std::cout << fmt::format("  inputs:         {}\n", tensors_str(schema, e.inputs));
  if (e.record) {
    std::vector<std::string> outs;
    for (int i = 0; i < e.record->n_outputs; ++i) {
      outs.push_back(fmt::format("{}={}", schema.outputs[i].name, e.record->outputs[i].str()));
    }
    std::cout << fmt::format("  outputs:        {}\n", fmt::join(outs, ", "));
  }
  std::cout << fmt::format("  serving target: {}\n", e.serving_target.value_or("(not settled)"));
  if (e.record) std::cout << fmt::format("  served by:      {}\n", e.record->served_by);
  if (e.roofline) {
    std::cout << fmt::format("  roofline:       {} flops, {} bytes\n", e.roofline->flops,
                             e.roofline->bytes);
  }
  if (!e.error.empty()) std::cout << fmt::format("  error:          {}\n", e.error);

  std::cout << fmt::format("dispatch decisions ({}):\n", e.decisions.size());
  if (e.decisions.empty()) {
    std::cout << "  none: no kernel interface was dispatched (a whole-op target or an empty "
                 "write served the call)\n";
  }
  for (size_t i = 0; i < e.decisions.size(); ++i) {
    const DispatchDecision& d = e.decisions[i];
    std::cout << fmt::format("  {}. {}  interface '{}'  target {}\n", i + 1, d.op, d.interface,
                             d.target);
    std::cout << fmt::format("       call:    {}\n", d.call);
    std::cout << fmt::format("       winner:  {}\n", d.winner.empty() ? "(none)" : d.winner);
    for (const auto& [key, reason] : d.dropped) {
      std::cout << fmt::format("       dropped: {}: {}\n", key, reason);
    }
    if (!d.error.empty()) std::cout << fmt::format("       error:   {}\n", d.error);
  }
  if (e.record && !e.record->stages.empty()) {
    std::cout << "stages:\n";
    print_stages(*e.record, 0);
  }
}

void print_json_explanation(const Explanation& e) {
  const OpSchema& schema = *e.c.op->schema;
  json inputs = json::array();
  for (size_t i = 0; i < e.inputs.size(); ++i) {
    const Tensor& t = e.inputs[i];
    json slot = {{"name", std::string(schema.inputs[i].name)}};
    slot["tensor"] = t.defined() ? desc_json({t.device(), t.dtype(), t.shape()}) : json(nullptr);
    inputs.push_back(std::move(slot));
  }
  json decisions = json::array();
  for (const DispatchDecision& d : e.decisions) decisions.push_back(decision_json(d));
  json j = {{"op", std::string(schema.name)},
            {"workload", e.c.label},
            {"dtype", std::string(dtype_name(e.c.dtype))},
            {"device", e.device.str()},
            {"params", params_json(e.params)},
            {"inputs", inputs},
            {"serving_target", e.serving_target ? json(*e.serving_target) : json(nullptr)},
            {"served_by", e.record ? json(std::string(e.record->served_by)) : json(nullptr)},
            {"roofline", e.roofline ? roofline_json(*e.roofline) : json(nullptr)},
            {"decisions", decisions},
            {"stages", e.record ? stages_json(*e.record) : json::array()},
            {"error", e.error.empty() ? json(nullptr) : json(e.error)}};
  print_json(j);
}

}  // namespace

int explain_command(const std::vector<std::string>& args) {
  static constexpr OptionSpec kSpecs[] = {
      {"--workload", OptionKind::kValue}, {"--shape", OptionKind::kList},
      {"--dtype", OptionKind::kValue},    {"--param", OptionKind::kList},
      {"--device", OptionKind::kValue},   {"--seed", OptionKind::kValue},
      {"--json", OptionKind::kFlag}};
  const Arguments parsed("explain", args, kSpecs);
  const OpClassInfo& info = implemented_op(parsed.single_positional("OP"));
  Explanation e{select_cases(info, parsed, /*allow_all_workloads=*/false).front()};
  e.device = device_for(info, choose_device(parsed.value("--device")));
  const uint64_t seed = static_cast<uint64_t>(parsed.integer("--seed").value_or(42));

  std::unique_ptr<Op> op = make_requested_op(e.c, parsed);
  e.params = op->param_values();
  e.inputs =
      place_inputs(make_inputs(e.c.op_name(), *info.schema, e.c.shapes, e.c.dtype, seed), e.device);
  {
    DispatchTrace trace;
    try {
      op->call(e.inputs);
      synchronize(e.device);
    } catch (const SignatureError& err) {
      if (parsed.has("--shape") || parsed.has("--param")) throw UsageError(err.what());
      e.error = err.what();
    } catch (const std::exception& err) {
      e.error = err.what();
    }
    e.decisions = trace.decisions();
  }
  e.serving_target = op->serving_target();
  if (e.error.empty()) {
    e.record = op->last_call();
    try {
      e.roofline = op->eval_roofline();
    } catch (const std::exception& err) {
      e.error = fmt::format("roofline: {}", err.what());
    }
  }
  if (parsed.flag("--json")) {
    print_json_explanation(e);
  } else {
    print_text(e);
  }
  return e.error.empty() ? kExitOk : kExitFailure;
}

}  // namespace tileops::cli
