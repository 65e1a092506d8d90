// `tileops`: list, check, explain and run the ops of the manifest.
#include <iostream>
#include <string>
#include <vector>

#include "arguments.hpp"
#include "commands.hpp"
#include "tileops/op/backend.hpp"

namespace {

constexpr const char* kUsage = R"(usage: tileops <command> [options]

commands:
  list    [--json]
      Every op of the manifest: family, status, kernel interfaces, implementations per
      device type, whole-op targets.
  check   [--json]
      Contract checks over the manifest and the implementation tables; exit 1 on a problem.
  explain OP (--workload LABEL | --shape NAME=AxB ...) [--dtype D] [--param NAME=VALUE ...]
          [--device DEV] [--json]
      Runs one call and shows how it was dispatched: the serving target, and for each
      dispatch decision the interface, call, winner and every dropped candidate with why.
  run     OP (--workload LABEL | --all-workloads | --shape NAME=AxB ...) [--dtype D]
          [--param NAME=VALUE ...] [--device DEV] [--repeat N] [--seed N] [--json]
  run     --all [--max-gflop X] [--max-mb X] [--dtype D] [--device DEV] [--repeat N] [--json]
      Checks against the float64 reference, then times N more calls (median, min, GFLOP/s,
      GB/s from the op's roofline). --all runs every implemented op over every workload row,
      skipping rows above --max-gflop (default 2) or --max-mb (default 256). Exit 1 on a failure.

Backends named in TILEOPS_BACKENDS (colon-separated library paths) are loaded first.
Exit status: 0 ok, 1 a check or run failed, 2 bad arguments.
)";

}  // namespace

int main(int argc, char** argv) {
  using namespace tileops::cli;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << kUsage;
    return kExitUsage;
  }
  const std::string command = args.front();
  args.erase(args.begin());
  if (command == "help" || command == "-h" || command == "--help") {
    std::cout << kUsage;
    return kExitOk;
  }
  try {
    tileops::ensure_backends_loaded();
    if (command == "list") return list_command(args);
    if (command == "check") return check_command(args);
    if (command == "explain") return explain_command(args);
    if (command == "run") return run_command(args);
    throw UsageError("unknown command '" + command +
                     "'; expected one of [list, check, explain, run, help]");
  } catch (const UsageError& e) {
    std::cerr << "tileops: " << e.what() << '\n';
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "tileops " << command << ": " << e.what() << '\n';
    return kExitFailure;
  }
}
