#include "tileops_torch/instance_cache.hpp"

#include <algorithm>
#include <map>
#include <mutex>

#include <fmt/format.h>

namespace tileops_torch {
namespace {

struct Cache {
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<tileops::Op>, std::less<>> instances;
};

Cache& cache() {
  static Cache* c = new Cache;  // never destroyed: torch may call ops during interpreter exit
  return *c;
}

}  // namespace

tileops::Op& cached_instance(const std::string& key, std::string_view op,
                             const tileops::ParamMap& params) {
  Cache& c = cache();
  {
    std::lock_guard lock(c.mutex);
    auto it = c.instances.find(key);
    if (it != c.instances.end()) return *it->second;
  }
  // Construct outside the lock (construction may load backends); the first insert wins.
  std::unique_ptr<tileops::Op> made = tileops::make_op(op, params);
  std::lock_guard lock(c.mutex);
  auto [it, inserted] = c.instances.try_emplace(key, std::move(made));
  return *it->second;
}

std::vector<std::string> cached_instances() {
  Cache& c = cache();
  std::lock_guard lock(c.mutex);
  std::vector<std::string> out;
  for (const auto& [key, op] : c.instances) {
    std::vector<std::string> params;
    for (const auto& [name, value] : op->param_values()) {
      params.push_back(fmt::format("{}={}", name, tileops::param_value_str(value)));
    }
    const std::string_view device = std::string_view(key).substr(key.find('@') + 1);
    out.push_back(fmt::format("{}@{}({})", op->name(), device.substr(0, device.find('|')),
                              fmt::join(params, ", ")));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace tileops_torch
