// Whether a kernel defines request_tune(): the base Kernel::request_tune marks the call, so the
// op can tell an override (which it must call) from the default (which it warns about for a
// target's kernel, guide A), whatever the kernel's tunable() says.
#pragma once

#include "tileops/framework/kernel.hpp"

namespace tileops::detail {

// Calls kernel.request_tune(options); false when that was Kernel's own, which does nothing.
bool request_tune_defined(Kernel& kernel, const TuneOptions& options);

}  // namespace tileops::detail
