// Progress on standard error; see progress.hpp. The percent read comes from
// the offset of the descriptor open on the input (/proc/self/fdinfo), so
// that the readers need no hook: for a gzip file it is the compressed bytes
// read of the compressed size.
#include "apps/progress.hpp"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace matchblas::cli {

namespace {

constexpr auto first_draw = std::chrono::milliseconds(1000);  // "runs longer than about a second"
constexpr auto redraw = std::chrono::milliseconds(250);

// The offset of this process's descriptor open on `path` (device and inode
// equal), or -1.
long long offset_in(const std::string& path) {
  struct stat want {};
  if (path == "-" ? ::fstat(0, &want) != 0 : ::stat(path.c_str(), &want) != 0) return -1;
  DIR* fds = ::opendir("/proc/self/fd");
  if (!fds) return -1;
  long long pos = -1;
  while (const dirent* e = ::readdir(fds)) {
    const int fd = std::atoi(e->d_name);
    struct stat st {};
    if (e->d_name[0] == '.' || ::fstat(fd, &st) != 0 || st.st_dev != want.st_dev || st.st_ino != want.st_ino)
      continue;
    std::ifstream info("/proc/self/fdinfo/" + std::string(e->d_name));
    for (std::string key; info >> key;)
      if (key == "pos:") {
        long long p = -1;
        if (info >> p) pos = std::max(pos, p);
        break;
      }
  }
  ::closedir(fds);
  return pos;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

Progress::Level Progress::level(const Args& a) {
  if (a.flag("quiet") && a.flag("verbose")) throw usage_error("--quiet and --verbose conflict: give one");
  return a.flag("quiet") ? Level::quiet : a.flag("verbose") ? Level::verbose : Level::normal;
}

bool Progress::shows_lines(Level level) {
  return level == Level::verbose || (level == Level::normal && ::isatty(2) == 1);
}

Progress::Progress(Level level) : level_(level), terminal_(::isatty(2) == 1) {
  if (level_ != Level::quiet && terminal_) thread_ = std::thread([this] { ticker(); });
}

Progress::~Progress() {
  finish();
  {
    const std::lock_guard<std::mutex> hold(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Progress::step(const std::string& name, const std::string& input) {
  finish();
  const std::lock_guard<std::mutex> hold(mutex_);
  name_ = name;
  input_ = input;
  input_size_ = -1;
  struct stat st {};
  if (!input.empty() && (input == "-" ? ::fstat(0, &st) : ::stat(input.c_str(), &st)) == 0 && S_ISREG(st.st_mode))
    input_size_ = st.st_size;
  start_ = std::chrono::steady_clock::now();
  active_ = true;
  wake_.notify_all();
}

void Progress::finish() {
  const std::lock_guard<std::mutex> hold(mutex_);
  if (!active_) return;
  active_ = false;
  clear_line();
  if (level_ == Level::verbose) std::fprintf(stderr, "matchblas: %s: %.3f s\n", name_.c_str(), seconds_since(start_));
}

std::string Progress::line() const {
  char buf[64];
  std::string s = "matchblas: " + name_;
  if (input_size_ > 0) {
    const long long pos = offset_in(input_);
    if (pos >= 0) {
      std::snprintf(buf, sizeof buf, ", %.0f%% read", 100.0 * double(std::min(pos, input_size_)) / double(input_size_));
      s += buf;
    }
  }
  std::snprintf(buf, sizeof buf, ", %.1f s", seconds_since(start_));
  return s + buf;
}

void Progress::clear_line() {
  if (!drawn_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  drawn_ = false;
}

void Progress::ticker() {
  std::unique_lock<std::mutex> hold(mutex_);
  while (!stop_) {
    wake_.wait_for(hold, redraw);
    if (stop_ || !active_ || std::chrono::steady_clock::now() - start_ < first_draw) continue;
    std::fprintf(stderr, "\r%s\033[K", line().c_str());
    std::fflush(stderr);
    drawn_ = true;
  }
}

}  // namespace matchblas::cli
