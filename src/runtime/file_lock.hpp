// An exclusive advisory lock on <path>.lock, held for the object's lifetime: processes that
// update the same cache file take turns.
//
// The lock is best effort. When the lock file cannot be opened (a read-only directory, a lock file
// of another user's that we cannot create or open, no descriptors left) or the file system refuses
// flock (ENOLCK), the holder proceeds unlocked and locked() is false. That is safe only because
// every writer under this lock replaces its file atomically (a temporary file renamed into place):
// without the lock two processes may do the same work twice, and for a read-modify-write store the
// later rename may drop the earlier writer's addition, but no reader ever sees a partial file. An
// interrupted wait (EINTR, a signal handler installed without SA_RESTART) is retried.
//
// Lock files are never removed: they are empty, one per cache file, and reused by every later
// writer of that file. Unlinking one safely would need a re-check after locking (a process waiting
// on the unlinked inode and one locking a newly created file would both hold "the" lock).
#pragma once

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

namespace tileops {

class FileLock {
 public:
  explicit FileLock(const std::filesystem::path& path) {
    const std::string lock_path = path.string() + ".lock";
    // Read-only is enough for flock, so an existing lock file in a directory we may not write to
    // (or one owned by another user, mode 0644) still locks.
    do {
      fd_ = ::open(lock_path.c_str(), O_CREAT | O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0644);
    } while (fd_ < 0 && errno == EINTR);
    if (fd_ < 0) return;
    int rc;
    do {
      rc = ::flock(fd_, LOCK_EX);
    } while (rc != 0 && errno == EINTR);
    if (rc != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~FileLock() {
    if (fd_ >= 0) {
      ::flock(fd_, LOCK_UN);
      ::close(fd_);
    }
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

  // Whether the lock is held (false: proceeding unlocked, see above).
  bool locked() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

}  // namespace tileops
