#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>

#include <fmt/format.h>

#include "registration_scope.hpp"
#include "target_selection.hpp"
#include "tileops/core/error.hpp"
#include "tileops/framework/backend.hpp"
#include "tileops/framework/target.hpp"

namespace tileops {
namespace {

// TILEOPS_TARGET seeds the process default and TILEOPS_EXCLUDE_TARGETS the exclusions when the
// registry is created; the names are checked when they are used, since backends register later.
// set_default_target and set_excluded_targets replace what the environment gave.
struct TargetRegistry {
  std::mutex mutex;
  std::map<std::string, Detector, std::less<>> detectors;
  std::map<std::pair<std::string, std::string>, std::shared_ptr<KernelBuilder>> builders;
  Target default_target;
  // Where default_target came from: "" (set_default_target) or the environment variable.
  std::string default_source;
  std::set<std::string, std::less<>> excluded;  // never detected

  TargetRegistry() {
    if (const char* name = std::getenv("TILEOPS_TARGET"); name != nullptr && *name != '\0') {
      default_target = std::string(name);
      default_source = "TILEOPS_TARGET";
    }
    if (const char* list = std::getenv("TILEOPS_EXCLUDE_TARGETS"); list != nullptr) {
      std::string_view rest = list;
      while (!rest.empty()) {
        const size_t end = rest.find_first_of(":,");
        const std::string_view name = rest.substr(0, end);
        if (!name.empty()) excluded.emplace(name);
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
      }
    }
  }
};

TargetRegistry& registry() {
  static TargetRegistry r;
  return r;
}

std::set<std::string> known_targets_locked(const TargetRegistry& r) {
  std::set<std::string> known;
  for (const auto& [name, d] : r.detectors) known.insert(name);
  for (const auto& [key, b] : r.builders) known.insert(key.second);
  return known;
}

std::string failure_note() {
  const auto failures = load_failures();
  if (failures.empty()) return {};
  std::vector<std::string> parts;
  for (const auto& f : failures) parts.push_back(fmt::format("{} ({})", f.path, f.reason));
  return fmt::format(" (note: some backends failed to load: {})", fmt::join(parts, "; "));
}

}  // namespace

std::string TensorDesc::str() const {
  return fmt::format("{}{} on {}", dtype_name(dtype), shape.str(), device.str());
}

Registration register_detector(std::string target, Detector detector) {
  if (target.empty() || target == kBuiltinTarget) {
    throw BackendError(
        fmt::format("register_detector: expected a target name other than '' and "
                    "'builtin', got '{}'",
                    target));
  }
  auto& r = registry();
  {
    std::lock_guard lock(r.mutex);
    if (r.detectors.count(target) != 0) {
      throw BackendError(
          fmt::format("register_detector: target '{}' already has a detector; one "
                      "detector per target",
                      target));
    }
    r.detectors.emplace(target, std::move(detector));
  }
  auto undo = [target] {
    auto& reg = registry();
    std::lock_guard lock(reg.mutex);
    reg.detectors.erase(target);
  };
  detail::RegistrationScope::record(undo);
  return Registration(undo);
}

Registration register_kernel_builder(std::string op, std::string target, KernelBuilder builder) {
  if (target.empty() || target == kBuiltinTarget) {
    throw BackendError(
        fmt::format("register_kernel_builder(op='{}'): expected a target name "
                    "other than '' and 'builtin', got '{}'",
                    op, target));
  }
  auto& r = registry();
  auto key = std::make_pair(op, target);
  {
    std::lock_guard lock(r.mutex);
    if (r.builders.count(key) != 0) {
      throw BackendError(
          fmt::format("register_kernel_builder: target '{}' already registered a "
                      "builder for {}; two backends claim the same op (misinstall)",
                      target, op));
    }
    r.builders.emplace(key, std::make_shared<KernelBuilder>(std::move(builder)));
  }
  auto undo = [key] {
    auto& reg = registry();
    std::lock_guard lock(reg.mutex);
    reg.builders.erase(key);
  };
  detail::RegistrationScope::record(undo);
  return Registration(undo);
}

std::vector<std::string> registered_targets(std::optional<std::string_view> op) {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  if (!op) {
    auto known = known_targets_locked(r);
    return {known.begin(), known.end()};
  }
  std::set<std::string> out;
  for (const auto& [key, b] : r.builders) {
    if (key.first == *op) out.insert(key.second);
  }
  return {out.begin(), out.end()};
}

void set_default_target(Target target) {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  if (target && *target != kBuiltinTarget && known_targets_locked(r).count(*target) == 0) {
    throw UnknownTargetError(
        fmt::format("set_default_target: target '{}' is not registered; "
                    "expected one of [{}] or 'builtin'",
                    *target, fmt::join(known_targets_locked(r), ", ")));
  }
  r.default_target = std::move(target);
  r.default_source.clear();
}

Target default_target() {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  return r.default_target;
}

void set_excluded_targets(std::vector<std::string> targets) {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  r.excluded = {targets.begin(), targets.end()};
}

std::vector<std::string> excluded_targets() {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  return {r.excluded.begin(), r.excluded.end()};
}

namespace detail {

std::string select_target(std::string_view op, const Target& instance_target,
                          std::optional<Device> device) {
  auto& r = registry();
  std::vector<std::pair<std::string, Detector>> detectors;
  {
    std::lock_guard lock(r.mutex);
    const Target& named = instance_target ? instance_target : r.default_target;
    if (named) {
      if (*named != kBuiltinTarget && known_targets_locked(r).count(*named) == 0) {
        const std::string source =
            !instance_target && !r.default_source.empty() ? " (from " + r.default_source + ")" : "";
        throw UnknownTargetError(fmt::format(
            "{}: target '{}'{} is not registered; expected one of [{}] or 'builtin'{}", op, *named,
            source, fmt::join(known_targets_locked(r), ", "), failure_note()));
      }
      return *named;  // taken as given: no detector is asked
    }
    // A target's builders declare the ops it takes: detection asks only the detectors of
    // targets that serve this op, so an op a claiming target lacks stays in-tree.
    for (const auto& [name, fn] : r.detectors) {
      if (r.excluded.count(name) != 0) continue;
      if (r.builders.count(std::make_pair(std::string(op), name)) == 0) continue;
      detectors.emplace_back(name, fn);
    }
  }
  if (!device) return std::string(kBuiltinTarget);
  // Detectors run outside the lock: they may be slow or call back into tileops.
  std::vector<std::string> claims;
  for (const auto& [name, detect] : detectors) {
    bool claimed = false;
    try {
      claimed = detect(*device);
    } catch (const std::exception& e) {
      throw BackendError(fmt::format("the detector of target '{}' failed on device {}: {}{}", name,
                                     device->str(), e.what(), failure_note()));
    } catch (...) {
      throw BackendError(fmt::format(
          "the detector of target '{}' failed on device {}: it threw something that is not a "
          "std::exception{}",
          name, device->str(), failure_note()));
    }
    if (claimed) claims.push_back(name);
  }
  if (claims.empty()) return std::string(kBuiltinTarget);
  if (claims.size() > 1) {
    throw AmbiguousTargetError(fmt::format(
        "several targets claim device {}: [{}]; expected at most one; name the target explicitly "
        "(target=...), with set_default_target or TILEOPS_TARGET, or exclude one with "
        "TILEOPS_EXCLUDE_TARGETS{}",
        device->str(), fmt::join(claims, ", "), failure_note()));
  }
  return claims.front();
}

const KernelBuilder* find_builder(std::string_view op, std::string_view target) {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  auto it = r.builders.find(std::make_pair(std::string(op), std::string(target)));
  return it == r.builders.end() ? nullptr : it->second.get();
}

}  // namespace detail
}  // namespace tileops
