// Private to lib/mmio*.cpp: the Matrix Market text parser (banner, size
// line, entry lines; a whole file, or the entry lines of one piece) and the
// loop that feeds it a byte source through one chunk buffer. Complete lines
// are parsed in place with std::from_chars, the tail of a chunk moves to the
// front of the next. Not part of any interface (lib/mmio.hpp is).
#pragma once
#include <string.h>  // memrchr

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/error.hpp"
#include "lib/input_stream.hpp"
#include "lib/mmio.hpp"

namespace matchblas::mmio_detail {

inline constexpr std::size_t chunk_bytes = std::size_t(8) << 20;
inline constexpr std::size_t max_line_bytes = std::size_t(64) << 20;
inline constexpr offset_t unknown_size_reserve = offset_t(1) << 26;

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
inline bool is_delim(char c) { return is_blank(c) || c == '\n'; }

// The token starting at p (up to a delimiter), shortened and made printable
// for messages.
inline std::string token_at(const char* p) {
  const char* e = p;
  while (!is_delim(*e) && e - p < 40) ++e;
  return printable(std::string_view(p, std::size_t(e - p))) + (is_delim(*e) ? "" : "...");
}

inline bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

inline std::vector<std::string_view> split(std::string_view s) {
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
inline bool overflows(const char* p, const char* e) {
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
    else if (const std::optional<std::string> why = both_triangles_error(m_)) fail(0, *why);
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

}  // namespace matchblas::mmio_detail
