#include "generated_support.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace tileops::detail {

Shape broadcast_or_fail(const Shape& a, const Shape& b) {
  auto out = shape_ops::broadcast_shapes(a, b);
  if (!out) throw RuleFailure{};
  return *out;
}

bool broadcastable_to(const Shape& from, const Shape& to) noexcept {
  auto out = shape_ops::broadcast_shapes(from, to);
  return out && *out == to;
}

void require_present(std::string_view op, std::string_view arg, const Tensor& t) {
  if (!t.defined()) [[unlikely]] {
    throw SignatureError(op, arg, "a tensor (the input is required)", "an absent tensor");
  }
}

void note_device(std::string_view op, std::string_view arg, const Tensor& t,
                 std::optional<Device>& device) {
  const Device d = t.device();
  if (!device) {
    device = d;
  } else if (*device != d) [[unlikely]] {
    throw DeviceError(
        op, arg,
        fmt::format("a tensor on {} (the device of the call's first tensor)", device->str()),
        fmt::format("a tensor on {}", d.str()));
  }
}

void throw_dtype(std::string_view op, std::string_view arg, std::string expected, DType got) {
  throw DTypeError(op, arg, fmt::format("dtype {}", expected), fmt::format("{}", dtype_name(got)));
}

void require_rank(std::string_view op, std::string_view arg, const Shape& shape, int rank,
                  std::string_view declared) {
  if (shape.rank() != rank) [[unlikely]] {
    throw ShapeError(op, arg, fmt::format("rank {} (shape {})", rank, declared),
                     fmt::format("shape {}", shape.str()));
  }
}

void throw_dim(std::string_view op, std::string_view arg, int dim, std::string_view declared,
               int64_t expected, const Shape& shape) {
  throw ShapeError(op, arg, fmt::format("{}.shape[{}] == {} (= {})", arg, dim, declared, expected),
                   fmt::format("shape {}", shape.str()));
}

void throw_rule(std::string_view op, std::string_view arg, std::string_view rule,
                std::initializer_list<std::pair<std::string_view, std::string>> got) {
  std::vector<std::string> parts;
  for (const auto& [name, value] : got) parts.push_back(fmt::format("{}={}", name, value));
  throw ShapeError(op, arg, fmt::format("shape rule `{}` to hold", rule),
                   fmt::format("{}", fmt::join(parts, ", ")));
}

void throw_param_rule(std::string_view op, std::string_view arg, std::string_view rule,
                      std::initializer_list<std::pair<std::string_view, std::string>> got) {
  std::vector<std::string> parts;
  for (const auto& [name, value] : got) parts.push_back(fmt::format("{}={}", name, value));
  throw ParamError(op, arg, fmt::format("parameter rule `{}` to hold", rule),
                   fmt::format("{}", fmt::join(parts, ", ")));
}

void check_combo(std::string_view op, std::span<const DType> observed,
                 std::span<const DType> allowed_rows, std::string_view columns) {
  const size_t n = observed.size();
  for (size_t r = 0; r + n <= allowed_rows.size(); r += n) {
    if (std::equal(observed.begin(), observed.end(), allowed_rows.begin() + r)) return;
  }
  std::vector<std::string_view> got;
  for (DType d : observed) got.push_back(dtype_name(d));
  std::vector<std::string> rows;
  for (size_t r = 0; r + n <= allowed_rows.size(); r += n) {
    std::vector<std::string_view> row;
    for (size_t i = 0; i < n; ++i) row.push_back(dtype_name(allowed_rows[r + i]));
    rows.push_back(fmt::format("({})", fmt::join(row, ", ")));
  }
  throw DTypeError(op, columns,
                   fmt::format("one of the dtype combinations [{}]", fmt::join(rows, ", ")),
                   fmt::format("({})", fmt::join(got, ", ")));
}

std::string show(const Shape& v) {
  return v.str();
}
std::string show(int64_t v) {
  return fmt::format("{}", v);
}
std::string show(double v) {
  return fmt::format("{}", v);
}
std::string show(bool v) {
  return v ? "true" : "false";
}
std::string show(std::string_view v) {
  return fmt::format("'{}'", v);
}
std::string show(DType v) {
  return std::string(dtype_name(v));
}
std::string show(const Tensor& v) {
  return v.defined() ? v.str() : std::string("None");
}

