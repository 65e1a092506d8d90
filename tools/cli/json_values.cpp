#include "json_values.hpp"

#include <iostream>

namespace tileops::cli {

json param_json(const ParamValue& value) {
  struct Visitor {
    json operator()(NoneValue) const { return nullptr; }
    json operator()(bool v) const { return v; }
    json operator()(int64_t v) const { return v; }
    json operator()(double v) const { return v; }
    json operator()(const std::string& v) const { return v; }
    json operator()(const IntList& v) const { return v.vec(); }
    json operator()(DType v) const { return std::string(dtype_name(v)); }
    json operator()(const Tensor& v) const {
      return v.defined() ? desc_json({v.device(), v.dtype(), v.shape()}) : json(nullptr);
    }
  };
  return std::visit(Visitor{}, value);
}

json params_json(const ParamMap& params) {
  json j = json::object();
  for (const auto& [name, value] : params) j[name] = param_json(value);
  return j;
}

json desc_json(const TensorDesc& desc) {
  return {{"dtype", std::string(dtype_name(desc.dtype))},
          {"shape", desc.shape.vec()},
          {"device", desc.device.str()}};
}

json roofline_json(const RooflineValue& roofline) {
  return {{"flops", roofline.flops}, {"bytes", roofline.bytes}};
}

void print_json(const json& j) {
  std::cout << j.dump(2) << '\n';
}

}  // namespace tileops::cli
