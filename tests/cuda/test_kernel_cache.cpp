// The kernel disk cache under a bad environment: damaged files, directories that cannot be
// written or created, a full disk, an unsafe /tmp fallback, concurrent builders in several
// processes, interrupted lock waits and orphaned temporary files. A fake compiler stands in for
// NVRTC, so none of this needs a GPU or NVRTC. Each test works in its own mkdtemp directory.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "runtime/cuda/kernel_cache.hpp"
#include "runtime/file_lock.hpp"
#include "support/scoped_state.hpp"
#include "tileops/core/error.hpp"
#include "tileops/framework/warnings.hpp"

namespace tileops::cuda {
namespace {

namespace fs = std::filesystem;

std::vector<char> bytes(size_t n, int seed) {
  std::vector<char> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<char>((i * 131 + seed * 7) & 0xff);
  return out;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.insert(entry.path().filename());
  return names;
}

// Runs body in a child process and returns its exit status (-1 if it did not exit normally). The
// child never returns into GoogleTest; an exception in it is status 100.
int in_child(const std::function<int()>& body) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    int code = 100;
    try {
      code = body();
    } catch (...) {
    }
    ::_exit(code);
  }
  if (pid < 0) return -1;
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

class KernelCacheFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/tileops-kcache-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
    detail::reset_kernel_cache_warning();
    previous_ = set_warning_handler([this](const std::string& message) {
      std::lock_guard lock(mutex_);
      warnings_.push_back(message);
    });
  }
  void TearDown() override {
    set_warning_handler(previous_);
    detail::reset_kernel_cache_warning();
    if (dir_.empty()) return;
    // Tests leave directories read-only or group-writable: open them up so they can be removed.
    std::error_code ec;
    fs::permissions(dir_, fs::perms::owner_all, ec);
    for (fs::recursive_directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
      std::error_code entry_ec;
      if (it->is_directory(entry_ec) && !it->is_symlink(entry_ec)) {
        fs::permissions(it->path(), fs::perms::owner_all, entry_ec);
      }
    }
    fs::remove_all(dir_, ec);
    EXPECT_FALSE(fs::exists(dir_)) << "could not clean up " << dir_;
  }

  std::vector<std::string> warnings() {
    std::lock_guard lock(mutex_);
    return warnings_;
  }

  fs::path dir_;
  WarningHandler previous_;
  std::mutex mutex_;
  std::vector<std::string> warnings_;
};

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_F(KernelCacheFiles, StoresReadsAndRejectsTruncationAndCorruption) {
  const auto path = dir_ / "sub" / "k.cubin";
  const std::vector<char> payload{'c', 'u', 'b', 'i', 'n', '\0', 'x'};
  ASSERT_TRUE(write_cache_file(path, payload));  // creates sub/
  std::vector<char> back;
  ASSERT_TRUE(read_cache_file(path, back));
  EXPECT_EQ(back, payload);
  fs::resize_file(path, fs::file_size(path) - 2);  // truncated
  EXPECT_FALSE(read_cache_file(path, back));
  ASSERT_TRUE(write_cache_file(path, payload));
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-1, std::ios::end);
    f.put('y');  // corrupt the last payload byte
  }
  EXPECT_FALSE(read_cache_file(path, back));
  EXPECT_FALSE(read_cache_file(dir_ / "missing.cubin", back));
  EXPECT_FALSE(read_cache_file(dir_, back));                            // a directory
  EXPECT_EQ(names_in(dir_ / "sub"), std::set<std::string>{"k.cubin"});  // no temporary left
}

TEST_F(KernelCacheFiles, BadHeadersAreRejected) {
  const auto path = dir_ / "k.cubin";
  const auto payload = bytes(64, 1);
  ASSERT_TRUE(write_cache_file(path, payload));
  const std::string good = read_text(path);
  ASSERT_EQ(good.size(), 48u + 64u);  // magic, size, SHA-256, payload
  const auto rejected = [&](const std::string& text) {
    write_text(path, text);
    std::vector<char> back;
    return !read_cache_file(path, back);
  };
  const auto with_size = [&](uint64_t size) {
    std::string text = good;
    std::memcpy(text.data() + 8, &size, 8);
    return text;
  };
  std::string text = good;
  text[0] = 'X';  // not a tileops cache file
  EXPECT_TRUE(rejected(text));
  text = good;
  text[7] = '0';  // another format version
  EXPECT_TRUE(rejected(text));
  EXPECT_TRUE(rejected(with_size(65)));          // longer than the file
  EXPECT_TRUE(rejected(with_size(63)));          // shorter: the last byte is left over
  EXPECT_TRUE(rejected(with_size(0)));           // an empty payload and 64 bytes left over
  EXPECT_TRUE(rejected(with_size(1ull << 40)));  // beyond the bound, never allocated
  text = good;
  text[16] ^= 1;  // the digest
  EXPECT_TRUE(rejected(text));
  EXPECT_TRUE(rejected(""));
  EXPECT_TRUE(rejected(good.substr(0, 8)));   // magic only
  EXPECT_TRUE(rejected(good.substr(0, 16)));  // no digest
  EXPECT_TRUE(rejected(good.substr(0, 47)));  // digest cut short
  // The unchanged file still reads: each rejection above came from its one change.
  write_text(path, good);
  std::vector<char> back;
  ASSERT_TRUE(read_cache_file(path, back));
  EXPECT_EQ(back, payload);
}

