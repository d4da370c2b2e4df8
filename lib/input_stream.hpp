// One input stream for every reader (Matrix Market, marriage instances,
// b-value files): a path or "-" (standard input), a regular file, pipe,
// FIFO or device, plain or gzip (recognised from the first two bytes, the
// gzip magic 1f 8b, never by the name), read once from the start in order.
// gzip: every member is read, one after the other, as `gzip -d` does (RFC
// 1952 allows several members; `cat a.gz b.gz` makes such a file); data
// after the last member that is not another member (zero padding included)
// is an error naming the file and the byte offset ("trailing data after the
// gzip stream"), never ignored (gzip -d only warns).
// LineReader splits it into lines with a length limit; parse_integer is the
// one checked integer parser of the line-based formats (whole token, range
// checked, no silent truncation); printable makes input text quoted in a
// message one printable line.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace matchblas {

class InputStream {
 public:
  // Opens path ("-": standard input, left open) and reads its first bytes
  // (gzip or plain). Throws parse_error (name, 0, "cannot open: ...") when
  // it cannot be opened or read, std::bad_alloc when its buffers cannot be.
  explicit InputStream(const std::string& path);
  ~InputStream();
  InputStream(const InputStream&) = delete;
  InputStream& operator=(const InputStream&) = delete;

  // Up to n bytes of (decompressed) data, 0 at the end; throws parse_error
  // (name, 0, reason) on a read error or corrupt gzip data.
  std::size_t read(char* dst, std::size_t n);
  // Like read, but returns 0 and keeps the reason in failure() instead of
  // throwing (for callers that add the line number).
  std::size_t read_noexcept(char* dst, std::size_t n) noexcept;
  const std::string& failure() const noexcept { return failure_; }
  // Whether that failure is zlib's failed allocation (readers throw
  // std::bad_alloc, which they report as out_of_memory).
  bool failed_for_memory() const noexcept { return out_of_memory_; }

  // The name for messages: the path, or "<stdin>".
  const std::string& name() const noexcept { return name_; }
  // Bytes of a regular file (0 for pipes, FIFOs, devices); after the first
  // read, whether the data is gzip-compressed.
  std::size_t file_bytes() const noexcept { return file_bytes_; }
  bool compressed() const noexcept;

 private:
  std::size_t raw_read(char* dst, std::size_t n);  // from the descriptor; sets failure_
  bool fill();                                   // more compressed input; false at its end
  std::size_t inflate_some(char* dst, std::size_t n);
  std::string name_;
  int fd_ = -1;
  bool own_fd_ = false;
  std::size_t file_bytes_ = 0;
  std::string failure_;
  bool gzip_ = false;        // decided by the first bytes
  bool ended_ = false;       // gzip: the last member ended
  bool out_of_memory_ = false;
  std::size_t buffer_ = 0;   // bytes read at a time
  void* z_ = nullptr;        // z_stream (gzip)
  std::string in_;           // input bytes read but not yet used (in_pos_ onwards)
  std::size_t in_pos_ = 0;
  std::size_t consumed_ = 0; // compressed bytes used before in_
  std::string out_;          // gzip: inflated ahead of small requests (out_pos_ onwards)
  std::size_t out_pos_ = 0;
  bool in_eof_ = false;
};

// Lines of a stream, '\n' removed (and a '\r' before it), each at most
// max_line bytes; line() is the 1-based number of the last line returned.
class LineReader {
 public:
  static constexpr std::size_t default_max_line = std::size_t(64) << 20;
  explicit LineReader(InputStream& in, std::size_t max_line = default_max_line) : in_(in), max_line_(max_line) {}
  bool next(std::string& line);  // false at the end; throws parse_error with the line number
  long long line() const noexcept { return line_; }

 private:
  InputStream& in_;
  std::size_t max_line_;
  std::string buf_;
  std::size_t pos_ = 0;
  bool eof_ = false;
  long long line_ = 0;
};

// The whole of `token` as a base-10 integer in [lo, hi] (an optional leading
// '+'); false when it is not one (bad characters, empty, out of range).
bool parse_integer(std::string_view token, long long lo, long long hi, long long& out) noexcept;

// Input text for a one-line message: at most max_bytes of s (then "..."),
// control bytes, DEL and non-ASCII bytes written as \xNN (a NUL would end
// the message, a newline split it).
std::string printable(std::string_view s, std::size_t max_bytes = std::string_view::npos);

}  // namespace matchblas
