#include "runtime/cuda/kernel_cache.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <thread>

#include <fmt/format.h>
#include <openssl/evp.h>

#include "runtime/cuda/nvrtc_api.hpp"
#include "runtime/file_lock.hpp"
#include "tileops/core/error.hpp"
#include "tileops/runtime/log.hpp"

namespace tileops::cuda {
namespace {

constexpr char kMagic[8] = {'T', 'O', 'P', 'S', 'C', 'U', 'B', '1'};

std::string sha256_raw(const char* data, size_t size) {
  unsigned char digest[32];
  unsigned int length = 0;
  EVP_Digest(data, size, digest, &length, EVP_sha256(), nullptr);
  return std::string(reinterpret_cast<char*>(digest), 32);
}

}  // namespace

std::string sha256_hex(const std::string& data) {
  const std::string raw = sha256_raw(data.data(), data.size());
  std::string hex;
  for (unsigned char c : raw) hex += fmt::format("{:02x}", c);
  return hex;
}

std::filesystem::path kernel_cache_directory() {
  if (const char* dir = std::getenv("TILEOPS_CACHE_DIR"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    return std::filesystem::path(xdg) / "tileops";
  }
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home && *home ? home : "/tmp") / ".cache" / "tileops";
}

bool read_cache_file(const std::filesystem::path& path, std::vector<char>& payload) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  char magic[8];
  uint64_t size = 0;
  char digest[32];
  if (!in.read(magic, 8) || std::memcmp(magic, kMagic, 8) != 0) return false;
  if (!in.read(reinterpret_cast<char*>(&size), 8) || !in.read(digest, 32)) return false;
  if (size > (1ull << 31)) return false;
  payload.resize(size);
  if (!in.read(payload.data(), static_cast<std::streamsize>(size))) return false;
  if (in.peek() != std::char_traits<char>::eof()) return false;  // trailing garbage
  return sha256_raw(payload.data(), payload.size()) == std::string(digest, 32);
}

void write_cache_file(const std::filesystem::path& path, const std::vector<char>& payload) {
  std::filesystem::create_directories(path.parent_path());
  const auto tmp =
      path.string() + fmt::format(".tmp.{}.{}", ::getpid(),
                                  std::hash<std::thread::id>{}(std::this_thread::get_id()));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    const uint64_t size = payload.size();
    const std::string digest = sha256_raw(payload.data(), payload.size());
    out.write(kMagic, 8);
    out.write(reinterpret_cast<const char*>(&size), 8);
    out.write(digest.data(), 32);
    out.write(payload.data(), static_cast<std::streamsize>(payload.size()));
    if (!out) {
      std::filesystem::remove(tmp);
      throw RuntimeError(fmt::format("kernel cache: could not write {}", tmp));
    }
  }
  std::filesystem::rename(tmp, path);  // atomic: readers see the old file or the whole new one
}

CachedBinary cached_cubin(const KernelSource& src, const std::string& arch, int driver_version) {
  std::string key_text = src.source;
  for (const auto& o : src.options) key_text += "\n#opt " + o;
  for (const auto& h : src.headers) {
    key_text += fmt::format("\n#header {} {}\n", h.name, h.text.size()) + h.text;
  }
  key_text +=
      fmt::format("\n#arch {}\n#nvrtc {}\n#driver {}", arch, nvrtc_version(), driver_version);
  const std::string key = sha256_hex(key_text);
  const auto path =
      kernel_cache_directory() / fmt::format("{}-{}.cubin", src.name, key.substr(0, 24));
  CachedBinary result;
  if (read_cache_file(path, result.cubin)) {
    result.from_cache = true;
    return result;
  }
  std::filesystem::create_directories(path.parent_path());
  FileLock lock(path);
  if (read_cache_file(path, result.cubin)) {  // another process built it while we waited
    result.from_cache = true;
    return result;
  }
  if (std::filesystem::exists(path)) {
    log_info(fmt::format("kernel cache: {} is damaged; rebuilding", path.string()));
  }
  CompileResult compiled = nvrtc_compile(src.name, src.source, src.options, arch, src.headers);
  log_info(fmt::format("compiled {} for {} in {:.3f} s", src.name, arch, compiled.seconds));
  write_cache_file(path, compiled.cubin);
  result.cubin = std::move(compiled.cubin);
  result.compile_seconds = compiled.seconds;
  return result;
}

}  // namespace tileops::cuda
