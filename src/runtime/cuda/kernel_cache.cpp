#include "runtime/cuda/kernel_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <system_error>
#include <thread>

#include <fmt/format.h>
#include <openssl/evp.h>

#include "runtime/cuda/nvrtc_api.hpp"
#include "runtime/file_lock.hpp"
#include "tileops/framework/warnings.hpp"
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

std::string errno_message(int error) {
  return std::error_code(error, std::generic_category()).message();
}

bool write_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = ENOSPC;
      return false;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

std::atomic<bool> g_warned{false};

// Cache problems are reported once per process: a process whose cache cannot be written would
// otherwise warn for every kernel it compiles.
void warn_once(const std::string& message) {
  if (!g_warned.exchange(true)) warn(message + " (warned once per process)");
}

// Creates the /tmp fallback 0700, or checks the existing one: it must be a directory, not a link,
// owned by this user and not writable by its group or others, since anyone may create a name in
// /tmp first and plant kernels there. Returns why not, or "" when it may be used.
std::string make_private_directory(const std::filesystem::path& dir) {
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    return fmt::format("could not create it: {}", errno_message(errno));
  }
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0) return errno_message(errno);
  if (!S_ISDIR(st.st_mode)) return "it is not a directory";
  if (st.st_uid != ::geteuid()) {
    return fmt::format("it belongs to uid {}, not to this user ({})", st.st_uid, ::geteuid());
  }
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return fmt::format("its group or others may write to it (mode {:o})", st.st_mode & 07777);
  }
  return {};
}

// Whether name is "<file>.tmp.<pid>.<thread>", the temporary name write_cache_file uses.
bool is_temporary_name(const std::string& name) {
  const size_t at = name.rfind(".tmp.");
  if (at == std::string::npos || at == 0) return false;
  const std::string rest = name.substr(at + 5);
  const size_t dot = rest.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == rest.size()) return false;
  for (size_t i = 0; i < rest.size(); ++i) {
    if (i != dot && (rest[i] < '0' || rest[i] > '9')) return false;
  }
  return true;
}

// Temporary files of processes that died between writing and renaming. A live writer's file
// exists for the milliseconds of one write, so an hour-old one is orphaned.
void remove_stale_temporaries(const std::filesystem::path& dir) {
  constexpr auto kStale = std::chrono::hours(1);
  const auto now = std::filesystem::file_time_type::clock::now();
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code entry_ec;
    if (!it->is_regular_file(entry_ec) || !is_temporary_name(it->path().filename().string())) {
      continue;
    }
    const auto written = std::filesystem::last_write_time(it->path(), entry_ec);
    if (!entry_ec && now - written > kStale) std::filesystem::remove(it->path(), entry_ec);
  }
}

}  // namespace

std::string sha256_hex(const std::string& data) {
  const std::string raw = sha256_raw(data.data(), data.size());
  std::string hex;
  for (unsigned char c : raw) hex += fmt::format("{:02x}", c);
  return hex;
}

CacheDirectory kernel_cache_location() {
  if (const char* dir = std::getenv("TILEOPS_CACHE_DIR"); dir && *dir) return {dir};
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    return {std::filesystem::path(xdg) / "tileops"};
  }
  if (const char* home = std::getenv("HOME"); home && *home) {
    return {std::filesystem::path(home) / ".cache" / "tileops"};
  }
  // /tmp is shared by every user: the fallback is per user and must stay private to them.
  return {fmt::format("/tmp/tileops-cache-{}", ::geteuid()), true};
}

std::filesystem::path kernel_cache_directory() {
  return kernel_cache_location().path;
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

bool write_cache_file(const std::filesystem::path& path, const std::vector<char>& payload,
                      std::string* error) {
  const auto fail = [&](std::string why) {
    if (error) *error = std::move(why);
    return false;
  };
  std::error_code ec;
  if (const auto dir = path.parent_path(); !dir.empty()) {
    std::filesystem::create_directories(dir, ec);
    if (ec) return fail(fmt::format("could not create {}: {}", dir.string(), ec.message()));
  }
  // The name says which process and thread wrote it; remove_stale_temporaries matches it.
  const std::string tmp =
      path.string() + fmt::format(".tmp.{}.{}", ::getpid(),
                                  std::hash<std::thread::id>{}(std::this_thread::get_id()));
  int fd;
  do {
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return fail(fmt::format("could not write {}: {}", tmp, errno_message(errno)));
  char header[48];
  const uint64_t size = payload.size();
  const std::string digest = sha256_raw(payload.data(), payload.size());
  std::memcpy(header, kMagic, 8);
  std::memcpy(header + 8, &size, 8);
  std::memcpy(header + 16, digest.data(), 32);
  bool ok = write_all(fd, header, sizeof header) && write_all(fd, payload.data(), payload.size());
  int saved = errno;
  // A full disk may only show when the data is flushed at close.
  if (::close(fd) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  if (!ok) {
    ::unlink(tmp.c_str());
    return fail(fmt::format("could not write {}: {}", tmp, errno_message(saved)));
  }
  // Atomic: readers see the old file or the whole new one. No fsync: a file a crash leaves
  // short fails its checksum and is rebuilt.
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    saved = errno;
    ::unlink(tmp.c_str());
    return fail(
        fmt::format("could not rename {} to {}: {}", tmp, path.string(), errno_message(saved)));
  }
  return true;
}

CachedBinary cached_or_compiled(const CacheDirectory& dir, const std::string& file_name,
                                const std::function<std::vector<char>()>& compile) {
  CachedBinary result;
  const auto build = [&] {
    const auto start = std::chrono::steady_clock::now();
    result.cubin = compile();
    result.compile_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  if (dir.must_be_private) {
    if (const std::string why = make_private_directory(dir.path); !why.empty()) {
      warn_once(fmt::format("kernel cache: not using {}: {}; kernels are compiled but not cached",
                            dir.path.string(), why));
      build();
      return result;
    }
  }
  const auto path = dir.path / file_name;
  if (read_cache_file(path, result.cubin)) {
    result.from_cache = true;
    return result;
  }
  std::error_code ec;
  std::filesystem::create_directories(dir.path, ec);
  if (ec) {
    warn_once(
        fmt::format("kernel cache: could not create {}: {}; kernels are compiled but not cached",
                    dir.path.string(), ec.message()));
    build();
    return result;
  }
  FileLock lock(path);                        // best effort: see runtime/file_lock.hpp
  if (read_cache_file(path, result.cubin)) {  // another process built it while we waited
    result.from_cache = true;
    return result;
  }
  if (std::filesystem::exists(path, ec)) {
    log_info(fmt::format("kernel cache: {} is damaged; rebuilding", path.string()));
  }
  build();
  if (std::string error; !write_cache_file(path, result.cubin, &error)) {
    warn_once(fmt::format("kernel cache: {}; kernels are compiled but not cached", error));
  } else {
    remove_stale_temporaries(dir.path);
  }
  return result;
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
  return cached_or_compiled(
      kernel_cache_location(),
      fmt::format("{}-{}.cubin", src.unit.empty() ? src.name : src.unit, key.substr(0, 24)), [&] {
        CompileResult compiled =
            nvrtc_compile(src.name, src.source, src.options, arch, src.headers);
        log_info(fmt::format("compiled {} for {} in {:.3f} s", src.name, arch, compiled.seconds));
        return std::move(compiled.cubin);
      });
}

namespace detail {
void reset_kernel_cache_warning() {
  g_warned.store(false);
}
}  // namespace detail

}  // namespace tileops::cuda
