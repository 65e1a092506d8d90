#include <algorithm>
#include <map>
#include <mutex>

#include <fmt/format.h>

#include "tileops/core/error.hpp"
#include "tileops/framework/op.hpp"
#include "tileops/framework/schema.hpp"

namespace tileops {
namespace {

struct OpClassRegistry {
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<OpClassInfo>, std::less<>> classes;
};

OpClassRegistry& registry() {
  static OpClassRegistry r;
  return r;
}

}  // namespace

void register_op_class(const OpSchema& schema, OpFactory factory, bool composite) {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  auto& slot = r.classes[std::string(schema.name)];
  if (slot && slot->factory && factory) {
    throw ContractError(fmt::format("op class {} is registered twice", schema.name));
  }
  if (!slot || factory) {
    const bool boundary = factory != nullptr && !schema.inputs.empty() && !composite;
    slot = std::make_unique<OpClassInfo>(
        OpClassInfo{&schema, std::move(factory), composite, boundary});
  }
}

std::vector<const OpClassInfo*> op_classes() {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  std::vector<const OpClassInfo*> out;
  for (const auto& [name, info] : r.classes) out.push_back(info.get());
  return out;
}

const OpClassInfo& find_op_class(std::string_view name) {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  auto it = r.classes.find(name);
  if (it == r.classes.end()) {
    std::vector<std::string_view> names;
    for (const auto& [n, info] : r.classes) names.push_back(n);
    throw ValueError(
        fmt::format("unknown op '{}'; expected one of [{}]", name, fmt::join(names, ", ")));
  }
  return *it->second;
}

std::unique_ptr<Op> make_op(std::string_view name, const ParamMap& params, Target target) {
  const OpClassInfo& info = find_op_class(name);
  if (!info.factory) {
    throw OpNotAvailableError(
        fmt::format("{}: the manifest entry has status '{}' and no op class; "
                    "expected an implemented op",
                    name, info.schema->status));
  }
  return info.factory(params, std::move(target));
}

}  // namespace tileops
