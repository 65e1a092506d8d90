// Construction step 2 for injected parameters: every name given is one the op declares, given
// once, with a value of the declared kind, which is stored converted to that kind.
#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "generated_support.hpp"
#include "tileops/framework/injected.hpp"

namespace tileops::detail {
namespace {

ParamValue converted(std::string_view op, std::string_view name, ParamKind kind,
                     const ParamValue& value) {
  switch (kind) {
    case ParamKind::kBool:
      return param_as<bool>(op, name, value);
    case ParamKind::kInt:
      return param_as<int64_t>(op, name, value);
    case ParamKind::kFloat:
      return param_as<double>(op, name, value);
    case ParamKind::kStr:
      return param_as<std::string>(op, name, value);
    case ParamKind::kIntList:
      return param_as<IntList>(op, name, value);
    case ParamKind::kDType:
      return param_as<DType>(op, name, value);
    case ParamKind::kTensor:
      return param_as<Tensor>(op, name, value);
  }
  throw_internal("unknown ParamKind of an injected parameter");
}

}  // namespace

bool is_injected(std::span<const InjectedParameter> declared, std::string_view name) noexcept {
  return std::any_of(declared.begin(), declared.end(),
                     [&](const InjectedParameter& p) { return p.name == name; });
}

void check_injected(std::string_view op, std::span<const InjectedParameter> declared,
                    InjectedValues& given) {
  std::vector<std::string_view> seen;
  for (auto& [name, value] : given.values) {
    const auto it = std::find_if(declared.begin(), declared.end(),
                                 [&](const InjectedParameter& p) { return p.name == name; });
    if (it == declared.end()) {
      std::vector<std::string_view> names;
      for (const InjectedParameter& p : declared) names.push_back(p.name);
      throw ParamError(op, name,
                       fmt::format("one of the injected parameters the op declares [{}]",
                                   fmt::join(names, ", ")),
                       "an undeclared injected parameter");
    }
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
      throw ParamError(op, name, "one value", "the injected parameter given twice");
    }
    seen.push_back(name);
    value = converted(op, name, it->kind, value);
  }
}

}  // namespace tileops::detail
