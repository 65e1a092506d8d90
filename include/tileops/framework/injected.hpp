// Injected parameters: construction parameters an op family defines beyond its manifest's (guide
// A; FusedMoE's prepare_finalize and experts). The family declares each one as a typed handle,
// lists the handles in its OpDecl, and reads the values from params().injected in its constructor
// or forward. The base class gives them no meaning: at construction it checks that every name
// given is declared and every value has the declared kind (ParamError otherwise), converts each
// value to that kind, and passes them on to nobody (not param_values(), not a target's builder).
// See docs/design/decisions.md, "Injected parameters".
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

#include "tileops/core/error.hpp"
#include "tileops/framework/params.hpp"
#include "tileops/framework/schema.hpp"

namespace tileops {

// The kind a declared injected parameter holds (what OpDecl lists; built from an Injected<T>).
struct InjectedParameter {
  constexpr InjectedParameter(std::string_view parameter_name, ParamKind parameter_kind)
      : name(parameter_name), kind(parameter_kind) {}
  std::string_view name;
  ParamKind kind;
};

// A typed handle of one injected parameter, declared once by the family:
//   static constexpr Injected<int64_t> kExperts{"experts"};
// listed in the op's OpDecl, and read with params().injected.get(kExperts).
template <typename T>
struct Injected {
  static_assert(std::is_same_v<T, bool> || std::is_same_v<T, int64_t> ||
                    std::is_same_v<T, double> || std::is_same_v<T, std::string> ||
                    std::is_same_v<T, IntList> || std::is_same_v<T, DType> ||
                    std::is_same_v<T, Tensor>,
                "an injected parameter holds one of the manifest parameter types");
  std::string_view name;

  static constexpr ParamKind kind() {
    if constexpr (std::is_same_v<T, bool>) return ParamKind::kBool;
    if constexpr (std::is_same_v<T, int64_t>) return ParamKind::kInt;
    if constexpr (std::is_same_v<T, double>) return ParamKind::kFloat;
    if constexpr (std::is_same_v<T, std::string>) return ParamKind::kStr;
    if constexpr (std::is_same_v<T, IntList>) return ParamKind::kIntList;
    if constexpr (std::is_same_v<T, DType>) return ParamKind::kDType;
    return ParamKind::kTensor;
  }
  constexpr operator InjectedParameter() const {  // NOLINT: listed in OpDecl as is
    return InjectedParameter(name, kind());
  }
};

// The injected values given to one construction, by name. The generic constructor (make_op)
// fills it from the names the op declares; a typed constructor takes it as Params::injected:
//   FusedMoeOp({.num_experts = 8, .injected = {{"experts", experts}}}).
struct InjectedValues {
  InjectedValues() = default;
  InjectedValues(std::initializer_list<std::pair<std::string, ParamValue>> given) : values(given) {}

  // The value given for parameter, or nullopt when none was. Read it from a constructed op's
  // params(): construction converted every value to its declared kind.
  template <typename T>
  std::optional<T> get(const Injected<T>& parameter) const {
    for (const auto& [name, value] : values) {
      if (name != parameter.name) continue;
      if (const T* typed = std::get_if<T>(&value)) return *typed;
      throw ContractError("injected parameter '" + name + "': expected a value of its declared " +
                          "kind (read it from a constructed op's params()), got " +
                          param_value_str(value));
    }
    return std::nullopt;
  }

  ParamMap values;
};

}  // namespace tileops
