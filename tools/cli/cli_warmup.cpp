// `tileops warmup`: runs each selected workload once on a CUDA device, so every kernel it
// dispatches to is compiled into the disk cache (or found there) before the application needs it.
#include <chrono>
#include <iostream>
#include <mutex>

#include <fmt/format.h>

#include "arguments.hpp"
#include "commands.hpp"
#include "device_select.hpp"
#include "progress.hpp"
#include "selection.hpp"
#include "tileops/reference/check.hpp"
#include "tileops/runtime/log.hpp"

namespace tileops::cli {
namespace {

// Counts the kernel compiles the cache logs ("compiled <name> for <arch> in <s> s") while alive,
// passing every message on to the handler it replaced.
class CompileCounter {
 public:
  CompileCounter() {
    previous_ = set_log_handler([this](const std::string& message) {
      if (message.rfind("compiled ", 0) == 0) {
        std::lock_guard lock(mutex_);
        ++compiles_;
        const size_t in = message.rfind(" in ");
        if (in != std::string::npos) seconds_ += std::atof(message.c_str() + in + 4);
      }
      if (previous_) previous_(message);
    });
  }
  ~CompileCounter() { set_log_handler(previous_); }
  int compiles() const {
    std::lock_guard lock(mutex_);
    return compiles_;
  }
  double seconds() const {
    std::lock_guard lock(mutex_);
    return seconds_;
  }

 private:
  LogHandler previous_;
  mutable std::mutex mutex_;
  int compiles_ = 0;
  double seconds_ = 0;
};

}  // namespace

int warmup_command(const std::vector<std::string>& raw) {
  static constexpr OptionSpec kSpecs[] = {{"--workload", OptionKind::kValue},
                                          {"--all", OptionKind::kFlag},
                                          {"--dtype", OptionKind::kValue},
                                          {"--device", OptionKind::kValue}};
  const Arguments args("warmup", raw, kSpecs);
  const DeviceChoice choice = choose_device(args.value("--device"));
  if (choice.device.type != kCUDA) {
    throw UsageError(fmt::format(
        "warmup: expected a CUDA device (kernels compile for the device's architecture); got {}",
        choice.device.str()));
  }
  const std::vector<Case> cases = named_or_all_cases(args);
  CompileCounter counter;
  Progress progress("warmup", cases.size());
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::string> failures;
  for (const Case& c : cases) {
    progress.step(c.str());
    const Device device = device_for(*c.op, choice);
    if (device.type != kCUDA) continue;  // nothing serves this op on CUDA
    try {
      std::unique_ptr<Op> op = make_case_op(c);
      const std::vector<Tensor> inputs =
          place_inputs(make_inputs(c.op_name(), *c.op->schema, c.shapes, c.dtype, 1), device);
      op->call(inputs);
      synchronize(device);
    } catch (const std::exception& e) {
      failures.push_back(fmt::format("{}: {}", c.str(), e.what()));
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  progress.finish(
      fmt::format("{} cases on {} in {:.1f} s; {} kernels compiled ({:.1f} s of NVRTC), "
                  "the rest found in the cache; {} failed",
                  cases.size(), choice.device.str(), seconds, counter.compiles(), counter.seconds(),
                  failures.size()));
  for (const std::string& f : failures) std::cerr << "FAIL " << f << '\n';
  return failures.empty() ? kExitOk : kExitFailure;
}

}  // namespace tileops::cli
