// Private state of Op, shared by the files that implement it.
#pragma once

#include <map>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

#include "tileops/framework/op.hpp"

namespace tileops {

struct Op::InterfaceState {
  struct HitSlot {
    std::shared_ptr<const CallSpec> call;
    Kernel* entry;
    const ImplementationInfo* implementation;
    std::string_view served_by;  // the implementation's key, interned (detail::intern_name)
  };
  const InterfaceInfo* info;
  std::unordered_multimap<size_t, HitSlot> hits;
  std::map<std::pair<const ImplementationInfo*, std::string>, std::unique_ptr<Kernel>> entries;
};

struct Op::TargetKernelSlot {
  Device device;
  std::array<std::optional<std::pair<DType, Shape>>, kMaxTensors> slots;
  std::unique_ptr<TargetKernel> kernel;
};

struct Op::HeldDelegate {
  std::string stage;
  std::string identity;
  std::unique_ptr<Op> op;
};

// Op's state behind a pointer, so that op.hpp declares no locks or caches. A cached call reaches
// cache_mutex and last_call through it: one more load from memory the call touches anyway.
struct Op::State {
  std::vector<std::shared_ptr<const ImplementationInfo>> table;

  std::shared_mutex cache_mutex;
  std::vector<std::unique_ptr<InterfaceState>> interfaces;
  std::vector<std::unique_ptr<TargetKernelSlot>> target_kernels;

  std::mutex target_mutex;

  std::mutex delegates_mutex;
  std::vector<std::unique_ptr<HeldDelegate>> delegates;

  TuneOptions tune_options;

  std::mutex last_call_mutex;
  std::optional<CallRecord> last_call;
};

namespace detail {
// The innermost call in flight on this thread.
CallFrame*& current_frame() noexcept;
}  // namespace detail

}  // namespace tileops
