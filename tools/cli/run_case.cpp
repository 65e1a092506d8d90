#include "run_case.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "device_check.hpp"
#include "device_select.hpp"
#include "tileops/core/error.hpp"
#include "tileops/reference/check.hpp"

namespace tileops::cli {
namespace {

// The reason to skip c under the --all limits, or "" to run it. Throws what the dry run throws.
std::string skip_reason(const Case& c, Device device, const RunOptions& options,
                        const DryRun& dry_run, RunRow& row) {
  if (!may_run_on(*c.op, device)) {
    return fmt::format("no implementation runs on {}", device_type_name(device.type));
  }
  const DryRunOutcome outcome = dry_run.run(c);
  row.roofline = outcome.roofline;
  if (!outcome.roofline) return {};
  if (options.max_flops && static_cast<double>(outcome.roofline->flops) > *options.max_flops) {
    return fmt::format("{:.2f} GFLOP > --max-gflop {:g}", outcome.roofline->flops / 1e9,
                       *options.max_flops / 1e9);
  }
  if (options.max_bytes && static_cast<double>(outcome.roofline->bytes) > *options.max_bytes) {
    return fmt::format("{:.1f} MB > --max-mb {:g}", outcome.roofline->bytes / 1e6,
                       *options.max_bytes / 1e6);
  }
  return {};
}

std::optional<double> per_second(const std::optional<RooflineValue>& roofline,
                                 std::optional<double> median_us, bool flops) {
  if (!roofline || !median_us || *median_us <= 0) return std::nullopt;
  const double amount = static_cast<double>(flops ? roofline->flops : roofline->bytes);
  return amount / (*median_us * 1e3);  // per microsecond * 1e6 / 1e9
}

}  // namespace

std::string_view status_name(RunStatus status) {
  switch (status) {
    case RunStatus::kOk:
      return "ok";
    case RunStatus::kFail:
      return "FAIL";
    case RunStatus::kSkipped:
      return "skipped";
  }
  return "?";
}

std::optional<double> RunRow::median_us() const {
  if (times_us.empty()) return std::nullopt;
  std::vector<double> sorted = times_us;
  std::sort(sorted.begin(), sorted.end());
  const size_t mid = sorted.size() / 2;
  return sorted.size() % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

std::optional<double> RunRow::min_us() const {
  if (times_us.empty()) return std::nullopt;
  return *std::min_element(times_us.begin(), times_us.end());
}

std::optional<double> RunRow::gflops() const {
  return per_second(roofline, median_us(), true);
}
std::optional<double> RunRow::gbps() const {
  return per_second(roofline, median_us(), false);
}

RunRow run_case(const Case& c, const RunOptions& options, const DryRun* dry_run,
                const Arguments* args) {
  const Device device = device_for(*c.op, options.device);
  RunRow row{std::string(c.op_name()), c.label, std::string(dtype_name(c.dtype)), device.str()};
  const bool user_described = args != nullptr && (args->has("--param") || args->has("--shape"));
  try {
    if (dry_run != nullptr) {
      row.message = skip_reason(c, device, options, *dry_run, row);
      if (!row.message.empty()) {
        row.status = RunStatus::kSkipped;
        return row;
      }
    }
    std::unique_ptr<Op> op = args != nullptr ? make_requested_op(c, *args) : make_case_op(c);
    const std::vector<Tensor> host_inputs =
        make_inputs(c.op_name(), *c.op->schema, c.shapes, c.dtype, options.seed);
    const CheckedCall first = check_on_device(*op, host_inputs, device);
    if (auto record = op->last_call()) row.served_by = std::string(record->served_by);
    if (!first.check.ok) {
      row.status = RunStatus::kFail;
      row.message = fmt::format("{}", fmt::join(first.check.failures, "; "));
      return row;
    }
    row.roofline = op->eval_roofline();
    for (int64_t i = 0; i < options.repeat; ++i) {
      synchronize(device);
      const auto start = std::chrono::steady_clock::now();
      op->call(first.inputs);
      synchronize(device);
      const auto end = std::chrono::steady_clock::now();
      row.times_us.push_back(std::chrono::duration<double, std::micro>(end - start).count());
    }
  } catch (const SignatureError& e) {
    if (user_described) throw UsageError(e.what());
    row.status = RunStatus::kFail;
    row.message = e.what();
  } catch (const UsageError&) {
    throw;
  } catch (const std::exception& e) {
    row.status = RunStatus::kFail;
    row.message = e.what();
  }
  return row;
}

}  // namespace tileops::cli
