// Private state of Op, shared by the files that implement it.
#pragma once

#include <map>
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

namespace detail {
// The innermost call in flight on this thread.
CallFrame*& current_frame() noexcept;
}  // namespace detail

}  // namespace tileops
