// Matrix Market reader and writer (contract in lib/mmio.hpp).
// Source: the NIST format description,
// https://math.nist.gov/MatrixMarket/formats.html; error style after
// fast_matrix_market ("line N: reason").
// This file reads (a whole stream, or a plain file's layout and one piece
// of its entry lines for the distributed reader: the same Parser, its lines
// counted from the piece's start); lib/mmio_write.cpp writes.
// Reading: O(bytes) work, one pass, one core; the input goes through a fixed
// chunk buffer (plain stdio or zlib), complete lines are parsed in place with
// std::from_chars, the tail of a chunk moves to the front of the next. The
// vectors are reserved from the size line, capped by what the file's size
// can hold, so a lying header cannot make us allocate terabytes.
#include "lib/mmio.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <string.h>  // memrchr
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>

#include "lib/error.hpp"
#include "lib/input_stream.hpp"

namespace matchblas {

namespace {

constexpr std::size_t chunk_bytes = std::size_t(8) << 20;
constexpr std::size_t max_line_bytes = std::size_t(64) << 20;
constexpr offset_t unknown_size_reserve = offset_t(1) << 26;

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
inline bool is_delim(char c) { return is_blank(c) || c == '\n'; }

// The token starting at p (up to a delimiter), shortened and made printable
// for messages.
std::string token_at(const char* p) {
  const char* e = p;
  while (!is_delim(*e) && e - p < 40) ++e;
  return printable(std::string_view(p, std::size_t(e - p))) + (is_delim(*e) ? "" : "...");
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::vector<std::string_view> split(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && is_delim(s[i])) ++i;
    std::size_t j = i;
    while (j < s.size() && !is_delim(s[j])) ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

// A decimal that from_chars found out of double's range: overflow when its
// decimal exponent is positive, else an underflow that rounds to zero.
bool overflows(const char* p, const char* e) {
  long long digits_before_point = 0, zeros_after_point = 0, exp = 0;
  const char* q = p + (*p == '+' || *p == '-');
  while (q < e && *q == '0') ++q;
  while (q < e && *q >= '0' && *q <= '9') ++q, ++digits_before_point;
  bool zero = digits_before_point == 0;  // every digit 0: the value is 0 whatever the exponent
  if (q < e && *q == '.') {
    ++q;
    if (digits_before_point == 0)
      while (q < e && *q == '0') ++q, ++zeros_after_point;
    if (q < e && *q >= '1' && *q <= '9') zero = false;
    while (q < e && *q >= '0' && *q <= '9') ++q;
  }
  if (zero) return false;
  if (q < e && (*q == 'e' || *q == 'E')) {
    ++q;
    const bool negative = q < e && *q == '-';
    // An exponent beyond long long: its sign decides (the digits cannot).
    if (std::from_chars(q + (*q == '+'), e, exp).ec == std::errc::result_out_of_range) return !negative;
  }
  return (digits_before_point > 0 ? digits_before_point : -zeros_after_point) + exp > 0;
}

// Parses every line of a Matrix Market file handed to it in order. lines()
// takes whole lines (the range ends with '\n', which also stops every scan).
class Parser {
 public:
  Parser(std::string name, std::size_t size_hint, const std::function<void(const MmHeader&)>* on_header = nullptr)
      : name_(std::move(name)), size_hint_(size_hint), on_header_(on_header && *on_header ? on_header : nullptr) {}

  // A parser of entry lines alone (a piece of a coordinate file whose header
  // h was read apart): lines count from 1 at the piece's first line, and the
  // entry after the first `limit` is "more entries than declared".
  Parser(std::string name, const MmHeader& h, offset_t limit, std::size_t size_hint)
      : name_(std::move(name)), size_hint_(size_hint), on_header_(nullptr), state_(State::entries), limit_(limit) {
    m_.header = h;
    const std::size_t r = std::size_t(std::min<offset_t>(limit, offset_t(size_hint / 4) + 1));
    m_.row.reserve(r);
    m_.col.reserve(r);
    if (h.field != MmField::pattern) m_.val.reserve(r);
  }

  // Header lines from p (whole lines, as lines() takes them) until the size
  // line has been read; returns where the entries begin (end when they do not
  // begin in [p, end)).
  const char* header(const char* p, const char* end) {
    while (p < end && state_ != State::entries) {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', end - p));
      ++line_;
      header_line(std::string_view(p, nl - p));
      p = nl + 1;
    }
    return p;
  }
  bool header_done() const { return state_ == State::entries; }
  const MmHeader& header() const { return m_.header; }

  // The entries read so far, without the end-of-file checks of finish().
  MmMatrix take() { return std::move(m_); }

  void lines(const char* p, const char* end) {
    while (p < end && state_ != State::entries) {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', end - p));
      ++line_;
      header_line(std::string_view(p, nl - p));
      p = nl + 1;
    }
    if (p == end) return;
    if (m_.header.format == MmFormat::array) {
      if (m_.header.field == MmField::integer) array_lines<MmField::integer>(p, end);
      else array_lines<MmField::real>(p, end);
    } else if (m_.header.symmetry == MmSymmetry::skew_symmetric) {
      coord_dispatch<true>(p, end);
    } else {
      coord_dispatch<false>(p, end);
    }
  }

  long long line() const { return line_; }

  MmMatrix finish() {
    if (state_ == State::banner) fail(1, "missing %%MatrixMarket banner (empty file)");
    if (state_ == State::size) fail(line_ + 1, "missing size line (file ends after the header)");
    if (count_ < m_.header.entries)
      fail(line_ + 1, "expected " + std::to_string(m_.header.entries) + " entries, file ends after " +
                          std::to_string(count_));
    if (m_.header.format == MmFormat::array) expand_array();
    return std::move(m_);
  }

  [[noreturn]] void fail(long long line, const std::string& reason) const {
    throw parse_error(name_, line, reason);
  }

 private:
  enum class State { banner, size, entries };

  void header_line(std::string_view s) {
    if (state_ == State::banner) return banner(s);
    const auto tok = split(s);
    if (tok.empty() || tok[0][0] == '%') return;  // blank or comment line
    size_line(s, tok);
  }

  void banner(std::string_view s) {
    const auto tok = split(s);
    if (tok.empty() || !iequals(tok[0], "%%MatrixMarket")) fail(line_, "missing %%MatrixMarket banner");
    if (tok.size() < 5)
      fail(line_, "incomplete banner: expected '%%MatrixMarket matrix <format> <field> <symmetry>'");
    if (tok.size() > 5) fail(line_, "extra token '" + printable(tok[5]) + "' in banner");
    if (!iequals(tok[1], "matrix")) fail(line_, "unsupported object '" + printable(tok[1]) + "' (only 'matrix')");
    MmHeader& h = m_.header;
    if (iequals(tok[2], "coordinate")) h.format = MmFormat::coordinate;
    else if (iequals(tok[2], "array")) h.format = MmFormat::array;
    else fail(line_, "unknown format '" + printable(tok[2]) + "' (expected coordinate or array)");
    if (iequals(tok[3], "real")) h.field = MmField::real;
    else if (iequals(tok[3], "integer")) h.field = MmField::integer;
    else if (iequals(tok[3], "pattern")) h.field = MmField::pattern;
    else if (iequals(tok[3], "complex")) fail(line_, "complex matrices are not supported");
    else fail(line_, "unknown field '" + printable(tok[3]) + "' (expected real, integer or pattern)");
    if (iequals(tok[4], "general")) h.symmetry = MmSymmetry::general;
    else if (iequals(tok[4], "symmetric")) h.symmetry = MmSymmetry::symmetric;
    else if (iequals(tok[4], "skew-symmetric")) h.symmetry = MmSymmetry::skew_symmetric;
    else if (iequals(tok[4], "hermitian")) fail(line_, "hermitian matrices are not supported");
    else fail(line_, "unknown symmetry '" + printable(tok[4]) +
                         "' (expected general, symmetric or skew-symmetric)");
    if (h.format == MmFormat::array && h.field == MmField::pattern)
      fail(line_, "array format with pattern field is not allowed");
    if (h.field == MmField::pattern && h.symmetry == MmSymmetry::skew_symmetric)
      fail(line_, "pattern matrices cannot be skew-symmetric (the format forbids it)");
    state_ = State::size;
  }

  void size_line(std::string_view s, const std::vector<std::string_view>& tok) {
    MmHeader& h = m_.header;
    const bool coord = h.format == MmFormat::coordinate;
    const std::size_t want = coord ? 3 : 2;
    const std::string expected = coord ? "'rows cols entries'" : "'rows cols'";
    long long v[3] = {0, 0, 0};
    for (std::size_t i = 0; i < std::min(want, tok.size()); ++i) {
      auto [e, ec] = std::from_chars(tok[i].data() + (tok[i][0] == '+'), tok[i].data() + tok[i].size(), v[i]);
      if (ec != std::errc{} || e != tok[i].data() + tok[i].size() || v[i] < 0)
        fail(line_, "bad size line '" + printable(s.substr(0, 80)) + "': expected " + expected);
    }
    if (tok.size() != want) fail(line_, "bad size line '" + printable(s.substr(0, 80)) + "': expected " + expected);
    constexpr long long vmax = 2147483647;
    if (v[0] > vmax) fail(line_, "row count " + std::to_string(v[0]) + " exceeds 2147483647");
    if (v[1] > vmax) fail(line_, "column count " + std::to_string(v[1]) + " exceeds 2147483647");
    h.rows = vertex_t(v[0]);
    h.cols = vertex_t(v[1]);
    if (h.symmetry != MmSymmetry::general && h.rows != h.cols)
      fail(line_, to_string(h.symmetry) + " matrix must be square, not " + std::to_string(h.rows) + " x " +
                      std::to_string(h.cols));
    const offset_t n = h.rows;
    if (coord) h.entries = v[2];
    else if (h.symmetry == MmSymmetry::general) h.entries = offset_t(h.rows) * h.cols;
    else if (h.symmetry == MmSymmetry::symmetric) h.entries = n * (n + 1) / 2;
    else h.entries = n * (n - 1) / 2;
    limit_ = h.entries;
    state_ = State::entries;
    if (on_header_) (*on_header_)(h);  // the caller's memory check: may throw
    // Each entry takes at least 4 bytes ("1 1\n"), each array value 2 ("1\n").
    const offset_t room = on_header_   ? h.entries
                          : size_hint_ ? offset_t(size_hint_ / (coord ? 4 : 2)) + 1
                                       : unknown_size_reserve;
    const std::size_t r = std::size_t(std::min(h.entries, room));
    if (coord) {
      m_.row.reserve(r);
      m_.col.reserve(r);
    }
    if (h.field != MmField::pattern) m_.val.reserve(r);
  }

  template <bool Skew>
  void coord_dispatch(const char* p, const char* end) {
    switch (m_.header.field) {
      case MmField::pattern: return coord_lines<MmField::pattern, Skew>(p, end);
      case MmField::integer: return coord_lines<MmField::integer, Skew>(p, end);
      case MmField::real: return coord_lines<MmField::real, Skew>(p, end);
    }
  }

  // Skips blanks, then the rest of a blank or comment line; true when it did.
  static bool skip_empty(const char*& p, const char* end) {
    while (is_blank(*p)) ++p;
    if (*p == '\n') {
      ++p;
      return true;
    }
    if (*p == '%') {
      p = static_cast<const char*>(std::memchr(p, '\n', end - p)) + 1;
      return true;
    }
    return false;
  }

  const char* index(const char* p, const char* end, long long n, long long& v, long long line,
                    const char* what) const {
    while (is_blank(*p)) ++p;
    if (*p == '\n') fail(line, std::string("missing ") + what + " index");
    const char* q = p + (*p == '+');
    auto [e, ec] = std::from_chars(q, end, v);
    if ((ec != std::errc{} && ec != std::errc::result_out_of_range) || !is_delim(*e) || (q != p && *q == '-'))
      fail(line, std::string("bad ") + what + " index '" + token_at(p) + "'");
    if (ec != std::errc{} || v < 1 || v > n)
      fail(line, std::string(what) + " index " + token_at(p) + " out of range 1.." + std::to_string(n));
    return e;
  }

  template <MmField F>
  const char* value(const char* p, const char* end, double& d, long long line) const {
    while (is_blank(*p)) ++p;
    if (*p == '\n') fail(line, "missing value");
    const char* q = p + (*p == '+');
    const bool sign_ok = q == p || (*q != '-' && *q != '+');
    if constexpr (F == MmField::integer) {
      long long i = 0;
      auto [e, ec] = std::from_chars(q, end, i);
      if (ec == std::errc::result_out_of_range && is_delim(*e) && sign_ok)
        fail(line, "integer out of range '" + token_at(p) + "'");
      if (ec != std::errc{} || !is_delim(*e) || !sign_ok) fail(line, "bad integer '" + token_at(p) + "'");
      d = double(i);
      return e;
    } else {
      auto [e, ec] = std::from_chars(q, end, d);
      if (ec == std::errc{} && is_delim(*e) && sign_ok) {
        if (!std::isfinite(d)) fail(line, std::isnan(d) ? "NaN value" : "infinite value");
        return e;
      }
      if (ec == std::errc::result_out_of_range && is_delim(*e) && sign_ok) {
        if (overflows(p, e)) fail(line, "infinite value (overflow) '" + token_at(p) + "'");
        d = *p == '-' ? -0.0 : 0.0;
        return e;
      }
      fail(line, "bad number '" + token_at(p) + "'");
    }
  }

  [[noreturn]] void end_of_entry(const char* p, long long line) const {
    fail(line, "extra token '" + token_at(p) + "' after entry" +
                   (m_.header.field == MmField::pattern ? " (pattern entries have no value)" : ""));
  }

  template <MmField F, bool Skew>
  void coord_lines(const char* p, const char* end) {
    long long line = line_;
    offset_t k = count_;
    const offset_t declared = m_.header.entries, limit = limit_;
    const long long nr = m_.header.rows, nc = m_.header.cols;
    auto& row = m_.row;
    auto& col = m_.col;
    auto& val = m_.val;
    while (p < end) {
      ++line;
      if (skip_empty(p, end)) continue;
      if (k == limit) fail(line, "more entries than the " + std::to_string(declared) + " declared");
      long long r, c;
      p = index(p, end, nr, r, line, "row");
      p = index(p, end, nc, c, line, "column");
      if constexpr (Skew) {
        if (r == c)
          fail(line, "diagonal entry (" + std::to_string(r) + "," + std::to_string(c) +
                         ") in a skew-symmetric matrix");
      }
      if constexpr (F != MmField::pattern) {
        double d;
        p = value<F>(p, end, d, line);
        val.push_back(d);
      }
      while (is_blank(*p)) ++p;
      if (*p != '\n') end_of_entry(p, line);
      ++p;
      row.push_back(vertex_t(r - 1));
      col.push_back(vertex_t(c - 1));
      ++k;
    }
    line_ = line;
    count_ = k;
  }

  template <MmField F>
  void array_lines(const char* p, const char* end) {
    long long line = line_;
    offset_t k = count_;
    const offset_t declared = m_.header.entries;
    while (p < end) {
      ++line;
      if (skip_empty(p, end)) continue;
      if (k == declared) fail(line, "more entries than the " + std::to_string(declared) + " declared");
      double d;
      p = value<F>(p, end, d, line);
      while (is_blank(*p)) ++p;
      if (*p != '\n') end_of_entry(p, line);
      ++p;
      m_.val.push_back(d);
      ++k;
    }
    line_ = line;
    count_ = k;
  }

  // The values as read (column-major, a triangle when not general) become
  // the full row-major matrix.
  void expand_array() {
    const MmHeader& h = m_.header;
    const std::size_t nr = std::size_t(h.rows), nc = std::size_t(h.cols);
    if (nr == 0 || nc == 0) return;  // no values: nothing to place (and no pass over 2^31 empty columns)
    std::vector<double> file = std::move(m_.val);
    std::vector<double> full(nr * nc);
    std::size_t t = 0;
    for (std::size_t j = 0; j < nc; ++j) {
      if (h.symmetry == MmSymmetry::general) {
        for (std::size_t i = 0; i < nr; ++i) full[i * nc + j] = file[t++];
      } else {
        const bool skew = h.symmetry == MmSymmetry::skew_symmetric;
        for (std::size_t i = skew ? j + 1 : j; i < nr; ++i) {
          const double v = file[t++];
          full[i * nc + j] = v;
          full[j * nc + i] = skew ? -v : v;
        }
      }
    }
    m_.val = std::move(full);
  }

  std::string name_;
  std::size_t size_hint_;  // bytes of input, 0 when unknown
  const std::function<void(const MmHeader&)>* on_header_;  // null: none
  State state_ = State::banner;
  long long line_ = 0;  // lines consumed so far
  offset_t count_ = 0;  // entries (coordinate) or values (array) read so far
  offset_t limit_ = 0;  // entries allowed (coordinate): the declared count, or a piece's share of it
  MmMatrix m_;
};

// Feeds a byte source to the parser through one chunk buffer. `read` fills
// up to n bytes and returns how many, 0 at the end; `failure` then tells
// whether the source failed (a message) or ended cleanly (empty).
template <class Read, class Failure>
void parse_stream(Parser& ps, std::vector<char>& buf, std::size_t len, Read read, Failure failure) {
  bool eof = false;
  for (;;) {
    while (!eof && len < buf.size()) {
      const std::size_t got = read(buf.data() + len, buf.size() - len);
      if (got == 0) eof = true;
      len += got;
    }
    const char* nl = len ? static_cast<const char*>(memrchr(buf.data(), '\n', len)) : nullptr;
    if (!nl) {
      if (eof) break;
      if (buf.size() >= max_line_bytes) ps.fail(ps.line() + 1, "line longer than 64 MiB");
      buf.resize(buf.size() * 2);
      continue;
    }
    const std::size_t used = std::size_t(nl + 1 - buf.data());
    ps.lines(buf.data(), buf.data() + used);
    std::memmove(buf.data(), buf.data() + used, len - used);
    len -= used;
    if (eof) break;
  }
  const std::string why = failure();
  if (!why.empty()) ps.fail(ps.line() + 1, why);
  if (len > 0) {  // a last line without '\n'
    buf.resize(len + 1);
    buf[len] = '\n';
    ps.lines(buf.data(), buf.data() + len + 1);
  }
}

}  // namespace

MmMatrix read_matrix_market(const std::string& path, const std::function<void(const MmHeader&)>& on_header) {
  try {
    InputStream in(path);
    const std::string& name = in.name();
    // A small file needs no 8 MiB buffer (the buffer only bounds how much
    // is parsed at a time; it grows for longer lines).
    const std::size_t bytes = in.file_bytes();
    std::vector<char> buf(bytes ? std::clamp<std::size_t>(bytes + 1, 4096, chunk_bytes) : chunk_bytes);
    // The first chunk tells whether the data is gzip (then the file's size
    // is a guess at a sixteenth of the text's, to bound the reservations).
    std::size_t head = 0;
    for (std::size_t got = 1; got != 0 && head < buf.size();) {
      got = in.read_noexcept(buf.data() + head, buf.size() - head);
      head += got;
    }
    Parser ps(name, in.compressed() ? in.file_bytes() * 16 : in.file_bytes(), &on_header);
    parse_stream(
        ps, buf, head, [&](char* dst, std::size_t n) { return in.read_noexcept(dst, n); },
        [&] {
          if (in.failed_for_memory()) throw std::bad_alloc();
          return in.failure();
        });
    return ps.finish();
  } catch (const std::bad_alloc&) {
    throw out_of_memory((path == "-" ? std::string("<stdin>") : path) + ": out of memory while reading the matrix");
  }
}

MmHeader read_matrix_market_header(const std::string& path) {
  struct header_read {
    MmHeader h;
  };
  try {
    read_matrix_market(path, [](const MmHeader& h) { throw header_read{h}; });
  } catch (const header_read& done) {
    return done.h;
  }
  // Unreachable: the reader either calls on_header or throws parse_error.
  throw parse_error(path, 0, "no size line");
}

double matrix_market_bytes(const MmHeader& h) {
  const double entries = double(h.entries);
  const double chunk = double(chunk_bytes);
  if (h.format == MmFormat::array) return chunk + sizeof(double) * (entries + double(h.rows) * double(h.cols));
  return chunk + entries * (2 * sizeof(vertex_t) + (h.field == MmField::pattern ? 0 : sizeof(double)));
}

MmMatrix read_matrix_market_text(std::string_view text, const std::string& name) {
  try {
    Parser ps(name, text.size());
    std::size_t used = 0;
    if (const void* nl = text.empty() ? nullptr : memrchr(text.data(), '\n', text.size())) {
      used = std::size_t(static_cast<const char*>(nl) - text.data()) + 1;
      ps.lines(text.data(), text.data() + used);
    }
    if (used < text.size()) {
      std::string last(text.substr(used));
      last += '\n';
      ps.lines(last.data(), last.data() + last.size());
    }
    return ps.finish();
  } catch (const std::bad_alloc&) {
    throw out_of_memory(name + ": out of memory while reading the matrix");
  }
}

MmLayout read_matrix_market_layout(const std::string& path) {
  MmLayout out;
  out.path = path;
  out.name = path == "-" ? "<stdin>" : path;
  // Only a non-empty regular file is read in pieces; anything else (a pipe
  // or FIFO above all, which a look at its header would consume) is left
  // untouched for the whole read.
  struct stat st {};
  if (path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) return out;
  InputStream in(path);
  out.name = in.name();
  out.file_bytes = in.file_bytes();
  std::vector<char> chunk(std::size_t(1) << 16);
  std::string buf;          // bytes read, not yet parsed
  std::uint64_t base = 0;   // the file offset of buf[0]
  Parser ps(out.name, 1);   // a size hint of one byte: no room reserved for entries
  for (bool first = true;; first = false) {
    const std::size_t got = in.read(chunk.data(), chunk.size());
    if (first && (in.compressed() || out.file_bytes == 0)) return out;  // not splittable
    buf.append(chunk.data(), got);
    if (got == 0 && !buf.empty() && buf.back() != '\n') buf += '\n';  // a last line without '\n'
    if (const void* nl = buf.empty() ? nullptr : memrchr(buf.data(), '\n', buf.size())) {
      const char* whole = static_cast<const char*>(nl) + 1;
      const char* stop = ps.header(buf.data(), whole);
      if (ps.header_done()) {
        out.splittable = true;
        out.header = ps.header();
        out.header_lines = ps.line();
        out.data_begin = std::min<std::uint64_t>(base + std::uint64_t(stop - buf.data()), out.file_bytes);
        return out;
      }
      base += std::uint64_t(whole - buf.data());
      buf.erase(0, std::size_t(whole - buf.data()));
    } else if (buf.size() >= max_line_bytes) {
      ps.fail(ps.line() + 1, "line longer than 64 MiB");
    }
    if (got == 0) {
      ps.finish();  // throws: the banner or the size line is missing
      throw parse_error(out.name, ps.line() + 1, "missing size line (file ends after the header)");
    }
  }
}

MmPiece read_matrix_market_piece(const MmLayout& layout, int part, int parts, offset_t limit) {
  MATCHBLAS_EXPECTS(layout.splittable && layout.header.format == MmFormat::coordinate,
                    "read_matrix_market_piece: a plain coordinate file");
  MATCHBLAS_EXPECTS(parts >= 1 && part >= 0 && part < parts, "read_matrix_market_piece: part in 0..parts-1");
  MmPiece piece;
  const int fd = ::open(layout.path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    piece.error = std::string("cannot open: ") + std::strerror(errno);
    return piece;
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  std::string failure;
  // Up to n bytes at `at`, fewer only at the end of the file.
  const auto read_at = [&](char* dst, std::size_t n, std::uint64_t at) {
    std::size_t done = 0;
    while (done < n) {
      const ssize_t got = ::pread(fd, dst + done, std::min<std::size_t>(n - done, std::size_t(1) << 30),
                                  off_t(at + done));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) failure = std::string("read error: ") + std::strerror(errno);
      if (got <= 0) break;
      done += std::size_t(got);
    }
    return done;
  };
  // The first line start at or after `at`: `at` itself when the byte before
  // it ends a line (or is the size line's end), else the byte after the next '\n'.
  const std::uint64_t begin_data = layout.data_begin, end_data = layout.file_bytes;
  const auto line_start = [&](std::uint64_t at) {
    if (at <= begin_data) return begin_data;
    std::vector<char> look(std::size_t(1) << 16);
    for (std::uint64_t from = at - 1; from < end_data;) {
      const std::size_t got = read_at(look.data(), look.size(), from);
      if (got == 0) break;
      if (const void* nl = std::memchr(look.data(), '\n', got))
        return from + std::uint64_t(static_cast<const char*>(nl) - look.data()) + 1;
      from += got;
    }
    return end_data;
  };
  const std::uint64_t span = end_data - begin_data;
  const auto nominal = [&](int k) {
    const std::uint64_t p = std::uint64_t(parts), kk = std::uint64_t(k);  // span * k / p without overflow
    return begin_data + span / p * kk + span % p * kk / p;
  };
  const std::uint64_t begin = line_start(nominal(part));
  const std::uint64_t end = part + 1 == parts ? end_data : line_start(nominal(part + 1));
  if (!failure.empty()) {  // not on a line: error_line stays 0
    piece.error = failure;
    return piece;
  }
  const std::size_t bytes = std::size_t(end > begin ? end - begin : 0);
  Parser ps(layout.name, layout.header, limit, bytes);
  try {
    std::vector<char> buf(std::clamp<std::size_t>(bytes + 1, 4096, chunk_bytes));
    std::uint64_t at = begin;
    parse_stream(
        ps, buf, 0,
        [&](char* dst, std::size_t n) {
          const std::size_t got = read_at(dst, std::min<std::uint64_t>(n, end - at), at);
          at += got;
          return got;
        },
        [&] { return failure; });
    piece.lines = ps.line();
  } catch (const parse_error& e) {
    piece.error_line = e.line();
    piece.error = e.reason();
  }
  piece.entries = ps.take();
  return piece;
}

}  // namespace matchblas
