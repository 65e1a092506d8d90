#include "tileops/core/allocator.hpp"

#include <array>
#include <atomic>
#include <cstdlib>
#include <new>

#include <fmt/format.h>

#include "tileops/core/error.hpp"

namespace tileops {
namespace {

// 64-byte aligned host memory: a cache line, and enough for any vector load the CPU kernels use.
class CpuAllocator final : public Allocator {
 public:
  void* allocate(size_t nbytes, Device) override {
    const size_t rounded = (nbytes + 63) / 64 * 64;
    void* ptr = std::aligned_alloc(64, rounded == 0 ? 64 : rounded);
    if (ptr == nullptr) {
      throw RuntimeError(fmt::format("cpu allocator: could not allocate {} bytes", nbytes));
    }
    return ptr;
  }
  void deallocate(void* ptr, size_t, Device) noexcept override { std::free(ptr); }
};

struct AllocatorTable {
  std::array<std::atomic<Allocator*>, kMaxDeviceTypes> slots{};
  AllocatorTable() {
    static CpuAllocator cpu;
    slots[kCPU].store(&cpu);
  }
};

std::array<std::atomic<Allocator*>, kMaxDeviceTypes>& allocators() {
  static AllocatorTable table;
  return table.slots;
}

std::array<std::atomic<DeviceCopier>, kMaxDeviceTypes>& copiers() {
  static std::array<std::atomic<DeviceCopier>, kMaxDeviceTypes> table{};
  return table;
}

}  // namespace

void set_device_copier(DeviceType type, DeviceCopier copier) {
  if (type >= kMaxDeviceTypes) throw ValueError("set_device_copier: device type id out of range");
  copiers()[type].store(copier);
}

DeviceCopier device_copier(DeviceType type) noexcept {
  return type < kMaxDeviceTypes ? copiers()[type].load() : nullptr;
}

Allocator& allocator_for(DeviceType type) {
  Allocator* a =
      type < kMaxDeviceTypes ? allocators()[type].load(std::memory_order_acquire) : nullptr;
  if (a == nullptr) {
    throw OpNotAvailableError(fmt::format(
        "no allocator for device type '{}': expected a backend for it to be loaded (cpu is "
        "built in; cuda needs the CUDA runtime)",
        device_type_name(type)));
  }
  return *a;
}

Allocator* installed_allocator(DeviceType type) noexcept {
  return type < kMaxDeviceTypes ? allocators()[type].load(std::memory_order_acquire) : nullptr;
}

Allocator* set_allocator(DeviceType type, Allocator* allocator) {
  if (type >= kMaxDeviceTypes) {
    throw ValueError(fmt::format("set_allocator: device type id {} is out of range (max {})", type,
                                 kMaxDeviceTypes - 1));
  }
  return allocators()[type].exchange(allocator, std::memory_order_acq_rel);
}

}  // namespace tileops
