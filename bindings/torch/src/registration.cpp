// The boxed kernel every bound op runs on CPU and CUDA, and the library's registrations.
//
// A call: wrap the inputs (non-mutated ones made contiguous by torch first), find the op instance
// for the parameters (the thread's memo, else the instance cache by its key, constructing the
// instance on first use), infer the outputs with the op's generated check, allocate them with
// torch's allocator, and run the op into them on torch's current stream. tileops errors leave as
// the torch exceptions errors.hpp lists.
#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>
#include <fmt/format.h>

#include "tileops/core/error.hpp"
#include "tileops/framework/op.hpp"
#include "tileops/framework/schema.hpp"
#include "tileops_torch/call_path.hpp"
#include "tileops_torch/conversion.hpp"
#include "tileops_torch/errors.hpp"
#include "tileops_torch/instance_cache.hpp"
#include "tileops_torch/instance_memo.hpp"
#include "tileops_torch/query.hpp"
#include "tileops_torch/raising_autograd.hpp"
#include "tileops_torch/registration.hpp"

namespace tileops_torch {
namespace {

class OpKernel final : public c10::OperatorKernel {
 public:
  // Runs while the library loads (libtileops's registrations are done by then); never throws.
  explicit OpKernel(const BoundOp& bound) : op_name_(bound.op) {
    for (const tileops::OpClassInfo* info : tileops::op_classes()) {
      if (info->schema->name == op_name_ && info->factory) schema_ = info->schema;
    }
  }

  void operator()(const c10::OperatorHandle& handle, c10::DispatchKeySet,
                  torch::jit::Stack* stack) {
    const size_t n_args = handle.schema().arguments().size();
    std::vector<at::Tensor> outputs;
    try {
      outputs = run(torch::jit::last(*stack, n_args));
    } catch (...) {
      rethrow_for_torch();
    }
    torch::jit::drop(*stack, n_args);
    for (at::Tensor& t : outputs) torch::jit::push(*stack, std::move(t));
  }

 private:
  std::vector<at::Tensor> run(c10::ArrayRef<c10::IValue> args) {
    if (schema_ == nullptr) {
      throw tileops::OpNotAvailableError(fmt::format(
          "{}: the torch binding was generated for this op, but libtileops has no op class of "
          "that name; rebuild the binding and libtileops from one tree",
          op_name_));
    }
    const tileops::OpSchema& schema = *schema_;
    const size_t n_in = schema.inputs.size();
    std::array<at::Tensor, tileops::kMaxTensors> given;
    for (size_t i = 0; i < n_in; ++i) {
      if (!args[i].isNone()) given[i] = args[i].toTensor();
    }
    const WrappedInputs inputs = wrap_inputs(op_name_, schema, {given.data(), n_in});
    // Parameters and target, and the instance they key. The key names the device too: an
    // instance settles its target on its first call. A repeated call finds its instance in the
    // thread's memo without building the key.
    const c10::ArrayRef<c10::IValue> params_and_target = args.slice(n_in);
    tileops::Op* op = find_memoized(this, params_and_target, inputs.device);
    std::unique_ptr<tileops::Op> uncached;
    if (op == nullptr) {
      const InstanceRequest request =
          read_instance_request(op_name_, schema, params_and_target,
                                inputs.device ? inputs.device->str() : std::string("cpu"));
      if (request.cacheable) {
        op = &cached_instance(request, op_name_);
        remember_instance(this, params_and_target, inputs.device, op);
      } else {
        uncached = tileops::make_op(op_name_, request.params, request.target);
        op = uncached.get();
      }
    }
    return run_into_new_outputs(op_name_, schema, *op, inputs);
  }

  std::string op_name_;
  const tileops::OpSchema* schema_ = nullptr;
};

// Problems found while defining the library; reported by tileops::_binding_problems, since
// throwing from a static initializer would end the process.
std::vector<std::string>& problems() {
  static std::vector<std::string> p;
  return p;
}

std::vector<std::string> binding_problems() {
  return problems();
}

std::vector<std::string> binding_instances() {
  return cached_instances();
}

}  // namespace

void define_ops(torch::Library& m, std::span<const BoundOp> ops,
                std::span<const std::string_view> composite_ops) {
  // Where the fakes are registered: torch names this module when a fake is needed before it
  // was imported, and checks that register_fake is called from it.
  m.set_python_module("tileops_torch._generated");
  std::set<std::string, std::less<>> generated;
  for (const BoundOp& op : ops) {
    m.def(op.schema);
    generated.insert(op.op);
  }
  // The generator decides what is bound from the manifest; the op registry knows each class's
  // decl. They must agree.
  const std::set<std::string_view> composite(composite_ops.begin(), composite_ops.end());
  for (const tileops::OpClassInfo* info : tileops::op_classes()) {
    const std::string_view name = info->schema->name;
    const bool bound = generated.count(name) > 0;
    if (info->compile_boundary != bound) {
      problems().push_back(fmt::format(
          "{}: the op registry says it {} a torch custom op (compile boundary), but the "
          "generated binding {} it",
          name, info->compile_boundary ? "needs" : "must not have",
          bound ? "defines" : "does not define"));
    }
    if (info->composite != (composite.count(name) > 0) && info->factory) {
      problems().push_back(fmt::format(
          "{}: the op class is {}composite, but the manifest entry's family says otherwise "
          "(the binding treats family 'composite' as composite)",
          name, info->composite ? "" : "not "));
    }
  }
  m.def("_binding_problems() -> str[]", &binding_problems);
  m.def("_binding_instances() -> str[]", &binding_instances);
  // The ops whose backward raises (raising_autograd.hpp), for tileops_torch._autograd.
  static const std::vector<std::string> no_backward = [&] {
    std::vector<std::string> names;
    for (const BoundOp& op : ops) {
      if (takes_raising_backward(op)) names.emplace_back(op.op);
    }
    return names;
  }();
  m.def("_binding_no_backward() -> str[]", [] { return no_backward; });
  implement_raising_autograd(m, ops);
  define_queries(m, ops);
  define_fast_call_api(m);
}

void implement_ops(torch::Library& m, std::span<const BoundOp> ops) {
  for (const BoundOp& op : ops) {
    m.impl(op.torch_name, torch::CppFunction::makeFromBoxedFunctor(std::make_unique<OpKernel>(op)));
  }
}

}  // namespace tileops_torch
