#include "tileops/runtime/log.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace tileops {
namespace {

struct LogState {
  std::mutex mutex;
  LogHandler handler = [](const std::string& message) {
    static const bool enabled = [] {
      const char* level = std::getenv("TILEOPS_LOG");
      return level != nullptr && std::strcmp(level, "info") == 0;
    }();
    if (enabled) std::fprintf(stderr, "tileops: %s\n", message.c_str());
  };
};

LogState& state() {
  static LogState s;
  return s;
}

}  // namespace

LogHandler set_log_handler(LogHandler handler) {
  std::lock_guard lock(state().mutex);
  std::swap(state().handler, handler);
  return handler;
}

void log_info(const std::string& message) {
  LogHandler handler;
  {
    std::lock_guard lock(state().mutex);
    handler = state().handler;
  }
  if (handler) handler(message);
}

}  // namespace tileops