TEST_F(KernelCacheFiles, TrailingBytesAfterAValidPayloadAreRejected) {
  const auto path = dir_ / "k.cubin";
  for (const std::vector<char>& payload : {bytes(100, 2), std::vector<char>{}}) {
    SCOPED_TRACE(payload.size());
    ASSERT_TRUE(write_cache_file(path, payload));
    const std::string good = read_text(path);
    std::vector<char> back;
    ASSERT_TRUE(read_cache_file(path, back));
    EXPECT_EQ(back, payload);
    for (const std::string& extra : {std::string(1, '\0'), std::string("x"), good}) {
      write_text(path, good + extra);
      EXPECT_FALSE(read_cache_file(path, back)) << extra.size() << " trailing bytes";
    }
  }
}

TEST_F(KernelCacheFiles, StoresThenServesAndRebuildsDamage) {
  const CacheDirectory where{dir_ / "cache"};  // created on the first store
  int compiles = 0;
  const auto payload = bytes(1000, 3);
  const auto compile = [&] {
    ++compiles;
    return payload;
  };
  const CachedBinary first = cached_or_compiled(where, "k.cubin", compile);
  EXPECT_FALSE(first.from_cache);
  EXPECT_EQ(first.cubin, payload);
  const CachedBinary second = cached_or_compiled(where, "k.cubin", compile);
  EXPECT_TRUE(second.from_cache);
  EXPECT_EQ(second.cubin, payload);
  EXPECT_EQ(compiles, 1);
  fs::resize_file(where.path / "k.cubin", 40);
  const CachedBinary rebuilt = cached_or_compiled(where, "k.cubin", compile);
  EXPECT_FALSE(rebuilt.from_cache);
  EXPECT_EQ(rebuilt.cubin, payload);
  EXPECT_EQ(compiles, 2);
  EXPECT_TRUE(cached_or_compiled(where, "k.cubin", compile).from_cache);
  EXPECT_EQ(names_in(where.path), (std::set<std::string>{"k.cubin", "k.cubin.lock"}));
  EXPECT_TRUE(warnings().empty());
}

TEST_F(KernelCacheFiles, ACompileErrorPropagatesAndStoresNothing) {
  const CacheDirectory where{dir_};
  EXPECT_THROW(cached_or_compiled(where, "k.cubin",
                                  []() -> std::vector<char> { throw RuntimeError("nvrtc: boom"); }),
               RuntimeError);
  EXPECT_EQ(names_in(dir_), std::set<std::string>{"k.cubin.lock"});
  EXPECT_TRUE(warnings().empty());
}

TEST_F(KernelCacheFiles, ReadOnlyDirectoryServesWhatItHasAndCompilesTheRestWarningOnce) {
  if (::geteuid() == 0) GTEST_SKIP() << "root ignores directory permissions";
  const CacheDirectory where{dir_};
  const auto stored = bytes(100, 4), fresh = bytes(200, 5);
  ASSERT_TRUE(write_cache_file(dir_ / "old.cubin", stored));
  ASSERT_EQ(::chmod(dir_.c_str(), 0500), 0);
  int compiles = 0;
  const auto compile = [&] {
    ++compiles;
    return fresh;
  };
  for (int call = 0; call < 3; ++call) {
    CachedBinary result;
    EXPECT_NO_THROW(result = cached_or_compiled(where, "new.cubin", compile));
    EXPECT_FALSE(result.from_cache);
    EXPECT_EQ(result.cubin, fresh);
  }
  EXPECT_EQ(compiles, 3);
  const auto seen = warnings();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_TRUE(contains(seen[0], "kernel cache")) << seen[0];
  EXPECT_TRUE(contains(seen[0], "new.cubin")) << seen[0];
  const CachedBinary old = cached_or_compiled(where, "old.cubin", compile);
  EXPECT_TRUE(old.from_cache);
  EXPECT_EQ(old.cubin, stored);
  EXPECT_EQ(compiles, 3);
  std::string error;
  EXPECT_FALSE(write_cache_file(dir_ / "direct.cubin", fresh, &error));
  EXPECT_TRUE(contains(error, "could not write")) << error;
  EXPECT_EQ(names_in(dir_), std::set<std::string>{"old.cubin"});
}

