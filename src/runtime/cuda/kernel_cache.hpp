// Compiled kernels on disk. A cubin is stored under the SHA-256 of everything that changes it:
// the source (headers included), the options, the architecture, and the NVRTC and driver
// versions. Several processes may build the same kernel at once (a per-key file lock, re-checked
// once held, and a rename into place); a truncated or corrupt file fails its checksum and is
// rebuilt. Location: $TILEOPS_CACHE_DIR, else $XDG_CACHE_HOME/tileops, else ~/.cache/tileops, else
// (HOME unset) /tmp/tileops-cache-<uid>, created 0700 and used only while this user owns it and
// no one else can write to it.
//
// The cache never fails a call: when it cannot be created, read or written (read-only or
// uncreatable directory, full disk, an unsafe /tmp fallback) the kernel is compiled, returned, and
// not stored, with one warning per process. Temporary files older than an hour (left by a process
// that died mid-write) are removed whenever a new entry is written; lock files stay (see
// runtime/file_lock.hpp).
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "internal_api.hpp"

namespace tileops::cuda {

// A named header handed to NVRTC: `#include "device/sm90/tma.cuh"` in a kernel resolves to it.
struct NamedHeader {
  std::string name;
  std::string text;
};

struct KernelSource {
  std::string name;  // spells every specialisation parameter, e.g. "rms_norm_bf16_vec8"
  // Names the translation unit in the cache's file name ("" = name): the entry points of one
  // source with the same constants compile to one cubin, so they share one cache entry.
  std::string unit;
  std::string source;                // the translation unit NVRTC compiles
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

struct CacheDirectory {
  std::filesystem::path path;
  // The per-user fallback under /tmp: used only if it is a directory (not a link) this user owns
  // and that its group and others cannot write; otherwise nothing is cached.
  bool must_be_private = false;
};
TILEOPS_INTERNAL_API CacheDirectory kernel_cache_location();
TILEOPS_INTERNAL_API std::filesystem::path
kernel_cache_directory();  // kernel_cache_location().path

// The cubin for source on arch, from the disk cache or compiled (and stored). driver_version is
// part of the key; pass 0 when compiling without a driver (CI).
TILEOPS_INTERNAL_API CachedBinary cached_cubin(const KernelSource& source, const std::string& arch,
                                               int driver_version);

// What cached_cubin does once it has a file name, with the compiler as a callback (tests pass a
// fake one): reads dir/file_name; on a miss takes the per-key lock, reads again, and otherwise
// calls compile() and stores its bytes. from_cache says whether compile() was skipped;
// compile_seconds is its wall time. Exceptions from compile() propagate; cache problems do not.
TILEOPS_INTERNAL_API CachedBinary
cached_or_compiled(const CacheDirectory& dir, const std::string& file_name,
                   const std::function<std::vector<char>()>& compile);

// Reads a cache file; returns false when it is missing, truncated, has a bad header or trailing
// bytes, or fails its checksum.
TILEOPS_INTERNAL_API bool read_cache_file(const std::filesystem::path& path,
                                          std::vector<char>& payload);
// Writes a cache file (creating its directory) through a temporary file beside it renamed into
// place, so readers see the old file or the whole new one. Never throws: returns false, with the
// reason in *error when given, if anything failed; no temporary file is left behind.
TILEOPS_INTERNAL_API bool write_cache_file(const std::filesystem::path& path,
                                           const std::vector<char>& payload,
                                           std::string* error = nullptr);
std::string sha256_hex(const std::string& data);

namespace detail {
// Lets the next cache problem warn again (tests check the once-per-process warning).
TILEOPS_INTERNAL_API void reset_kernel_cache_warning();
}  // namespace detail

}  // namespace tileops::cuda
