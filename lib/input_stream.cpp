// One input stream for every reader; see input_stream.hpp. The file
// descriptor (a dup of 0 for "-") goes to zlib's gzdopen, which reads gzip
// members and passes plain bytes through unchanged, so nothing is opened twice
// and nothing is peeked and re-read.
#include "lib/input_stream.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>

#include "lib/error.hpp"

namespace matchblas {

namespace {
gzFile gz(void* p) { return static_cast<gzFile>(p); }
}  // namespace

InputStream::InputStream(const std::string& path) : name_(path == "-" ? "<stdin>" : path) {
  const int fd = path == "-" ? ::fcntl(0, F_DUPFD_CLOEXEC, 0) : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw parse_error(name_, 0, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      ::close(fd);
      throw parse_error(name_, 0, "cannot read: is a directory");
    }
    if (S_ISREG(st.st_mode)) file_bytes_ = std::size_t(st.st_size);
  }
  gz_ = gzdopen(fd, "rb");
  if (!gz_) {
    ::close(fd);
    throw out_of_memory(name_ + ": out of memory opening the input");
  }
  // 1 MiB buffers for large or unknown inputs; a small file gets small ones
  // (zlib allocates twice this size for gzip data).
  const std::size_t want = file_bytes_ ? std::clamp<std::size_t>(file_bytes_, 8192, std::size_t(1) << 20) : std::size_t(1) << 20;
  gzbuffer(gz(gz_), unsigned(want));
}

InputStream::~InputStream() {
  if (gz_) gzclose(gz(gz_));
}

bool InputStream::compressed() const noexcept { return gz_ && gzdirect(gz(gz_)) == 0; }

std::size_t InputStream::read_noexcept(char* dst, std::size_t n) noexcept {
  if (!failure_.empty()) return 0;
  const int got = gzread(gz(gz_), dst, unsigned(std::min<std::size_t>(n, 1u << 30)));
  int code = Z_OK;
  const char* msg = gzerror(gz(gz_), &code);
  if (got < 0 || (code != Z_OK && code != Z_STREAM_END)) {
    if (code == Z_ERRNO) failure_ = std::string("read error: ") + std::strerror(errno);
    else {
      std::string why = msg ? msg : "";
      if (why.rfind("<fd:", 0) == 0 && why.find(": ") != std::string::npos) why.erase(0, why.find(": ") + 2);
      failure_ = "corrupt or truncated gzip data (" + why + ")";
    }
    return got > 0 ? std::size_t(got) : 0;
  }
  return std::size_t(got);
}

std::size_t InputStream::read(char* dst, std::size_t n) {
  const std::size_t got = read_noexcept(dst, n);
  if (got == 0 && !failure_.empty()) throw parse_error(name_, 0, failure_);
  return got;
}

bool LineReader::next(std::string& line) {
  for (;;) {
    const std::size_t nl = buf_.find('\n', pos_);
    if (nl != std::string::npos || (eof_ && pos_ < buf_.size())) {
      const std::size_t end = nl == std::string::npos ? buf_.size() : nl;
      ++line_;
      if (end - pos_ > max_line_)
        throw parse_error(in_.name(), line_, "line longer than " + std::to_string(max_line_) + " bytes");
      line.assign(buf_, pos_, end - pos_);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      pos_ = nl == std::string::npos ? buf_.size() : nl + 1;
      return true;
    }
    if (eof_) return false;
    if (buf_.size() - pos_ > max_line_)
      throw parse_error(in_.name(), line_ + 1, "line longer than " + std::to_string(max_line_) + " bytes");
    buf_.erase(0, pos_);
    pos_ = 0;
    const std::size_t have = buf_.size();
    buf_.resize(have + (std::size_t(1) << 16));
    const std::size_t got = in_.read_noexcept(buf_.data() + have, buf_.size() - have);
    buf_.resize(have + got);
    if (got == 0) {
      if (!in_.failure().empty()) throw parse_error(in_.name(), line_ + 1, in_.failure());
      eof_ = true;
    }
  }
}

bool parse_integer(std::string_view t, long long lo, long long hi, long long& out) noexcept {
  if (!t.empty() && t[0] == '+') {
    t.remove_prefix(1);
    if (!t.empty() && (t[0] == '-' || t[0] == '+')) return false;
  }
  if (t.empty()) return false;
  long long v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc{} || end != t.data() + t.size() || v < lo || v > hi) return false;
  out = v;
  return true;
}

}  // namespace matchblas
