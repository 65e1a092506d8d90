// Step 3 of a call (settling the target) and step 4 when a target's kernel serves the op.
#include <fmt/format.h>

#include "interned_names.hpp"
#include "kernel_tuning.hpp"
#include "op_internal.hpp"
#include "target_selection.hpp"
#include "tileops/framework/warnings.hpp"

namespace tileops {

void Op::settle_target(detail::CallFrame& frame) {
  if (target_state_.load(std::memory_order_acquire) != TargetState::kUnsettled) return;
  // A call with no tensor probes nothing and settles nothing, unless a target is named.
  bool has_tensor = false;
  for (int i = 0; i < frame.n_inputs && !has_tensor; ++i) has_tensor = frame.inputs[i]->defined();
  if (!has_tensor && !target_ && !default_target()) return;
  std::lock_guard lock(state_->target_mutex);
  if (target_state_.load(std::memory_order_relaxed) != TargetState::kUnsettled) return;
  std::string chosen = detail::select_target(schema_.name, target_,
                                             has_tensor ? frame.device : std::optional<Device>());
  if (chosen != kBuiltinTarget && detail::find_builder(schema_.name, chosen) == nullptr) {
    const auto serving = registered_targets(schema_.name);
    throw OpNotAvailableError(fmt::format(
        "{}: target '{}' registers no kernel builder for this op; targets that do: [{}]; "
        "expected a target that serves {} (or target='builtin' for the in-tree kernels)",
        schema_.name, chosen, fmt::join(serving, ", "), schema_.name));
  }
  frame.selected_target_here = true;
  if (chosen == kBuiltinTarget) {
    target_state_.store(TargetState::kBuiltin, std::memory_order_release);
  } else {
    serving_name_ = detail::intern_name(chosen);
    target_state_.store(TargetState::kExternal, std::memory_order_release);
  }
}

void Op::run_target(detail::CallFrame& frame) {
  const Device device = frame.device.value_or(Device::cpu());
  TargetKernel* kernel = nullptr;
  {
    std::shared_lock lock(state_->cache_mutex);
    for (const auto& slot : state_->target_kernels) {
      if (slot->device != device) continue;
      bool same = true;
      for (int i = 0; i < frame.n_inputs && same; ++i) {
        const Tensor& t = *frame.inputs[i];
        const auto& s = slot->slots[i];
        same = t.defined() ? (s && s->first == t.dtype() && s->second == t.shape()) : !s;
      }
      if (same) {
        kernel = slot->kernel.get();
        break;
      }
    }
  }
  if (kernel == nullptr) {
    std::unique_lock lock(state_->cache_mutex);
    std::array<std::optional<TensorDesc>, kMaxTensors> descs{};
    auto slot = std::make_unique<TargetKernelSlot>();
    slot->device = device;
    for (int i = 0; i < frame.n_inputs; ++i) {
      const Tensor& t = *frame.inputs[i];
      if (!t.defined()) continue;
      descs[i] = TensorDesc{t.device(), t.dtype(), t.shape()};
      slot->slots[i] = std::make_pair(t.dtype(), t.shape());
    }
    const KernelBuilder* builder = detail::find_builder(schema_.name, serving_name_);
    std::unique_ptr<TargetKernel> built =
        (*builder)(std::span(descs.data(), static_cast<size_t>(frame.n_inputs)), param_map_());
    if (!built) {
      throw OpNotAvailableError(fmt::format(
          "{}: the kernel builder of target '{}' returned no callable kernel for inputs on {}; "
          "expected a kernel",
          schema_.name, serving_name_, device.str()));
    }
    if (tuned()) {
      if (!detail::request_tune_defined(*built, state_->tune_options)) {
        warn(
            fmt::format("{}: the kernel target '{}' built defines no request_tune(); it runs "
                        "untuned",
                        instance_key_, serving_name_));
      }
    }
    slot->kernel = std::move(built);
    kernel = slot->kernel.get();
    state_->target_kernels.push_back(std::move(slot));
  }
  std::array<Tensor, kMaxTensors> inputs;
  for (int i = 0; i < frame.n_inputs; ++i) inputs[i] = *frame.inputs[i];
  kernel->run(std::span<const Tensor>(inputs.data(), static_cast<size_t>(frame.n_inputs)),
              std::span<const Tensor>(frame.outputs.data(), static_cast<size_t>(frame.n_outputs)));
  note_served(*kernel, serving_name_);
}

}  // namespace tileops
