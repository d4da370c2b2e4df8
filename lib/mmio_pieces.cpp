// Matrix Market reading in pieces (contract in lib/mmio.hpp): a plain
// file's layout (its header, where the entries begin) and piece `part` of
// `parts` of its entry lines (the lines whose first byte lies in the part-th
// of `parts` equal byte ranges), for the distributed reader, each MPI rank
// its own piece. The same Parser as a whole read (lib/mmio_parser.hpp), so
// the same errors, lines counted from the piece's first line.
// Cost: O(bytes of the piece) by pread, one chunk buffer, plus a look past
// each end of the range for the next line start.
#include "lib/mmio.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <string.h>  // memrchr
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "lib/error.hpp"
#include "lib/input_stream.hpp"
#include "lib/mmio_parser.hpp"

namespace matchblas {

using namespace mmio_detail;

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
