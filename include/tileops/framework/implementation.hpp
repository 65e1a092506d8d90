// Implementations of a kernel interface and how they join an op: register_kernel_type, used by
// in-tree kernels and third-party backends alike. Each implementation may declare, as static
// members: devices, supported_archs, refusal(call, facts), general, preferred_over and
// entry_for(call, facts). With none of them it runs on CUDA devices of every architecture,
// serves every call and has no precedence over its siblings.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tileops/core/device.hpp"
#include "tileops/export.hpp"
#include "tileops/framework/call_spec.hpp"
#include "tileops/framework/device_facts.hpp"
#include "tileops/framework/kernel.hpp"

namespace tileops {

// What entry_for returns: the build identity (calls of one interface share an entry exactly when
// they select the same implementation with equal identities) and the factory that builds it.
struct BuildPlan {
  std::string identity;
  std::function<std::unique_ptr<Kernel>()> factory;
};

// The type-erased form of an implementation, as dispatch sees it. The call handed to refusal and
// entry_for is the interface's Call type, seen through its CallSpec base.
struct ImplementationInfo {
  std::string op;
  std::string key;
  const InterfaceInfo* interface = nullptr;
  std::vector<DeviceType> devices{kCUDA};
  std::vector<int> supported_archs;  // empty: every architecture
  bool general = false;
  std::vector<std::string> preferred_over;
  std::function<std::optional<std::string>(const CallSpec& call, const DeviceFacts&)> refusal;
  std::function<BuildPlan(const CallSpec& call, const DeviceFacts&)> entry_for;
  std::string origin = "in-tree";  // or the name of the backend that registered it
};

// Undoes a registration when destroyed, unless released (the default for static registrations).
// [[nodiscard]]: dropping the value undoes the registration at once, which is never what a caller
// means; a backend keeps it for as long as it is loaded, or calls release() to keep the
// registration for the life of the process.
class [[nodiscard]] TILEOPS_API Registration {
 public:
  Registration() = default;
  explicit Registration(std::function<void()> undo) : undo_(std::move(undo)) {}
  Registration(Registration&& other) noexcept : undo_(std::exchange(other.undo_, nullptr)) {}
  Registration& operator=(Registration&& other) noexcept;
  ~Registration();
  // Keeps the registration for the life of the process.
  void release() noexcept { undo_ = nullptr; }

 private:
  std::function<void()> undo_;
};

// Adds an implementation to op's table. Duplicate (op, key) raises BackendError naming both
// origins. Instances constructed before the call keep the table they had.
TILEOPS_API Registration register_implementation(ImplementationInfo info);

// The implementations registered for op (sorted by key), as construction snapshots them.
TILEOPS_API std::vector<std::shared_ptr<const ImplementationInfo>> implementations_for(
    std::string_view op);
// Every op name that has at least one registered implementation.
TILEOPS_API std::vector<std::string> ops_with_implementations();

namespace detail {

template <typename Impl>
ImplementationInfo describe_implementation(std::string op, std::string key) {
  using Interface = typename Impl::Interface;
  using Call = typename Interface::Call;
  ImplementationInfo info;
  info.op = std::move(op);
  info.key = std::move(key);
  info.interface = &Interface::info();
  if constexpr (requires { Impl::devices; }) {
    info.devices.assign(std::begin(Impl::devices), std::end(Impl::devices));
  }
  if constexpr (requires { Impl::supported_archs; }) {
    info.supported_archs.assign(std::begin(Impl::supported_archs), std::end(Impl::supported_archs));
  }
  if constexpr (requires { Impl::general; }) info.general = Impl::general;
  if constexpr (requires { Impl::preferred_over; }) {
    for (std::string_view k : Impl::preferred_over) info.preferred_over.emplace_back(k);
  }
  if constexpr (requires(const Call& c, const DeviceFacts& f) { Impl::refusal(c, f); }) {
    info.refusal = [](const CallSpec& call, const DeviceFacts& facts) {
      return Impl::refusal(static_cast<const Call&>(call), facts);
    };
  }
  if constexpr (requires(const Call& c, const DeviceFacts& f) { Impl::entry_for(c, f); }) {
    info.entry_for = [](const CallSpec& call, const DeviceFacts& facts) {
      return Impl::entry_for(static_cast<const Call&>(call), facts);
    };
  } else {
    info.entry_for = [](const CallSpec&, const DeviceFacts&) {
      return BuildPlan{"", [] { return std::unique_ptr<Kernel>(std::make_unique<Impl>()); }};
    };
  }
  return info;
}

}  // namespace detail

// Registers Impl (which names its interface as `using Interface = ...`) under op and key.
template <typename Impl>
Registration register_kernel_type(std::string op, std::string key) {
  return register_implementation(
      detail::describe_implementation<Impl>(std::move(op), std::move(key)));
}

// For static registration in a kernel's own source file: registers at load time and keeps it.
template <typename Impl>
struct StaticKernelRegistration {
  StaticKernelRegistration(std::string op, std::string key) {
    register_kernel_type<Impl>(std::move(op), std::move(key)).release();
  }
};

}  // namespace tileops
