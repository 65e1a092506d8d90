// `tileops check`: contract checks over the manifest, the op classes, the implementation tables
// and the references. Every workload row is taken through the signature check by a dry run.
#include <algorithm>
#include <iostream>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "arguments.hpp"
#include "commands.hpp"
#include "dry_run.hpp"
#include "json_values.hpp"
#include "selection.hpp"
#include "table.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/reference/reference.hpp"

namespace tileops::cli {
namespace {

struct OpReport {
  std::string name;
  std::string status;
  size_t implementations = 0;
  size_t cases_checked = 0;
  std::vector<std::string> problems;
};

void check_workloads(const OpClassInfo& info, const DryRun& dry_run, OpReport& report) {
  const OpSchema& schema = *info.schema;
  const std::vector<Workload> rows = schema.workloads();
  if (rows.empty()) {
    report.problems.push_back("declares no workload rows; expected at least one");
    return;
  }
  // The case name is label/dtype: a label may span rows, a (label, dtype) pair may not.
  std::set<std::pair<std::string, DType>> cases;
  for (const Workload& row : rows) {
    for (DType d : row.dtypes) {
      if (!cases.emplace(row.label, d).second) {
        report.problems.push_back(
            fmt::format("workload '{}' lists {} in two rows; expected each "
                        "(label, dtype) pair once",
                        row.label, dtype_name(d)));
      }
    }
  }
  // Construction runs the contract checks: every implementation's interface is declared by the
  // op, preferred_over names siblings of the same interface and has no cycle.
  const Case first = workload_cases(info, rows.front(), std::nullopt).front();
  try {
    make_case_op(first);
  } catch (const std::exception& e) {
    report.problems.push_back(
        fmt::format("constructing with the parameters of workload '{}' "
                    "failed: {}",
                    first.label, e.what()));
    return;
  }
  for (const Case& c : all_workload_cases(info, std::nullopt)) {
    ++report.cases_checked;
    try {
      const DryRunOutcome outcome = dry_run.run(c);
      if (schema.has_roofline && !outcome.roofline) {
        report.problems.push_back(fmt::format("workload '{}' ({}): the roofline failed: {}",
                                              c.label, dtype_name(c.dtype),
                                              outcome.roofline_error));
      } else if (outcome.roofline && (outcome.roofline->flops < 0 || outcome.roofline->bytes < 0)) {
        report.problems.push_back(fmt::format(
            "workload '{}' ({}): expected a non-negative roofline, got {} flops and {} bytes",
            c.label, dtype_name(c.dtype), outcome.roofline->flops, outcome.roofline->bytes));
      }
    } catch (const std::exception& e) {
      report.problems.push_back(fmt::format("workload '{}' ({}) fails the call: {}", c.label,
                                            dtype_name(c.dtype), e.what()));
    }
  }
}

OpReport check_op(const OpClassInfo& info, const DryRun& dry_run) {
  const OpSchema& schema = *info.schema;
  OpReport report{std::string(schema.name), std::string(schema.status)};
  const auto impls = implementations_for(schema.name);
  report.implementations = impls.size();
  std::vector<std::string> keys;
  for (const auto& impl : impls) keys.push_back(impl->key);

  if (schema.status == "spec-only") {
    if (!impls.empty()) {
      report.problems.push_back(
          fmt::format("is spec-only but has implementations [{}]; expected "
                      "status 'implemented'",
                      fmt::join(keys, ", ")));
    }
    return report;
  }
  if (schema.status != "implemented") {
    report.problems.push_back(
        fmt::format("status is '{}'; expected implemented or spec-only", schema.status));
    return report;
  }
  if (!info.factory) {
    report.problems.push_back(fmt::format(
        "is implemented but has no registered op class; expected the class declared in {} to be "
        "built into the library",
        schema.source_file));
    return report;
  }
  if (impls.empty() && !info.composite) {
    report.problems.push_back(
        "has no implementation and is not composite; expected at least one "
        "register_kernel_type for it");
  }
  if (find_reference(schema.name) == nullptr) {
    report.problems.push_back(
        "has no registered reference; expected a "
        "StaticReferenceRegistration for it in src/reference/");
  }
  check_workloads(info, dry_run, report);
  return report;
}

// Implementation tables must name ops of the manifest.
std::vector<std::string> orphan_tables() {
  std::set<std::string_view> manifest;
  for (const OpClassInfo* info : op_classes()) manifest.insert(info->schema->name);
  std::vector<std::string> problems;
  for (const std::string& op : ops_with_implementations()) {
    if (manifest.count(op) != 0) continue;
    std::vector<std::string> keys;
    for (const auto& impl : implementations_for(op)) {
      keys.push_back(fmt::format("{} (from {})", impl->key, impl->origin));
    }
    problems.push_back(
        fmt::format("{}: implementations [{}] are registered for an op the "
                    "manifest does not declare",
                    op, fmt::join(keys, ", ")));
  }
  return problems;
}

}  // namespace

int check_command(const std::vector<std::string>& args) {
  static constexpr OptionSpec kSpecs[] = {{"--json", OptionKind::kFlag}};
  const Arguments parsed("check", args, kSpecs);
  parsed.expect_no_positionals();

  std::vector<OpReport> reports;
  {
    const DryRun dry_run;
    for (const OpClassInfo* info : op_classes()) reports.push_back(check_op(*info, dry_run));
  }
  const std::vector<std::string> orphans = orphan_tables();
  size_t n_problems = orphans.size();
  for (const OpReport& r : reports) n_problems += r.problems.size();

  if (parsed.flag("--json")) {
    json ops = json::array();
    json problems = json::array();
    for (const OpReport& r : reports) {
      ops.push_back({{"name", r.name},
                     {"status", r.status},
                     {"implementations", r.implementations},
                     {"cases_checked", r.cases_checked},
                     {"problems", r.problems}});
      for (const std::string& p : r.problems) problems.push_back({{"op", r.name}, {"message", p}});
    }
    for (const std::string& p : orphans) problems.push_back({{"op", nullptr}, {"message", p}});
    print_json({{"ok", n_problems == 0}, {"ops", ops}, {"problems", problems}});
  } else {
    Table table({"OP", "STATUS", "IMPLS", "CASES", "RESULT"});
    table.align_right(2);
    table.align_right(3);
    for (const OpReport& r : reports) {
      table.add_row({r.name, r.status, std::to_string(r.implementations),
                     std::to_string(r.cases_checked),
                     r.problems.empty() ? "ok" : fmt::format("{} problem(s)", r.problems.size())});
    }
    table.print(std::cout);
    for (const OpReport& r : reports) {
      for (const std::string& p : r.problems) std::cout << fmt::format("FAIL {}: {}\n", r.name, p);
    }
    for (const std::string& p : orphans) std::cout << "FAIL " << p << '\n';
    std::cout << (n_problems == 0
                      ? fmt::format("all {} ops pass\n", reports.size())
                      : fmt::format("{} problem(s) in {} ops\n", n_problems, reports.size()));
  }
  return n_problems == 0 ? kExitOk : kExitFailure;
}

}  // namespace tileops::cli
