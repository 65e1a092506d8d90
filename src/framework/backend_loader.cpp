#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "registration_scope.hpp"
#include "tileops/core/allocator.hpp"
#include "tileops/framework/backend.hpp"
#include "tileops/framework/warnings.hpp"

namespace tileops {
namespace {

struct BackendState {
  std::mutex mutex;
  std::condition_variable done;
  enum class Discovery { kNotStarted, kRunning, kFinished } discovery = Discovery::kNotStarted;
  std::thread::id discovering_thread;
  std::vector<BackendLoadFailure> failures;
  std::vector<std::string> loaded;
};

BackendState& state() {
  static BackendState s;
  return s;
}

void record_failure(const std::string& path, const std::string& reason) {
  auto& s = state();
  std::lock_guard lock(s.mutex);
  s.failures.push_back({path, reason});
}

// Loads and registers one backend; returns the failure reason, or "" on success.
std::string load_one(const std::string& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* err = dlerror();
    return fmt::format("dlopen failed: {}", err ? err : "unknown error");
  }
  auto entry_fn = reinterpret_cast<TileopsBackendEntryFn>(dlsym(handle, kBackendEntrySymbol));
  if (entry_fn == nullptr) {
    dlclose(handle);
    return fmt::format("the library exports no '{}' entry point", kBackendEntrySymbol);
  }
  const TileopsBackendEntryV1* entry = entry_fn();
  if (entry == nullptr || entry->abi_version != TILEOPS_BACKEND_ABI_VERSION ||
      entry->register_backend == nullptr) {
    const unsigned got = entry ? entry->abi_version : 0u;
    dlclose(handle);
    return fmt::format("expected backend ABI version {}, got {}", TILEOPS_BACKEND_ABI_VERSION, got);
  }
  detail::RegistrationScope scope(entry->name ? entry->name : path);
  // Allocators and copiers live in the core, below the registration scope: snapshot them so a
  // failing backend's can be put back too.
  std::array<Allocator*, kMaxDeviceTypes> allocators_before{};
  std::array<DeviceCopier, kMaxDeviceTypes> copiers_before{};
  for (DeviceType t = 0; t < kMaxDeviceTypes; ++t) {
    allocators_before[t] = installed_allocator(t);
    copiers_before[t] = device_copier(t);
  }
  char error[512] = {0};
  std::string failure;
  try {
    if (entry->register_backend(error, sizeof error) != 0) {
      failure = fmt::format("register_backend of '{}' failed: {}", entry->name ? entry->name : "?",
                            error[0] ? error : "no message");
    }
  } catch (const std::exception& e) {
    failure = fmt::format("register_backend of '{}' threw: {}", entry->name ? entry->name : "?",
                          e.what());
  }
  if (!failure.empty()) {
    // Nothing a failing backend registered survives. Its library stays loaded: registered
    // callables were rolled back, but static objects of the library may still be referenced.
    scope.roll_back();
    for (DeviceType t = 0; t < kMaxDeviceTypes; ++t) {
      if (installed_allocator(t) != allocators_before[t]) set_allocator(t, allocators_before[t]);
      if (device_copier(t) != copiers_before[t]) set_device_copier(t, copiers_before[t]);
    }
    return failure;
  }
  auto& s = state();
  std::lock_guard lock(s.mutex);
  s.loaded.emplace_back(entry->name ? entry->name : path);
  return {};
}

std::vector<std::string> paths_from_environment() {
  std::vector<std::string> paths;
  const char* env = std::getenv("TILEOPS_BACKENDS");
  if (env == nullptr) return paths;
  std::stringstream stream(env);
  std::string item;
  while (std::getline(stream, item, ':')) {
    if (!item.empty()) paths.push_back(item);
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

}  // namespace

bool load_backend(const std::string& path) {
  const std::string reason = load_one(path);
  if (reason.empty()) return true;
  record_failure(path, reason);
  return false;
}

void ensure_backends_loaded() {
  auto& s = state();
  {
    std::unique_lock lock(s.mutex);
    if (s.discovery == BackendState::Discovery::kFinished) return;
    if (s.discovery == BackendState::Discovery::kRunning) {
      // The discovering thread may construct ops while a backend registers (re-entrant);
      // any other thread waits for the finished registry.
      if (s.discovering_thread == std::this_thread::get_id()) return;
      s.done.wait(lock, [&] { return s.discovery != BackendState::Discovery::kRunning; });
      if (s.discovery == BackendState::Discovery::kFinished) return;
    }
    s.discovery = BackendState::Discovery::kRunning;
    s.discovering_thread = std::this_thread::get_id();
  }
  std::vector<std::string> failed;
  try {
    for (const std::string& path : paths_from_environment()) {
      if (!load_backend(path)) failed.push_back(path);
    }
  } catch (...) {
    // Leave discovery retryable, then let the interruption propagate.
    std::lock_guard lock(s.mutex);
    s.discovery = BackendState::Discovery::kNotStarted;
    s.done.notify_all();
    throw;
  }
  {
    std::lock_guard lock(s.mutex);
    s.discovery = BackendState::Discovery::kFinished;
    s.done.notify_all();
  }
  for (const auto& failure : load_failures()) {
    if (std::find(failed.begin(), failed.end(), failure.path) != failed.end()) {
      warn(fmt::format("backend '{}' failed to load and was skipped: {}", failure.path,
                       failure.reason));
    }
  }
}

std::vector<BackendLoadFailure> load_failures() {
  auto& s = state();
  std::lock_guard lock(s.mutex);
  return s.failures;
}

std::vector<std::string> loaded_backends() {
  auto& s = state();
  std::lock_guard lock(s.mutex);
  return s.loaded;
}

}  // namespace tileops
