// Compiled kernels on disk. A cubin is stored under the SHA-256 of everything that changes it:
// the source (headers included), the options, the architecture, and the NVRTC and driver
// versions. Several processes may build the same kernel at once (a per-key file lock, re-checked
// once held, and a rename into place); a truncated or corrupt file fails its checksum and is
// rebuilt. Location: $TILEOPS_CACHE_DIR, else $XDG_CACHE_HOME/tileops, else ~/.cache/tileops.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace tileops::cuda {

// A named header handed to NVRTC: `#include "device/sm90/tma.cuh"` in a kernel resolves to it.
struct NamedHeader {
  std::string name;
  std::string text;
};

struct KernelSource {
  std::string name;    // spells every specialisation parameter, e.g. "rms_norm_bf16_vec8"
  std::string source;  // the translation unit NVRTC compiles
  std::vector<std::string> options;  // NVRTC options beyond the architecture
  // Exactly the headers the source includes, directly or through other headers; they are part
  // of the cache key, so editing one header rebuilds only the kernels that include it.
  std::vector<NamedHeader> headers;
};

struct CachedBinary {
  std::vector<char> cubin;
  bool from_cache = false;
  double compile_seconds = 0;
};

std::filesystem::path kernel_cache_directory();
// The cubin for source on arch, from the disk cache or compiled (and stored). driver_version is
// part of the key; pass 0 when compiling without a driver (CI).
CachedBinary cached_cubin(const KernelSource& source, const std::string& arch, int driver_version);

// Reads a cache file; returns false when it is missing, truncated or fails its checksum.
bool read_cache_file(const std::filesystem::path& path, std::vector<char>& payload);
void write_cache_file(const std::filesystem::path& path, const std::vector<char>& payload);
std::string sha256_hex(const std::string& data);

}  // namespace tileops::cuda
