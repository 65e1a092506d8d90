// The introspection op of every bound op, tileops::_query_<op>(query, device, inputs, <params>,
// target) -> str, which the Python op objects' last_call, kernel_config(), eval_roofline(),
// request_tune() and explain() call (docs/design/torch-binding.md, "The op interface"). It reads
// the parameters and target exactly as the op's own kernel does, so it finds the instance the
// calls share. Answers are JSON, except kernel_config's plain string.
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tileops/core/error.hpp"
#include "tileops/framework/dispatch_trace.hpp"
#include "tileops/framework/op.hpp"
#include "tileops/framework/schema.hpp"
#include "tileops_torch/call_path.hpp"
#include "tileops_torch/errors.hpp"
#include "tileops_torch/instance_cache.hpp"
#include "tileops_torch/query.hpp"

namespace tileops_torch {
namespace {

using nlohmann::json;

json describe(const tileops::CallRecord& record, const tileops::Op& op) {
  json inputs = json::array(), outputs = json::array();
  for (int i = 0; i < record.n_inputs; ++i) {
    inputs.push_back(record.inputs[i] ? json(record.inputs[i]->str()) : json(nullptr));
  }
  for (int i = 0; i < record.n_outputs; ++i) outputs.push_back(record.outputs[i].str());
  return {{"served_by", std::string(record.served_by)},
          {"kernel_config", op.kernel_config()},
          {"target", op.serving_target().value_or("")},
          {"inputs", inputs},
          {"outputs", outputs}};
}

json decisions_json(const tileops::DispatchTrace& trace) {
  json out = json::array();
  for (const tileops::DispatchDecision& d : trace.decisions()) {
    json dropped = json::array();
    for (const auto& [key, reason] : d.dropped)
      dropped.push_back({{"key", key}, {"reason", reason}});
    out.push_back({{"op", d.op},
                   {"interface", d.interface},
                   {"call", d.call},
                   {"target", d.target},
                   {"winner", d.winner},
                   {"dropped", dropped},
                   {"error", d.error}});
  }
  return out;
}

class QueryKernel final : public c10::OperatorKernel {
 public:
  explicit QueryKernel(const BoundOp& bound) : op_name_(bound.op) {
    for (const tileops::OpClassInfo* info : tileops::op_classes()) {
      if (info->schema->name == op_name_ && info->factory) schema_ = info->schema;
    }
  }

  void operator()(const c10::OperatorHandle& handle, c10::DispatchKeySet,
                  torch::jit::Stack* stack) {
    const size_t n_args = handle.schema().arguments().size();
    std::string answer;
    try {
      answer = run(torch::jit::last(*stack, n_args));
    } catch (...) {
      rethrow_for_torch();
    }
    torch::jit::drop(*stack, n_args);
    torch::jit::push(*stack, std::move(answer));
  }

 private:
  std::string run(c10::ArrayRef<c10::IValue> args) {
    if (schema_ == nullptr) {
      throw tileops::OpNotAvailableError(
          fmt::format("{}: libtileops has no op class of that name", op_name_));
    }
    const std::string query(args[0].toStringRef());
    const std::string device(args[1].toStringRef());
    if (query == "explain") return explain(args[2], args.slice(3));
    const std::string probe_device = device.empty() ? "cpu" : device;
    const InstanceRequest request =
        read_instance_request(op_name_, *schema_, args.slice(3), probe_device);
    tileops::Op* op = instance(request, device, query == "request_tune");
    if (query == "last_call") {
      if (op == nullptr) return "null";
      const std::optional<tileops::CallRecord> record = op->last_call();
      return record ? describe(*record, *op).dump() : "null";
    }
    if (query == "kernel_config") return op != nullptr ? op->kernel_config() : "";
    if (query == "eval_roofline") {
      if (op == nullptr) {
        throw tileops::ValueError(
            fmt::format("{}: eval_roofline: the op has not completed a call", op_name_));
      }
      const tileops::RooflineValue r = op->eval_roofline();
      return json{{"flops", r.flops}, {"bytes", r.bytes}}.dump();
    }
    if (query == "request_tune") {
      op->request_tune();
      return "null";
    }
    throw tileops::ValueError(fmt::format(
        "{}: argument 'query': expected one of last_call, kernel_config, eval_roofline, "
        "request_tune, explain, got '{}'",
        op_name_, query));
  }

  // The shared instance on `device`, or, with no device named, on the one device where one
  // exists. null when there is none and `create` is false.
  tileops::Op* instance(const InstanceRequest& request, const std::string& device, bool create) {
    if (!request.cacheable) {
      throw tileops::ValueError(fmt::format(
          "{}: an instance constructed with a tensor parameter is not shared, so it cannot be "
          "queried",
          op_name_));
    }
    if (!device.empty()) {
      return create ? &cached_instance(request, op_name_) : find_cached(request.key);
    }
    const std::vector<tileops::Op*> found = cached_on_any_device(op_name_, request.spec());
    if (found.size() > 1) {
      throw tileops::ValueError(fmt::format(
          "{}: argument 'device': expected the device whose instance to query (instances of "
          "these parameters exist on {} devices), got none",
          op_name_, found.size()));
    }
    if (found.empty() && create) {
      throw tileops::ValueError(fmt::format(
          "{}: argument 'device': expected a device to tune on (the op has made no call), got "
          "none",
          op_name_));
    }
    return found.empty() ? nullptr : found.front();
  }

  // Runs one call of a fresh instance on `inputs` while a DispatchTrace records why each
  // implementation was taken or dropped.
  std::string explain(const c10::IValue& inputs_arg, c10::ArrayRef<c10::IValue> params) {
    const c10::List<std::optional<at::Tensor>> list = inputs_arg.toOptionalTensorList();
    const size_t n_in = schema_->inputs.size();
    if (list.size() != n_in) {
      throw tileops::SignatureError(op_name_, "inputs",
                                    fmt::format("{} inputs in manifest order", n_in),
                                    fmt::format("{}", list.size()));
    }
    std::array<at::Tensor, tileops::kMaxTensors> given;
    for (size_t i = 0; i < n_in; ++i) {
      const std::optional<at::Tensor> t = list.get(i);
      if (t) given[i] = *t;
    }
    const WrappedInputs inputs = wrap_inputs(op_name_, *schema_, {given.data(), n_in});
    const InstanceRequest request = read_instance_request(
        op_name_, *schema_, params, inputs.device ? inputs.device->str() : std::string("cpu"));
    const std::unique_ptr<tileops::Op> fresh =
        tileops::make_op(op_name_, request.params, request.target);
    tileops::DispatchTrace trace;
    run_into_new_outputs(op_name_, *schema_, *fresh, inputs);
    json out{{"decisions", decisions_json(trace)}};
    if (const std::optional<tileops::CallRecord> record = fresh->last_call()) {
      out["last_call"] = describe(*record, *fresh);
    }
    return out.dump();
  }

  std::string op_name_;
  const tileops::OpSchema* schema_ = nullptr;
};

}  // namespace

void define_queries(torch::Library& m, std::span<const BoundOp> ops) {
  for (const BoundOp& op : ops) {
    m.def(op.query_schema,
          torch::CppFunction::makeFromBoxedFunctor(std::make_unique<QueryKernel>(op)));
  }
}

}  // namespace tileops_torch