TEST_F(KernelCacheFiles, UncreatableDirectoryCompilesAndWarnsOnce) {
  const auto file = dir_ / "plain-file";
  write_text(file, "x");
  const CacheDirectory where{file / "cache"};  // below a regular file: ENOTDIR, even for root
  int compiles = 0;
  const auto payload = bytes(300, 6);
  const auto compile = [&] {
    ++compiles;
    return payload;
  };
  for (int call = 0; call < 2; ++call) {
    CachedBinary result;
    EXPECT_NO_THROW(result = cached_or_compiled(where, "k.cubin", compile));
    EXPECT_FALSE(result.from_cache);
    EXPECT_EQ(result.cubin, payload);
  }
  EXPECT_EQ(compiles, 2);
  const auto seen = warnings();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_TRUE(contains(seen[0], "could not create")) << seen[0];
  std::string error;
  bool written = true;
  EXPECT_NO_THROW(written = write_cache_file(where.path / "k.cubin", payload, &error));
  EXPECT_FALSE(written);
  EXPECT_TRUE(contains(error, "could not create")) << error;
  EXPECT_EQ(names_in(dir_), std::set<std::string>{"plain-file"});
}

// A write that fails part way (a full disk; here the file size limit) returns the compiled
// kernel, warns, and leaves no temporary file.
TEST_F(KernelCacheFiles, AWriteFailingPartWayLeavesNothingBehind) {
  const CacheDirectory where{dir_};
  const int status = in_child([&] {
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{4096, 4096};
    if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) return 10;
    const auto big = bytes(1 << 16, 7);
    int compiles = 0;
    const CachedBinary result = cached_or_compiled(where, "k.cubin", [&] {
      ++compiles;
      return big;
    });
    if (result.cubin != big || result.from_cache || compiles != 1) return 11;
    if (warnings().size() != 1 || !contains(warnings()[0], "could not write")) return 12;
    std::string error;
    if (write_cache_file(dir_ / "direct.cubin", big, &error) || error.empty()) return 13;
    return 0;
  });
  EXPECT_EQ(status, 0);
  EXPECT_EQ(names_in(dir_), std::set<std::string>{"k.cubin.lock"});
}

TEST_F(KernelCacheFiles, ConcurrentWritersInSeveralProcessesLeaveOneWholeFile) {
  constexpr int kChildren = 8, kWrites = 20;
  constexpr size_t kSize = 256 * 1024;
  const auto path = dir_ / "k.cubin";
  int gate[2];
  ASSERT_EQ(::pipe(gate), 0);
  std::vector<pid_t> children;
  for (int c = 0; c < kChildren; ++c) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::close(gate[1]);
      char byte;
      (void)::read(gate[0], &byte, 1);  // returns 0 when the parent opens the gate
      int code = 0;
      try {
        const std::vector<char> mine(kSize, static_cast<char>('A' + c));
        std::vector<char> back;
        for (int w = 0; w < kWrites && code == 0; ++w) {
          if (!write_cache_file(path, mine)) code = 1;
          // Whoever renamed last, the file is always one writer's whole payload.
          if (!read_cache_file(path, back) || back.size() != kSize) code = 2;
        }
      } catch (...) {
        code = 3;
      }
      ::_exit(code);
    }
    ASSERT_GT(pid, 0);
    children.push_back(pid);
  }
  ::close(gate[0]);
  ::close(gate[1]);
  for (const pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
  }
  std::vector<char> back;
  ASSERT_TRUE(read_cache_file(path, back));
  ASSERT_EQ(back.size(), kSize);
  EXPECT_GE(back[0], 'A');
  EXPECT_LT(back[0], 'A' + kChildren);
  EXPECT_EQ(back, std::vector<char>(kSize, back[0]));
  EXPECT_EQ(names_in(dir_), std::set<std::string>{"k.cubin"});
}

