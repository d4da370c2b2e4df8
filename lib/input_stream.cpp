// One input stream for every reader; see input_stream.hpp. The file
// descriptor (a dup of 0 for "-") is read with read(2); gzip data goes
// through zlib's inflate (windowBits 16 + 15: gzip wrapper, checked CRC and
// length), member after member, so nothing is opened twice and nothing is
// peeked and re-read.
#include "lib/input_stream.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <new>

#include "lib/error.hpp"

namespace matchblas {

namespace {
z_stream* zs(void* p) { return static_cast<z_stream*>(p); }
}  // namespace

InputStream::InputStream(const std::string& path) : name_(path == "-" ? "<stdin>" : path) {
  fd_ = path == "-" ? ::fcntl(0, F_DUPFD_CLOEXEC, 0) : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw parse_error(name_, 0, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd_, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      ::close(fd_);
      throw parse_error(name_, 0, "cannot read: is a directory");
    }
    if (S_ISREG(st.st_mode)) file_bytes_ = std::size_t(st.st_size);
  }
  // The buffer of compressed (or first) bytes, never reallocated while
  // reading (fill() keeps at most one unused byte). Small files get small
  // buffers (ASan-filled 1 MiB buffers made the fuzz targets slow).
  buffer_ = file_bytes_ ? std::clamp<std::size_t>(file_bytes_, 8192, std::size_t(1) << 20) : std::size_t(1) << 20;
  try {
    in_.reserve(buffer_ + 2);
    // The first bytes decide: gzip's magic 1f 8b, or plain.
    while (in_.size() < 2 && fill()) {
    }
    if (!failure_.empty()) throw parse_error(name_, 0, failure_);
    gzip_ = in_.size() >= 2 && (unsigned char)in_[0] == 0x1f && (unsigned char)in_[1] == 0x8b;
    if (gzip_) {
      out_.reserve(2 * buffer_);
      z_ = new z_stream{};
      if (inflateInit2(zs(z_), 16 + MAX_WBITS) != Z_OK) throw std::bad_alloc();
    }
  } catch (...) {
    delete zs(z_);
    ::close(fd_);
    throw;
  }
}

InputStream::~InputStream() {
  if (z_) {
    inflateEnd(zs(z_));  // also after a failed inflateInit2: it checks the state
    delete zs(z_);
  }
  ::close(fd_);
}

bool InputStream::compressed() const noexcept { return gzip_; }

std::size_t InputStream::raw_read(char* dst, std::size_t n) {
  for (;;) {
    const ssize_t got = ::read(fd_, dst, std::min<std::size_t>(n, std::size_t(1) << 30));
    if (got >= 0) return std::size_t(got);
    if (errno == EINTR) continue;
    failure_ = std::string("read error: ") + std::strerror(errno);
    return 0;
  }
}

// Reads more compressed input into in_ (what is unused stays); false when
// the input has ended (or failed: failure_ says so).
bool InputStream::fill() {
  if (in_eof_) return false;
  consumed_ += in_pos_;
  in_.erase(0, in_pos_);
  in_pos_ = 0;
  const std::size_t want = buffer_ + 2 - in_.size();
  const std::size_t have = in_.size();
  in_.resize(have + want);
  const std::size_t got = raw_read(in_.data() + have, want);
  in_.resize(have + got);
  if (got == 0) in_eof_ = true;
  return got > 0;
}

