// The boxed kernel every bound op runs on CPU and CUDA, and the library's registrations.
//
// A call: wrap the inputs (non-mutated ones made contiguous by torch first), build the instance
// cache key from the parameters, take the cached op instance (constructing it on first use),
// infer the outputs with the op's generated check, allocate them with torch's allocator, and run
// the op into them on torch's current stream. tileops errors leave as the torch exceptions
// errors.hpp lists.
#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <fmt/format.h>

#include "tileops/core/error.hpp"
#include "tileops/framework/op.hpp"
#include "tileops/framework/schema.hpp"
#include "tileops/runtime/cuda.hpp"
#include "tileops_torch/conversion.hpp"
#include "tileops_torch/errors.hpp"
#include "tileops_torch/instance_cache.hpp"
#include "tileops_torch/registration.hpp"

namespace tileops_torch {
namespace {

// The tensor whose dtype slot's expression names first ("same_as(x)"), for messages.
const at::Tensor* same_as_tensor(const tileops::OpSchema& schema, const tileops::TensorSlot& slot,
                                 std::span<const at::Tensor> inputs) {
  const std::string_view text = slot.dtype;
  const size_t at = text.find("same_as(");
  if (at == std::string_view::npos) return nullptr;
  const size_t begin = at + 8;
  const std::string_view name = text.substr(begin, text.find(')', begin) - begin);
  for (size_t i = 0; i < schema.inputs.size(); ++i) {
    if (schema.inputs[i].name == name) return &inputs[i];
  }
  return nullptr;
}

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
    // Inputs: torch tensors kept alive here, wrapped without copies. A non-mutated input that is
    // not contiguous is copied to contiguous memory by torch (on its stream and allocator); a
    // mutated one is passed as it is, and the op's check rejects it if it is not contiguous.
    std::array<at::Tensor, tileops::kMaxTensors> held;
    std::array<tileops::Tensor, tileops::kMaxTensors> inputs;
    for (size_t i = 0; i < n_in; ++i) {
      if (args[i].isNone()) continue;
      held[i] = args[i].toTensor();
      if (!schema.inputs[i].mutated) held[i] = held[i].contiguous();
    }
    std::optional<c10::Device> device;
    for (size_t i = 0; i < n_in; ++i) {
      if (!held[i].defined()) continue;
      inputs[i] = wrap(op_name_, schema.inputs[i], held[i],
                       same_as_tensor(schema, schema.inputs[i], {held.data(), n_in}));
      if (!device) device = held[i].device();
    }
    // Parameters, and the instance they key. The key names the device too: an instance settles
    // its target on its first call.
    std::string key = op_name_ + "@" + (device ? device->str() : std::string("cpu")) + "|";
    tileops::ParamMap params;
    bool cacheable = true;
    for (size_t j = 0; j < schema.params.size(); ++j) {
      const tileops::ParamSlot& slot = schema.params[j];
      params.emplace_back(std::string(slot.name),
                          param_value(op_name_, slot, args[n_in + j], key, cacheable));
    }
    std::unique_ptr<tileops::Op> uncached;
    tileops::Op* op = nullptr;
    if (cacheable) {
      op = &cached_instance(key, op_name_, params);
    } else {
      uncached = tileops::make_op(op_name_, params);
      op = uncached.get();
    }
    const std::span<const tileops::Tensor> in(inputs.data(), n_in);
    const std::vector<tileops::TensorDesc> descs = op->infer_outputs(in);
    std::vector<at::Tensor> outputs;
    std::vector<tileops::Tensor> wrapped;
    for (size_t i = 0; i < descs.size(); ++i) {
      outputs.push_back(allocate(descs[i]));
      wrapped.push_back(wrap(op_name_, schema.outputs[i], outputs.back(), nullptr));
    }
    if (device && device->is_cuda()) {
      // Work goes on torch's current stream of the device: ordered after whatever torch enqueued
      // there (the outputs' allocation included) and capturable in a CUDA graph.
      const c10::impl::DeviceGuardImplInterface* cuda =
          c10::impl::getDeviceGuardImpl(c10::DeviceType::CUDA);
      // torch's default stream has a null handle: StreamGuard takes that as the legacy default
      // stream, which it is.
      void* handle = cuda->getStreamNativeHandle(cuda->getStream(*device));
      tileops::cuda::StreamGuard guard(device->index(), handle);
      op->call_into(in, wrapped);
    } else {
      op->call_into(in, wrapped);
    }
    return outputs;
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
}

void implement_ops(torch::Library& m, std::span<const BoundOp> ops) {
  for (const BoundOp& op : ops) {
    m.impl(op.torch_name, torch::CppFunction::makeFromBoxedFunctor(std::make_unique<OpKernel>(op)));
  }
}

}  // namespace tileops_torch
