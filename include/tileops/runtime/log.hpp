// Informational log lines (kernel compiles with their durations, cache repairs). Shown on stderr
// when TILEOPS_LOG=info, or handed to a handler the application installs.
#pragma once

#include <functional>
#include <string>

#include "tileops/export.hpp"

namespace tileops {

using LogHandler = std::function<void(const std::string&)>;
TILEOPS_API LogHandler set_log_handler(LogHandler handler);
TILEOPS_API void log_info(const std::string& message);

}  // namespace tileops
