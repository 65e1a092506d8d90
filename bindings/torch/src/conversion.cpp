#include "tileops_torch/conversion.hpp"

#include <cstdio>
#include <sstream>

#include <ATen/EmptyTensor.h>
#include <ATen/ops/empty.h>
#include <c10/core/DeviceGuard.h>
#include <fmt/format.h>

#include "tileops/core/error.hpp"

namespace tileops_torch {
namespace {

using tileops::DType;

struct DTypePair {
  c10::ScalarType torch;
  DType tileops;
};

constexpr DTypePair kDTypes[] = {
    {c10::ScalarType::Bool, DType::kBool},
    {c10::ScalarType::Byte, DType::kUInt8},
    {c10::ScalarType::Char, DType::kInt8},
    {c10::ScalarType::Short, DType::kInt16},
    {c10::ScalarType::Int, DType::kInt32},
    {c10::ScalarType::Long, DType::kInt64},
    {c10::ScalarType::Half, DType::kFloat16},
    {c10::ScalarType::BFloat16, DType::kBFloat16},
    {c10::ScalarType::Float, DType::kFloat32},
    {c10::ScalarType::Double, DType::kFloat64},
    {c10::ScalarType::Float8_e4m3fn, DType::kFloat8E4M3},
    {c10::ScalarType::Float8_e5m2, DType::kFloat8E5M2},
};

tileops::Shape to_shape(c10::IntArrayRef sizes) {
  return tileops::Shape(std::span<const int64_t>(sizes.data(), sizes.size()));
}

std::string shape_str(c10::IntArrayRef sizes) {
  return fmt::format("[{}]", fmt::join(sizes, ", "));
}

// "same_as(x) (float16)", as the generated dtype check spells an expected dtype.
std::string expected_dtype(const tileops::TensorSlot& slot, const at::Tensor* same_as) {
  std::string text(slot.dtype);
  if (same_as != nullptr && same_as->defined()) {
    text += " (" + torch_dtype_name(same_as->scalar_type()) + ")";
  }
  return text;
}

// Exact and short: the instance cache compares these strings, never parses them.
void append_double(std::string& key, double v) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%a", v);
  key += buffer;
}

const char* kind_name(const c10::IValue& v) {
  if (v.isNone()) return "None";
  if (v.isBool()) return "bool";
  if (v.isInt()) return "int";
  if (v.isDouble()) return "float";
  if (v.isString()) return "str";
  if (v.isIntList()) return "list[int]";
  if (v.isTensor()) return "tensor";
  return v.tagKind().c_str();
}

}  // namespace

std::optional<DType> to_tileops(c10::ScalarType type) noexcept {
  for (const auto& pair : kDTypes) {
    if (pair.torch == type) return pair.tileops;
  }
  return std::nullopt;
}

c10::ScalarType to_torch(DType type) noexcept {
  for (const auto& pair : kDTypes) {
    if (pair.tileops == type) return pair.torch;
  }
  return c10::ScalarType::Undefined;
}

std::string torch_dtype_name(c10::ScalarType type) {
  if (auto d = to_tileops(type)) return std::string(tileops::dtype_name(*d));
  return c10::getDtypeNames(type).first;
}

tileops::Tensor wrap(std::string_view op, const tileops::TensorSlot& slot, const at::Tensor& t,
                     const at::Tensor* same_as) {
  if (t.dim() > tileops::kMaxRank) {
    throw tileops::ShapeError(op, slot.name,
                              fmt::format("a tensor of rank at most {}", tileops::kMaxRank),
                              "shape " + shape_str(t.sizes()));
  }
  const std::optional<DType> dtype = to_tileops(t.scalar_type());
  if (!dtype) {
    throw tileops::DTypeError(op, slot.name, "dtype " + expected_dtype(slot, same_as),
                              torch_dtype_name(t.scalar_type()));
  }
  tileops::Device device = tileops::Device::cpu();
  if (t.is_cuda()) device = tileops::Device::cuda(t.get_device());
  return tileops::Tensor::from_blob(t.data_ptr(), to_shape(t.sizes()), to_shape(t.strides()),
                                    *dtype, device);
}

namespace {

// torch's CUDA caching allocator as registered with c10, or null where this torch registers none
// (then outputs take at::empty through the dispatcher).
c10::Allocator* registered_cuda_allocator() {
  static c10::Allocator* const allocator = []() -> c10::Allocator* {
    try {
      return c10::GetAllocator(c10::DeviceType::CUDA);
    } catch (const std::exception&) {
      return nullptr;
    }
  }();
  return allocator;
}

}  // namespace