TEST_F(KernelCacheFiles, ConcurrentBuildersInSeveralProcessesCompileOnce) {
  constexpr int kChildren = 8;
  const CacheDirectory where{dir_ / "cache"};  // they race to create it too
  const auto payload = bytes(100000, 8);
  int gate[2];
  ASSERT_EQ(::pipe(gate), 0);
  std::vector<pid_t> children;
  for (int c = 0; c < kChildren; ++c) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::close(gate[1]);
      char byte;
      (void)::read(gate[0], &byte, 1);
      int code = 3;
      try {
        const CachedBinary result = cached_or_compiled(where, "k.cubin", [&] {
          std::this_thread::sleep_for(std::chrono::milliseconds(200));  // a slow compile
          return payload;
        });
        if (result.cubin == payload) code = result.from_cache ? 1 : 0;
      } catch (...) {
      }
      ::_exit(code);
    }
    ASSERT_GT(pid, 0);
    children.push_back(pid);
  }
  ::close(gate[0]);
  ::close(gate[1]);
  int compiled = 0, served = 0;
  for (const pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
    if (WEXITSTATUS(status) == 0) ++compiled;
    if (WEXITSTATUS(status) == 1) ++served;
  }
  EXPECT_EQ(compiled, 1);  // the lock, re-checked once held, lets one process build
  EXPECT_EQ(served, kChildren - 1);
  std::vector<char> back;
  ASSERT_TRUE(read_cache_file(where.path / "k.cubin", back));
  EXPECT_EQ(back, payload);
  EXPECT_EQ(names_in(where.path), (std::set<std::string>{"k.cubin", "k.cubin.lock"}));
}

// A signal that interrupts the wait for the lock (a handler without SA_RESTART) does not let the
// waiter in: it waits until the holder lets go.
TEST_F(KernelCacheFiles, ALockWaitInterruptedBySignalsKeepsWaiting) {
  const auto path = dir_ / "k.cubin";
  int go[2], done[2];
  ASSERT_EQ(::pipe(go), 0);
  ASSERT_EQ(::pipe(done), 0);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(go[1]);
    ::close(done[0]);
    char byte;
    if (::read(go[0], &byte, 1) != 1) ::_exit(2);
    struct sigaction action {};
    action.sa_handler = [](int) {};
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: flock returns EINTR
    ::sigaction(SIGALRM, &action, nullptr);
    itimerval every_20ms{};
    every_20ms.it_value.tv_usec = every_20ms.it_interval.tv_usec = 20000;
    ::setitimer(ITIMER_REAL, &every_20ms, nullptr);
    char held;
    {
      FileLock lock(path);
      const itimerval off{};
      ::setitimer(ITIMER_REAL, &off, nullptr);
      held = lock.locked() ? 'L' : 'U';
    }
    ::_exit(::write(done[1], &held, 1) == 1 ? 0 : 3);
  }
  ASSERT_GT(pid, 0);
  ::close(go[0]);
  ::close(done[1]);
  {
    FileLock holder(path);
    EXPECT_TRUE(holder.locked());
    EXPECT_EQ(::write(go[1], "g", 1), 1);
    pollfd child_done{done[0], POLLIN, 0};
    EXPECT_EQ(::poll(&child_done, 1, 500), 0)
        << "the waiter stopped waiting while the lock was held";
  }
  char held = 0;
  EXPECT_EQ(::read(done[0], &held, 1), 1);
  EXPECT_EQ(held, 'L');
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
  ::close(go[1]);
  ::close(done[0]);
}

TEST_F(KernelCacheFiles, ALockFileThatCannotBeOpenedProceedsUnlocked) {
  std::optional<FileLock> lock;
  EXPECT_NO_THROW(lock.emplace(dir_ / "no-such-dir" / "k.cubin"));
  EXPECT_FALSE(lock->locked());
  lock.reset();
  // An existing lock file locks even where neither it nor its directory may be written (another
  // user's lock file, a read-only cache): flock needs no write access.
  write_text(dir_ / "k.cubin.lock", "");
  ASSERT_EQ(::chmod((dir_ / "k.cubin.lock").c_str(), 0444), 0);
  ASSERT_EQ(::chmod(dir_.c_str(), 0500), 0);
  lock.emplace(dir_ / "k.cubin");
  EXPECT_TRUE(lock->locked());
}

TEST_F(KernelCacheFiles, StaleTemporariesAreRemovedWhenAnEntryIsWritten) {
  const auto two_hours_ago = fs::file_time_type::clock::now() - std::chrono::hours(2);
  for (const char* name : {"old.cubin.tmp.123.456", "fresh.cubin.tmp.123.457", "notes.tmp.txt",
                           "x.cubin.lock", "y.cubin"}) {
    write_text(dir_ / name, "left over");
    if (std::string(name) != "fresh.cubin.tmp.123.457") {
      fs::last_write_time(dir_ / name, two_hours_ago);
    }
  }
  const CachedBinary result =
      cached_or_compiled(CacheDirectory{dir_}, "k.cubin", [] { return bytes(10, 9); });
  EXPECT_FALSE(result.from_cache);
  // The orphan goes; a young temporary (maybe a live writer's), a name write_cache_file never
  // makes, lock files and entries stay.
  EXPECT_EQ(names_in(dir_),
            (std::set<std::string>{"fresh.cubin.tmp.123.457", "notes.tmp.txt", "x.cubin.lock",
                                   "y.cubin", "k.cubin", "k.cubin.lock"}));
}

