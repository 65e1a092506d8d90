#include <algorithm>
#include <map>
#include <mutex>

#include <fmt/format.h>

#include "registration_scope.hpp"
#include "tileops/core/error.hpp"
#include "tileops/framework/implementation.hpp"

namespace tileops {
namespace detail {
namespace {
thread_local RegistrationScope* t_scope = nullptr;
}  // namespace

RegistrationScope::RegistrationScope(std::string origin)
    : origin_(std::move(origin)), previous_(t_scope) {
  t_scope = this;
}
RegistrationScope::~RegistrationScope() {
  t_scope = previous_;
}

void RegistrationScope::roll_back() noexcept {
  for (auto it = undos_.rbegin(); it != undos_.rend(); ++it) (*it)();
  undos_.clear();
}

void RegistrationScope::record(std::function<void()> undo) {
  if (t_scope != nullptr) t_scope->undos_.push_back(std::move(undo));
}

const std::string* RegistrationScope::current_origin() noexcept {
  return t_scope != nullptr && !t_scope->origin_.empty() ? &t_scope->origin_ : nullptr;
}

}  // namespace detail

namespace {

struct ImplementationRegistry {
  std::mutex mutex;
  // op -> key -> implementation
  std::map<std::string, std::map<std::string, std::shared_ptr<const ImplementationInfo>>,
           std::less<>>
      by_op;
};

ImplementationRegistry& registry() {
  static ImplementationRegistry r;
  return r;
}

void unregister(const std::string& op, const std::string& key) {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  auto it = r.by_op.find(op);
  if (it != r.by_op.end()) it->second.erase(key);
}

}  // namespace

Registration& Registration::operator=(Registration&& other) noexcept {
  if (this != &other) {
    if (undo_) undo_();
    undo_ = std::exchange(other.undo_, nullptr);
  }
  return *this;
}

Registration::~Registration() {
  if (undo_) undo_();
}

Registration register_implementation(ImplementationInfo info) {
  if (info.interface == nullptr || info.key.empty() || info.op.empty() || !info.entry_for) {
    throw BackendError(
        fmt::format("register_kernel_type(op='{}', key='{}'): expected an op name, "
                    "a key, an interface and entry_for",
                    info.op, info.key));
  }
  if (info.devices.empty()) {
    throw BackendError(
        fmt::format("register_kernel_type(op='{}', key='{}'): expected at least one "
                    "device type in devices, got none",
                    info.op, info.key));
  }
  // A backend's registrations carry its name, whatever the implementation declared.
  if (const std::string* origin = detail::RegistrationScope::current_origin()) {
    info.origin = *origin;
  }
  auto& r = registry();
  const std::string op = info.op;
  const std::string key = info.key;
  {
    std::lock_guard lock(r.mutex);
    auto& table = r.by_op[op];
    if (auto it = table.find(key); it != table.end()) {
      throw BackendError(
          fmt::format("register_kernel_type(op='{}', key='{}'): the key is already "
                      "registered by {}; this registration came from {}",
                      op, key, it->second->origin, info.origin));
    }
    table.emplace(key, std::make_shared<const ImplementationInfo>(std::move(info)));
  }
  detail::RegistrationScope::record([op, key] { unregister(op, key); });
  return Registration([op, key] { unregister(op, key); });
}

std::vector<std::shared_ptr<const ImplementationInfo>> implementations_for(std::string_view op) {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  std::vector<std::shared_ptr<const ImplementationInfo>> out;
  if (auto it = r.by_op.find(op); it != r.by_op.end()) {
    for (const auto& [key, impl] : it->second) out.push_back(impl);
  }
  return out;
}

std::vector<std::string> ops_with_implementations() {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  std::vector<std::string> out;
  for (const auto& [op, table] : r.by_op) {
    if (!table.empty()) out.push_back(op);
  }
  return out;
}

}  // namespace tileops
