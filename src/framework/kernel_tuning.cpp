#include "kernel_tuning.hpp"

namespace tileops {
namespace {

// Set by Kernel::request_tune on this thread; read right after the virtual call.
thread_local bool t_default_request_tune_ran = false;

}  // namespace

void Kernel::request_tune(const TuneOptions&) {
  t_default_request_tune_ran = true;
}

namespace detail {

bool request_tune_defined(Kernel& kernel, const TuneOptions& options) {
  t_default_request_tune_ran = false;
  kernel.request_tune(options);
  return !t_default_request_tune_ran;
}

}  // namespace detail
}  // namespace tileops
