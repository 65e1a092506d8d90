#include "tileops/framework/params.hpp"

#include <fmt/format.h>

namespace tileops {

std::string param_value_str(const ParamValue& value) {
  struct Visitor {
    std::string operator()(NoneValue) const { return "None"; }
    std::string operator()(bool v) const { return v ? "true" : "false"; }
    std::string operator()(int64_t v) const { return fmt::format("{}", v); }
    std::string operator()(double v) const { return fmt::format("{}", v); }
    std::string operator()(const std::string& v) const { return fmt::format("'{}'", v); }
    std::string operator()(const IntList& v) const { return v.str(); }
    std::string operator()(DType v) const { return std::string(dtype_name(v)); }
    std::string operator()(const Tensor& v) const { return v.str(); }
  };
  return std::visit(Visitor{}, value);
}

const ParamValue* find_param(const ParamMap& params, std::string_view name) noexcept {
  for (const auto& [key, value] : params) {
    if (key == name) return &value;
  }
  return nullptr;
}

}  // namespace tileops
