// Construction parameters: the typed structs the generator writes per op, and the by-name form
// (ParamMap) that the command line, a target's builder and the bindings use.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "tileops/core/dtype.hpp"
#include "tileops/core/shape.hpp"
#include "tileops/core/tensor.hpp"
#include "tileops/export.hpp"

namespace tileops {

// A list of ints held inline (normalized_shape, dims): the same storage as Shape.
using IntList = Shape;

struct NoneValue {
  friend bool operator==(NoneValue, NoneValue) = default;
};

// One parameter value by name. The alternatives cover every manifest param type tileops accepts.
using ParamValue =
    std::variant<NoneValue, bool, int64_t, double, std::string, IntList, DType, Tensor>;
using ParamMap = std::vector<std::pair<std::string, ParamValue>>;

TILEOPS_API std::string param_value_str(
    const ParamValue& value);  // "None", "true", "3", "[4096]", "'1d'"
TILEOPS_API const ParamValue* find_param(const ParamMap& params, std::string_view name) noexcept;

// A required parameter (no manifest default): empty until the caller sets it. Construction
// raises ParamError naming the parameter when it is still empty.
template <typename T>
class Required {
 public:
  Required() = default;
  Required(T value) : value_(std::move(value)) {}  // NOLINT: implicit, for designated init
  template <typename U>
  requires std::is_constructible_v<T, U> &&
      (!std::is_same_v<std::decay_t<U>, Required>)Required(U&& value)
      : value_(T(std::forward<U>(value))) {}  // NOLINT
  Required(std::initializer_list<int64_t> values) requires std::is_same_v<T, IntList>
      : value_(T(values)) {}

  bool has_value() const noexcept { return value_.has_value(); }
  const T& operator*() const { return *value_; }
  const T* operator->() const { return &*value_; }
  const T& value() const { return *value_; }

 private:
  std::optional<T> value_;
};

}  // namespace tileops
