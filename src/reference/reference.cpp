#include "tileops/reference/reference.hpp"

#include <map>
#include <mutex>

#include <fmt/format.h>

#include "tileops/core/dtype_traits.hpp"
#include "tileops/core/error.hpp"

namespace tileops {
namespace {

struct ReferenceRegistry {
  std::mutex mutex;
  std::map<std::string, ReferenceEntry, std::less<>> entries;
};

ReferenceRegistry& registry() {
  static ReferenceRegistry r;
  return r;
}

const ParamValue& get(const ParamMap& params, std::string_view name) {
  const ParamValue* v = find_param(params, name);
  if (v == nullptr) throw ValueError(fmt::format("reference: parameter '{}' is missing", name));
  return *v;
}

template <typename T>
const T& get_as(const ParamMap& params, std::string_view name, const char* kind) {
  const ParamValue& v = get(params, name);
  if (const T* t = std::get_if<T>(&v)) return *t;
  throw ValueError(fmt::format("reference: parameter '{}': expected {}, got {}", name, kind,
                               param_value_str(v)));
}

}  // namespace

void register_reference(std::string op, ReferenceEntry entry) {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  r.entries[std::move(op)] = std::move(entry);
}

const ReferenceEntry* find_reference(std::string_view op) {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  auto it = r.entries.find(op);
  return it == r.entries.end() ? nullptr : &it->second;
}

std::vector<double> to_doubles(const Tensor& t) {
  const Tensor dense = t.contiguous();
  std::vector<double> out(static_cast<size_t>(dense.numel()));
  auto copy = [&]<typename T>(const T* p) {
    for (size_t i = 0; i < out.size(); ++i) {
      if constexpr (std::is_arithmetic_v<T>) {
        out[i] = static_cast<double>(p[i]);
      } else {
        out[i] = static_cast<double>(static_cast<float>(p[i]));
      }
    }
  };
  switch (dense.dtype()) {
    case DType::kBool:
      copy(dense.data_as<const bool>());
      break;
    case DType::kUInt8:
      copy(dense.data_as<const uint8_t>());
      break;
    case DType::kInt8:
      copy(dense.data_as<const int8_t>());
      break;
    case DType::kInt16:
      copy(dense.data_as<const int16_t>());
      break;
    case DType::kInt32:
      copy(dense.data_as<const int32_t>());
      break;
    case DType::kInt64:
      copy(dense.data_as<const int64_t>());
      break;
    case DType::kFloat16:
      copy(dense.data_as<const Half>());
      break;
    case DType::kBFloat16:
      copy(dense.data_as<const BFloat16>());
      break;
    case DType::kFloat32:
      copy(dense.data_as<const float>());
      break;
    case DType::kFloat64:
      copy(dense.data_as<const double>());
      break;
    case DType::kFloat8E4M3:
      copy(dense.data_as<const Float8E4M3>());
      break;
    case DType::kFloat8E5M2:
      copy(dense.data_as<const Float8E5M2>());
      break;
  }
  return out;
}

Tensor from_doubles(const std::vector<double>& values, const Shape& shape) {
  if (static_cast<int64_t>(values.size()) != shape.numel()) {
    throw ValueError(
        fmt::format("from_doubles: {} values for shape {}", values.size(), shape.str()));
  }
  Tensor t = Tensor::empty(shape, DType::kFloat64);
  std::copy(values.begin(), values.end(), t.data_as<double>());
  return t;
}

double param_double(const ParamMap& params, std::string_view name) {
  const ParamValue& v = get(params, name);
  if (const auto* i = std::get_if<int64_t>(&v)) return static_cast<double>(*i);
  return get_as<double>(params, name, "a float");
}

std::optional<double> param_optional_double(const ParamMap& params, std::string_view name) {
  if (std::holds_alternative<NoneValue>(get(params, name))) return std::nullopt;
  return param_double(params, name);
}

int64_t param_int(const ParamMap& params, std::string_view name) {
  return get_as<int64_t>(params, name, "an int");
}

std::optional<int64_t> param_optional_int(const ParamMap& params, std::string_view name) {
  if (std::holds_alternative<NoneValue>(get(params, name))) return std::nullopt;
  return param_int(params, name);
}

bool param_bool(const ParamMap& params, std::string_view name) {
  return get_as<bool>(params, name, "a bool");
}

std::string param_string(const ParamMap& params, std::string_view name) {
  return get_as<std::string>(params, name, "a str");
}

IntList param_int_list(const ParamMap& params, std::string_view name) {
  return get_as<IntList>(params, name, "a list of ints");
}

}  // namespace tileops
