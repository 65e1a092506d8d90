#include "tileops_torch/raising_autograd.hpp"

#include <memory>
#include <string>
#include <vector>

#include <ATen/core/LegacyTypeDispatch.h>
#include <ATen/core/grad_mode.h>
#include <ATen/core/stack.h>
#include <c10/util/Exception.h>
#include <fmt/format.h>
#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/functions/utils.h>

#include "tileops/framework/schema.hpp"

namespace tileops_torch {
namespace {

// The grad_fn of a bound op's outputs: its backward raises.
class RaisingBackward final : public torch::autograd::Node {
 public:
  explicit RaisingBackward(const std::string* message) : message_(message) {}
  torch::autograd::variable_list apply(torch::autograd::variable_list&&) override {
    TORCH_CHECK_NOT_IMPLEMENTED(false, *message_);
  }

 private:
  const std::string* message_;  // the kernel's, which lives as long as the library
};

class RaisingAutogradKernel final : public c10::OperatorKernel {
 public:
  explicit RaisingAutogradKernel(const BoundOp& op)
      : message_(fmt::format(
            "{} (tileops::{}): tileops has no backward for this op yet, so gradients cannot "
            "flow through it; train with torch's op here, or call it under torch.no_grad() or "
            "torch.inference_mode() when no gradient is needed",
            op.op, op.torch_name)) {}

  void operator()(const c10::OperatorHandle& handle, c10::DispatchKeySet keys,
                  torch::jit::Stack* stack) {
    const size_t n_args = handle.schema().arguments().size();
    std::vector<at::Tensor> grad_inputs;
    if (at::GradMode::is_enabled()) {
      for (const c10::IValue& v : torch::jit::last(*stack, n_args)) {
        if (v.isTensor() && v.toTensor().requires_grad()) grad_inputs.push_back(v.toTensor());
      }
    }
    {
      at::AutoDispatchBelowADInplaceOrView below;
      handle.redispatchBoxed(keys & c10::after_ADInplaceOrView_keyset, stack);
    }
    if (grad_inputs.empty()) return;
    const std::shared_ptr<RaisingBackward> node(new RaisingBackward(&message_),
                                                torch::autograd::deleteNode);
    node->set_next_edges(torch::autograd::collect_next_edges(grad_inputs));
    const size_t n_returns = handle.schema().returns().size();
    for (const c10::IValue& v : torch::jit::last(*stack, n_returns)) {
      if (!v.isTensor()) continue;
      const at::Tensor& out = v.toTensor();
      if (out.defined() && torch::autograd::isDifferentiableType(out.scalar_type())) {
        torch::autograd::set_history(out, node);
      }
    }
  }

 private:
  std::string message_;
};

}  // namespace

bool takes_raising_backward(const BoundOp& op) {
  for (const tileops::OpClassInfo* info : tileops::op_classes()) {
    if (info->schema->name != op.op) continue;
    for (const tileops::TensorSlot& input : info->schema->inputs) {
      if (input.mutated) return false;
    }
    return true;
  }
  return false;
}

void implement_raising_autograd(torch::Library& m, std::span<const BoundOp> ops) {
  for (const BoundOp& op : ops) {
    if (!takes_raising_backward(op)) continue;
    m.impl(op.torch_name, torch::dispatch(c10::DispatchKey::Autograd,
                                          torch::CppFunction::makeFromBoxedFunctor(
                                              std::make_unique<RaisingAutogradKernel>(op))));
  }
}

}  // namespace tileops_torch