// Inflates into dst until it is full or the data ends, as gzread does; on
// corrupt or truncated data what this call inflated is dropped (the bytes
// just before a detected corruption are often garbage already) and the
// failure kept.
std::size_t InputStream::inflate_some(char* dst, std::size_t n) {
  z_stream* z = zs(z_);
  std::size_t total = 0;
  const auto corrupt = [&](const std::string& why) {
    failure_ = "corrupt or truncated gzip data (" + why + ")";
    return std::size_t(0);
  };
  while (total < n && !ended_) {
    if (in_pos_ == in_.size() && !fill()) return failure_.empty() ? corrupt("unexpected end of file") : 0;
    z->next_in = reinterpret_cast<Bytef*>(in_.data() + in_pos_);
    z->avail_in = uInt(std::min<std::size_t>(in_.size() - in_pos_, std::size_t(1) << 30));
    z->next_out = reinterpret_cast<Bytef*>(dst + total);
    z->avail_out = uInt(std::min<std::size_t>(n - total, std::size_t(1) << 30));
    const uInt before_in = z->avail_in;
    const int rc = inflate(z, Z_NO_FLUSH);
    in_pos_ += before_in - z->avail_in;
    total += std::size_t(z->next_out - reinterpret_cast<Bytef*>(dst + total));
    if (rc == Z_MEM_ERROR) {  // zlib allocates its window at the first inflate
      failure_ = "out of memory";
      out_of_memory_ = true;
      return 0;
    }
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) return corrupt(z->msg ? z->msg : "inflate failed");
    if (rc == Z_STREAM_END) {
      // Another member, or trailing data (an error), or the end.
      while (in_.size() - in_pos_ < 2 && fill()) {
      }
      if (!failure_.empty()) return 0;
      if (in_pos_ == in_.size()) {
        ended_ = true;
      } else if (in_.size() - in_pos_ >= 2 && (unsigned char)in_[in_pos_] == 0x1f &&
                 (unsigned char)in_[in_pos_ + 1] == 0x8b) {
        inflateReset(z);
      } else {
        failure_ = "trailing data after the gzip stream, at byte " + std::to_string(consumed_ + in_pos_) +
                   " (not another gzip member)";
        return total;  // the member was whole: its text stands, the error follows it
      }
    }
  }
  return total;
}

std::size_t InputStream::read_noexcept(char* dst, std::size_t n) noexcept {
  if (n == 0) return 0;
  if (gzip_) {
    // As gzread: the request is filled whole (up to the end of the data),
    // large pieces inflated in place, small ones through an output buffer
    // of twice the input buffer, filled ahead; when a corruption is found
    // on the way, the whole request is dropped (the text just before a
    // detected corruption is often garbage already).
    const bool trailing = failure_.rfind("trailing", 0) == 0;  // the text before it stands
    if (!failure_.empty() && !trailing) return 0;
    std::size_t total = 0;
    while (total < n) {
      if (out_pos_ < out_.size()) {
        const std::size_t k = std::min(n - total, out_.size() - out_pos_);
        std::memcpy(dst + total, out_.data() + out_pos_, k);
        out_pos_ += k;
        total += k;
        continue;
      }
      if (!failure_.empty() || ended_) break;
      if (n - total >= 2 * buffer_) {
        total += inflate_some(dst + total, n - total);
      } else {
        out_.resize(2 * buffer_);
        out_.resize(inflate_some(out_.data(), out_.size()));
        out_pos_ = 0;
      }
    }
    return failure_.empty() || failure_.rfind("trailing", 0) == 0 ? total : 0;
  }
  if (!failure_.empty()) return 0;
  // Plain: what is buffered first, then straight from the descriptor.
  if (in_pos_ < in_.size()) {
    const std::size_t k = std::min(n, in_.size() - in_pos_);
    std::memcpy(dst, in_.data() + in_pos_, k);
    in_pos_ += k;
    return k;
  }
  if (in_eof_) return 0;
  const std::size_t got = raw_read(dst, n);
  if (got == 0) in_eof_ = true;
  return got;
}

std::size_t InputStream::read(char* dst, std::size_t n) {
  const std::size_t got = read_noexcept(dst, n);
  if (got == 0 && !failure_.empty()) {
    if (out_of_memory_) throw std::bad_alloc();
    throw parse_error(name_, 0, failure_);
  }
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
      if (in_.failed_for_memory()) throw std::bad_alloc();
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

std::string printable(std::string_view s, std::size_t max_bytes) {
  const bool cut = s.size() > max_bytes;
  if (cut) s = s.substr(0, max_bytes);
  std::string out;
  out.reserve(s.size() + (cut ? 3 : 0));
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7f) {
      out += ch;
    } else {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
  }
  if (cut) out += "...";
  return out;
}

}  // namespace matchblas