void require_param(std::string_view op, std::string_view name, bool supplied) {
  if (!supplied) {
    throw ParamError(op, name, "a value (the parameter has no default)", "none");
  }
}

void throw_unknown_param(std::string_view op, std::string_view name,
                         std::initializer_list<std::string_view> known,
                         std::span<const InjectedParameter> injected) {
  std::vector<std::string_view> injected_names;
  for (const InjectedParameter& p : injected) injected_names.push_back(p.name);
  throw ParamError(
      op, name,
      fmt::format("one of the manifest parameters [{}]{} (or 'target')", fmt::join(known, ", "),
                  injected_names.empty() ? std::string()
                                         : fmt::format(" or the injected parameters [{}]",
                                                       fmt::join(injected_names, ", "))),
      "an unknown parameter name");
}

namespace {
const char* kind_name(const ParamValue& v) {
  static const char* kNames[] = {"None", "bool",      "int",   "float",
                                 "str",  "list[int]", "dtype", "tensor"};
  return kNames[v.index()];
}
template <typename T>
[[noreturn]] void wrong_kind(std::string_view op, std::string_view name, const char* expected,
                             const ParamValue& v) {
  throw ParamError(op, name, expected, fmt::format("{} {}", kind_name(v), param_value_str(v)));
}
}  // namespace

template <>
TILEOPS_INTERNAL_API int64_t param_as<int64_t>(std::string_view op, std::string_view name,
                                               const ParamValue& v) {
  if (auto* i = std::get_if<int64_t>(&v)) return *i;
  wrong_kind<int64_t>(op, name, "an int", v);
}
template <>
TILEOPS_INTERNAL_API double param_as<double>(std::string_view op, std::string_view name,
                                             const ParamValue& v) {
  if (auto* d = std::get_if<double>(&v)) return *d;
  if (auto* i = std::get_if<int64_t>(&v)) return static_cast<double>(*i);
  wrong_kind<double>(op, name, "a float", v);
}
template <>
TILEOPS_INTERNAL_API bool param_as<bool>(std::string_view op, std::string_view name,
                                         const ParamValue& v) {
  if (auto* b = std::get_if<bool>(&v)) return *b;
  wrong_kind<bool>(op, name, "a bool", v);
}
template <>
TILEOPS_INTERNAL_API std::string param_as<std::string>(std::string_view op, std::string_view name,
                                                       const ParamValue& v) {
  if (auto* s = std::get_if<std::string>(&v)) return *s;
  wrong_kind<std::string>(op, name, "a str", v);
}
template <>
TILEOPS_INTERNAL_API IntList param_as<IntList>(std::string_view op, std::string_view name,
                                               const ParamValue& v) {
  if (auto* l = std::get_if<IntList>(&v)) return *l;
  if (auto* i = std::get_if<int64_t>(&v)) return IntList{*i};
  wrong_kind<IntList>(op, name, "a list of ints", v);
}
template <>
TILEOPS_INTERNAL_API DType param_as<DType>(std::string_view op, std::string_view name,
                                           const ParamValue& v) {
  if (auto* d = std::get_if<DType>(&v)) return *d;
  if (auto* s = std::get_if<std::string>(&v)) {
    if (auto d = dtype_from_name(*s)) return *d;
  }
  wrong_kind<DType>(op, name, "a dtype", v);
}

template <>
TILEOPS_INTERNAL_API Tensor param_as<Tensor>(std::string_view op, std::string_view name,
                                             const ParamValue& v) {
  if (auto* t = std::get_if<Tensor>(&v)) return *t;
  if (std::holds_alternative<NoneValue>(v)) return Tensor();
  wrong_kind<Tensor>(op, name, "a tensor or None", v);
}

RecordTensor record_input(const CallRecord& record, int index) {
  RecordTensor t;
  if (index < record.n_inputs && record.inputs[index]) {
    t.present = true;
    t.shape = record.inputs[index]->shape;
    t.dtype = record.inputs[index]->dtype;
  }
  return t;
}

RecordTensor record_output(const CallRecord& record, int index) {
  RecordTensor t;
  if (index < record.n_outputs) {
    t.present = true;
    t.shape = record.outputs[index].shape;
    t.dtype = record.outputs[index].dtype;
  }
  return t;
}

}  // namespace tileops::detail
