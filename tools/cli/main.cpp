// `tileops`: list, check, explain and run the ops of the manifest.
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "arguments.hpp"
#include "commands.hpp"
#include "tileops/framework/backend.hpp"
#include "tileops/framework/target.hpp"

namespace {

constexpr const char* kUsage =
    R"(usage: tileops [--target NAME] [--exclude-target NAME ...] <command> [options]

commands:
  list    [--json]
      Every op of the manifest: family, status, kernel interfaces, implementations per
      device type, whole-op targets.
  check   [--json]
      Contract checks over the manifest and the implementation tables; exit 1 on a problem.
  explain OP (--workload LABEL | --shape NAME=AxB ...) [--dtype D] [--param NAME=VALUE ...]
          [--device DEV] [--seed N] [--json]
      Runs one call and shows how it was dispatched: the serving target, and for each
      dispatch decision the interface, call, winner and every dropped candidate with why.
  run     OP (--workload LABEL | --all-workloads | --shape NAME=AxB ...) [--dtype D]
          [--param NAME=VALUE ...] [--device DEV] [--repeat N] [--seed N] [--json]
  run     --all [--max-gflop X] [--max-mb X] [--dtype D] [--device DEV] [--repeat N] [--json]
      Checks against the float64 reference, then times N more calls (median, min, GFLOP/s,
      GB/s from the op's roofline). --all runs every implemented op over every workload row,
      skipping rows above --max-gflop (default 2) or --max-mb (default 256). Exit 1 on a failure.

  bench   (OP ... [--workload LABEL] | --all | OP --shape NAME=AxB ... [--param NAME=VALUE ...])
          [--dtype D] [--device DEV] [--iters N]
          [--no-flush] [--tuned] [--json FILE]
      Device time with a cold L2 (median, p10-p90 over N calls), TB/s and TFLOP/s from the
      roofline, a device-to-device copy of the same bytes as the floor of memory-bound rows,
      the fraction of the calibrated roof, and the host cost of a call. Rows checked first.
      --tuned enters tuned mode first (settled choices, see tune).
  calibrate [--device cuda:N]
      Measures the device's copy bandwidth and bf16 matrix rate (a cuBLAS GEMM, when cuBLAS
      is present) and stores them as the board's profile.
  warmup  (OP ... [--workload LABEL] | --all) [--dtype D] [--device cuda:N]
      Runs each workload once so every kernel it dispatches to is compiled into the kernel
      cache (or found there); a progress bar, then how many kernels were compiled.
  tune    (OP ... [--workload LABEL] | --all) [--dtype D] [--device cuda:N] [--warmup N]
          [--runs N]
      Tunes each workload's kernels on the device (every candidate config checked and timed)
      and stores the fastest per board and call spec; a later request_tune() reuses it.
  precompile [--arch sm_90a] [--driver-version V] [--only REGEX] [--shard I/N]
      Compiles every CUDA kernel variant into the kernel cache with NVRTC, no GPU needed, for
      a machine that will run them: V is its driver's cuDriverGetVersion (13000 for CUDA 13.0;
      default: this machine's driver). --shard splits the work between processes.

--workload takes a row label of the op's manifest entry (its dtypes, or --dtype instead);
--shape gives an input's shape by name (x=2048x4096; --param then gives the parameters).
Without --device, ops run on cuda:0 when a GPU is present and something serves them there,
else on the CPU.

Backends named in TILEOPS_BACKENDS (colon-separated library paths) are loaded first.
--target NAME (or TILEOPS_TARGET) makes NAME the process's default target ('builtin': the
in-tree kernels only); --exclude-target NAME (or TILEOPS_EXCLUDE_TARGETS, colon-separated) keeps
detection from ever picking NAME.
Exit status: 0 ok, 1 a check or run failed, 2 bad arguments.
)";

// The options before the command: which target serves, and which detection may not pick.
struct GlobalOptions {
  std::optional<std::string> target;
  std::vector<std::string> excluded;
};

GlobalOptions take_global_options(std::vector<std::string>& args) {
  GlobalOptions global;
  while (!args.empty() && args.front().starts_with("--")) {
    std::string option = args.front(), value;
    if (option == "--help") break;
    args.erase(args.begin());
    if (const size_t eq = option.find('='); eq != std::string::npos) {
      value = option.substr(eq + 1);
      option.resize(eq);
    }
    if (option != "--target" && option != "--exclude-target") {
      throw tileops::cli::UsageError("unknown option '" + option +
                                     "' before the command; expected --target or --exclude-target");
    }
    if (value.empty() && !args.empty() && !args.front().starts_with("--")) {
      value = args.front();
      args.erase(args.begin());
    }
    if (value.empty()) throw tileops::cli::UsageError(option + " needs a target name");
    (option == "--target" ? global.target.emplace() : global.excluded.emplace_back()) = value;
  }
  return global;
}

}  // namespace

int main(int argc, char** argv) {
  namespace cli = tileops::cli;
  std::vector<std::string> args(argv + 1, argv + argc);
  GlobalOptions global;
  try {
    global = take_global_options(args);
  } catch (const cli::UsageError& e) {
    std::cerr << "tileops: " << e.what() << '\n';
    return cli::kExitUsage;
  }
  if (args.empty()) {
    std::cerr << kUsage;
    return cli::kExitUsage;
  }
  const std::string command = args.front();
  args.erase(args.begin());
  if (command == "help" || command == "-h" || command == "--help") {
    std::cout << kUsage;
    return cli::kExitOk;
  }
  try {
    tileops::ensure_backends_loaded();
    if (!global.excluded.empty()) tileops::set_excluded_targets(global.excluded);
    if (global.target) tileops::set_default_target(*global.target);
    if (command == "list") return cli::list_command(args);
    if (command == "check") return cli::check_command(args);
    if (command == "explain") return cli::explain_command(args);
    if (command == "run") return cli::run_command(args);
    if (command == "bench") return cli::bench_command(args);
    if (command == "calibrate") return cli::calibrate_command(args);
    if (command == "warmup") return cli::warmup_command(args);
    if (command == "tune") return cli::tune_command(args);
    if (command == "precompile") return cli::precompile_command(args);
    throw cli::UsageError("unknown command '" + command +
                          "'; expected one of [list, check, explain, run, bench, calibrate, "
                          "warmup, tune, precompile, help]");
  } catch (const cli::UsageError& e) {
    std::cerr << "tileops: " << e.what() << '\n';
    return cli::kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "tileops " << command << ": " << e.what() << '\n';
    return cli::kExitFailure;
  }
}
