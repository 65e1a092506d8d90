// `tileops bench`: device time of the manifest's workloads with a cold L2, against the roofline
// and against a device-to-device copy of the same bytes; `tileops calibrate`: the measured roof.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "arguments.hpp"
#include "bench_timing.hpp"
#include "commands.hpp"
#include "device_check.hpp"
#include "device_select.hpp"
#include "dry_run.hpp"
#include "json_values.hpp"
#include "matrix_roof.hpp"
#include "run_case.hpp"
#include "selection.hpp"
#include "table.hpp"
#include "tileops/framework/device_facts.hpp"
#include "tileops/runtime/cuda.hpp"

namespace tileops::cli {
namespace {

std::filesystem::path profile_path(const DeviceFacts& facts) {
  const char* dir = std::getenv("TILEOPS_CACHE_DIR");
  const std::filesystem::path base =
      dir && *dir ? std::filesystem::path(dir)
                  : std::filesystem::path(std::getenv("HOME") ? std::getenv("HOME") : "/tmp") /
                        ".cache/tileops";
  return base / "profiles" /
         fmt::format("{}.json", facts.calibration.empty() ? "unknown" : facts.calibration);
}

// The calibrated roofs of a device: copy bandwidth and bf16 matrix rate, when measured.
struct StoredRoof {
  std::optional<double> copy_tbs, matrix_tflops;
};

StoredRoof stored_roof(const DeviceFacts& facts) {
  std::ifstream in(profile_path(facts));
  if (!in) return {};
  const auto j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded()) return {};
  StoredRoof roof;
  if (j.contains("copy_tbs") && j["copy_tbs"].is_number())
    roof.copy_tbs = j["copy_tbs"].get<double>();
  if (j.contains("matrix_bf16_tflops") && j["matrix_bf16_tflops"].is_number()) {
    roof.matrix_tflops = j["matrix_bf16_tflops"].get<double>();
  }
  return roof;
}

// median_us, p10_us and p90_us stay the headline figure (busy with kernel records), as earlier
// reports and the torch baseline read them.
void put_timing(nlohmann::json& row, const Timing& t) {
  row["median_us"] = t.median_us;
  row["p10_us"] = t.p10_us;
  row["p90_us"] = t.p90_us;
  row["busy_us"] = t.busy.median_us;
  row["busy_p10_us"] = t.busy.p10_us;
  row["busy_p90_us"] = t.busy.p90_us;
  row["wall_us"] = t.wall.median_us;
  row["wall_p10_us"] = t.wall.p10_us;
  row["wall_p90_us"] = t.wall.p90_us;
  row["kernels"] = t.kernel_records ? nlohmann::json(t.kernels) : nlohmann::json();
  row["iterations"] = t.iterations;
  row["method"] = t.method;
}

nlohmann::json bench_case(const Case& c, Device device, const TimingOptions& timing,
                          const StoredRoof& roof_profile, bool tuned) {
  nlohmann::json row{{"op", c.op_name()},
                     {"label", c.label},
                     {"dtype", dtype_name(c.dtype)},
                     {"device", device.str()}};
  nlohmann::json shapes = nlohmann::json::array();
  for (const auto& s : c.shapes) shapes.push_back(s ? nlohmann::json(s->vec()) : nlohmann::json());
  row["input_shapes"] = shapes;
  try {
    std::unique_ptr<Op> op = make_case_op(c);
    if (tuned) op->request_tune();  // the checked first call settles the tuning
    row["tuned"] = tuned;
    // Every parameter by name, defaults included (the torch baseline reads them).
    nlohmann::json params = nlohmann::json::object();
    for (const auto& [name, value] : op->param_values())
      params[name] = nlohmann::json::parse(param_json(value).dump());
    row["params"] = params;
    const std::vector<Tensor> host = make_inputs(c.op_name(), *c.op->schema, c.shapes, c.dtype, 7);
    std::vector<Tensor> inputs;
    RooflineValue roof{};
    {  // Learn the roofline first (a dry run computes nothing).
      DryRun dry;
      const DryRunOutcome outcome = dry.run(c);
      if (outcome.roofline) roof = *outcome.roofline;
    }
    if (static_cast<double>(roof.flops) <= kReferenceFlopLimit) {
      const CheckedCall checked = check_on_device(*op, host, device);
      inputs = checked.inputs;
      row["check"] = checked.check.ok
                         ? "ok"
                         : fmt::format("FAIL: {}", fmt::join(checked.check.failures, "; "));
      if (!checked.check.ok) {
        row["status"] = "FAIL";
        return row;
      }
    } else {
      for (const Tensor& t : host) {
        inputs.push_back(!t.defined()           ? Tensor()
                         : device.type == kCUDA ? cuda::to_device(t, device)
                                                : t);
      }
      row["check"] = "skipped (float64 reference too costly at this size)";
    }
    std::vector<Tensor> outputs;
    for (const TensorDesc& d : op->infer_outputs(inputs))
      outputs.push_back(Tensor::empty(d.shape, d.dtype, device));
    auto call = [&] { op->call_into(inputs, outputs); };
    const Timing t = time_calls(device, call, timing);
    row["status"] = "ok";
    put_timing(row, t);
    row["flops"] = roof.flops;
    row["bytes"] = roof.bytes;
    if (t.busy.median_us > 0) {
      row["tbs"] = static_cast<double>(roof.bytes) / (t.busy.median_us * 1e6);
      row["tflops"] = static_cast<double>(roof.flops) / (t.busy.median_us * 1e6);
    }
    if (auto rec = op->last_call()) row["served_by"] = std::string(rec->served_by);
    row["config"] = op->kernel_config();
    const bool memory_bound =
        roof.bytes > 0 && static_cast<double>(roof.flops) / static_cast<double>(roof.bytes) < 100;
    if (memory_bound) {
      const Timing copy = time_copy(device, roof.bytes, timing);
      row["copy_floor_us"] = copy.busy.median_us;
      if (t.busy.median_us > 0) row["efficiency_vs_copy"] = copy.busy.median_us / t.busy.median_us;
      if (copy.method != t.method) row["copy_method"] = copy.method;
    }
    if (roof_profile.copy_tbs && row.contains("tbs"))
      row["roof_fraction"] = row["tbs"].get<double>() / *roof_profile.copy_tbs;
    if (!memory_bound && roof_profile.matrix_tflops && row.contains("tflops")) {
      row["matrix_roof_fraction"] = row["tflops"].get<double>() / *roof_profile.matrix_tflops;
    }
    row["host_us"] = host_call_us(call, 200);
    synchronize(device);
  } catch (const std::exception& e) {
    row["status"] = "FAIL";
    row["check"] = e.what();
  }
  return row;
}

std::string num(const nlohmann::json& row, const char* key, const char* format = "{:.2f}") {
  return row.contains(key) ? fmt::format(fmt::runtime(format), row[key].get<double>()) : "-";
}

}  // namespace

