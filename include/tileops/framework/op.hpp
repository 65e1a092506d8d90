// The Op base class. An op instance is constructed once and called many times; a call checks the
// manifest signature, takes the empty-write shortcut, settles a target, runs the target's kernel
// or the subclass's forward (which calls kernel_for / delegate_for), checks what came back, files
// sub-op calls and keeps the record as last_call. See docs/design/op-base-class.md.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tileops/core/error.hpp"
#include "tileops/core/tensor.hpp"
#include "tileops/export.hpp"
#include "tileops/framework/call_record.hpp"
#include "tileops/framework/call_spec.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/framework/injected.hpp"
#include "tileops/framework/kernel.hpp"
#include "tileops/framework/schema.hpp"
#include "tileops/framework/target.hpp"

namespace tileops {

struct DispatchDecision;

// What an op class declares to the base: the kernel interfaces its forward calls, the sub-op
// types it may hold (composite ops), and the injected parameters its family defines (names and
// kinds: construction accepts only these besides the manifest's; the op reads their values from
// params().injected, tileops/framework/injected.hpp).
struct OpDecl {
  std::vector<const InterfaceInfo*> interfaces;
  std::vector<std::string_view> delegate_types;
  std::vector<InjectedParameter> injected_parameters;
  bool composite() const { return interfaces.empty() && !delegate_types.empty(); }
};

// Where a call's outputs come from when the caller owns their memory (a framework binding that
// allocates through its own allocator): allocate is called once per output, in order, after the
// call has passed its checks, with the output's index and inferred description, and returns a
// defined, contiguous tensor of exactly that description (or throws, which fails the call).
class OutputAllocator {
 public:
  virtual Tensor allocate(int index, const TensorDesc& desc) = 0;

 protected:
  ~OutputAllocator() = default;
};

namespace detail {

struct CallRunner;

// One call in flight. Lives on the caller's stack; generated code fills it.
struct CallFrame {
  std::array<const Tensor*, kMaxTensors> inputs{};
  int n_inputs = 0;
  std::array<Tensor, kMaxTensors> outputs{};
  std::array<Shape, kMaxTensors> out_shapes{};
  std::array<DType, kMaxTensors> out_dtypes{};
  int n_outputs = 0;
  const Tensor* supplied_outputs = nullptr;     // caller-provided outputs (call_into), or null
  OutputAllocator* output_allocator = nullptr;  // caller-allocated outputs (call_into), or null
  std::optional<Device> device;                 // device of the call's tensors (none: no tensor)
  CallRecord record;
  Op* op = nullptr;
  CallFrame* enclosing = nullptr;  // the call this one is nested in, on this thread
  // The instance key of a sub-op not held through delegate_for that completed a call inside this
  // one (copied: such an op is often a local that is gone when the enclosing call checks).
  std::string foreign_completion;
  bool selected_target_here = false;
};

// Construction step 2: the generated check of the manifest parameters, and the injected values
// given with them (checked against OpDecl and converted to their declared kinds in place).
struct ParamCheckRef {
  void (*check)(const void* params);
  const void* params;
  InjectedValues* injected = nullptr;
};

// Type-erased equality, copy and description of a call spec, one table per Call type.
struct CallOps {
  bool (*equals)(const CallSpec& a, const CallSpec& b);
  std::shared_ptr<const CallSpec> (*clone)(const CallSpec& call);
  std::string (*describe)(const CallSpec& call);
};

template <typename Call>
const CallOps& call_ops() {
  static const CallOps kOps{
      [](const CallSpec& a, const CallSpec& b) {
        return static_cast<const Call&>(a) == static_cast<const Call&>(b);
      },
      [](const CallSpec& c) -> std::shared_ptr<const CallSpec> {
        return std::make_shared<Call>(static_cast<const Call&>(c));
      },
      [](const CallSpec& c) { return static_cast<const Call&>(c).describe(); }};
  return kOps;
}

}  // namespace detail

class TILEOPS_API Op {
 public:
  virtual ~Op();
  Op(const Op&) = delete;
  Op& operator=(const Op&) = delete;

  const OpSchema& schema() const noexcept { return schema_; }
  std::string_view name() const noexcept { return schema_.name; }
  // "<ClassName>#<n>", unique in the process and never reused.
  const std::string& instance_key() const noexcept { return instance_key_; }
  const Target& target() const noexcept { return target_; }
  // The target this instance settled on ("builtin" for in-tree), or nullopt before the first call.
  std::optional<std::string> serving_target() const;
  // The instance's parameters by manifest name (defaults included).
  ParamMap param_values() const { return param_map_(); }
  // The op's dtype parameter, for ops that take one; nullopt otherwise.
  virtual std::optional<DType> dtype() const { return std::nullopt; }

  // Generic calls: inputs in manifest order (an undefined Tensor for an absent optional input).
  std::vector<Tensor> call(std::span<const Tensor> inputs);
  // Runs only the signature check and returns each output's inferred device, dtype and shape
  // (what a fake/meta kernel needs); runs no kernel and settles nothing.
  std::vector<TensorDesc> infer_outputs(std::span<const Tensor> inputs) const;
  // Writes into caller-provided outputs, which must have the inferred shapes and dtypes.
  void call_into(std::span<const Tensor> inputs, std::span<const Tensor> outputs);
  // Writes into outputs that outputs.allocate gives once the call is checked: infer_outputs and
  // call_into in one call, with one signature check.
  void call_into(std::span<const Tensor> inputs, OutputAllocator& outputs);

