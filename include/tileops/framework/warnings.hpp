// Non-fatal notices (a backend that failed to load, a target kernel that cannot be tuned).
#pragma once

#include <functional>
#include <string>

#include "tileops/export.hpp"

namespace tileops {

using WarningHandler = std::function<void(const std::string&)>;
// Replaces the handler (the default writes "tileops warning: ..." to stderr); returns the old one.
TILEOPS_API WarningHandler set_warning_handler(WarningHandler handler);
TILEOPS_API void warn(const std::string& message);

}  // namespace tileops
