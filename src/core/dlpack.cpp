#include "tileops/core/dlpack.hpp"

#include <fmt/format.h>

#include "tileops/core/error.hpp"

namespace tileops {
namespace {

struct ExportContext {
  std::shared_ptr<Storage> storage;  // keeps the memory alive while the consumer holds it
  Shape shape;
  Shape strides;
};

DLDataType to_dl_dtype(DType dtype) {
  const auto bits = static_cast<uint8_t>(dtype_size(dtype) * 8);
  switch (dtype) {
    case DType::kBool:
      return {kDLBool, 8, 1};
    case DType::kUInt8:
      return {kDLUInt, 8, 1};
    case DType::kInt8:
    case DType::kInt16:
    case DType::kInt32:
    case DType::kInt64:
      return {kDLInt, bits, 1};
    case DType::kBFloat16:
      return {kDLBfloat, 16, 1};
    case DType::kFloat8E4M3:
      return {kDLFloat8_e4m3fn, 8, 1};
    case DType::kFloat8E5M2:
      return {kDLFloat8_e5m2, 8, 1};
    default:
      return {kDLFloat, bits, 1};
  }
}

std::optional<DType> from_dl_dtype(DLDataType t) {
  if (t.lanes != 1) return std::nullopt;
  switch (t.code) {
    case kDLBool:
      return t.bits == 8 ? std::optional(DType::kBool) : std::nullopt;
    case kDLUInt:
      return t.bits == 8 ? std::optional(DType::kUInt8) : std::nullopt;
    case kDLInt:
      switch (t.bits) {
        case 8:
          return DType::kInt8;
        case 16:
          return DType::kInt16;
        case 32:
          return DType::kInt32;
        case 64:
          return DType::kInt64;
      }
      return std::nullopt;
    case kDLFloat:
      switch (t.bits) {
        case 16:
          return DType::kFloat16;
        case 32:
          return DType::kFloat32;
        case 64:
          return DType::kFloat64;
      }
      return std::nullopt;
    case kDLBfloat:
      return t.bits == 16 ? std::optional(DType::kBFloat16) : std::nullopt;
    case kDLFloat8_e4m3fn:
      return t.bits == 8 ? std::optional(DType::kFloat8E4M3) : std::nullopt;
    case kDLFloat8_e5m2:
      return t.bits == 8 ? std::optional(DType::kFloat8E5M2) : std::nullopt;
  }
  return std::nullopt;
}

void delete_export(DLManagedTensorVersioned* self) {
  delete static_cast<ExportContext*>(self->manager_ctx);
  delete self;
}

void release_import(void* context, void*) noexcept {
  auto* managed = static_cast<DLManagedTensorVersioned*>(context);
  if (managed->deleter != nullptr) managed->deleter(managed);
}

[[noreturn]] void refuse(DLManagedTensorVersioned* managed, const std::string& message) {
  if (managed->deleter != nullptr) managed->deleter(managed);
  throw ValueError("from_dlpack: " + message);
}

}  // namespace

DLManagedTensorVersioned* to_dlpack(const Tensor& tensor) {
  if (!tensor.defined())
    throw ValueError("to_dlpack: expected a defined tensor, got an absent one");
  auto* ctx = new ExportContext{tensor.storage(), tensor.shape(), tensor.strides()};
  auto* managed = new DLManagedTensorVersioned{};
  managed->version = {kDLPackMajor, kDLPackMinor};
  managed->manager_ctx = ctx;
  managed->deleter = &delete_export;
  managed->flags = 0;
  DLTensor& t = managed->dl_tensor;
  t.data = tensor.storage()->data();
  t.byte_offset = static_cast<uint64_t>(tensor.offset()) * dtype_size(tensor.dtype());
  const Device device = tensor.device();
  t.device = {device.type == kCUDA ? kDLCUDA : kDLCPU, device.index};
  if (device.type != kCPU && device.type != kCUDA) {
    delete_export(managed);
    throw ValueError(
        fmt::format("to_dlpack: expected a cpu or cuda tensor, got one on {}", device.str()));
  }
  t.ndim = tensor.rank();
  t.dtype = to_dl_dtype(tensor.dtype());
  t.shape = const_cast<int64_t*>(ctx->shape.data());
  t.strides = const_cast<int64_t*>(ctx->strides.data());
  return managed;
}

Tensor from_dlpack(DLManagedTensorVersioned* managed) {
  if (managed == nullptr) throw ValueError("from_dlpack: expected a managed tensor, got null");
  if (managed->version.major != kDLPackMajor) {
    refuse(managed, fmt::format("expected DLPack major version {}, got {}", kDLPackMajor,
                                managed->version.major));
  }
  if (managed->flags & kDLPackFlagReadOnly) {
    refuse(managed, "expected a writable tensor, got one flagged read-only");
  }
  const DLTensor& t = managed->dl_tensor;
  const auto dtype = from_dl_dtype(t.dtype);
  if (!dtype) {
    refuse(managed, fmt::format("dtype (code {}, bits {}, lanes {}) is not supported", t.dtype.code,
                                t.dtype.bits, t.dtype.lanes));
  }
  Device device;
  switch (t.device.device_type) {
    case kDLCPU:
    case kDLCUDAHost:
      device = Device::cpu();
      break;
    case kDLCUDA:
    case kDLCUDAManaged:
      device = Device::cuda(t.device.device_id);
      break;
    default:
      refuse(managed, fmt::format("device type {} is not supported; expected cpu or cuda",
                                  static_cast<int>(t.device.device_type)));
  }
  if (t.ndim < 0 || t.ndim > kMaxRank) {
    refuse(managed, fmt::format("expected rank at most {}, got {}", kMaxRank, t.ndim));
  }
  if (t.ndim > 0 && t.strides == nullptr) {
    refuse(managed, "expected strides (DLPack 1.x requires them), got NULL");
  }
  const auto item = dtype_size(*dtype);
  if (t.byte_offset % item != 0) {
    refuse(managed, fmt::format("byte_offset {} is not a multiple of the element size {}",
                                t.byte_offset, item));
  }
  const Shape shape(std::span<const int64_t>(t.shape, static_cast<size_t>(t.ndim)));
  const Shape strides(std::span<const int64_t>(t.strides, static_cast<size_t>(t.ndim)));
  size_t extent = 1;
  for (int i = 0; i < t.ndim; ++i) extent += static_cast<size_t>((shape[i] - 1) * strides[i]);
  auto storage = std::make_shared<Storage>(t.data, t.byte_offset + extent * item, device,
                                           &release_import, managed);
  return Tensor(std::move(storage), static_cast<int64_t>(t.byte_offset / item), shape, strides,
                *dtype);
}

}  // namespace tileops