  std::optional<CallRecord> last_call() const;
  // (flops, bytes) of last_call. Throws ValueError before any completed call.
  RooflineValue eval_roofline() const;
  virtual std::string roof_key() const;
  virtual int64_t eval_roofline_read_bytes() const;
  virtual std::vector<RooflineDataTerm> roofline_data_terms() const;

  // Enters tuned mode for this op and its sub-ops, now and for kernels built later.
  void request_tune(const TuneOptions& options = {});
  bool tuned() const noexcept { return tuned_.load(std::memory_order_acquire); }
  // The configuration of the kernels that served last_call ("" when none reported one).
  std::string kernel_config() const;

  std::vector<Kernel*> iter_kernels() const;
  std::vector<const Kernel*> built_entries(std::string_view interface) const;
  std::vector<const Op*> held_delegates() const;
  // The stage this op was created for by its parent (empty when not a sub-op).
  const std::string& stage() const noexcept { return stage_; }

 protected:
  Op(const OpSchema& schema, const OpDecl& decl, Target target, detail::ParamCheckRef check);

  // The entry that serves call on interface Interface (a hit costs one cache lookup).
  template <typename Interface>
  Interface& kernel_for(const typename Interface::Call& call) {
    return static_cast<Interface&>(kernel_for_erased(Interface::info(), call, call.hash(),
                                                     detail::call_ops<typename Interface::Call>()));
  }
  // The key dispatch would select for call; builds nothing and fills no cache.
  template <typename Interface>
  std::string key_for(const typename Interface::Call& call) const {
    return key_for_erased(Interface::info(), call, detail::call_ops<typename Interface::Call>());
  }
  // The sub-op held under (stage, identity), constructed with params on the first request.
  template <typename SubOp>
  SubOp& delegate_for(std::string_view stage, std::string_view identity,
                      typename SubOp::Params params) {
    return static_cast<SubOp&>(
        delegate_for_erased(stage, identity, SubOp::kName, [&](Target target) {
          return std::unique_ptr<Op>(std::make_unique<SubOp>(std::move(params), std::move(target)));
        }));
  }

 private:
  // The generated call operators run calls through detail::CallRunner (src/framework, compiled
  // into the library with them); a hand-written subclass cannot call run_call.
  friend struct detail::CallRunner;
  // Runs the seven steps of a call on frame.
  void run_call(detail::CallFrame& frame);

  // Generated from the manifest (overridden, final, by the generated base class).
  virtual void check_call_(detail::CallFrame& frame) const = 0;
  virtual void forward_(detail::CallFrame& frame) = 0;
  virtual RooflineValue eval_roofline_(const CallRecord& record) const = 0;
  virtual ParamMap param_map_() const = 0;

  struct InterfaceState;
  struct TargetKernelSlot;
  struct HeldDelegate;
  struct State;  // src/framework/op_internal.hpp
  enum class TargetState : uint8_t { kUnsettled, kBuiltin, kExternal };

  Kernel& kernel_for_erased(const InterfaceInfo& info, const CallSpec& call, size_t hash,
                            const detail::CallOps& ops);
  std::string key_for_erased(const InterfaceInfo& info, const CallSpec& call,
                             const detail::CallOps& ops) const;
  Op& delegate_for_erased(std::string_view stage, std::string_view identity,
                          std::string_view type_name,
                          const std::function<std::unique_ptr<Op>(Target)>& make);
  const ImplementationInfo& dispatch(const InterfaceInfo& info, const CallSpec& call,
                                     const detail::CallOps& ops, DeviceFacts* facts_out) const;
  const ImplementationInfo& dispatch_candidates(const InterfaceInfo& info, const CallSpec& call,
                                                const detail::CallOps& ops, DeviceFacts* facts_out,
                                                DispatchDecision* decision) const;
  InterfaceState& interface_state(const InterfaceInfo& info) const;

  // Points frame at inputs (manifest order); ValueError when their count is wrong.
  void fill_frame(detail::CallFrame& frame, std::span<const Tensor> inputs) const;
  void settle_target(detail::CallFrame& frame);
  void run_target(detail::CallFrame& frame);
  void allocate_outputs(detail::CallFrame& frame) const;
  void check_supplied_outputs(const detail::CallFrame& frame) const;
  // DTypeError, ShapeError, DeviceError or a non-contiguous tensor's error for output i, which
  // the caller gave (supplied or allocated).
  void check_given_output(const detail::CallFrame& frame, int i, const Tensor& out) const;
  void check_outputs(const detail::CallFrame& frame) const;
  void finish_call(detail::CallFrame& frame);
  void reset_binding();
  // Notes in the current call's record which kernel (and implementation or target) served it.
  void note_served(Kernel& kernel, std::string_view served_by);
  void install_table(const OpDecl& decl);

  const OpSchema& schema_;
  Target target_;
  std::string instance_key_;
  std::vector<std::string_view> delegate_types_;
  // Read on every call without a lock, so kept here rather than in state_.
  std::atomic<TargetState> target_state_{TargetState::kUnsettled};
  std::string_view serving_name_;  // interned: call records keep views of it
  Op* parent_ = nullptr;
  std::string stage_;
  std::atomic<bool> tuned_{false};
  // The implementation table, the kernel caches, held sub-ops, last_call and their locks.
  std::unique_ptr<State> state_;
};

// The live instance with this key, or null (the registry does not keep instances alive).
TILEOPS_API Op* find_instance(std::string_view instance_key);

}  // namespace tileops
