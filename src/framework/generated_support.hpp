// Helpers that generated op code calls: presence, device, stride, dtype and rule checks with
// their error messages, and parameter conversions. Failure paths format strings; success paths
// do not allocate. Only generated .gen.cpp files include it (the library's, and the test and
// benchmark ops'), so it is not installed; its functions are exported for the in-tree ones.
#pragma once

#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "internal_api.hpp"
#include "tileops/core/error.hpp"
#include "tileops/core/shape_helpers.hpp"
#include "tileops/core/tensor.hpp"
#include "tileops/framework/call_record.hpp"
#include "tileops/framework/injected.hpp"
#include "tileops/framework/params.hpp"

namespace tileops::detail {

// Thrown by helpers inside a rule (a shape that does not broadcast); the rule then fails.
struct RuleFailure {};

template <typename T>
const T& value_of(const std::optional<T>& v) {
  if (!v) throw RuleFailure{};
  return *v;
}
template <typename T>
const T& value_of(const T& v) {
  return v;
}

inline bool shape_contains(const Shape& values, int64_t v) noexcept {
  for (int64_t x : values) {
    if (x == v) return true;
  }
  return false;
}

TILEOPS_INTERNAL_API Shape broadcast_or_fail(const Shape& a, const Shape& b);
TILEOPS_INTERNAL_API bool broadcastable_to(const Shape& from, const Shape& to) noexcept;

// Evaluates a rule; helper failures (an index out of range, shapes that do not broadcast) count
// as the rule not holding.
template <typename Fn>
bool rule_holds(Fn&& fn) noexcept {
  try {
    return static_cast<bool>(fn());
  } catch (...) {
    return false;
  }
}
template <typename Fn>
bool try_assign(Shape& out, Fn&& fn) noexcept {
  try {
    out = fn();
    return true;
  } catch (...) {
    return false;
  }
}

TILEOPS_INTERNAL_API void require_present(std::string_view op, std::string_view arg,
                                          const Tensor& t);
TILEOPS_INTERNAL_API void note_device(std::string_view op, std::string_view arg, const Tensor& t,
                                      std::optional<Device>& device);
inline void require_contiguous(std::string_view op, std::string_view arg, const Tensor& t) {
  if (!t.is_contiguous()) [[unlikely]] {
    throw SignatureError(op, arg,
                         "contiguous (row-major) strides " + contiguous_strides(t.shape()).str() +
                             "; call .contiguous() first",
                         "strides " + t.strides().str() + " for shape " + t.shape().str());
  }
}
[[noreturn]] TILEOPS_INTERNAL_API void throw_dtype(std::string_view op, std::string_view arg,
                                                   std::string expected, DType got);
TILEOPS_INTERNAL_API void require_rank(std::string_view op, std::string_view arg,
                                       const Shape& shape, int rank, std::string_view declared);
[[noreturn]] TILEOPS_INTERNAL_API void throw_dim(std::string_view op, std::string_view arg, int dim,
                                                 std::string_view declared, int64_t expected,
                                                 const Shape& shape);
[[noreturn]] TILEOPS_INTERNAL_API void throw_rule(
    std::string_view op, std::string_view arg, std::string_view rule,
    std::initializer_list<std::pair<std::string_view, std::string>> got);
// A rule that reads only parameters, checked at construction (ParamError).
[[noreturn]] TILEOPS_INTERNAL_API void throw_param_rule(
    std::string_view op, std::string_view arg, std::string_view rule,
    std::initializer_list<std::pair<std::string_view, std::string>> got);
TILEOPS_INTERNAL_API void check_combo(std::string_view op, std::span<const DType> observed,
                                      std::span<const DType> allowed_rows,
                                      std::string_view columns);

// "[2, 4096]", "1e-06", "None", "'1d'", "true".
TILEOPS_INTERNAL_API std::string show(const Shape& v);
TILEOPS_INTERNAL_API std::string show(int64_t v);
TILEOPS_INTERNAL_API std::string show(double v);
TILEOPS_INTERNAL_API std::string show(bool v);
TILEOPS_INTERNAL_API std::string show(std::string_view v);
TILEOPS_INTERNAL_API std::string show(DType v);
TILEOPS_INTERNAL_API std::string show(const Tensor& v);
template <typename T>
std::string show(const std::optional<T>& v) {
  return v ? show(*v) : std::string("None");
}

// Parameters.
TILEOPS_INTERNAL_API void require_param(std::string_view op, std::string_view name, bool supplied);
// Whether name is one of the injected parameters an op declares (params_from_map keeps its value).
TILEOPS_INTERNAL_API bool is_injected(std::span<const InjectedParameter> declared,
                                      std::string_view name) noexcept;
// Construction step 2 for injected values: each name declared and given once, each value of the
// declared kind (ParamError naming the op and the parameter), converted to that kind in place.
TILEOPS_INTERNAL_API void check_injected(std::string_view op,
                                         std::span<const InjectedParameter> declared,
                                         InjectedValues& given);
[[noreturn]] TILEOPS_INTERNAL_API void throw_unknown_param(
    std::string_view op, std::string_view name, std::initializer_list<std::string_view> known,
    std::span<const InjectedParameter> injected);
template <typename T>
TILEOPS_INTERNAL_API T param_as(std::string_view op, std::string_view name,
                                const ParamValue& value);
template <typename T>
std::optional<T> optional_param_as(std::string_view op, std::string_view name,
                                   const ParamValue& value) {
  if (std::holds_alternative<NoneValue>(value)) return std::nullopt;
  return param_as<T>(op, name, value);
}
template <typename T>
ParamValue to_value(const T& v) {
  return ParamValue(v);
}
inline ParamValue to_value(const std::string& v) {
  return ParamValue(v);
}
inline ParamValue to_value(const Tensor& v) {
  return v.defined() ? ParamValue(v) : ParamValue(NoneValue{});
}
template <typename T>
ParamValue to_value(const std::optional<T>& v) {
  return v ? to_value(*v) : ParamValue(NoneValue{});
}
template <typename T>
ParamValue to_value(const Required<T>& v) {
  return to_value(v.value());
}

// The tensors of a call record, as roofline code reads them.
struct RecordTensor {
  bool present = false;
  Shape shape;
  DType dtype = DType::kFloat32;
};
TILEOPS_INTERNAL_API RecordTensor record_input(const CallRecord& record, int index);
TILEOPS_INTERNAL_API RecordTensor record_output(const CallRecord& record, int index);

}  // namespace tileops::detail
