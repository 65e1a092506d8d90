// Kernel: the callable implementation object. A kernel interface is an abstract Kernel subclass
// that fixes one call contract of an op ("rms_norm", "batch_norm_fwd_train"); implementations
// derive from an interface.
#pragma once

#include <string>
#include <string_view>
#include <typeinfo>
#include <vector>

#include "tileops/export.hpp"

namespace tileops {

// Identity of a kernel interface: one static object per interface type.
struct InterfaceInfo {
  std::string_view name;
  const std::type_info* type;
};

struct TuneOptions {
  int warmup_runs = 5;
  int timed_runs = 20;
};

class TILEOPS_API Kernel {
 public:
  virtual ~Kernel() = default;
  // The kernels this entry holds, for enumeration and tuning. An entry that builds several
  // kernels (a split-K GEMM and its reduction) lists each; the default is the entry itself.
  virtual std::vector<Kernel*> kernels() { return {this}; }
  // The tile configuration in use, for kernel_config() ("" when the kernel has none).
  virtual std::string config() const { return {}; }
  // Whether this kernel has candidate configurations to tune (reported by `tileops tune`).
  virtual bool tunable() const { return false; }
  // Times the candidate configurations and keeps the fastest. Called by Op::request_tune on
  // built kernels, and after building in tuned mode. A target's kernel that does not override it
  // "defines no request_tune()": the op warns that it runs untuned (guide A). In-tree kernels
  // without candidates need not override it.
  virtual void request_tune(const TuneOptions&);
};

// Base for kernel interfaces: Derived names itself (kName) and its call spec type. Exported, as
// Derived and CallT must be too: info()'s static is then one object in the process, shared by the
// library and the backends, and dispatch matches implementations to interfaces by its address.
template <typename Derived, typename CallT>
class TILEOPS_API KernelInterface : public Kernel {
 public:
  using Call = CallT;
  static const InterfaceInfo& info() {
    static const InterfaceInfo kInfo{Derived::kName, &typeid(Derived)};
    return kInfo;
  }
};

}  // namespace tileops
