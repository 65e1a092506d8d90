#include "tileops/framework/op.hpp"

#include <algorithm>
#include <new>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "generated_support.hpp"
#include "kernel_tuning.hpp"
#include "op_internal.hpp"
#include "tileops/framework/backend.hpp"
#include "tileops/framework/warnings.hpp"

namespace tileops {
namespace detail {

CallFrame*& current_frame() noexcept {
  thread_local CallFrame* frame = nullptr;
  return frame;
}

}  // namespace detail

namespace {

// An output the op allocates. Tensor::empty checks the size; its faults are rethrown naming the
// op and the output (a size that is negative or overflows int64: ShapeError; an allocator that
// fails: RuntimeError). Nothing here runs on a call whose allocation succeeds.
Tensor allocate_output(std::string_view op, std::string_view output, const Shape& shape,
                       DType dtype, Device device) {
  auto failure = [&](std::string_view why) {
    const int64_t bytes = *shape.checked_numel() * static_cast<int64_t>(dtype_size(dtype));
    return RuntimeError(fmt::format("{}: could not allocate output '{}' ({}, {} bytes): {}", op,
                                    output, TensorDesc{device, dtype, shape}.str(), bytes, why));
  };
  try {
    return Tensor::empty(shape, dtype, device);
  } catch (const ShapeError&) {
    throw ShapeError(op, output,
                     "non-negative sizes whose element count and byte size fit in int64",
                     TensorDesc{device, dtype, shape}.str());
  } catch (const std::bad_alloc&) {
    throw failure("out of memory");
  } catch (const RuntimeError& e) {
    throw failure(e.what());
  }
}

struct InstanceRegistry {
  std::mutex mutex;
  uint64_t counter = 0;
  std::unordered_map<std::string, Op*> live;
};

InstanceRegistry& instances() {
  static InstanceRegistry r;
  return r;
}

// Pushes a frame on this thread's call stack for the duration of a call.
class FrameGuard {
 public:
  explicit FrameGuard(detail::CallFrame& frame) : frame_(frame) {
    frame.enclosing = detail::current_frame();
    detail::current_frame() = &frame;
  }
  ~FrameGuard() { detail::current_frame() = frame_.enclosing; }

