// One input stream for every reader (Matrix Market, marriage instances,
// b-value files): a path or "-" (standard input), a regular file, pipe,
// FIFO or device, plain or gzip (recognised from the bytes, by zlib's
// transparent reader, never by the name), read once from the start in order.
// LineReader splits it into lines with a length limit; parse_integer is the
// one checked integer parser of the line-based formats (whole token, range
// checked, no silent truncation).
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace matchblas {

class InputStream {
 public:
  // Opens path ("-": standard input, left open). Throws parse_error
  // (name, 0, "cannot open: ...") when it cannot be opened.
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

  // The name for messages: the path, or "<stdin>".
  const std::string& name() const noexcept { return name_; }
  // Bytes of a regular file (0 for pipes, FIFOs, devices); after the first
  // read, whether the data is gzip-compressed.
  std::size_t file_bytes() const noexcept { return file_bytes_; }
  bool compressed() const noexcept;

 private:
  std::string name_;
  void* gz_ = nullptr;  // gzFile
  std::size_t file_bytes_ = 0;
  std::string failure_;
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

}  // namespace matchblas
