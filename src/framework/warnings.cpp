#include "tileops/framework/warnings.hpp"

#include <cstdio>
#include <mutex>

namespace tileops {
namespace {

struct WarningState {
  std::mutex mutex;
  WarningHandler handler = [](const std::string& message) {
    std::fprintf(stderr, "tileops warning: %s\n", message.c_str());
  };
};

WarningState& state() {
  static WarningState s;
  return s;
}

}  // namespace

WarningHandler set_warning_handler(WarningHandler handler) {
  auto& s = state();
  std::lock_guard lock(s.mutex);
  std::swap(s.handler, handler);
  return handler;
}

void warn(const std::string& message) {
  WarningHandler handler;
  {
    auto& s = state();
    std::lock_guard lock(s.mutex);
    handler = s.handler;
  }
  if (handler) handler(message);
}

}  // namespace tileops