 private:
  detail::CallFrame& frame_;
};

bool writes_nothing(const detail::CallFrame& frame, const OpSchema& schema) {
  for (int i = 0; i < frame.n_outputs; ++i) {
    if (frame.out_shapes[i].numel() != 0) return false;
  }
  for (int i = 0; i < frame.n_inputs; ++i) {
    if (schema.inputs[i].mutated && frame.inputs[i]->defined() && frame.inputs[i]->numel() != 0) {
      return false;
    }
  }
  return true;
}

void fill_record_inputs(detail::CallFrame& frame) {
  CallRecord& record = frame.record;
  record.n_inputs = frame.n_inputs;
  for (int i = 0; i < frame.n_inputs; ++i) {
    const Tensor& t = *frame.inputs[i];
    if (t.defined()) {
      record.inputs[i] = TensorDesc{t.device(), t.dtype(), t.shape()};
    } else {
      record.inputs[i].reset();
    }
  }
}

// An op body may replace an output slot (a composite assigns its last sub-op's result); under
// call_into the caller's tensor must still receive the values.
void deliver_supplied_outputs(detail::CallFrame& frame) {
  if (frame.supplied_outputs == nullptr) return;
  for (int i = 0; i < frame.n_outputs; ++i) {
    Tensor supplied = frame.supplied_outputs[i];
    if (frame.outputs[i].data() == supplied.data()) continue;
    supplied.copy_from(frame.outputs[i]);
    frame.outputs[i] = supplied;
  }
}

}  // namespace

Op::Op(const OpSchema& schema, const OpDecl& decl, Target target, detail::ParamCheckRef check)
    : schema_(schema), target_(std::move(target)), state_(std::make_unique<State>()) {
  ensure_backends_loaded();   // 1. backend registry
  check.check(check.params);  // 2. parameter values, then the injected ones
  if (check.injected != nullptr) {
    detail::check_injected(schema_.name, decl.injected_parameters, *check.injected);
  }
  install_table(decl);  // 3. implementation table and contracts
  {                     // 4. instance registration
    auto& registry = instances();
    std::lock_guard lock(registry.mutex);
    instance_key_ = fmt::format("{}#{}", schema_.name, ++registry.counter);
    registry.live.emplace(instance_key_, this);
  }
  // 5. instance state: every member above starts empty (no target, caches, record or sub-ops).
}

Op::~Op() {
  if (instance_key_.empty()) return;
  auto& registry = instances();
  std::lock_guard lock(registry.mutex);
  registry.live.erase(instance_key_);
}

Op* find_instance(std::string_view instance_key) {
  auto& registry = instances();
  std::lock_guard lock(registry.mutex);
  auto it = registry.live.find(std::string(instance_key));
  return it == registry.live.end() ? nullptr : it->second;
}

void Op::install_table(const OpDecl& decl) {
  state_->table = implementations_for(schema_.name);
  delegate_types_ = decl.delegate_types;
  for (const InterfaceInfo* info : decl.interfaces) {
    auto state = std::make_unique<InterfaceState>();
    state->info = info;
    state_->interfaces.push_back(std::move(state));
  }
  auto declared = [&](const InterfaceInfo* info) {
    return std::any_of(decl.interfaces.begin(), decl.interfaces.end(),
                       [&](const InterfaceInfo* d) { return d == info; });
  };
  std::vector<std::string> names;
  for (const InterfaceInfo* info : decl.interfaces) names.emplace_back(info->name);
  for (const auto& impl : state_->table) {
    if (!declared(impl->interface)) {
      throw ContractError(fmt::format(
          "{}: implementation '{}' (from {}) implements interface '{}', which the op does not "
          "declare; declared interfaces: [{}]",
          schema_.name, impl->key, impl->origin, impl->interface->name, fmt::join(names, ", ")));
    }
    for (const std::string& other : impl->preferred_over) {
      auto sibling = std::find_if(state_->table.begin(), state_->table.end(),
                                  [&](const auto& c) { return c->key == other; });
      if (sibling == state_->table.end() || (*sibling)->interface != impl->interface) {
        throw ContractError(
            fmt::format("{}: implementation '{}' declares preferred_over '{}', which is not an "
                        "implementation of the same interface '{}'",
                        schema_.name, impl->key, other, impl->interface->name));
      }
    }
  }
  // preferred_over must be acyclic, or precedence could never single out a winner.
  std::unordered_map<std::string_view, int> color;  // 0 new, 1 on path, 2 done
  std::function<void(const ImplementationInfo&)> visit = [&](const ImplementationInfo& impl) {
    color[impl.key] = 1;
    for (const std::string& next : impl.preferred_over) {
      auto it = std::find_if(state_->table.begin(), state_->table.end(),
                             [&](const auto& c) { return c->key == next; });
      const int c = color[(*it)->key];
      if (c == 1) {
        throw ContractError(
            fmt::format("{}: preferred_over declarations form a cycle through '{}' "
                        "and '{}'",
                        schema_.name, impl.key, next));
      }
      if (c == 0) visit(**it);
    }
    color[impl.key] = 2;
  };
  for (const auto& impl : state_->table) {
    if (color[impl->key] == 0) visit(*impl);
  }
}

std::optional<std::string> Op::serving_target() const {
  switch (target_state_.load(std::memory_order_acquire)) {
    case TargetState::kUnsettled:
      return std::nullopt;
    case TargetState::kBuiltin:
      return std::string(kBuiltinTarget);
    case TargetState::kExternal:
      return std::string(serving_name_);
  }
  return std::nullopt;
}

void Op::run_call(detail::CallFrame& frame) {
  frame.op = this;
  FrameGuard guard(frame);
  check_call_(frame);  // 1. signature (throws before anything is settled or written)
  if (frame.supplied_outputs != nullptr) check_supplied_outputs(frame);
  fill_record_inputs(frame);
  if (writes_nothing(frame, schema_)) {  // 2. empty write: no target, no kernel
    allocate_outputs(frame);
    frame.record.served_by = "empty-write";
    finish_call(frame);
    return;
  }
  try {
    settle_target(frame);  // 3.
    allocate_outputs(frame);
    if (target_state_.load(std::memory_order_acquire) == TargetState::kExternal) {
      run_target(frame);  // 4. a target's kernel
    } else {
      forward_(frame);  // 4. the subclass body
      if (frame.record.served_by.empty()) frame.record.served_by = "composite";
    }
    check_outputs(frame);  // 5.
    deliver_supplied_outputs(frame);
    if (!frame.foreign_completion.empty()) {
      throw ContractError(
          fmt::format("{}: sub-op {} completed a call inside this call but is not held through "
                      "delegate_for; hold sub-ops with delegate_for(stage, identity, params)",
                      instance_key_, frame.foreign_completion));
    }
    finish_call(frame);  // 6. and 7.
  } catch (...) {
    if (frame.selected_target_here) reset_binding();
    throw;
  }
}

void Op::allocate_outputs(detail::CallFrame& frame) const {
  const Device device = frame.device.value_or(Device::cpu());
  for (int i = 0; i < frame.n_outputs; ++i) {
    if (frame.supplied_outputs != nullptr) {
      frame.outputs[i] = frame.supplied_outputs[i];
    } else if (frame.output_allocator != nullptr) {
      frame.outputs[i] = frame.output_allocator->allocate(
          i, TensorDesc{device, frame.out_dtypes[i], frame.out_shapes[i]});
      check_given_output(frame, i, frame.outputs[i]);
    } else {
      frame.outputs[i] = allocate_output(schema_.name, schema_.outputs[i].name, frame.out_shapes[i],
                                         frame.out_dtypes[i], device);
    }
  }
}

// The same faults on an output as on an input raise the same types with the same kind of message:
// DTypeError, ShapeError, DeviceError, and strides printed for a non-contiguous tensor.
void Op::check_supplied_outputs(const detail::CallFrame& frame) const {
  for (int i = 0; i < frame.n_outputs; ++i) check_given_output(frame, i, frame.supplied_outputs[i]);
}

void Op::check_given_output(const detail::CallFrame& frame, int i, const Tensor& out) const {
  const Device device = frame.device.value_or(Device::cpu());
  const std::string_view arg = schema_.outputs[i].name;
  if (!out.defined()) {
    throw SignatureError(schema_.name, arg, "a tensor (outputs given to call_into are required)",
                         "an absent tensor");
  }
  if (out.dtype() != frame.out_dtypes[i]) {
    throw DTypeError(schema_.name, arg, fmt::format("dtype {}", dtype_name(frame.out_dtypes[i])),
                     std::string(dtype_name(out.dtype())));
  }
  if (!(out.shape() == frame.out_shapes[i])) {
    throw ShapeError(schema_.name, arg, fmt::format("shape {}", frame.out_shapes[i].str()),
                     fmt::format("shape {}", out.shape().str()));
  }
  if (out.device() != device) {
    throw DeviceError(schema_.name, arg,
                      fmt::format("a tensor on {} (the inputs' device)", device.str()),
                      fmt::format("a tensor on {}", out.device().str()));
  }
  detail::require_contiguous(schema_.name, arg, out);
}

void Op::check_outputs(const detail::CallFrame& frame) const {
  const Device device = frame.device.value_or(Device::cpu());
  for (int i = 0; i < frame.n_outputs; ++i) {
    const Tensor& out = frame.outputs[i];
    const std::string_view name = schema_.outputs[i].name;
    if (!out.defined() || !(out.shape() == frame.out_shapes[i]) ||
        out.dtype() != frame.out_dtypes[i] || out.device() != device) {
      throw ContractError(
          fmt::format("{}: output '{}' returned by the op body: expected {}{} on {}, got {}",
                      schema_.name, name, dtype_name(frame.out_dtypes[i]),
                      frame.out_shapes[i].str(), device.str(), out.str()));
    }
  }
}

void Op::finish_call(detail::CallFrame& frame) {
  CallRecord& record = frame.record;
  record.n_outputs = frame.n_outputs;
  for (int i = 0; i < frame.n_outputs; ++i) {
    const Tensor& t = frame.outputs[i];
    record.outputs[i] = TensorDesc{t.device(), t.dtype(), t.shape()};
  }
  if (detail::CallFrame* parent = frame.enclosing) {
    if (parent->op == parent_ && parent_ != nullptr) {
      parent->record.stages.push_back(
          StageRecord{stage_, this, std::make_shared<const CallRecord>(record)});
    } else if (parent->foreign_completion.empty()) {
      parent->foreign_completion = instance_key_;
    }
  }
  std::lock_guard lock(state_->last_call_mutex);
  state_->last_call = std::move(record);
}

std::optional<CallRecord> Op::last_call() const {
  std::lock_guard lock(state_->last_call_mutex);
  return state_->last_call;
}

RooflineValue Op::eval_roofline() const {
  auto record = last_call();
  if (!record) {
    throw ValueError(
        fmt::format("{}: eval_roofline needs a completed call; expected last_call, "
                    "got none (call the op first)",
                    instance_key_));
  }
  return eval_roofline_(*record);
}

std::string Op::roof_key() const {
  auto record = last_call();
  const char* roof = "memory";
  if (record && record->n_inputs > 0 && record->inputs[0]) {
    // The compute roof that applies when the call is compute-bound: tensor-core dtypes first.
    switch (record->inputs[0]->dtype) {
      case DType::kFloat16:
      case DType::kBFloat16:
        roof = "tensor-16bit";
        break;
      case DType::kFloat8E4M3:
      case DType::kFloat8E5M2:
        roof = "tensor-8bit";
        break;
      default:
        roof = "fp32";
        break;
    }
  }
  return fmt::format("{}/{}", schema_.name, roof);
}

std::vector<RooflineDataTerm> Op::roofline_data_terms() const {
  auto record = last_call();
  if (!record) {
    throw ValueError(
        fmt::format("{}: roofline_data_terms needs a completed call; got none", instance_key_));
  }
  std::vector<RooflineDataTerm> terms;
  for (int i = 0; i < record->n_inputs; ++i) {
    if (!record->inputs[i]) continue;
    const TensorDesc& d = *record->inputs[i];
    const int64_t bytes = d.shape.numel() * static_cast<int64_t>(dtype_size(d.dtype));
    terms.push_back({std::string(schema_.inputs[i].name), bytes, schema_.inputs[i].mutated});
  }
  for (int i = 0; i < record->n_outputs; ++i) {
    const TensorDesc& d = record->outputs[i];
    terms.push_back({std::string(schema_.outputs[i].name),
                     d.shape.numel() * static_cast<int64_t>(dtype_size(d.dtype)), true});
  }
  return terms;
}

int64_t Op::eval_roofline_read_bytes() const {
  auto record = last_call();
  if (!record) {
    throw ValueError(fmt::format("{}: eval_roofline_read_bytes needs a completed call; got none",
                                 instance_key_));
  }
  int64_t bytes = 0;
  for (int i = 0; i < record->n_inputs; ++i) {
    if (record->inputs[i]) {
      bytes += record->inputs[i]->shape.numel() *
               static_cast<int64_t>(dtype_size(record->inputs[i]->dtype));
    }
  }
  return bytes;
}

void Op::fill_frame(detail::CallFrame& frame, std::span<const Tensor> inputs) const {
  if (inputs.size() != schema_.inputs.size()) {
    throw ValueError(
        fmt::format("{}: expected {} inputs (undefined tensors for absent optional "
                    "ones), got {}",
                    schema_.name, schema_.inputs.size(), inputs.size()));
  }
  frame.n_inputs = static_cast<int>(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) frame.inputs[i] = &inputs[i];
  frame.n_outputs = static_cast<int>(schema_.outputs.size());
}

std::vector<Tensor> Op::call(std::span<const Tensor> inputs) {
  detail::CallFrame frame;
  fill_frame(frame, inputs);
  run_call(frame);
  return {frame.outputs.begin(), frame.outputs.begin() + frame.n_outputs};
}

std::vector<TensorDesc> Op::infer_outputs(std::span<const Tensor> inputs) const {
  detail::CallFrame frame;
  fill_frame(frame, inputs);
  check_call_(frame);
  std::vector<TensorDesc> out;
  for (int i = 0; i < frame.n_outputs; ++i) {
    out.push_back({frame.device.value_or(Device::cpu()), frame.out_dtypes[i], frame.out_shapes[i]});
  }
  return out;
}

void Op::call_into(std::span<const Tensor> inputs, std::span<const Tensor> outputs) {
  if (inputs.size() != schema_.inputs.size() || outputs.size() != schema_.outputs.size()) {
    throw ValueError(fmt::format("{}: expected {} inputs and {} outputs, got {} and {}",
                                 schema_.name, schema_.inputs.size(), schema_.outputs.size(),
                                 inputs.size(), outputs.size()));
  }
  detail::CallFrame frame;
  fill_frame(frame, inputs);
  frame.supplied_outputs = outputs.data();
  run_call(frame);
}

void Op::call_into(std::span<const Tensor> inputs, OutputAllocator& outputs) {
  detail::CallFrame frame;
  fill_frame(frame, inputs);
  frame.output_allocator = &outputs;
  run_call(frame);
}

void Op::request_tune(const TuneOptions& options) {
  state_->tune_options = options;
  tuned_.store(true, std::memory_order_release);
  {
    std::unique_lock lock(state_->cache_mutex);
    for (auto& state : state_->interfaces) {
      for (auto& [key, entry] : state->entries) {
        for (Kernel* k : entry->kernels()) k->request_tune(options);
      }
    }
    for (auto& slot : state_->target_kernels) {
      if (!detail::request_tune_defined(*slot->kernel, options)) {
        warn(
            fmt::format("{}: the kernel target '{}' built defines no request_tune(); it runs "
                        "untuned",
                        instance_key_, serving_name_));
      }
    }
  }
  std::lock_guard lock(state_->delegates_mutex);
  for (auto& held : state_->delegates) held->op->request_tune(options);
}

std::string Op::kernel_config() const {
  auto record = last_call();
  if (!record) return {};
  std::vector<std::string> parts;
  for (int i = 0; i < record->n_kernels; ++i) {
    std::string c = record->kernels[i]->config();
    if (!c.empty()) parts.push_back(std::move(c));
  }
  for (const StageRecord& s : record->stages) {
    for (int i = 0; i < s.record->n_kernels; ++i) {
      std::string c = s.record->kernels[i]->config();
      if (!c.empty()) parts.push_back(fmt::format("{}: {}", s.stage, c));
    }
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::vector<Kernel*> Op::iter_kernels() const {
  std::vector<Kernel*> out;
  std::unordered_set<const Kernel*> seen;
  auto add = [&](Kernel* k) {
    if (seen.insert(k).second) out.push_back(k);
  };
  {
    std::shared_lock lock(state_->cache_mutex);
    for (const auto& state : state_->interfaces) {
      for (const auto& [key, entry] : state->entries) {
        for (Kernel* k : entry->kernels()) add(k);
      }
    }
    for (const auto& slot : state_->target_kernels) add(slot->kernel.get());
  }
  std::lock_guard lock(state_->delegates_mutex);
  for (const auto& held : state_->delegates) {
    for (Kernel* k : held->op->iter_kernels()) add(k);
  }
  return out;
}

std::vector<const Kernel*> Op::built_entries(std::string_view interface) const {
  std::shared_lock lock(state_->cache_mutex);
  for (const auto& state : state_->interfaces) {
    if (state->info->name != interface) continue;
    std::vector<const Kernel*> out;
    for (const auto& [key, entry] : state->entries) out.push_back(entry.get());
    return out;
  }
  std::vector<std::string_view> names;
  for (const auto& state : state_->interfaces) names.push_back(state->info->name);
  throw ValueError(
      fmt::format("{}: built_entries: expected one of the declared interfaces [{}], "
                  "got '{}'",
                  schema_.name, fmt::join(names, ", "), interface));
}

std::vector<const Op*> Op::held_delegates() const {
  std::lock_guard lock(state_->delegates_mutex);
  std::vector<const Op*> out;
  for (const auto& held : state_->delegates) out.push_back(held->op.get());
  return out;
}

Op& Op::delegate_for_erased(std::string_view stage, std::string_view identity,
                            std::string_view type_name,
                            const std::function<std::unique_ptr<Op>(Target)>& make) {
  std::lock_guard lock(state_->delegates_mutex);
  for (auto& held : state_->delegates) {
    if (held->stage == stage && held->identity == identity) {
      if (held->op->name() != type_name) {
        throw ContractError(
            fmt::format("{}: delegate_for('{}', '{}'): expected a {}, but that "
                        "key holds a {}",
                        schema_.name, stage, identity, type_name, held->op->name()));
      }
      return *held->op;
    }
  }
  if (std::find(delegate_types_.begin(), delegate_types_.end(), type_name) ==
      delegate_types_.end()) {
    throw ContractError(
        fmt::format("{}: delegate_for('{}', '{}'): {} is not among the op's "
                    "delegate_types [{}]",
                    schema_.name, stage, identity, type_name, fmt::join(delegate_types_, ", ")));
  }
  // Sub-ops inherit the parent's target: one instance, one execution policy.
  std::unique_ptr<Op> sub = make(target_);
  sub->parent_ = this;
  sub->stage_ = std::string(stage);
  if (tuned()) sub->request_tune(state_->tune_options);
  state_->delegates.push_back(std::make_unique<HeldDelegate>(
      HeldDelegate{std::string(stage), std::string(identity), std::move(sub)}));
  return *state_->delegates.back()->op;
}

void Op::reset_binding() {
  {
    std::lock_guard target_lock(state_->target_mutex);
    std::unique_lock lock(state_->cache_mutex);
    target_state_.store(TargetState::kUnsettled, std::memory_order_release);
    serving_name_ = {};
    for (auto& state : state_->interfaces) {
      state->hits.clear();
      state->entries.clear();
    }
    state_->target_kernels.clear();
  }
  {
    // The record of a call this undo unwinds names kernels just destroyed: records are reset
    // level by level with the bindings (guide A), so last_call() and kernel_config() never read
    // a freed kernel.
    std::lock_guard lock(state_->last_call_mutex);
    state_->last_call.reset();
  }
  std::lock_guard lock(state_->delegates_mutex);
  for (auto& held : state_->delegates) held->op->reset_binding();
}

}  // namespace tileops
