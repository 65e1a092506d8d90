#include "tileops/core/tensor.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "tileops/core/allocator.hpp"
#include "tileops/core/error.hpp"

namespace tileops {

Storage::~Storage() {
  if (deleter_ != nullptr) deleter_(context_, data_);
}

namespace {

struct AllocatorContext {
  Allocator* allocator;
  size_t nbytes;
  Device device;
};

void release_to_allocator(void* context, void* data) noexcept {
  auto* ctx = static_cast<AllocatorContext*>(context);
  ctx->allocator->deallocate(data, ctx->nbytes, ctx->device);
  delete ctx;
}

}  // namespace

std::shared_ptr<Storage> Storage::allocate(size_t nbytes, Device device) {
  Allocator& allocator = allocator_for(device.type);
  void* data = allocator.allocate(nbytes, device);
  auto* ctx = new AllocatorContext{&allocator, nbytes, device};
  return std::make_shared<Storage>(data, nbytes, device, &release_to_allocator, ctx);
}

bool TensorView::is_contiguous() const noexcept {
  if (shape.numel() == 0) return true;  // no element to misplace (as in torch)
  int64_t expected = 1;
  for (int i = shape.rank() - 1; i >= 0; --i) {
    if (shape[i] != 1 && strides[i] != expected) return false;
    expected *= std::max<int64_t>(shape[i], 1);  // as contiguous_strides: a 0 dim counts as 1
  }
  return true;
}

Tensor::Tensor(std::shared_ptr<Storage> storage, int64_t offset_elements, Shape shape,
               Shape strides, DType dtype)
    : storage_(std::move(storage)),
      offset_(offset_elements),
      shape_(shape),
      strides_(strides),
      dtype_(dtype) {}

namespace {

// shape's size in bytes; a ShapeError naming the shape when the element count or the byte size
// does not fit int64.
int64_t byte_size_or_throw(std::string_view who, const Shape& shape, DType dtype) {
  const std::optional<int64_t> n = shape.checked_numel();
  int64_t bytes = 0;
  if (!n || __builtin_mul_overflow(*n, static_cast<int64_t>(dtype_size(dtype)), &bytes)) {
    throw ShapeError(who, "shape",
                     "non-negative sizes whose element count and byte size fit in int64",
                     fmt::format("{} of {}", shape.str(), dtype_name(dtype)));
  }
  return bytes;
}

}  // namespace

Tensor Tensor::empty(const Shape& shape, DType dtype, Device device) {
  const size_t nbytes = static_cast<size_t>(byte_size_or_throw("Tensor::empty", shape, dtype));
  return Tensor(Storage::allocate(nbytes, device), 0, shape, contiguous_strides(shape), dtype);
}

Tensor Tensor::zeros(const Shape& shape, DType dtype, Device device) {
  if (device.type != kCPU) {
    throw OpNotAvailableError(
        fmt::format("Tensor::zeros: expected a cpu device, got {}; fill "
                    "device memory through its backend",
                    device.str()));
  }
  Tensor t = empty(shape, dtype, device);
  std::memset(t.data(), 0, t.nbytes());
  return t;
}

Tensor Tensor::from_blob(void* data, const Shape& shape, const Shape& strides, DType dtype,
                         Device device) {
  if (strides.rank() != shape.rank()) {
    throw ValueError(fmt::format("Tensor::from_blob: expected {} strides, got {}", shape.rank(),
                                 strides.rank()));
  }
  byte_size_or_throw("Tensor::from_blob", shape, dtype);
  size_t span = 1;
  for (int i = 0; i < shape.rank(); ++i) span += static_cast<size_t>((shape[i] - 1) * strides[i]);
  auto storage =
      std::make_shared<Storage>(data, span * dtype_size(dtype), device, nullptr, nullptr);
  return Tensor(std::move(storage), 0, shape, strides, dtype);
}

Device Tensor::device() const noexcept {
  return storage_ ? storage_->device() : Device::cpu();
}
size_t Tensor::nbytes() const noexcept {
  return static_cast<size_t>(numel()) * dtype_size(dtype_);
}

void* Tensor::data() const noexcept {
  if (!storage_) return nullptr;
  return static_cast<char*>(storage_->data()) + offset_ * static_cast<int64_t>(dtype_size(dtype_));
}

bool Tensor::is_contiguous() const noexcept {
  return view().is_contiguous();
}

TensorView Tensor::view() const noexcept {
  return TensorView{data(), shape_, strides_, dtype_, device()};
}

Tensor Tensor::reshape(const Shape& shape) const {
  if (!is_contiguous() || shape.numel() != numel()) {
    throw ValueError(
        fmt::format("Tensor::reshape: expected a contiguous tensor with {} elements "
                    "for shape {}, got {}",
                    shape.numel(), shape.str(), str()));
  }
  return Tensor(storage_, offset_, shape, contiguous_strides(shape), dtype_);
}

Tensor Tensor::as_strided(const Shape& shape, const Shape& strides, int64_t offset_elements) const {
  if (shape.rank() != strides.rank()) {
    throw ValueError(fmt::format("Tensor::as_strided: expected {} strides, got {}", shape.rank(),
                                 strides.rank()));
  }
  return Tensor(storage_, offset_elements, shape, strides, dtype_);
}

namespace {

// Copies element by element following both tensors' strides (CPU only).
void strided_copy(const Tensor& dst, const Tensor& src) {
  const size_t item = dtype_size(src.dtype());
  const int rank = src.rank();
  const int64_t n = src.numel();
  Shape index = Shape::filled(rank, 0);
  auto* out = static_cast<char*>(dst.data());
  const auto* in = static_cast<const char*>(src.data());
  for (int64_t linear = 0; linear < n; ++linear) {
    int64_t src_off = 0, dst_off = 0;
    for (int d = 0; d < rank; ++d) {
      src_off += index[d] * src.strides()[d];
      dst_off += index[d] * dst.strides()[d];
    }
    std::memcpy(out + dst_off * item, in + src_off * item, item);
    for (int d = rank - 1; d >= 0; --d) {
      if (++index[d] < src.shape()[d]) break;
      index[d] = 0;
    }
  }
}

}  // namespace

Tensor Tensor::contiguous() const {
  if (device().type != kCPU) {
    throw OpNotAvailableError(
        fmt::format("Tensor::contiguous: expected a cpu tensor, got {}", str()));
  }
  if (is_contiguous()) return *this;
  Tensor out = empty(shape_, dtype_, device());
  strided_copy(out, *this);
  return out;
}

void Tensor::copy_from(const Tensor& src) {
  if (!(src.shape() == shape_) || src.dtype() != dtype_) {
    throw ValueError(
        fmt::format("Tensor::copy_from: expected a tensor like {}, got {}", str(), src.str()));
  }
  if (device().type == kCPU && src.device().type == kCPU) {
    strided_copy(*this, src);
    return;
  }
  const DeviceType other = device().type != kCPU ? device().type : src.device().type;
  const DeviceCopier copier = device_copier(other);
  if (copier == nullptr || !is_contiguous() || !src.is_contiguous()) {
    throw ValueError(
        fmt::format("Tensor::copy_from: expected contiguous tensors and a backend "
                    "that copies to and from {}, copying {} into {}",
                    device_type_name(other), src.str(), str()));
  }
  copier(data(), device(), src.data(), src.device(), nbytes());
}

std::string Tensor::str() const {
  if (!defined()) return "Tensor(absent)";
  return fmt::format("Tensor({}{} on {})", dtype_name(dtype_), shape_.str(), device().str());
}

}  // namespace tileops
