// `tileops precompile`: compiles every CUDA kernel variant tileops can build (once per
// translation unit) into the disk kernel cache for one architecture and driver, with NVRTC and no
// GPU. A machine that builds an image (or one GPU call's bundle) can ship a warm cache, so the
// first calls on the GPU load cubins instead of compiling them. The cache key holds the
// architecture and the driver's version, so the cubins are found only by a driver that reports
// the same version.
#include <chrono>
#include <iostream>
#include <regex>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "arguments.hpp"
#include "commands.hpp"
#include "kernels/cuda/cuda_kernel.hpp"
#include "progress.hpp"
#include "runtime/cuda/driver_api.hpp"
#include "runtime/cuda/kernel_cache.hpp"
#include "runtime/cuda/nvrtc_api.hpp"

namespace tileops::cli {
namespace {

struct Shard {
  int64_t index = 0, count = 1;
};

// "--shard I/N": every N-th translation unit from the I-th (0-based), so N processes share the
// work.
Shard parse_shard(const std::optional<std::string>& text) {
  if (!text) return {};
  static const std::regex form(R"((\d+)/(\d+))");
  std::smatch m;
  if (std::regex_match(*text, m, form)) {
    const Shard s{std::stoll(m[1]), std::stoll(m[2])};
    if (s.count > 0 && s.index < s.count) return s;
  }
  throw UsageError(
      fmt::format("precompile: --shard expects I/N with 0 <= I < N (e.g. 0/4); got '{}'", *text));
}

std::string parse_arch(const std::optional<std::string>& text) {
  const std::string arch = text.value_or("sm_90a");
  static const std::regex form(R"(sm_\d+a?)");
  if (!std::regex_match(arch, form)) {
    throw UsageError(fmt::format(
        "precompile: --arch expects an NVRTC architecture such as sm_90a; got '{}'", arch));
  }
  return arch;
}

int driver_version_for(const Arguments& args) {
  if (const auto given = args.integer("--driver-version")) {
    if (*given <= 0) {
      throw UsageError(fmt::format(
          "precompile: --driver-version expects a positive CUDA version (13000 for CUDA 13.0); "
          "got {}",
          *given));
    }
    return static_cast<int>(*given);
  }
  if (const int installed = cuda::installed_driver_version(); installed > 0) return installed;
  throw UsageError(
      "precompile: no CUDA driver loads on this machine, so its version is unknown; pass "
      "--driver-version with the GPU machine's cuDriverGetVersion (13000 for CUDA 13.0)");
}

}  // namespace

int precompile_command(const std::vector<std::string>& raw) {
  static constexpr OptionSpec kSpecs[] = {{"--arch", OptionKind::kValue},
                                          {"--driver-version", OptionKind::kValue},
                                          {"--only", OptionKind::kValue},
                                          {"--shard", OptionKind::kValue}};
  const Arguments args("precompile", raw, kSpecs);
  args.expect_no_positionals();
  const std::string arch = parse_arch(args.value("--arch"));
  const Shard shard = parse_shard(args.value("--shard"));
  std::regex only;
  try {
    only = std::regex(args.value("--only").value_or(".*"));
  } catch (const std::regex_error& e) {
    throw UsageError(fmt::format("precompile: --only expects a regular expression; got '{}': {}",
                                 *args.value("--only"), e.what()));
  }
  const int driver_version = driver_version_for(args);
  if (!cuda::nvrtc_available()) {
    std::cerr << "tileops precompile: NVRTC (libnvrtc.so) is not installed on this machine\n";
    return kExitFailure;
  }
  // One compile per translation unit: entries of one specialised source share a cubin (the
  // cache names it by unit), so the chosen variants are reduced to one per unit first, and the
  // shards split units, never the entries of one unit between two processes.
  std::vector<cuda::KernelSource> chosen;
  std::set<std::pair<std::string, size_t>> units;
  size_t matching = 0;
  for (const cuda::KernelSource& v : cuda::all_cuda_variants()) {
    if (!std::regex_search(v.name, only)) continue;
    ++matching;
    const std::string& unit = v.unit.empty() ? v.name : v.unit;
    if (!units.insert({unit, std::hash<std::string>{}(v.source)}).second) continue;
    if (static_cast<int64_t>(units.size() - 1) % shard.count == shard.index) chosen.push_back(v);
  }
  Progress progress("precompile", chosen.size());
  const auto start = std::chrono::steady_clock::now();
  int compiled = 0, failed = 0;
  double nvrtc_seconds = 0;
  for (const cuda::KernelSource& v : chosen) {
    progress.step(v.name);
    try {
      const cuda::CachedBinary bin = cuda::cached_cubin(v, arch, driver_version);
      if (!bin.from_cache) {
        ++compiled;
        nvrtc_seconds += bin.compile_seconds;
      }
    } catch (const std::exception& e) {
      ++failed;
      std::cerr << "FAIL " << v.name << ": " << e.what() << '\n';
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  progress.finish(fmt::format(
      "{} of {} translation units ({} variants) for {} (driver {}) in {:.1f} s: {} compiled "
      "({:.1f} s of NVRTC), {} already cached, {} failed; cache {}",
      chosen.size(), units.size(), matching, arch, driver_version, seconds, compiled, nvrtc_seconds,
      static_cast<int>(chosen.size()) - compiled - failed, failed,
      cuda::kernel_cache_directory().string()));
  return failed == 0 ? kExitOk : kExitFailure;
}

}  // namespace tileops::cli