int bench_command(const std::vector<std::string>& raw) {
  static constexpr OptionSpec kSpecs[] = {
      {"--workload", OptionKind::kValue}, {"--all", OptionKind::kFlag},
      {"--dtype", OptionKind::kValue},    {"--device", OptionKind::kValue},
      {"--iters", OptionKind::kValue},    {"--json", OptionKind::kValue},
      {"--no-flush", OptionKind::kFlag},  {"--tuned", OptionKind::kFlag},
      {"--shape", OptionKind::kList},     {"--param", OptionKind::kList}};
  Arguments args("bench", raw, kSpecs);
  const DeviceChoice choice = choose_device(args.value("--device"));
  TimingOptions timing;
  if (auto n = args.integer("--iters")) timing.iterations = static_cast<int>(*n);
  timing.flush_l2 = !args.flag("--no-flush");
  // --shape (with --param) benches one op on shapes of the caller's choosing, as `run` does.
  const std::vector<Case> cases =
      args.has("--shape") ? select_cases(implemented_op(args.single_positional("OP")), args, false)
                          : named_or_all_cases(args);
  const bool tuned = args.flag("--tuned");
  nlohmann::json results = nlohmann::json::array();
  Table table({"op", "workload", "dtype", "device", "busy us", "wall us", "p10-p90", "TB/s",
               "copy us", "eff/copy", "TFLOP/s", "host us", "served by"});
  std::vector<std::string> methods;  // each distinct one, printed once under the table
  int failures = 0;
  for (const Case& c : cases) {
    const Device device = device_for(*c.op, choice);
    StoredRoof roof;
    if (device.type == kCUDA) roof = stored_roof(read_device_facts(device));
    nlohmann::json row = bench_case(c, device, timing, roof, tuned);
    if (row["status"] != "ok") ++failures;
    table.add_row({row["op"], row["label"], row["dtype"], row["device"],
                   row["status"] == "ok" ? num(row, "busy_us") : std::string(row["status"]),
                   num(row, "wall_us"),
                   row.contains("busy_p10_us")
                       ? fmt::format("{:.2f}-{:.2f}", row["busy_p10_us"].get<double>(),
                                     row["busy_p90_us"].get<double>())
                       : "-",
                   num(row, "tbs", "{:.3f}"), num(row, "copy_floor_us"),
                   (row.contains("efficiency_vs_copy")
                        ? fmt::format("{:.0f}%", 100 * row["efficiency_vs_copy"].get<double>())
                        : "-"),
                   num(row, "tflops", "{:.1f}"), num(row, "host_us"), row.value("served_by", "")});
    if (const std::string method = row.value("method", "");
        !method.empty() && std::find(methods.begin(), methods.end(), method) == methods.end())
      methods.push_back(method);
    results.push_back(std::move(row));
  }
  table.print(std::cout);
  for (const std::string& method : methods) std::cout << "timing: " << method << "\n";
  for (const auto& r : results) {
    if (r["status"] != "ok")
      std::cout << "FAIL " << r["op"].get<std::string>() << "/" << r["label"].get<std::string>()
                << ": " << r["check"].get<std::string>() << "\n";
  }
  if (auto path = args.value("--json")) {
    std::ofstream out(*path);
    out << nlohmann::json{{"results", results}}.dump(1) << "\n";
  }
  return failures == 0 ? kExitOk : kExitFailure;
}

