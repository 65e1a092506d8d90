// The fast path's side in libtileops_torch (fast_call.hpp): binding an op object's parameters
// once, and running a call straight into the op layer when nothing the dispatcher would do
// before the op's own kernel applies to it.
#include "tileops_torch/fast_call.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include <ATen/PythonTorchFunctionTLS.h>
#include <ATen/core/grad_mode.h>
#include <c10/core/DispatchKeySet.h>
#include <c10/core/impl/LocalDispatchKeySet.h>
#include <c10/core/impl/TorchDispatchModeTLS.h>
#include <fmt/format.h>

#include "tileops/framework/op.hpp"
#include "tileops/framework/schema.hpp"
#include "tileops_torch/call_path.hpp"
#include "tileops_torch/instance_cache.hpp"
#include "tileops_torch/registration.hpp"

namespace tileops_torch {

class FastCall {
 public:
  FastCall(std::string op, const tileops::OpSchema& schema, std::vector<c10::IValue> params)
      : op_(std::move(op)), schema_(schema), params_and_target_(std::move(params)) {}

  bool run(const at::Tensor* given, size_t count, std::vector<at::Tensor>* outputs);

 private:
  tileops::Op* instance_on(const c10::Device& device);

  // CPU, then CUDA devices 0..15; calls on other devices take the dispatcher.
  static constexpr int kDeviceSlots = 17;
  std::string op_;
  const tileops::OpSchema& schema_;
  std::vector<c10::IValue> params_and_target_;
  // The shared cached instance on each device, found on the device's first call; cached
  // instances live until the process ends.
  std::array<std::atomic<tileops::Op*>, kDeviceSlots> instances_{};
};

namespace {

// Nothing on the thread would intercept the call before the op's kernel. Every thread has
// BackendSelect and ADInplaceOrView in its included set; anything more (vmap, jit tracing, a
// Python dispatcher) routes the call elsewhere.
bool thread_state_allows_direct_call() {
  static const c10::DispatchKeySet always{c10::DispatchKey::BackendSelect,
                                          c10::DispatchKey::ADInplaceOrView};
  return c10::impl::TorchDispatchModeTLS::stack_len() == 0 &&
         !at::impl::torch_function_mode_enabled() &&
         (c10::impl::tls_local_dispatch_key_set().included_ - always).empty();
}

// A dense CPU or CUDA tensor whose call the autograd key would pass straight down: its keys are
// only the backend's, autograd's, ADInplaceOrView's and autocast's (a fallthrough for custom
// ops), it needs no backward under grad mode and carries no forward gradient.
bool takes_direct_call(const at::Tensor& t) {
  static const c10::DispatchKeySet plain{c10::DispatchKey::CPU,
                                         c10::DispatchKey::CUDA,
                                         c10::DispatchKey::AutogradCPU,
                                         c10::DispatchKey::AutogradCUDA,
                                         c10::DispatchKey::ADInplaceOrView,
                                         c10::DispatchKey::AutocastCPU,
                                         c10::DispatchKey::AutocastCUDA};
  if (!plain.isSupersetOf(t.key_set())) return false;
  if (t.unsafeGetTensorImpl()->autograd_meta() != nullptr) {
    if (t.requires_grad() && at::GradMode::is_enabled()) return false;
    if (t._fw_grad(0).defined()) return false;
  }
  return true;
}

int device_slot(const c10::Device& device) {
  if (device.is_cpu()) return 0;
  if (device.is_cuda() && device.index() >= 0 && device.index() < 16) return 1 + device.index();
  return -1;
}

FastCall* bind(const char* op, std::vector<c10::IValue> params_and_target, std::string* why) {
  try {
    for (const tileops::OpClassInfo* info : tileops::op_classes()) {
      if (info->schema->name != op || !info->factory) continue;
      if (params_and_target.size() != info->schema->params.size() + 1) {
        *why = fmt::format("{}: {} parameter values and a target expected, {} given", op,
                           info->schema->params.size(), params_and_target.size());
        return nullptr;
      }
      // The request the first call builds, read once here: values it refuses or cannot key
      // (tensor parameters) leave the op object on the dispatcher's path.
      const InstanceRequest request =
          read_instance_request(op, *info->schema, params_and_target, "cpu");
      if (!request.cacheable) {
        *why = fmt::format("{}: a parameter is a tensor, so the instance is not cached", op);
        return nullptr;
      }
      return new FastCall(op, *info->schema, std::move(params_and_target));
    }
    *why = fmt::format("{}: libtileops has no op class of that name", op);
  } catch (const std::exception& e) {
    *why = e.what();
  }
  return nullptr;
}

void release(FastCall* call) {
  delete call;
}

bool run(FastCall* call, const at::Tensor* inputs, size_t count, std::vector<at::Tensor>* outputs) {
  return call->run(inputs, count, outputs);
}

const FastCallApi kApi{FastCallApi::kVersion, sizeof(FastCallApi), &bind, &release, &run};

}  // namespace

tileops::Op* FastCall::instance_on(const c10::Device& device) {
  const int slot = device_slot(device);
  if (slot < 0) return nullptr;
  tileops::Op* op = instances_[slot].load(std::memory_order_acquire);
  if (op != nullptr) return op;
  const InstanceRequest request =
      read_instance_request(op_, schema_, params_and_target_, device.str());
  op = &cached_instance(request, op_);
  instances_[slot].store(op, std::memory_order_release);
  return op;
}

bool FastCall::run(const at::Tensor* given, size_t count, std::vector<at::Tensor>* outputs) {
  try {
    if (count != schema_.inputs.size() || !thread_state_allows_direct_call()) return false;
    for (size_t i = 0; i < count; ++i) {
      if (given[i].defined() && !takes_direct_call(given[i])) return false;
    }
    const WrappedInputs inputs = wrap_inputs(op_, schema_, {given, count});
    if (!inputs.device) return false;
    tileops::Op* op = instance_on(*inputs.device);
    if (op == nullptr) return false;
    *outputs = run_into_new_outputs(op_, schema_, *op, inputs);
    return true;
  } catch (...) {
    // The op checks its call before it writes anything, so the dispatcher's run of the same
    // call raises the error as torch translates it.
    return false;
  }
}

void define_fast_call_api(torch::Library& m) {
  m.def("_fast_call_api() -> int",
        [] { return static_cast<int64_t>(reinterpret_cast<std::intptr_t>(&kApi)); });
}

}  // namespace tileops_torch
