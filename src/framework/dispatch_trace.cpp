#include "tileops/framework/dispatch_trace.hpp"

namespace tileops {
namespace {
thread_local DispatchTrace* t_trace = nullptr;
}  // namespace

DispatchTrace::DispatchTrace() : previous_(t_trace) {
  t_trace = this;
}
DispatchTrace::~DispatchTrace() {
  t_trace = previous_;
}
DispatchTrace* DispatchTrace::current() noexcept {
  return t_trace;
}

}  // namespace tileops
