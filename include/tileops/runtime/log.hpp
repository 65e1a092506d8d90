// Informational log lines (kernel compiles with their durations, cache repairs). Shown on stderr
// when TILEOPS_LOG=info, or handed to a handler the application installs.
#pragma once

#include <functional>
#include <string>

namespace tileops {

using LogHandler = std::function<void(const std::string&)>;
LogHandler set_log_handler(LogHandler handler);
void log_info(const std::string& message);

}  // namespace tileops
