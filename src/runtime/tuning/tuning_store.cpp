#include "runtime/tuning/tuning_store.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "runtime/cuda/kernel_cache.hpp"
#include "runtime/file_lock.hpp"
#include "tileops/core/error.hpp"

namespace tileops::tuning {
namespace {

constexpr const char* kHeader = "# tileops tuning v1: kernel<TAB>call spec<TAB>config";

// Tabs and newlines would break the line format; specs and configs never need them.
std::string clean_field(const std::string& s) {
  std::string out = s;
  for (char& c : out) {
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  }
  return out;
}

}  // namespace

std::filesystem::path tuning_directory() {
  if (const char* dir = std::getenv("TILEOPS_TUNING_DIR"); dir && *dir) return dir;
  return cuda::kernel_cache_directory() / "tuning";
}

std::filesystem::path tuning_file(const std::string& board) {
  std::string name = board.empty() ? "unknown-board" : board;
  for (char& c : name) {
    const bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '_' || c == '-';
    if (!keep) c = '_';
  }
  return tuning_directory() / (name + ".tsv");
}

std::map<TuningKey, std::string> read_tuning_file(const std::filesystem::path& path) {
  std::map<TuningKey, std::string> entries;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line.front() == '#') continue;
    const size_t a = line.find('\t');
    const size_t b = a == std::string::npos ? a : line.find('\t', a + 1);
    if (b == std::string::npos || line.find('\t', b + 1) != std::string::npos) continue;
    std::string kernel = line.substr(0, a), spec = line.substr(a + 1, b - a - 1),
                config = line.substr(b + 1);
    if (kernel.empty() || spec.empty() || config.empty()) continue;
    entries[{std::move(kernel), std::move(spec)}] = std::move(config);
  }
  return entries;
}

std::optional<std::string> lookup_tuned(const std::string& board, const TuningKey& key) {
  const auto entries = read_tuning_file(tuning_file(board));
  const auto it = entries.find({clean_field(key.kernel), clean_field(key.spec)});
  if (it == entries.end()) return std::nullopt;
  return it->second;
}

void store_tuned(const std::string& board, const TuningKey& key, const std::string& config) {
  const auto path = tuning_file(board);
  std::filesystem::create_directories(path.parent_path());
  FileLock lock(path);
  auto entries = read_tuning_file(path);
  entries[{clean_field(key.kernel), clean_field(key.spec)}] = clean_field(config);
  const auto tmp =
      path.string() + fmt::format(".tmp.{}.{}", ::getpid(),
                                  std::hash<std::thread::id>{}(std::this_thread::get_id()));
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << kHeader << '\n';
    for (const auto& [k, v] : entries) out << k.kernel << '\t' << k.spec << '\t' << v << '\n';
    if (!out) {
      std::filesystem::remove(tmp);
      throw RuntimeError(fmt::format("tuning store: could not write {}", tmp));
    }
  }
  std::filesystem::rename(tmp, path);
}

}  // namespace tileops::tuning
