// DLPack 1.x interop (zero copy). The ABI structs are declared here from the DLPack 1.1
// specification because Debian ships only DLPack 0.6, which lacks the versioned tensor, bool and
// fp8.
#pragma once

#include <cstdint>

#include "tileops/core/tensor.hpp"
#include "tileops/export.hpp"

extern "C" {

struct DLPackVersion {
  uint32_t major;
  uint32_t minor;
};

enum DLDeviceType : int32_t {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLCUDAManaged = 13,
};

struct DLDevice {
  DLDeviceType device_type;
  int32_t device_id;
};

enum DLDataTypeCode : uint8_t {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLBfloat = 4,
  kDLBool = 6,
  kDLFloat8_e4m3fn = 10,
  kDLFloat8_e5m2 = 12,
};

struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};

struct DLTensor {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;  // in elements; DLPack 1.x forbids NULL when ndim != 0
  uint64_t byte_offset;
};

struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
};

}  // extern "C"

namespace tileops {

inline constexpr uint32_t kDLPackMajor = 1;
inline constexpr uint32_t kDLPackMinor = 1;
inline constexpr uint64_t kDLPackFlagReadOnly = 1ull << 0;
inline constexpr uint64_t kDLPackFlagIsCopied = 1ull << 1;

// Exports a tensor without copying. The returned object keeps the storage alive until its
// deleter is called; the caller (the consumer) must call it exactly once.
TILEOPS_API DLManagedTensorVersioned* to_dlpack(const Tensor& tensor);

// Imports without copying and takes ownership: the managed tensor's deleter runs when the last
// Tensor sharing the storage goes away. On error (major-version mismatch, unsupported dtype or
// device) throws ValueError after calling the deleter, as the DLPack protocol asks. Read-only
// tensors are refused, since ops write outputs and mutated inputs.
TILEOPS_API Tensor from_dlpack(DLManagedTensorVersioned* managed);

}  // namespace tileops
