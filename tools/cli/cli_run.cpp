// `tileops run`: runs ops on a device, checks the first call against the float64 reference and
// times further calls. `run --all` is the project's main job on the CPU: every implemented op
// over every workload row, with rows above the flop and byte limits skipped.
#include <algorithm>
#include <iostream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "arguments.hpp"
#include "commands.hpp"
#include "device_select.hpp"
#include "dry_run.hpp"
#include "json_values.hpp"
#include "run_case.hpp"
#include "selection.hpp"
#include "table.hpp"

namespace tileops::cli {
namespace {

std::string fixed(const std::optional<double>& v, int digits) {
  return v ? fmt::format("{:.{}f}", *v, digits) : std::string("-");
}

json row_json(const RunRow& r) {
  auto opt = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  return {{"op", r.op},
          {"workload", r.workload},
          {"dtype", r.dtype},
          {"device", r.device},
          {"check", std::string(status_name(r.status))},
          {"message", r.message.empty() ? json(nullptr) : json(r.message)},
          {"served_by", r.served_by.empty() ? json(nullptr) : json(r.served_by)},
          {"roofline", r.roofline ? roofline_json(*r.roofline) : json(nullptr)},
          {"repeat", r.times_us.size()},
          {"median_us", opt(r.median_us())},
          {"min_us", opt(r.min_us())},
          {"gflops", opt(r.gflops())},
          {"gbps", opt(r.gbps())}};
}

void print_table(const std::vector<RunRow>& rows) {
  Table table({"OP", "WORKLOAD", "DTYPE", "DEVICE", "CHECK", "MEDIAN_US", "MIN_US", "GFLOP/S",
               "GB/S", "SERVED_BY", "NOTE"});
  for (size_t c = 5; c <= 8; ++c) table.align_right(c);
  for (const RunRow& r : rows) {
    table.add_row({r.op, r.workload, r.dtype, r.device, std::string(status_name(r.status)),
                   fixed(r.median_us(), 1), fixed(r.min_us(), 1), fixed(r.gflops(), 2),
                   fixed(r.gbps(), 2), r.served_by.empty() ? "-" : r.served_by, r.message});
  }
  table.print(std::cout);
  size_t ok = 0, failed = 0, skipped = 0;
  for (const RunRow& r : rows) {
    ok += r.status == RunStatus::kOk;
    failed += r.status == RunStatus::kFail;
    skipped += r.status == RunStatus::kSkipped;
  }
  std::cout << fmt::format("{} ok, {} failed, {} skipped\n", ok, failed, skipped);
}

}  // namespace

int run_command(const std::vector<std::string>& args) {
  static constexpr OptionSpec kSpecs[] = {
      {"--all", OptionKind::kFlag},       {"--all-workloads", OptionKind::kFlag},
      {"--workload", OptionKind::kValue}, {"--shape", OptionKind::kList},
      {"--dtype", OptionKind::kValue},    {"--param", OptionKind::kList},
      {"--device", OptionKind::kValue},   {"--repeat", OptionKind::kValue},
      {"--seed", OptionKind::kValue},     {"--max-gflop", OptionKind::kValue},
      {"--max-mb", OptionKind::kValue},   {"--json", OptionKind::kFlag}};
  const Arguments parsed("run", args, kSpecs);

  RunOptions options;
  options.device = choose_device(parsed.value("--device"));
  options.repeat = parsed.integer("--repeat").value_or(5);
  options.seed = static_cast<uint64_t>(parsed.integer("--seed").value_or(42));
  if (options.repeat < 0) throw UsageError("run: --repeat expects N >= 0");

  std::vector<Case> cases;
  const bool all = parsed.flag("--all");
  if (all) {
    parsed.expect_no_positionals();
    for (const char* option : {"--workload", "--all-workloads", "--shape", "--param"}) {
      if (parsed.has(option)) throw UsageError(fmt::format("run: --all takes no {}", option));
    }
    std::optional<DType> dtype;
    if (auto text = parsed.value("--dtype")) dtype = parse_dtype(*text);
    for (const OpClassInfo* info : op_classes()) {
      if (!info->factory || info->schema->status != "implemented") continue;
      for (Case& c : all_workload_cases(*info, dtype)) cases.push_back(std::move(c));
    }
    options.max_flops = parsed.number("--max-gflop").value_or(2.0) * 1e9;
    options.max_bytes = parsed.number("--max-mb").value_or(256.0) * 1e6;
  } else {
    if (parsed.has("--max-gflop") || parsed.has("--max-mb")) {
      throw UsageError("run: --max-gflop and --max-mb apply to --all only");
    }
    const OpClassInfo& info = implemented_op(parsed.single_positional("OP"));
    cases = select_cases(info, parsed, /*allow_all_workloads=*/true);
  }

  std::optional<DryRun> dry_run;
  if (all) dry_run.emplace();
  std::vector<RunRow> rows;
  for (size_t i = 0; i < cases.size(); ++i) {
    if (all) std::cerr << fmt::format("[{}/{}] {}\n", i + 1, cases.size(), cases[i].str());
    rows.push_back(
        run_case(cases[i], options, dry_run ? &*dry_run : nullptr, all ? nullptr : &parsed));
  }
  if (parsed.flag("--json")) {
    json out = json::array();
    for (const RunRow& r : rows) out.push_back(row_json(r));
    print_json(out);
  } else {
    print_table(rows);
  }
  const bool failed = std::any_of(rows.begin(), rows.end(),
                                  [](const RunRow& r) { return r.status == RunStatus::kFail; });
  return failed ? kExitFailure : kExitOk;
}

}  // namespace tileops::cli