TEST_F(KernelCacheFiles, PrivateFallbackIsCreated0700AndRefusedWhenOthersCouldWrite) {
  const CacheDirectory where{dir_ / "private", true};
  int compiles = 0;
  const auto payload = bytes(500, 10);
  const auto compile = [&] {
    ++compiles;
    return payload;
  };
  EXPECT_FALSE(cached_or_compiled(where, "k.cubin", compile).from_cache);
  struct stat st {};
  ASSERT_EQ(::lstat(where.path.c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
  EXPECT_EQ(st.st_mode & 077, 0u) << std::oct << st.st_mode;
  EXPECT_EQ(st.st_uid, ::geteuid());
  EXPECT_TRUE(cached_or_compiled(where, "k.cubin", compile).from_cache);
  EXPECT_EQ(compiles, 1);
  EXPECT_TRUE(warnings().empty());

  // Group-writable: its entries are not trusted and nothing is written there.
  ASSERT_EQ(::chmod(where.path.c_str(), 0770), 0);
  CachedBinary result = cached_or_compiled(where, "k.cubin", compile);
  EXPECT_FALSE(result.from_cache);
  EXPECT_EQ(result.cubin, payload);
  EXPECT_EQ(compiles, 2);
  ASSERT_EQ(warnings().size(), 1u);
  EXPECT_TRUE(contains(warnings()[0], "group or others")) << warnings()[0];
  EXPECT_FALSE(cached_or_compiled(where, "other.cubin", compile).from_cache);
  EXPECT_FALSE(fs::exists(where.path / "other.cubin"));
  ASSERT_EQ(::chmod(where.path.c_str(), 0700), 0);

  // A link to a good directory is refused (anyone could have made the link).
  const CacheDirectory link{dir_ / "link", true};
  fs::create_directory_symlink(where.path, link.path);
  EXPECT_FALSE(cached_or_compiled(link, "k.cubin", compile).from_cache);
  EXPECT_EQ(compiles, 4);

  // Another user's directory: only root can make one to test with.
  if (::geteuid() == 0) {
    ASSERT_EQ(::chown(where.path.c_str(), 65534, 65534), 0);
    EXPECT_FALSE(cached_or_compiled(where, "k.cubin", compile).from_cache);
    EXPECT_EQ(compiles, 5);
  }
  EXPECT_EQ(warnings().size(), 1u);  // once per process

  // A directory the user names is used as it is, shared or not.
  ASSERT_EQ(::chmod(where.path.c_str(), 0770), 0);
  EXPECT_TRUE(cached_or_compiled(CacheDirectory{where.path}, "k.cubin", compile).from_cache);
}

TEST(KernelCacheLocation, FollowsTheEnvironmentAndFallsBackToAPrivateTmpDirectory) {
  testing::ScopedEnv dir("TILEOPS_CACHE_DIR", nullptr), xdg("XDG_CACHE_HOME", nullptr),
      home("HOME", nullptr);
  CacheDirectory where = kernel_cache_location();
  EXPECT_EQ(where.path, fs::path(fmt::format("/tmp/tileops-cache-{}", ::geteuid())));
  EXPECT_TRUE(where.must_be_private);
  ::setenv("HOME", "", 1);
  EXPECT_TRUE(kernel_cache_location().must_be_private);
  ::setenv("HOME", "/h", 1);
  where = kernel_cache_location();
  EXPECT_EQ(where.path, fs::path("/h/.cache/tileops"));
  EXPECT_FALSE(where.must_be_private);
  ::setenv("XDG_CACHE_HOME", "/x", 1);
  EXPECT_EQ(kernel_cache_location().path, fs::path("/x/tileops"));
  ::setenv("TILEOPS_CACHE_DIR", "/c", 1);
  where = kernel_cache_location();
  EXPECT_EQ(where.path, fs::path("/c"));
  EXPECT_FALSE(where.must_be_private);
  EXPECT_EQ(kernel_cache_directory(), fs::path("/c"));
}

}  // namespace
}  // namespace tileops::cuda