int calibrate_command(const std::vector<std::string>& raw) {
  static constexpr OptionSpec kSpecs[] = {{"--device", OptionKind::kValue}};
  Arguments args("calibrate", raw, kSpecs);
  const Device device = Device::parse(args.value("--device").value_or("cuda:0"));
  if (device.type != kCUDA) throw UsageError("calibrate: expected a cuda device");
  const DeviceFacts facts = read_device_facts(device);
  TimingOptions timing;
  timing.iterations = 20;
  const int64_t bytes = int64_t{2} << 30;  // 1 GiB read + 1 GiB written
  const Timing copy = time_copy(device, bytes, timing);
  const double tbs = static_cast<double>(bytes) / (copy.median_us * 1e6);
  const MatrixRoof matrix = measure_matrix_roof(device);
  nlohmann::json profile{
      {"board", facts.calibration},
      {"device", cuda::device_name(device.index)},
      {"arch", facts.arch},
      {"sm_count", facts.sm_count},
      {"copy_tbs", tbs},
      {"copy_bytes", bytes},
      {"copy_median_us", copy.median_us},
      {"copy_timing", copy.method},
      {"matrix_bf16_tflops", matrix.tflops ? nlohmann::json(*matrix.tflops) : nlohmann::json()},
      {"matrix_how", matrix.how}};
  const auto path = profile_path(facts);
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << profile.dump(1) << "\n";
  std::cout << fmt::format(
      "{} ({}): device-to-device copy {:.3f} TB/s (read + write, {} GiB moved); bf16 matrix "
      "{} ({}); profile written to {}\n",
      cuda::device_name(device.index), facts.calibration, tbs, bytes >> 30,
      matrix.tflops ? fmt::format("{:.0f} TFLOP/s", *matrix.tflops) : std::string("-"), matrix.how,
      path.string());
  return kExitOk;
}

}  // namespace tileops::cli
