// The output file of lib/atomic_file.hpp: direct for devices, FIFOs and
// symbolic links; otherwise an O_TMPFILE (or a named temporary) put in place
// by link + rename. Linux-specific (O_TMPFILE, /proc/self/fd).
#include "lib/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "lib/error.hpp"

namespace matchblas {

namespace {

constexpr int max_name_attempts = 100;
std::atomic<unsigned> temp_counter{0};

// "TARGET.tmp.PID.K", K unique within this process.
std::string temp_name(const std::string& path) {
  return path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(temp_counter.fetch_add(1));
}

std::string folder_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string proc_fd_path(int fd) { return "/proc/self/fd/" + std::to_string(fd); }

// A fresh named temporary beside path (O_EXCL, so never someone else's
// file); -1 with errno set on failure.
int open_named_temp(const std::string& path, std::string& temp) {
  int fd = -1;
  for (int attempt = 0; attempt < max_name_attempts; ++attempt) {
    temp = temp_name(path);
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) break;
  }
  if (fd < 0) {
    const int err = errno;
    temp.clear();
    errno = err;
  }
  return fd;
}

}  // namespace

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  if (path_ == "-") {  // standard output: written through, never closed
    path_ = target_ = "<stdout>";
    mode_ = Mode::standard_output;
    file_ = stdout;
    return;
  }
  struct stat st {};
  int fd = -1;
  // A symbolic link to a regular file: the file it leads to is replaced
  // like a plain one (the link stays), so no partial output there either.
  target_ = path_;
  if (::lstat(path_.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    struct stat to {};
    if (::stat(path_.c_str(), &to) == 0 && S_ISREG(to.st_mode)) {
      if (char* real = ::realpath(path_.c_str(), nullptr)) {
        target_ = real;
        std::free(real);
        st = to;
      }
    }
  }
  const bool replace = target_ != path_ || (::lstat(path_.c_str(), &st) == 0 && S_ISREG(st.st_mode));
  if (target_ == path_ && ::lstat(path_.c_str(), &st) == 0 && (S_ISLNK(st.st_mode) || !S_ISREG(st.st_mode))) {
    mode_ = Mode::direct;
    struct stat target {};
    const bool regular = ::stat(path_.c_str(), &target) == 0 && S_ISREG(target.st_mode);
    fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_NOCTTY | O_CLOEXEC | (regular ? O_TRUNC : 0), 0666);
  } else {
    mode_ = Mode::unnamed;
    fd = ::open(folder_of(target_).c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    // commit() links the file through /proc/self/fd: without it, fall back.
    if (fd >= 0 && ::access(proc_fd_path(fd).c_str(), F_OK) != 0) {
      ::close(fd);
      fd = -1;
    }
    if (fd < 0) {
      mode_ = Mode::named;
      fd = open_named_temp(target_, temp_);
    }
    // Replacing a file keeps its permissions (as far as this user may set them).
    if (fd >= 0 && replace) {
      struct stat old {};
      if (::stat(target_.c_str(), &old) == 0) (void)::fchmod(fd, old.st_mode & 07777);
    }
  }
  if (fd < 0) fail(errno);
  file_ = ::fdopen(fd, "wb");
  if (!file_) {
    const int err = errno;
    ::close(fd);
    if (!temp_.empty()) ::unlink(temp_.c_str());
    fail(err);
  }
}

AtomicFile::~AtomicFile() {
  if (!file_ || mode_ == Mode::standard_output) return;
  std::fclose(file_);
  if (mode_ == Mode::named) ::unlink(temp_.c_str());
}

void AtomicFile::fail(int err) const {
  throw error("cannot write " + path_ + ": " + std::strerror(err));
}

void AtomicFile::write(const char* data, std::size_t n) {
  if (n != 0 && std::fwrite(data, 1, n, file_) != n) fail(errno ? errno : EIO);
}

void AtomicFile::commit() {
  if (!file_) throw error("cannot write " + path_ + ": the output is already closed");
  int err = std::fflush(file_) == 0 ? 0 : errno;
  if (err == 0 && std::ferror(file_)) err = EIO;
  if (mode_ == Mode::standard_output) {
    file_ = nullptr;
    if (err != 0) fail(err);
    return;
  }
  if (err == 0 && mode_ == Mode::unnamed) {
    // linkat cannot replace an existing file: link under a unique name, then rename.
    const std::string from = proc_fd_path(fileno(file_));
    for (int attempt = 0; attempt < max_name_attempts; ++attempt) {
      temp_ = temp_name(target_);
      err = ::linkat(AT_FDCWD, from.c_str(), AT_FDCWD, temp_.c_str(), AT_SYMLINK_FOLLOW) == 0 ? 0 : errno;
      if (err != EEXIST) break;
    }
    if (err == 0) mode_ = Mode::named;  // now a named temporary: renamed below, or removed
    else temp_.clear();
  }
  const bool closed = std::fclose(file_) == 0;
  if (err == 0 && !closed) err = errno;
  file_ = nullptr;
  if (mode_ == Mode::named && err == 0 && std::rename(temp_.c_str(), target_.c_str()) != 0) err = errno;
  if (err == 0) return;
  if (mode_ == Mode::named) ::unlink(temp_.c_str());
  fail(err);
}

}  // namespace matchblas
