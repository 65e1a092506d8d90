#include "interned_names.hpp"

#include <mutex>
#include <string>
#include <unordered_set>

namespace tileops::detail {

std::string_view intern_name(std::string_view name) {
  static std::mutex mutex;
  // Never destroyed, so views stay valid during static destruction too; node-based, so an
  // element's characters never move.
  static auto* names = new std::unordered_set<std::string>();
  std::lock_guard lock(mutex);
  return *names->emplace(name).first;
}

}  // namespace tileops::detail
