// Matrix Market writer (contract in lib/mmio.hpp; the reader is lib/mmio.cpp).
// std::to_chars (shortest round-trip doubles, so a write then a read gives the
// same bits), buffered, gzip through zlib when the path ends in ".gz", through
// lib/atomic_file.hpp (temporary + rename) so a failed write leaves no file;
// or to a FILE* the caller opened (stdout), with the same code.
// Refuses (invalid_input) what the reader would refuse. O(entries).
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

#include "lib/atomic_file.hpp"
#include "lib/error.hpp"
#include "lib/mmio.hpp"

namespace matchblas {

namespace {

// Buffered output to an open FILE*, plain or gzip (through a dup of its
// descriptor); throws error naming `name`. finish() flushes everything to
// the FILE* but leaves it open.
class Sink {
 public:
  Sink(std::FILE* file, std::string name, bool gzip) : file_(file), name_(std::move(name)), buf_(std::size_t(1) << 20) {
    if (!gzip) return;
    std::fflush(file_);
    const int fd = ::dup(fileno(file_));
    gz_ = fd < 0 ? nullptr : gzdopen(fd, "wb");
    if (!gz_) {
      if (fd >= 0) ::close(fd);
      throw error("cannot write " + name_ + ": cannot start gzip stream");
    }
  }
  ~Sink() {
    if (gz_) gzclose(gz_);
  }
  // Room for n more bytes at the returned pointer; then commit with advance.
  char* room(std::size_t n) {
    if (used_ + n > buf_.size()) flush();
    return buf_.data() + used_;
  }
  void advance(char* to) { used_ = std::size_t(to - buf_.data()); }
  void put(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
      const std::size_t n = std::min(s.size() - i, buf_.size() / 2);
      char* w = room(n);
      std::memcpy(w, s.data() + i, n);
      advance(w + n);
      i += n;
    }
  }
  void finish() {
    flush();
    if (gz_) {
      const int rc = gzclose(gz_);
      gz_ = nullptr;
      if (rc != Z_OK) throw error("cannot write " + name_ + ": gzip error " + std::to_string(rc));
    }
    if (std::fflush(file_) != 0 || std::ferror(file_)) fail();
  }

 private:
  [[noreturn]] void fail() const { throw error("cannot write " + name_ + ": " + std::strerror(errno ? errno : EIO)); }

  void flush() {
    if (used_ == 0) return;
    if (gz_) {
      if (gzwrite(gz_, buf_.data(), unsigned(used_)) != int(used_)) {
        int code = 0;
        throw error("cannot write " + name_ + ": " + gzerror(gz_, &code));
      }
    } else if (std::fwrite(buf_.data(), 1, used_, file_) != used_) {
      fail();
    }
    used_ = 0;
  }

