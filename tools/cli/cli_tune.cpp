// `tileops tune`: settles the tuning of each selected workload on a CUDA device (timing every
// candidate configuration of its tunable kernels, or reading an earlier choice from the store)
// and prints the configuration each now runs. Later processes that call request_tune() reuse
// the stored choices without timing.
#include <iostream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "arguments.hpp"
#include "commands.hpp"
#include "device_check.hpp"
#include "device_select.hpp"
#include "dry_run.hpp"
#include "progress.hpp"
#include "runtime/tuning/tuner.hpp"
#include "runtime/tuning/tuning_store.hpp"
#include "selection.hpp"
#include "table.hpp"

namespace tileops::cli {

int tune_command(const std::vector<std::string>& raw) {
  static constexpr OptionSpec kSpecs[] = {
      {"--workload", OptionKind::kValue}, {"--all", OptionKind::kFlag},
      {"--dtype", OptionKind::kValue},    {"--device", OptionKind::kValue},
      {"--warmup", OptionKind::kValue},   {"--runs", OptionKind::kValue}};
  const Arguments args("tune", raw, kSpecs);
  const DeviceChoice choice = choose_device(args.value("--device"));
  if (choice.device.type != kCUDA) {
    throw UsageError(fmt::format(
        "tune: expected a CUDA device (tuning times kernels on it); got {}", choice.device.str()));
  }
  TuneOptions options;
  if (auto n = args.integer("--warmup")) options.warmup_runs = static_cast<int>(*n);
  if (auto n = args.integer("--runs")) options.timed_runs = static_cast<int>(*n);
  if (options.warmup_runs < 0 || options.timed_runs < 1) {
    throw UsageError("tune: expected --warmup N >= 0 and --runs N >= 1");
  }
  const std::vector<Case> cases = named_or_all_cases(args);
  Progress progress("tune", cases.size());
  Table table({"op", "workload", "dtype", "check", "settled", "config"});
  int failures = 0, timed = 0, stored = 0;
  for (const Case& c : cases) {
    progress.step(c.str());
    const Device device = device_for(*c.op, choice);
    if (device.type != kCUDA) continue;
    std::string check = "ok", settled = "-", config = "-";
    try {
      std::unique_ptr<Op> op = make_case_op(c);
      op->request_tune(options);
      const tuning::TuningCounts before = tuning::tuning_counts();
      const std::vector<Tensor> host =
          make_inputs(c.op_name(), *c.op->schema, c.shapes, c.dtype, 3);
      const DryRunOutcome dry = DryRun().run(c);
      if (dry.roofline && static_cast<double>(dry.roofline->flops) > kReferenceFlopLimit) {
        op->call(place_inputs(host, device));
        check = "skipped (large)";
      } else {
        const CheckedCall checked = check_on_device(*op, host, device);
        if (!checked.check.ok) {
          check = fmt::format("FAIL: {}", fmt::join(checked.check.failures, "; "));
          ++failures;
        }
      }
      synchronize(device);
      const tuning::TuningCounts after = tuning::tuning_counts();
      timed += static_cast<int>(after.timed - before.timed);
      stored += static_cast<int>(after.stored - before.stored);
      settled = after.timed > before.timed     ? "timed"
                : after.stored > before.stored ? "stored"
                                               : "not tunable";
      config = op->kernel_config();
    } catch (const std::exception& e) {
      check = fmt::format("FAIL: {}", e.what());
      ++failures;
    }
    table.add_row({std::string(c.op_name()), c.label, std::string(dtype_name(c.dtype)), check,
                   settled, config.empty() ? "-" : config});
  }
  progress.finish(fmt::format("{} call specs timed, {} read from the store ({}); {} failed", timed,
                              stored, tuning::tuning_directory().string(), failures));
  table.print(std::cout);
  return failures == 0 ? kExitOk : kExitFailure;
}

}  // namespace tileops::cli