at::Tensor allocate(const tileops::TensorDesc& desc) {
  const c10::IntArrayRef sizes(desc.shape.data(), desc.shape.size());
  const c10::ScalarType dtype = to_torch(desc.dtype);
  // As aten's own kernels allocate their outputs: straight from the allocator, without a trip
  // through the dispatcher for at::empty.
  if (desc.device.type != tileops::kCUDA) return at::detail::empty_cpu(sizes, dtype);
  const c10::Device device(c10::DeviceType::CUDA, static_cast<c10::DeviceIndex>(desc.device.index));
  if (c10::Allocator* cuda = registered_cuda_allocator()) {
    const c10::DeviceGuard guard(device);  // the caching allocator serves the current device
    return at::detail::empty_generic(sizes, cuda, c10::DispatchKeySet(c10::DispatchKey::CUDA),
                                     dtype, std::nullopt);
  }
  return at::empty(sizes, at::TensorOptions().dtype(dtype).device(device));
}

tileops::ParamValue param_value(std::string_view op, const tileops::ParamSlot& slot,
                                const c10::IValue& v, std::string& key, bool& cacheable) {
  using tileops::ParamKind;
  using tileops::ParamValue;
  key += slot.name;
  key += '=';
  if (v.isNone()) {
    key += "None;";
    return tileops::NoneValue{};
  }
  auto wrong = [&](const char* expected) -> ParamValue {
    std::ostringstream shown;
    shown << v;
    throw tileops::ParamError(op, slot.name, expected,
                              fmt::format("{} {}", kind_name(v), shown.str()));
  };
  ParamValue out;
  switch (slot.kind) {
    case ParamKind::kBool:
      if (!v.isBool()) return wrong("a bool");
      out = v.toBool();
      key += v.toBool() ? "1" : "0";
      break;
    case ParamKind::kInt:
      if (!v.isInt()) return wrong("an int");
      out = v.toInt();
      key += std::to_string(v.toInt());
      break;
    case ParamKind::kFloat:
      // float, or the Scalar of an 'int | float' parameter: the op reads a double either way. A
      // bool (or complex) Scalar goes through as itself, for the op to reject.
      if (v.isBool()) {
        out = v.toBool();
        key += v.toBool() ? "b1" : "b0";
      } else if (v.isInt()) {
        out = static_cast<double>(v.toInt());
        append_double(key, static_cast<double>(v.toInt()));
      } else if (v.isDouble()) {
        out = v.toDouble();
        append_double(key, v.toDouble());
      } else {
        return wrong("a float");
      }
      break;
    case ParamKind::kStr:
      if (!v.isString()) return wrong("a str");
      out = std::string(v.toStringRef());
      key += std::to_string(v.toStringRef().size()) + ":" + v.toStringRef();
      break;
    case ParamKind::kIntList: {
      if (!v.isIntList()) return wrong("a list of ints");
      const std::vector<int64_t> items = v.toIntVector();
      if (items.size() > static_cast<size_t>(tileops::kMaxRank)) {
        throw tileops::ParamError(op, slot.name,
                                  fmt::format("a list of at most {} ints", tileops::kMaxRank),
                                  fmt::format("list[int] [{}]", fmt::join(items, ", ")));
      }
      out = tileops::IntList(std::span<const int64_t>(items));
      key += fmt::format("[{}]", fmt::join(items, ","));
      break;
    }
    case ParamKind::kDType: {
      // ScalarType arrives as an int.
      if (!v.isInt()) return wrong("a dtype");
      const auto type = static_cast<c10::ScalarType>(v.toInt());
      const std::optional<DType> d = to_tileops(type);
      if (!d) {
        throw tileops::ParamError(op, slot.name, "a dtype tileops has", torch_dtype_name(type));
      }
      out = *d;
      key += std::string(tileops::dtype_name(*d));
      break;
    }
    case ParamKind::kTensor: {
      if (!v.isTensor()) return wrong("a tensor or None");
      // A construction-time tensor: the instance holds a view of it, so it is not shared.
      const tileops::TensorSlot as_slot{slot.name, slot.type, "", false, false, {}};
      out = wrap(op, as_slot, v.toTensor(), nullptr);
      cacheable = false;
      key += "<tensor>";
      break;
    }
  }
  key += ';';
  return out;
}

}  // namespace tileops_torch