  std::FILE* file_;
  std::string name_;
  gzFile gz_ = nullptr;
  std::vector<char> buf_;
  std::size_t used_ = 0;
};

void check_writable(const std::string& path, const MmMatrix& m) {
  const MmHeader& h = m.header;
  auto expects = [&](bool ok, const std::string& why) {
    if (!ok) throw invalid_input("write_matrix_market(" + path + "): " + why);
  };
  expects(h.rows >= 0 && h.cols >= 0, "negative dimensions");
  expects(h.symmetry == MmSymmetry::general || h.rows == h.cols, "symmetric matrices must be square");
  expects(!(h.field == MmField::pattern && h.symmetry == MmSymmetry::skew_symmetric),
          "a pattern matrix cannot be skew-symmetric");
  if (h.format == MmFormat::coordinate) {
    expects(m.row.size() == m.col.size(), "row and col differ in length");
    expects(h.field == MmField::pattern ? m.val.empty() : m.val.size() == m.row.size(),
            h.field == MmField::pattern ? "a pattern matrix has no values" : "val and row differ in length");
    for (std::size_t k = 0; k < m.row.size(); ++k) {
      if (m.row[k] < 0 || m.row[k] >= h.rows || m.col[k] < 0 || m.col[k] >= h.cols)
        expects(false, "entry " + std::to_string(k) + " out of range");
      if (h.symmetry == MmSymmetry::skew_symmetric && m.row[k] == m.col[k])
        expects(false, "diagonal entry in a skew-symmetric matrix");
    }
    if (const std::optional<std::string> why = both_triangles_error(m)) expects(false, *why);
  } else {
    expects(h.field != MmField::pattern, "array format with pattern field");
    expects(m.row.empty() && m.col.empty(), "array matrices have no row/col");
    expects(m.val.size() == std::size_t(h.rows) * std::size_t(h.cols), "val must hold rows*cols values");
  }
  for (double v : m.val) {
    if (!std::isfinite(v)) expects(false, "NaN or infinite value");
    if (h.field == MmField::integer && (v != std::trunc(v) || std::fabs(v) >= 9.2e18))
      expects(false, "non-integer value in an integer matrix");
  }
}

// The whole file: banner, comments, size line, entries.
void write_body(Sink& out, const MmMatrix& m, const std::vector<std::string>& comment) {
  const MmHeader& h = m.header;
  out.put("%%MatrixMarket matrix " + to_string(h.format) + " " + to_string(h.field) + " " +
          to_string(h.symmetry) + "\n");
  for (const std::string& c : comment) {
    std::string line = "%";
    for (char ch : c) line += ch == '\n' ? std::string("\n%") : std::string(1, ch);
    out.put(line + "\n");
  }
  const bool coord = h.format == MmFormat::coordinate;
  std::string size_line = std::to_string(h.rows);
  size_line += ' ';
  size_line += std::to_string(h.cols);
  if (coord) {
    size_line += ' ';
    size_line += std::to_string(m.row.size());
  }
  size_line += '\n';
  out.put(size_line);
  auto put_value = [&](char* w, double v) {
    if (h.field == MmField::integer) return std::to_chars(w, w + 24, static_cast<long long>(v)).ptr;
    return std::to_chars(w, w + 32, v).ptr;
  };
  if (coord) {
    for (std::size_t k = 0; k < m.row.size(); ++k) {
      char* w = out.room(96);
      w = std::to_chars(w, w + 12, m.row[k] + 1).ptr;
      *w++ = ' ';
      w = std::to_chars(w, w + 12, m.col[k] + 1).ptr;
      if (h.field != MmField::pattern) {
        *w++ = ' ';
        w = put_value(w, m.val[k]);
      }
      *w++ = '\n';
      out.advance(w);
    }
  } else {
    const std::size_t nr = std::size_t(h.rows), nc = std::size_t(h.cols);
    for (std::size_t j = 0; j < nc; ++j) {  // column by column; the lower triangle unless general
      const std::size_t first = h.symmetry == MmSymmetry::general     ? 0
                                : h.symmetry == MmSymmetry::symmetric ? j
                                                                      : j + 1;
      for (std::size_t i = first; i < nr; ++i) {
        char* w = out.room(64);
        w = put_value(w, m.val[i * nc + j]);
        *w++ = '\n';
        out.advance(w);
      }
    }
  }
  out.finish();
}

}  // namespace

void write_matrix_market(const std::string& path, const MmMatrix& m, const std::vector<std::string>& comment) {
  check_writable(path, m);
  const bool gzip = path.size() >= 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
  AtomicFile file(path);
  {
    Sink out(file.get(), path, gzip);
    write_body(out, m, comment);
  }
  file.commit();
}

void write_matrix_market(std::FILE* file, const MmMatrix& m, const std::vector<std::string>& comment,
                         const std::string& name) {
  check_writable(name, m);
  Sink out(file, name, /*gzip=*/false);
  write_body(out, m, comment);
}

std::string to_string(MmFormat f) { return f == MmFormat::coordinate ? "coordinate" : "array"; }

std::string to_string(MmField f) {
  switch (f) {
    case MmField::real: return "real";
    case MmField::integer: return "integer";
    case MmField::pattern: return "pattern";
  }
  return "?";
}

std::string to_string(MmSymmetry s) {
  switch (s) {
    case MmSymmetry::general: return "general";
    case MmSymmetry::symmetric: return "symmetric";
    case MmSymmetry::skew_symmetric: return "skew-symmetric";
  }
  return "?";
}

}  // namespace matchblas
