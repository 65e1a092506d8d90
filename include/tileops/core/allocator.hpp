// Where tensor memory comes from. One allocator per device type; a backend installs its own.
#pragma once

#include <cstddef>

#include "tileops/core/device.hpp"
#include "tileops/export.hpp"

namespace tileops {

class TILEOPS_API Allocator {
 public:
  virtual ~Allocator() = default;
  // Returns memory for nbytes on device (nbytes may be 0). Throws RuntimeError when it cannot.
  virtual void* allocate(size_t nbytes, Device device) = 0;
  virtual void deallocate(void* ptr, size_t nbytes, Device device) noexcept = 0;
};

// The allocator for a device type; the CPU one is always present. Throws OpNotAvailableError when
// no allocator was installed for that type.
TILEOPS_API Allocator& allocator_for(DeviceType type);
// Installs an allocator (not owned; it must outlive every tensor it allocates). Returns the old
// one.
TILEOPS_API Allocator* set_allocator(DeviceType type, Allocator* allocator);
// The installed allocator, or null; never throws.
TILEOPS_API Allocator* installed_allocator(DeviceType type) noexcept;
inline constexpr DeviceType kMaxDeviceTypes = 64;

// Copies between two contiguous tensors of one shape and dtype when one of them is on this
// device type (installed by the device's backend; enqueued on its current stream).
using DeviceCopier = void (*)(void* dst, Device dst_device, const void* src, Device src_device,
                              size_t bytes);
TILEOPS_API void set_device_copier(DeviceType type, DeviceCopier copier);
TILEOPS_API DeviceCopier device_copier(DeviceType type) noexcept;

}  // namespace tileops
