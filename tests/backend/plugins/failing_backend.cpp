// A backend whose register_backend fails after registering one of everything: a kernel on the
// CPU (which would make RMSNorm dispatch ambiguous if it survived), a detector, a kernel
// builder, a device-facts provider, an allocator and a device copier. The loader must roll all
// of it back.
#include <cstdio>

#include "tileops/core/allocator.hpp"
#include "tileops/framework/backend.hpp"
#include "tileops/framework/device_facts.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/framework/target.hpp"
#include "tileops/ops/normalization/rms_norm_fwd_op.hpp"

namespace {

class FailingKernel final : public tileops::RMSNormKernel {
 public:
  using Interface = tileops::RMSNormKernel;
  static constexpr tileops::DeviceType devices[] = {tileops::kCPU};
  void run(const tileops::RMSNormCall&, const tileops::Tensor&, const tileops::Tensor&,
           const tileops::Tensor&, const tileops::Tensor&) override {}
};

class FailingAllocator final : public tileops::Allocator {
 public:
  void* allocate(size_t, tileops::Device) override { return nullptr; }
  void deallocate(void*, size_t, tileops::Device) noexcept override {}
};

int register_backend(char* error, uint64_t error_size) {
  tileops::register_kernel_type<FailingKernel>("RMSNormFwdOp", "rms_norm_failing").release();
  tileops::register_detector("failing-target", [](tileops::Device) { return true; }).release();
  tileops::register_kernel_builder(
      "RMSNormFwdOp", "failing-target",
      [](std::span<const std::optional<tileops::TensorDesc>>, const tileops::ParamMap&) {
        return std::unique_ptr<tileops::TargetKernel>();
      })
      .release();
  const tileops::DeviceType failing = tileops::device_type_from_name("failing");
  tileops::set_device_facts_provider(failing,
                                     [](tileops::Device) { return tileops::DeviceFacts{}; });
  static FailingAllocator allocator;
  tileops::set_allocator(failing, &allocator);
  tileops::set_device_copier(failing,
                             [](void*, tileops::Device, const void*, tileops::Device, size_t) {});
  std::snprintf(error, error_size, "the failing backend gives up after registering");
  return 1;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) const TileopsBackendEntryV1*
tileops_backend_entry_v1() {
  static const TileopsBackendEntryV1 kEntry{TILEOPS_BACKEND_ABI_VERSION, "failing",
                                            &register_backend};
  return &kEntry;
}
