// Tuned choices on disk: which candidate configuration a kernel runs for a call spec on a board
// model. One text file per board, `<board>.tsv` under $TILEOPS_TUNING_DIR, else
// <kernel cache directory>/tuning. A line is `<kernel>\t<call spec>\t<config>`; lines that do not
// parse are ignored (and dropped at the next write), so a damaged file costs a re-tune, never a
// wrong choice of an unknown config: callers check the config against their candidates.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "internal_api.hpp"

namespace tileops::tuning {

TILEOPS_INTERNAL_API std::filesystem::path tuning_directory();
// The file of one board model; characters outside [A-Za-z0-9._-] become '_'.
TILEOPS_INTERNAL_API std::filesystem::path tuning_file(const std::string& board);

struct TuningKey {
  std::string kernel;  // the registered implementation name, e.g. "gemm_tiled_cuda"
  std::string spec;    // the call spec, e.g. "bfloat16 m=2048 n=4096 k=4096 nn"
  auto operator<=>(const TuningKey&) const = default;
};

TILEOPS_INTERNAL_API std::map<TuningKey, std::string> read_tuning_file(
    const std::filesystem::path& path);

// The stored config for key on board, if any.
TILEOPS_INTERNAL_API std::optional<std::string> lookup_tuned(const std::string& board,
                                                             const TuningKey& key);
// Stores (or replaces) the config for key on board. Safe against other processes doing the same:
// the file is re-read under a lock and replaced by rename.
TILEOPS_INTERNAL_API void store_tuned(const std::string& board, const TuningKey& key,
                                      const std::string& config);

}  // namespace tileops::tuning
