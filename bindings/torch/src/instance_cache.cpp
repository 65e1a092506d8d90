#include "tileops_torch/instance_cache.hpp"

#include "tileops_torch/conversion.hpp"

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

InstanceRequest read_instance_request(std::string_view op, const tileops::OpSchema& schema,
                                      c10::ArrayRef<c10::IValue> args, std::string_view device) {
  InstanceRequest r;
  r.key = fmt::format("{}@{}|", op, device);
  for (size_t j = 0; j < schema.params.size(); ++j) {
    const tileops::ParamSlot& slot = schema.params[j];
    r.params.emplace_back(std::string(slot.name),
                          param_value(op, slot, args[j], r.key, r.cacheable));
  }
  const c10::IValue& target = args[schema.params.size()];
  if (!target.isNone()) {
    r.target = std::string(target.toStringRef());
    r.key += "target=" + *r.target + ";";
  }
  return r;
}

tileops::Op& cached_instance(const InstanceRequest& request, std::string_view op) {
  Cache& c = cache();
  {
    std::lock_guard lock(c.mutex);
    auto it = c.instances.find(request.key);
    if (it != c.instances.end()) return *it->second;
  }
  // Construct outside the lock (construction may load backends); the first insert wins.
  std::unique_ptr<tileops::Op> made = tileops::make_op(op, request.params, request.target);
  std::lock_guard lock(c.mutex);
  auto [it, inserted] = c.instances.try_emplace(request.key, std::move(made));
  return *it->second;
}

tileops::Op* find_cached(const std::string& key) {
  Cache& c = cache();
  std::lock_guard lock(c.mutex);
  auto it = c.instances.find(key);
  return it != c.instances.end() ? it->second.get() : nullptr;
}

std::vector<tileops::Op*> cached_on_any_device(std::string_view op, std::string_view spec) {
  Cache& c = cache();
  std::lock_guard lock(c.mutex);
  std::vector<tileops::Op*> found;
  const std::string prefix = std::string(op) + "@";
  for (auto it = c.instances.lower_bound(prefix);
       it != c.instances.end() && std::string_view(it->first).starts_with(prefix); ++it) {
    const std::string_view key = it->first;
    if (key.substr(key.find('|')) == spec) found.push_back(it->second.get());
  }
  return found;
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
    if (op->target()) params.push_back(fmt::format("target='{}'", *op->target()));
    const std::string_view device = std::string_view(key).substr(key.find('@') + 1);
    out.push_back(fmt::format("{}@{}({})", op->name(), device.substr(0, device.find('|')),
                              fmt::join(params, ", ")));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace tileops_torch
