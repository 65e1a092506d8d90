#include "runtime/cuda/embedded_sources.hpp"

#include <map>
#include <mutex>

#include "tileops/core/error.hpp"

namespace tileops::cuda {
namespace {

struct Sources {
  std::mutex mutex;
  std::map<std::string, std::string, std::less<>> by_path;
};

Sources& sources() {
  static Sources s;
  return s;
}

}  // namespace

void register_embedded_source(std::string_view path, std::string_view text) {
  std::lock_guard lock(sources().mutex);
  sources().by_path[std::string(path)] = std::string(text);
}

const std::string& embedded_source(std::string_view path) {
  std::lock_guard lock(sources().mutex);
  auto it = sources().by_path.find(path);
  if (it == sources().by_path.end()) {
    throw ContractError("CUDA source '" + std::string(path) + "' is not embedded in the library");
  }
  return it->second;
}

std::vector<std::string> embedded_source_paths() {
  std::lock_guard lock(sources().mutex);
  std::vector<std::string> out;
  for (const auto& [path, text] : sources().by_path) out.push_back(path);
  return out;
}

}  // namespace tileops::cuda
