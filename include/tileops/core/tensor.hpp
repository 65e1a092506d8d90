// Tensor (owning, shared storage) and TensorView (non-owning): shape, strides, dtype and device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "tileops/core/device.hpp"
#include "tileops/core/dtype.hpp"
#include "tileops/core/shape.hpp"
#include "tileops/export.hpp"

namespace tileops {

class Allocator;

// A block of memory on one device, released through the deleter it was made with.
class TILEOPS_API Storage {
 public:
  using Deleter = void (*)(void* context, void* data) noexcept;
  Storage(void* data, size_t nbytes, Device device, Deleter deleter, void* context) noexcept
      : data_(data), nbytes_(nbytes), device_(device), deleter_(deleter), context_(context) {}
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  // nbytes from the device's allocator.
  static std::shared_ptr<Storage> allocate(size_t nbytes, Device device);

  void* data() const noexcept { return data_; }
  size_t nbytes() const noexcept { return nbytes_; }
  Device device() const noexcept { return device_; }

 private:
  void* data_;
  size_t nbytes_;
  Device device_;
  Deleter deleter_;
  void* context_;
};

// Non-owning: the caller keeps the memory alive. Strides are in elements.
struct TILEOPS_API TensorView {
  void* data = nullptr;
  Shape shape;
  Shape strides;
  DType dtype = DType::kFloat32;
  Device device;

  int64_t numel() const noexcept { return shape.numel(); }
  int rank() const noexcept { return shape.rank(); }
  bool is_contiguous() const noexcept;
  template <typename T>
  T* data_as() const noexcept {
    return static_cast<T*>(data);
  }
};

// Owning handle: copies share the storage. A default-constructed Tensor is "absent" (defined() is
// false); the op layer uses that for an optional input that was not passed.
class TILEOPS_API Tensor {
 public:
  Tensor() = default;
  Tensor(std::shared_ptr<Storage> storage, int64_t offset_elements, Shape shape, Shape strides,
         DType dtype);

  // Uninitialised dense tensor on device.
  static Tensor empty(const Shape& shape, DType dtype, Device device = Device::cpu());
  static Tensor zeros(const Shape& shape, DType dtype, Device device = Device::cpu());
  // Wraps memory the caller owns; the tensor never frees it.
  static Tensor from_blob(void* data, const Shape& shape, const Shape& strides, DType dtype,
                          Device device);

  bool defined() const noexcept { return storage_ != nullptr; }
  const Shape& shape() const noexcept { return shape_; }
  const Shape& strides() const noexcept { return strides_; }
  int64_t size(int dim) const noexcept { return shape_[dim < 0 ? dim + shape_.rank() : dim]; }
  int rank() const noexcept { return shape_.rank(); }
  int64_t numel() const noexcept { return shape_.numel(); }
  DType dtype() const noexcept { return dtype_; }
  Device device() const noexcept;
  size_t nbytes() const noexcept;
  int64_t offset() const noexcept { return offset_; }
  void* data() const noexcept;
  template <typename T>
  T* data_as() const noexcept {
    return static_cast<T*>(data());
  }
  const std::shared_ptr<Storage>& storage() const noexcept { return storage_; }
  bool is_contiguous() const noexcept;

  TensorView view() const noexcept;
  // Same storage, new shape; requires a contiguous tensor and the same element count.
  Tensor reshape(const Shape& shape) const;
  // Same storage, different strides/offset (no checks beyond rank; for tests and interop).
  Tensor as_strided(const Shape& shape, const Shape& strides, int64_t offset_elements) const;
  // A dense copy on the same device (CPU only here; other devices copy through their backend).
  Tensor contiguous() const;
  // Copies element values from src (same shape and dtype): any layouts on the CPU; contiguous
  // tensors to, from or on another device through its backend.
  void copy_from(const Tensor& src);

  std::string str() const;  // "Tensor(float32[2, 3] on cpu)"

 private:
  std::shared_ptr<Storage> storage_;
  int64_t offset_ = 0;
  Shape shape_;
  Shape strides_;
  DType dtype_ = DType::kFloat32;
};

}  // namespace tileops
