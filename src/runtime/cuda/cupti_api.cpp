#include "runtime/cuda/cupti_api.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "tileops/core/error.hpp"

namespace tileops::cuda {
namespace {

// The library $TILEOPS_CUPTI names, else the usual names and the toolkit's copies.
struct Candidates {
  std::vector<std::string> names;
  bool chosen_by_environment = false;
};

Candidates library_candidates() {
  if (const char* chosen = std::getenv("TILEOPS_CUPTI"); chosen != nullptr && *chosen != '\0')
    return {{chosen}, true};
  return {{"libcupti.so.13", "libcupti.so.12", "libcupti.so",
           "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13",
           "/usr/local/cuda/lib64/libcupti.so.13", "/usr/local/cuda/lib/libcupti.so.13"},
          false};
}

LoadedCupti load_from(const Candidates& candidates) {
  LoadedCupti c;
  void* lib = nullptr;
  std::string opened, last_error;
  for (const std::string& name : candidates.names) {
    if ((lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL)) != nullptr) {
      opened = name;
      break;
    }
    const char* why = dlerror();
    last_error = why ? why : "not found";
  }
  if (lib == nullptr) {
    c.error = candidates.chosen_by_environment
                  ? fmt::format("TILEOPS_CUPTI={} could not be loaded: {}",
                                candidates.names.front(), last_error)
                  : fmt::format(
                        "libcupti could not be loaded (tried {}); set TILEOPS_CUPTI to its "
                        "path",
                        fmt::join(candidates.names, ", "));
    return c;
  }
  auto bind = [&](auto& fn, const char* name, bool required) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
    if (fn == nullptr && required && c.error.empty())
      c.error = fmt::format("{} lacks {}; it is not a usable CUPTI", opened, name);
  };
  CuptiApi& a = c.api;
  bind(a.cuptiActivityRegisterCallbacks, "cuptiActivityRegisterCallbacks", true);
  bind(a.cuptiActivityEnable, "cuptiActivityEnable", true);
  bind(a.cuptiActivityDisable, "cuptiActivityDisable", true);
  bind(a.cuptiActivityFlushAll, "cuptiActivityFlushAll", true);
  bind(a.cuptiActivityGetNextRecord, "cuptiActivityGetNextRecord", true);
  bind(a.cuptiGetResultString, "cuptiGetResultString", false);
  return c;
}

const LoadedCupti& loaded() noexcept {
  static const LoadedCupti c = load_cupti();
  return c;
}

}  // namespace

LoadedCupti load_cupti() noexcept {
  try {
    return load_from(library_candidates());
  } catch (const std::exception& e) {  // only allocation can fail here
    LoadedCupti c;
    c.error = e.what();
    return c;
  }
}

bool cupti_available() noexcept {
  return loaded().error.empty();
}

std::string cupti_unavailable_reason() noexcept {
  try {
    return loaded().error;
  } catch (...) {
    return "CUPTI unavailable";
  }
}

const CuptiApi& cupti() {
  const LoadedCupti& c = loaded();
  if (!c.error.empty()) throw RuntimeError("CUPTI: " + c.error);
  return c.api;
}

std::string cupti_failure(const char* what, CuptiResult result) {
  const char* text = nullptr;
  const CuptiApi& api = loaded().api;
  if (api.cuptiGetResultString != nullptr) api.cuptiGetResultString(result, &text);
  return fmt::format("{} failed: {} ({})", what, text ? text : "CUPTI error", result);
}

}  // namespace tileops::cuda
