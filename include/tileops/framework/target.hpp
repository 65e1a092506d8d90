// Targets: execution policies that take over whole ops. A backend registers a detector (which
// devices it claims) and kernel builders (one per op it serves). Precedence for an instance: its
// own target, then the process default, then detection from the call's device, then in-tree.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tileops/core/tensor.hpp"
#include "tileops/export.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/framework/kernel.hpp"
#include "tileops/framework/params.hpp"

namespace tileops {

// The value that forces the in-tree implementation even when a detector claims the device.
inline constexpr std::string_view kBuiltinTarget = "builtin";

// An op's target: empty = not chosen (default, then detection decide), "builtin", or a name.
using Target = std::optional<std::string>;

struct TILEOPS_API TensorDesc {
  Device device;
  DType dtype = DType::kFloat32;
  Shape shape;
  friend bool operator==(const TensorDesc&, const TensorDesc&) = default;
  std::string str() const;  // "float16[2, 4096] on cpu"
};

// A kernel a target built. Inputs arrive in manifest order (an absent optional input is an
// undefined Tensor), contiguous and in their declared rank; outputs are allocated by the op layer.
class TILEOPS_API TargetKernel : public Kernel {
 public:
  virtual void run(std::span<const Tensor> inputs, std::span<const Tensor> outputs) = 0;
};

using Detector = std::function<bool(Device)>;
// Called with one descriptor per manifest input slot (nullopt for an absent optional input) and
// the instance's parameters by manifest name. Returning nullptr means "not callable".
using KernelBuilder = std::function<std::unique_ptr<TargetKernel>(
    std::span<const std::optional<TensorDesc>> inputs, const ParamMap& params)>;

// One detector per target; a second raises BackendError.
TILEOPS_API Registration register_detector(std::string target, Detector detector);
// One builder per (op, target); a second raises BackendError ("misinstall").
TILEOPS_API Registration register_kernel_builder(std::string op, std::string target,
                                                 KernelBuilder builder);

// Known targets (detector names and builder targets), sorted; with op, those with a builder for it.
TILEOPS_API std::vector<std::string> registered_targets(
    std::optional<std::string_view> op = std::nullopt);

// The process default: nullopt restores detection; "builtin" disables replacement process-wide.
// An unknown name raises UnknownTargetError. TILEOPS_TARGET sets the initial default.
TILEOPS_API void set_default_target(Target target);
TILEOPS_API Target default_target();

// Targets detection never picks (a named target still serves). TILEOPS_EXCLUDE_TARGETS
// (colon-separated) sets the initial list; this replaces it.
TILEOPS_API void set_excluded_targets(std::vector<std::string> targets);
TILEOPS_API std::vector<std::string> excluded_targets();

}  // namespace tileops
