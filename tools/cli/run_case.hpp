// One row of `tileops run`: a case run on a device, checked against the reference and timed.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arguments.hpp"
#include "device_select.hpp"
#include "dry_run.hpp"
#include "selection.hpp"

namespace tileops::cli {

enum class RunStatus { kOk, kFail, kSkipped };
std::string_view status_name(RunStatus status);  // "ok", "FAIL", "skipped"

struct RunOptions {
  DeviceChoice device;  // per op, device_for() decides
  int64_t repeat = 5;   // timed calls after the checked one
  uint64_t seed = 42;
  // --all only: cases whose roofline exceeds these are skipped.
  std::optional<double> max_flops;
  std::optional<double> max_bytes;
};

struct RunRow {
  std::string op, workload, dtype, device;
  RunStatus status = RunStatus::kOk;
  std::string message;    // why it failed or was skipped
  std::string served_by;  // last_call()->served_by
  std::optional<RooflineValue> roofline;
  std::vector<double> times_us;  // one per timed call

  std::optional<double> median_us() const;
  std::optional<double> min_us() const;
  std::optional<double> gflops() const;  // roofline flops at the median time
  std::optional<double> gbps() const;    // roofline bytes at the median time
};

// Runs c. dry_run (with the limits of options) decides skips before anything is allocated;
// args, for a single-op run, makes errors caused by --param / --shape usage errors.
RunRow run_case(const Case& c, const RunOptions& options, const DryRun* dry_run,
                const Arguments* args);

}  // namespace tileops::cli
